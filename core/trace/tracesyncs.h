#pragma once

#include "core/trace/kinetotrace.h"
#include "core/trace/tracejoin.h"
#include "core/trace/tracereport.h"

#include <optional>
#include <string>
#include <vector>

namespace synctax {

// A sync with what caused it, before it is placed in a step and a site.
struct FoundSync {
    TraceSync sync;
    std::string op; // the causing op, or the call itself when no op encloses it
    std::optional<std::string> python; // the innermost enclosing user frame
    std::int64_t device = -1; // the GPU it waited for; -1: unknown (every device counts)
};

// "train.py(87): <module>" is a user's line; "torch/nn/modules/module.py(1783): _call_impl",
// "<built-in method item of Tensor object at 0x...>" and site-packages frames are not.
bool isUserPythonFrame(const std::string& name);

// The user-facing name of a sync from its enclosing cpu_op chain, outermost first: the outermost
// op a user calls that syncs (aten::item over aten::_local_scalar_dense, aten::to over
// aten::_to_copy and aten::copy_), else the innermost op; `api` alone when no op encloses it
// (cudaDeviceSynchronize is then torch.cuda.synchronize). `chosen` gets the chosen op's position.
std::string causingOp(const std::vector<std::string>& chain, const std::string& api, int* chosen = nullptr);

// Every host call that blocks until the GPU is done: sync calls, cudaMemcpyAsync into pageable
// memory (DtoH), and driver-API syncs that CUPTI recorded as cuda_sync. The calls under one
// causing op make one sync whose wait is the sum of the calls. Each sync's bubble is measured too.
std::vector<FoundSync> findSyncs(const KinetoTrace& trace, const TraceJoin& join);

} // namespace synctax
