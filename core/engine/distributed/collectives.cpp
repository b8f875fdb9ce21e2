#include "core/engine/distributed/collectives.h"

#include <torch/csrc/distributed/c10d/FileStore.hpp>
#include <torch/csrc/distributed/c10d/PrefixStore.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#ifdef SYNCTAX_HAVE_NCCL
#include <torch/csrc/distributed/c10d/ProcessGroupNCCL.hpp>
#endif
#include <torch/torch.h>
#include <torch/version.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <stdexcept>

namespace synctax {

namespace {

// LibTorch 2.x split the process group: each backend (ProcessGroupGloo, ProcessGroupNCCL) derives
// from c10d::Backend; in 1.13 they derive from c10d::ProcessGroup. The collectives used here are
// declared alike in both.
#if TORCH_VERSION_MAJOR >= 2
using BackendBase = c10d::Backend;
#else
using BackendBase = c10d::ProcessGroup;
#endif

class C10dWork : public CollectiveWork {
public:
    explicit C10dWork(c10::intrusive_ptr<c10d::Work> work)
        : m_work(std::move(work))
    {
    }
    void wait() override { m_work->wait(); }

private:
    c10::intrusive_ptr<c10d::Work> m_work;
};

class C10dCollectives : public Collectives {
public:
    C10dCollectives(c10::intrusive_ptr<BackendBase> group, int rank, int size, torch::Device flagDevice)
        : m_group(std::move(group))
        , m_rank(rank)
        , m_size(size)
        , m_flagDevice(flagDevice)
    {
    }
    int rank() const override { return m_rank; }
    int size() const override { return m_size; }

    std::unique_ptr<CollectiveWork> allReduceSum(torch::Tensor& tensor) override
    {
        std::vector<at::Tensor> tensors { tensor };
        return std::make_unique<C10dWork>(m_group->allreduce(tensors));
    }

    void broadcast(torch::Tensor& tensor, int root) override
    {
        std::vector<at::Tensor> tensors { tensor };
        c10d::BroadcastOptions options;
        options.rootRank = root;
        m_group->broadcast(tensors, options)->wait();
    }

protected:
    torch::Device flagDevice() const override { return m_flagDevice; }

private:
    c10::intrusive_ptr<BackendBase> m_group;
    int m_rank;
    int m_size;
    torch::Device m_flagDevice;
};

} // namespace

bool Collectives::anyRank(bool mine)
{
    torch::Tensor flag = torch::full({ 1 }, mine ? 1.0F : 0.0F, torch::TensorOptions().device(flagDevice()));
    allReduceSum(flag)->wait();
    return flag.item<float>() > 0.5F;
}

std::unique_ptr<Collectives> joinRanks(CollectiveBackend backend, const std::string& rendezvous, int rank, int size,
    double timeoutS, const std::string& device)
{
    const auto timeout = std::chrono::milliseconds(int64_t(timeoutS * 1000));
    // A rank that writes to the socket of a rank that died gets SIGPIPE, which would kill it before
    // it writes what it measured; ignored, the write fails and the collective throws (as under Python,
    // which ignores SIGPIPE too). A rank's stdout and stderr go to files, so nothing else needs it.
    std::signal(SIGPIPE, SIG_IGN);
    auto fileStore = c10::make_intrusive<c10d::FileStore>(rendezvous, size);
    // Joining waits for the slowest rank to start (loading LibTorch takes seconds on a loaded
    // machine), so it gets at least a minute; the launcher ends a run whose rank died before then.
    fileStore->setTimeout(std::max(timeout, std::chrono::milliseconds(60'000)));
    const auto store = c10::make_intrusive<c10d::PrefixStore>(toString(backend), fileStore);
    if (backend == CollectiveBackend::Gloo) {
        auto options = c10d::ProcessGroupGloo::Options::create(timeout);
        // Every rank runs on this host: the loopback interface, whatever the host name resolves to.
        options->devices.push_back(c10d::ProcessGroupGloo::createDeviceForHostname("127.0.0.1"));
        auto group = c10::make_intrusive<c10d::ProcessGroupGloo>(store, rank, size, options);
        // Gloo reduces host tensors (and CUDA ones through a host copy): its flags stay on the host.
        return std::make_unique<C10dCollectives>(std::move(group), rank, size, torch::Device(torch::kCPU));
    }
#ifdef SYNCTAX_HAVE_NCCL
    auto options = c10d::ProcessGroupNCCL::Options::create();
    options->timeout = timeout;
    auto group = c10::make_intrusive<c10d::ProcessGroupNCCL>(store, rank, size, options);
    return std::make_unique<C10dCollectives>(std::move(group), rank, size, torch::Device(device));
#else
    (void)device;
    throw std::runtime_error("distributed backend nccl: this build has no NCCL (LibTorch without CUDA, or "
                             "ProcessGroupNCCL.hpp or nccl.h not found when it was configured); use backend gloo");
#endif
}

} // namespace synctax
