#pragma once

#include "core/queuemodel/launchsequence.h"
#include "core/trace/kinetotrace.h"
#include "core/trace/tracejoin.h"
#include "core/trace/tracereport.h"

#include <optional>
#include <vector>

namespace synctax {

// A recorded trace's steps as the queue model's launch sequences (core/queuemodel/launchsequence.h).

// One sequence per step of the report, ops in issue order; only launches joined to a GPU op (by
// correlation) are kept, since the others queue nothing.
std::vector<StepSequence> launchSequences(const KinetoTrace& trace, const TraceReport& report);
// The same over the trace's launches already joined to their GPU ops (core/trace/tracejoin.h).
std::vector<StepSequence> launchSequences(const KinetoTrace& trace, const TraceReport& report, const TraceJoin& join);

// The GPU's own time between two ops of one stream where the second was already queued (its launch
// had ended at least 5 µs before the first op did): the median over the trace's pairs, µs; nullopt
// where fewer than 20 such pairs. The ops' recorded durations leave it out, and a queued op waits
// for it: on the H200 about 1.4 µs between ResNet-50's kernels, 1 ms of its 33 ms step.
std::optional<double> queuedGpuGapUs(const KinetoTrace& trace, const TraceJoin& join);

// Where a training step's phases begin, as host offsets from the step's start (µs), found by the
// names PyTorch records for them; nullopt where the step has none. The forward is what comes before
// the backward (zero_grad and data included).
struct LoopPhaseBounds {
    // The backward's start: its Python frame (`torch/_tensor.py(N): backward`, with stacks) or the
    // autograd engine's first op (`autograd::engine::evaluate_function: …`), whichever is first.
    std::optional<double> backwardUs;
    std::optional<double> optimizerUs; // the first `Optimizer.step#…` annotation's start
    std::optional<double> optimizerEndUs; // the last one's end
    bool complete() const { return backwardUs && optimizerUs && optimizerEndUs && *backwardUs < *optimizerUs; }
};

// One per step of the report.
std::vector<LoopPhaseBounds> loopPhaseBounds(const KinetoTrace& trace, const TraceReport& report);

} // namespace synctax
