#pragma once

#include "core/analysis/experimentresult.h"
#include "core/config/experimentconfig.h"

#include <optional>
#include <string>
#include <vector>

namespace synctax {

class Sink;
class StepExecutor;

struct CaptureRequest {
    std::string label; // "resnet50/eager": names the kept trace file
    std::string keepDir; // where the Kineto trace is kept; empty: a temporary file, removed after
    std::vector<StyleSpec> styles; // whose costs are measured on an idle GPU
    Sink* sink = nullptr; // for the styles that print
    int64_t stepsPerBlock = 0;
    double gMs = 0; // the group's unprofiled G (core/engine/run/regimeprobe.h)
    double hostWorkUs = 0;
    double syncUs = 8; // the group's measured L
};

// Whether this build can capture a step with the PyTorch profiler (CUDA and LibTorch 2 or newer).
bool launchCaptureAvailable();

// Captures a few steps of the executor with Kineto (no host work, no logging), reads the trace back
// with core/trace/kinetoreader.h, keeps the median step, and calibrates it to the unprofiled host
// time of one step from an idle GPU and to G; measures that step's drain (drainMs: until its GPU work
// is done, after the group's host work as its loop does it) and every style's own cost on an idle GPU.
// Returns nullopt with `reason` set where it cannot (no CUDA, no Kineto, a trace without launches).
std::optional<CapturedReplay> captureLaunchSequence(
    StepExecutor& executor, const CaptureRequest& request, std::string& reason);

} // namespace synctax
