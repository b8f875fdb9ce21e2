// tqdm-like progress bars: drawing costs host time; a postfix from .item() also costs a sync.
#include "core/gpu/hostclock.h"
#include "core/styles/loggingstyle.h"
#include "core/styles/progressbar.h"

#include <torch/torch.h>

#include <cstdio>

namespace synctax {

namespace {

class ProgressBarStyle : public LoggingStyle {
public:
    // postfixEvery: 0 for no postfix, 1 for every step, n for every n steps
    ProgressBarStyle(const StyleContext& context, int64_t postfixEvery)
        : m_bar(context.sink, context.stepsPerBlock)
        , m_postfixEvery(postfixEvery)
    {
    }

    void beginBlock() override { m_bar.start(steadyNowS()); }

    void afterStep(const StepOutput& out, int64_t step) override
    {
        m_bar.update(step + 1, steadyNowS());
        if (m_postfixEvery > 0 && (step + 1) % m_postfixEvery == 0) {
            m_lastValue = out.loss.item<float>();
            char postfix[48];
            std::snprintf(postfix, sizeof postfix, "loss=%.4f", m_lastValue);
            m_bar.setPostfix(postfix, steadyNowS());
        }
    }

    void endBlock() override { m_bar.close(steadyNowS()); }

private:
    ProgressBar m_bar;
    int64_t m_postfixEvery;
};

} // namespace

std::unique_ptr<LoggingStyle> makeProgressStyle(const StyleSpec& spec, const StyleContext& context)
{
    if (spec.name == "progress_bar")
        return std::make_unique<ProgressBarStyle>(context, 0);
    if (spec.name == "progress_bar_postfix")
        return std::make_unique<ProgressBarStyle>(context, 1);
    if (spec.name == "progress_bar_postfix_every_n")
        return std::make_unique<ProgressBarStyle>(context, spec.n > 0 ? spec.n : 50);
    return nullptr;
}

} // namespace synctax
