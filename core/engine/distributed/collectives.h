#pragma once

#include "core/config/experimentconfig.h"

#include <torch/types.h>

#include <memory>
#include <string>

namespace synctax {

// One collective under way; wait() blocks the host until it is done (or throws its error).
class CollectiveWork {
public:
    virtual ~CollectiveWork() = default;
    virtual void wait() = 0;
};

// The ranks of a data-parallel run as one group: this rank's view of a c10d process group. Every
// rank must call the same collectives in the same order.
class Collectives {
public:
    virtual ~Collectives() = default;
    virtual int rank() const = 0;
    virtual int size() const = 0;
    // Starts summing `tensor` over the ranks, in place; returns at once.
    virtual std::unique_ptr<CollectiveWork> allReduceSum(torch::Tensor& tensor) = 0;
    // Rank `root`'s `tensor` into every rank's, in place; returns once done.
    virtual void broadcast(torch::Tensor& tensor, int root) = 0;
    // Whether any rank passed true; a collective, so it also keeps the ranks in step.
    bool anyRank(bool mine);

protected:
    // Where this group's own small tensors live: NCCL reduces CUDA tensors only.
    virtual torch::Device flagDevice() const = 0;
};

// Joins the group of `size` ranks that meet at `rendezvous` (a c10d FileStore's path, the same on
// every rank) over `backend`; every collective fails after `timeoutS`, joining after a minute at
// least. `device` is the rank's (nccl: its own CUDA device). Throws std::runtime_error with a plain
// reason (nccl in a build without it, a peer that never came).
std::unique_ptr<Collectives> joinRanks(CollectiveBackend backend, const std::string& rendezvous, int rank, int size,
    double timeoutS, const std::string& device = "cpu");

} // namespace synctax
