// Styles that read values back with .item() or one host copy: each read waits for the queue.
#include "core/styles/loggingstyle.h"

#include <torch/torch.h>

namespace synctax {

namespace {

class NoLogging : public LoggingStyle {
public:
    void afterStep(const StepOutput&, int64_t) override { }
};

class ItemEveryN : public LoggingStyle {
public:
    explicit ItemEveryN(int64_t n)
        : m_n(n)
    {
    }
    void afterStep(const StepOutput& out, int64_t step) override
    {
        if ((step + 1) % m_n == 0)
            m_lastValue = out.loss.item<float>();
    }

private:
    int64_t m_n;
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

// Four metrics a training loop commonly logs, computed on the device from one step's output.
std::vector<torch::Tensor> stepMetrics(const StepOutput& out)
{
    const auto logits = out.logits.detach();
    return {
        out.loss.detach(),
        logits.argmax(1).eq(out.target).to(torch::kFloat).mean(),
        torch::softmax(logits, 1).amax(1).mean(),
        logits.norm(),
    };
}

class MetricsItemEach : public LoggingStyle {
public:
    void afterStep(const StepOutput& out, int64_t) override
    {
        double sum = 0;
        for (const auto& m : stepMetrics(out))
            sum += m.item<float>();
        m_lastValue = sum;
    }
};

class MetricsStacked : public LoggingStyle {
public:
    void afterStep(const StepOutput& out, int64_t) override
    {
        const auto host = torch::stack(stepMetrics(out)).to(torch::kCPU);
        const auto values = host.accessor<float, 1>();
        double sum = 0;
        for (int64_t i = 0; i < values.size(0); ++i)
            sum += values[i];
        m_lastValue = sum;
    }
};

} // namespace

std::unique_ptr<LoggingStyle> makeSyncStyle(const StyleSpec& spec, const StyleContext&)
{
    if (spec.name == "none")
        return std::make_unique<NoLogging>();
    if (spec.name == "item")
        return std::make_unique<ItemEveryN>(1);
    if (spec.name == "item_every_n")
        return std::make_unique<ItemEveryN>(spec.n > 0 ? spec.n : 10);
    if (spec.name == "gpu_accumulate")
        return std::make_unique<GpuAccumulate>();
    if (spec.name == "metrics_item_each")
        return std::make_unique<MetricsItemEach>();
    if (spec.name == "metrics_stacked")
        return std::make_unique<MetricsStacked>();
    return nullptr;
}

} // namespace synctax
