#pragma once

#include <torch/types.h>

#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

namespace synctax {

class Collectives;
class CollectiveWork;

// The gradient exchange of data-parallel training as PyTorch's DDP does it: the parameters in
// reverse order (backward produces the last layers' gradients first), packed into buckets of at
// most `capBytes`; a hook on each parameter copies its gradient into its bucket, and a bucket's
// all-reduce starts as soon as its last gradient is in, while backward goes on with the layers
// before. Buckets start in order on every rank (c10d matches collectives by order). finish()
// waits for all of them, averages over the ranks and writes each parameter's .grad.
class GradientBuckets {
public:
    static constexpr int64_t defaultCapBytes = 25 * 1024 * 1024;

    GradientBuckets(
        std::vector<torch::Tensor> parameters, Collectives& collectives, int64_t capBytes = defaultCapBytes);
    ~GradientBuckets();

    // Once backward has run: starts the buckets no hook started (parameters without a gradient
    // count as zero), waits for every bucket and writes the averages. Returns the host time blocked
    // in the waits, in ms.
    double finish();
    size_t bucketCount() const { return m_buckets.size(); }

private:
    struct Bucket {
        torch::Tensor flat;
        std::vector<size_t> members; // indices into m_parameters
        size_t ready = 0;
        std::unique_ptr<CollectiveWork> work;
    };

    void gradientReady(size_t parameter, const torch::Tensor& grad);
    void startReadyBuckets();

    std::vector<torch::Tensor> m_parameters;
    Collectives& m_collectives;
    std::vector<Bucket> m_buckets;
    std::vector<size_t> m_bucketOf; // per parameter
    std::vector<int64_t> m_offsetOf; // per parameter, into its bucket
    std::vector<bool> m_arrived; // per parameter, this step
    std::vector<unsigned> m_hooks; // per parameter, removed with the buckets
    size_t m_nextToStart = 0;
    // Autograd may run hooks on its device threads (CUDA) while the caller waits.
    std::mutex m_mutex;
};

} // namespace synctax
