// Sync-free logging: the loss is copied into pinned host memory without blocking, and read once
// the copy is known to be complete — never waiting for the queue while it is deep.
#include "core/engine/styles/loggingstyle.h"

#include <torch/torch.h>

#include <array>
#include <deque>

#ifdef SYNCTAX_HAVE_CUDA
#include <ATen/cuda/CUDAEvent.h>
#include <c10/cuda/CUDAStream.h>
#endif

namespace synctax {

namespace {

// On the CPU there is no queue: the loss of the previous step is complete, so read it then.
class DeferredOnHost : public LoggingStyle {
public:
    void beginBlock() override { m_previous = torch::Tensor(); }
    void afterStep(const StepOutput& out, int64_t) override
    {
        if (m_previous.defined())
            m_lastValue = m_previous.item<float>();
        m_previous = out.loss.detach().clone();
    }

private:
    torch::Tensor m_previous;
};

#ifdef SYNCTAX_HAVE_CUDA

class DeferredOnCuda : public LoggingStyle {
public:
    explicit DeferredOnCuda(torch::Device device)
        : m_device(device)
    {
        const auto pinned = torch::TensorOptions().dtype(torch::kFloat).pinned_memory(true);
        for (auto& slot : m_slots)
            slot.value = torch::empty({}, pinned);
    }

    void afterStep(const StepOutput& out, int64_t) override
    {
        consumeReady();
        if (m_pending.size() == m_slots.size())
            consumeOldest(); // the device is a whole ring behind: wait for one slot rather than drop it
        Slot& slot = m_slots[m_next++ % m_slots.size()];
        slot.value.copy_(out.loss.detach(), /*non_blocking=*/true);
        slot.done.record(c10::cuda::getCurrentCUDAStream(m_device.index()));
        m_pending.push_back(&slot);
    }

    void endBlock() override
    {
        while (!m_pending.empty())
            consumeOldest();
    }

private:
    struct Slot {
        torch::Tensor value;
        at::cuda::CUDAEvent done;
    };

    void consumeReady()
    {
        while (!m_pending.empty() && m_pending.front()->done.query())
            consumeOldest();
    }

    void consumeOldest()
    {
        Slot* slot = m_pending.front();
        m_pending.pop_front();
        slot->done.synchronize();
        m_lastValue = *slot->value.data_ptr<float>();
    }

    torch::Device m_device;
    std::array<Slot, 64> m_slots;
    std::deque<Slot*> m_pending;
    size_t m_next = 0;
};

#endif

} // namespace

std::unique_ptr<LoggingStyle> makeDeferredStyle(
    StyleBehaviour behaviour, ReadCadence cadence, ReadEvery, [[maybe_unused]] const StyleContext& context)
{
    // It never waits by design: reading it at a cadence would make it another .item().
    if (behaviour != StyleBehaviour::DeferredCopy || cadence != ReadCadence::Never)
        return nullptr;
#ifdef SYNCTAX_HAVE_CUDA
    if (context.device.is_cuda())
        return std::make_unique<DeferredOnCuda>(context.device);
#endif
    return std::make_unique<DeferredOnHost>();
}

} // namespace synctax
