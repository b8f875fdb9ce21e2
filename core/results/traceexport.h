#pragma once

#include "core/analysis/experimentresult.h"
#include "core/steps/cellplan.h"
#include "core/steps/steprecord.h"

// The full header, not json_fwd.hpp: see core/files/resultsjson.h.
#include <nlohmann/json.hpp>

#include <functional>
#include <string>
#include <vector>

namespace synctax {

// A run's step records as Chrome Trace Event JSON (the "JSON Object Format"), which Perfetto
// (ui.perfetto.dev) and chrome://tracing open. One process, "synctax <device>", with threads:
//   blocks (tid 3): one slice per block of steps, named "model/mode/style";
//   host   (tid 1): one slice per step, from its start until its logging style returned;
//   gpu    (tid 2): one slice per step whose GPU completion was measured (CUDA), from when the GPU
//                   could start it (its start on the host, or the previous step's completion if
//                   later) to its completion;
// and counters "queue depth (steps)" and "lag (ms)" at each step's dispatch, where measured.
// ts and dur are microseconds from the start of the run. Records should be of one run; their
// order does not matter. Threads and counters without data are left out.
//
// Size: about 600 bytes per step on CUDA (host and GPU slices, two counters), 230 on the CPU. The
// caller passes the records it wants shown; synctax-run passes all of a run's: tens to hundreds of
// MB for a preset, which Perfetto opens but chrome://tracing may not.

inline constexpr int traceHostTid = 1;
inline constexpr int traceGpuTid = 2;
inline constexpr int traceBlocksTid = 3;
inline constexpr const char* traceQueueCounter = "queue depth (steps)";
inline constexpr const char* traceLagCounter = "lag (ms)";

// Calls `emit` once per trace event, metadata first, then in time order per thread. `result`
// (may be null) names the device and adds the environment to the trace's metadata.
void forEachTraceEvent(const std::vector<StepRecord>& records, const std::vector<CellPlan>& cells,
    const ExperimentResult* result, const std::function<void(const nlohmann::json&)>& emit);

// The whole trace in memory: for tests and small runs.
nlohmann::json chromeTrace(
    const std::vector<StepRecord>& records, const std::vector<CellPlan>& cells, const ExperimentResult* result);

// Streams the trace one event at a time, one event per line (a million steps would not fit in
// memory as one JSON document), through a temporary file and a rename, so a reader never sees half
// a file. Throws std::runtime_error when the file cannot be written.
void writeChromeTrace(const std::string& path, const std::vector<StepRecord>& records,
    const std::vector<CellPlan>& cells, const ExperimentResult* result);

} // namespace synctax
