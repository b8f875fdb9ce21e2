// tqdm-like progress bars: drawing costs host time; a postfix from .item() also costs a sync.
#include "core/engine/gpu/hostclock.h"
#include "core/engine/styles/loggingstyle.h"
#include "core/engine/styles/progressbar.h"

#include <torch/torch.h>

#include <cstdio>

namespace synctax {

namespace {

class ProgressBarStyle : public LoggingStyle {
public:
    // the postfix at the style's reads: none, every step, or every n steps
    ProgressBarStyle(const StyleContext& context, ReadEvery postfixEvery)
        : m_bar(context.sink, context.stepsPerBlock)
        , m_postfixEvery(postfixEvery)
    {
    }

    void beginBlock() override { m_bar.start(steadyNowS()); }

    void afterStep(const StepOutput& out, int64_t step) override
    {
        m_bar.update(step + 1, steadyNowS());
        if (m_postfixEvery.after(step)) {
            m_lastValue = out.loss.item<float>();
            char postfix[48];
            std::snprintf(postfix, sizeof postfix, "loss=%.4f", m_lastValue);
            m_bar.setPostfix(postfix, steadyNowS());
        }
    }

    void endBlock() override { m_bar.close(steadyNowS()); }

private:
    ProgressBar m_bar;
    ReadEvery m_postfixEvery;
};

} // namespace

std::unique_ptr<LoggingStyle> makeProgressStyle(
    StyleBehaviour behaviour, ReadCadence cadence, ReadEvery every, const StyleContext& context)
{
    // A postfix at the block's end only is not a bar anyone draws.
    if (behaviour != StyleBehaviour::ProgressBar || cadence == ReadCadence::BlockEnd)
        return nullptr;
    return std::make_unique<ProgressBarStyle>(context, every);
}

} // namespace synctax
