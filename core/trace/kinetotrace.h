#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace synctax {

// What one Kineto event is to SyncTax. Events of other categories (ac2g and fwdbwd flows,
// metadata, counters, cuda_profiler_range, ...) are counted and skipped while reading.
enum class TraceEventKind : std::uint8_t {
    CpuOp, // cat cpu_op (2021: Operator): an aten op, nested by time on its thread
    PythonFunction, // cat python_function: a Python frame; present when recorded with_stack=True
    Annotation, // cat user_annotation (record_function), except the step markers
    Step, // a CPU-side ProfilerStep#N annotation (the copy on a GPU row is skipped)
    Launch, // cuda_runtime / cuda_driver (2021: Runtime): cudaLaunchKernel*, cuLaunchKernel*,
            // cudaMemcpyAsync, cudaMemsetAsync, cudaGraphLaunch
    Sync, // cuda_runtime: cudaStreamSynchronize, cudaDeviceSynchronize, cudaEventSynchronize
    Runtime, // any other cuda_runtime / cuda_driver call (cudaMalloc, cudaEventRecord, ...)
    Kernel, // cat kernel (2021: Kernel)
    Memcpy, // cat gpu_memcpy; its name says the direction and memory ("Memcpy DtoH (Device -> Pageable)")
    Memset, // cat gpu_memset
    CudaSync, // cat cuda_sync: CUPTI's record of a synchronization, when the trace has them
};

bool isGpuKind(TraceEventKind kind); // on a GPU lane: isGpuWork, and CudaSync
bool isGpuWork(TraceEventKind kind); // occupies a stream: Kernel, Memcpy, Memset

// The trace's nanoseconds as the milliseconds its reports speak in.
inline double nsToMs(std::int64_t ns) { return double(ns) * 1e-6; }

// A host thread (pid, tid) or a GPU stream (device, stream). GPU work is placed by args.device
// and args.stream, never by tid.
struct TraceLane {
    bool gpu = false;
    std::int64_t pid = 0; // host: the process id; GPU: the device index
    std::int64_t tid = 0; // host: the thread id; GPU: the stream
    std::string label; // "thread 471" / "GPU 0 stream 7", or the thread_name metadata when present
};

// 40 bytes: a 500 MB trace holds about two million of these.
struct TraceEvent {
    std::int64_t startNs = 0; // absolute: nanoseconds since the Unix epoch where the trace says so
    std::int64_t durationNs = 0;
    std::int64_t correlation = -1; // args.correlation on launches and GPU work; -1 when absent
    std::uint32_t name = 0; // index into KinetoTrace::names
    std::uint32_t lane = 0; // index into KinetoTrace::lanes
    TraceEventKind kind = TraceEventKind::CpuOp;
    std::uint32_t fileIndex = 0; // its place in traceEvents: HTA's row order (fits the padding)

    std::int64_t endNs() const { return startNs + durationNs; }
};

struct TraceInfo {
    std::string file;
    int schemaVersion = -1; // -1: no schemaVersion key
    std::optional<std::int64_t> baseTimeNs; // baseTimeNanoseconds, when the trace has it
    std::vector<std::string> devices; // deviceProperties[i].name, in id order
    std::optional<std::int64_t> cudaRuntimeVersion; // cuda_runtime_version (13000 = CUDA 13.0)
    std::optional<std::int64_t> cudaDriverVersion;
    std::optional<std::string> torchVersion; // only when the trace names it; Kineto usually does not
    std::optional<std::int64_t> rank; // distributedInfo.rank
    std::optional<std::int64_t> worldSize; // distributedInfo.world_size
    std::string distributedBackend; // distributedInfo.backend ("nccl", "gloo"); empty when absent
    bool withStack = false; // the trace's with_stack key, or python_function events were found
    bool legacyCategories = false; // 2021 names (Operator, Runtime, Kernel) were read
    // The latest start of a gpu_user_annotation ProfilerStep#N (not kept as an event): HTA counts
    // these among the steps when it drops the last one.
    std::optional<std::int64_t> lastGpuStepStartNs;
};

// A Kineto trace as SyncTax keeps it: only the events it analyses, with interned names, sorted by
// start time (an enclosing event before the events it contains).
struct KinetoTrace {
    TraceInfo info;
    std::vector<std::string> names;
    std::vector<TraceLane> lanes;
    std::vector<TraceEvent> events;
    std::uint64_t eventsInFile = 0; // every element of traceEvents, kept or skipped
    std::vector<std::string> notes; // what the reader skipped or could not place, in words
};

} // namespace synctax
