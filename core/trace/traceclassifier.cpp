#include "core/trace/traceclassifier.h"

namespace synctax {

namespace {

bool startsWith(std::string_view text, std::string_view prefix) { return text.substr(0, prefix.size()) == prefix; }

// The calls that put work on a stream: the GPU events they cause carry the same correlation id.
bool isLaunch(std::string_view name)
{
    return startsWith(name, "cudaLaunchKernel") || startsWith(name, "cuLaunchKernel") || name == "cudaMemcpyAsync"
        || name == "cudaMemsetAsync" || name == "cudaGraphLaunch";
}

// The calls in which the host waits for the GPU.
bool isSync(std::string_view name)
{
    return name == "cudaStreamSynchronize" || name == "cudaDeviceSynchronize" || name == "cudaEventSynchronize";
}

bool isStep(std::string_view name) { return startsWith(name, "ProfilerStep#"); }

TraceEventKind runtimeKind(std::string_view name)
{
    if (isLaunch(name))
        return TraceEventKind::Launch;
    if (isSync(name))
        return TraceEventKind::Sync;
    return TraceEventKind::Runtime;
}

} // namespace

std::optional<EventClass> classifyEvent(std::string_view cat, std::string_view name)
{
    if (cat == "cpu_op")
        return EventClass { isStep(name) ? TraceEventKind::Step : TraceEventKind::CpuOp, false };
    if (cat == "user_annotation")
        return EventClass { isStep(name) ? TraceEventKind::Step : TraceEventKind::Annotation, false };
    if (cat == "python_function")
        return EventClass { TraceEventKind::PythonFunction, false };
    if (cat == "cuda_runtime" || cat == "cuda_driver")
        return EventClass { runtimeKind(name), false };
    if (cat == "kernel")
        return EventClass { TraceEventKind::Kernel, false };
    if (cat == "gpu_memcpy")
        return EventClass { TraceEventKind::Memcpy, false };
    if (cat == "gpu_memset")
        return EventClass { TraceEventKind::Memset, false };
    if (cat == "cuda_sync")
        return EventClass { TraceEventKind::CudaSync, false };
    // The names of the 2021 traces (PyTorch 1.8 to 1.10).
    if (cat == "Operator")
        return EventClass { isStep(name) ? TraceEventKind::Step : TraceEventKind::CpuOp, true };
    if (cat == "Runtime")
        return EventClass { runtimeKind(name), true };
    if (cat == "Kernel")
        return EventClass { TraceEventKind::Kernel, true };
    if (cat == "Memcpy")
        return EventClass { TraceEventKind::Memcpy, true };
    if (cat == "Memset")
        return EventClass { TraceEventKind::Memset, true };
    return std::nullopt;
}

} // namespace synctax
