// Styles that read values back with .item() or one host copy: each read waits for the queue.
#include "core/engine/styles/loggingstyle.h"

#include <torch/torch.h>

namespace synctax {

namespace {

class NoLogging : public LoggingStyle {
public:
    void afterStep(const StepOutput&, int64_t) override { }
};

class ItemEveryN : public LoggingStyle {
public:
    explicit ItemEveryN(ReadEvery every)
        : m_every(every)
    {
    }
    void afterStep(const StepOutput& out, int64_t step) override
    {
        if (m_every.after(step))
            m_lastValue = out.loss.item<float>();
    }

private:
    ReadEvery m_every;
};

class GpuAccumulate : public LoggingStyle {
public:
    void beginBlock() override { m_sum = torch::Tensor(); }
    void afterStep(const StepOutput& out, int64_t) override
    {
        if (m_sum.defined())
            m_sum.add_(out.loss.detach());
        else
            m_sum = out.loss.detach().clone();
    }
    void endBlock() override
    {
        if (m_sum.defined())
            m_lastValue = m_sum.item<float>();
    }

private:
    torch::Tensor m_sum;
};

// Four metrics a training loop commonly logs, computed on the device from one step's output: for a
// regression (a floating-point target) the mean absolute error and the largest output in place of
// accuracy and confidence.
std::vector<torch::Tensor> stepMetrics(const StepOutput& out)
{
    const auto logits = out.logits.detach();
    if (out.target.is_floating_point()) {
        return { out.loss.detach(), (logits.to(out.target.scalar_type()) - out.target).abs().mean(),
            logits.abs().amax(), logits.norm() };
    }
    return {
        out.loss.detach(),
        logits.argmax(1).eq(out.target).to(torch::kFloat).mean(),
        torch::softmax(logits, 1).amax(1).mean(),
        logits.norm(),
    };
}

class MetricsItemEach : public LoggingStyle {
public:
    explicit MetricsItemEach(ReadEvery every)
        : m_every(every)
    {
    }
    void afterStep(const StepOutput& out, int64_t step) override
    {
        if (!m_every.after(step))
            return;
        double sum = 0;
        for (const auto& m : stepMetrics(out))
            sum += m.item<float>();
        m_lastValue = sum;
    }

private:
    ReadEvery m_every;
};

class MetricsStacked : public LoggingStyle {
public:
    explicit MetricsStacked(ReadEvery every)
        : m_every(every)
    {
    }
    void afterStep(const StepOutput& out, int64_t step) override
    {
        if (!m_every.after(step))
            return;
        const auto host = torch::stack(stepMetrics(out)).to(torch::kCPU);
        const auto values = host.accessor<float, 1>();
        double sum = 0;
        for (int64_t i = 0; i < values.size(0); ++i)
            sum += values[i];
        m_lastValue = sum;
    }

private:
    ReadEvery m_every;
};

} // namespace

std::unique_ptr<LoggingStyle> makeSyncStyle(
    StyleBehaviour behaviour, ReadCadence cadence, ReadEvery every, const StyleContext&)
{
    const bool periodic = every.n > 0;
    switch (behaviour) {
    case StyleBehaviour::Nothing:
        return cadence == ReadCadence::Never ? std::make_unique<NoLogging>() : nullptr;
    case StyleBehaviour::ReadLoss:
        return periodic ? std::make_unique<ItemEveryN>(every) : nullptr;
    case StyleBehaviour::AccumulateLoss:
        return cadence == ReadCadence::BlockEnd ? std::make_unique<GpuAccumulate>() : nullptr;
    case StyleBehaviour::ReadMetricsEach:
        return periodic ? std::make_unique<MetricsItemEach>(every) : nullptr;
    case StyleBehaviour::ReadMetricsStacked:
        return periodic ? std::make_unique<MetricsStacked>(every) : nullptr;
    default:
        return nullptr;
    }
}

} // namespace synctax
