#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace synctax {

// When a style reads a value back from the device, which makes the host wait for the queue.
enum class ReadCadence {
    Never, // no blocking read (deferred_async waits only when its ring of pending copies is full)
    EveryStep,
    EveryN, // every n-th step of a block; the style takes n
    BlockEnd, // once, after the block's last step (before its closing synchronize)
};

// What the style does on the host, implemented once in core/styles/ (the engine) and combined there
// with the cadence: a new style that pairs an existing behaviour with a cadence needs no new code.
enum class StyleBehaviour {
    Nothing, // syncstyles.cpp: the baseline
    ReadLoss, // syncstyles.cpp: loss.item() at each read
    AccumulateLoss, // syncstyles.cpp: loss_sum += loss.detach() every step; loss_sum.item() at each read
    ReadMetricsEach, // syncstyles.cpp: four metrics, each .item()'d, at each read
    ReadMetricsStacked, // syncstyles.cpp: the four metrics stacked and copied to the host in one transfer
    ProgressBar, // progressstyles.cpp: a bar updated every step; set_postfix(loss=loss.item()) at each read
    PrintLoss, // writestyles.cpp: loss.item() printed to the sink at each read
    WriteScalar, // writestyles.cpp: loss.item() appended to a scalar log file and flushed at each read
    DeferredCopy, // deferredstyle.cpp: non-blocking copy into pinned memory, read when complete
};

// The host time a style spends every step, in the queue model's units (core/queuemodel/simulator.h).
enum class HostWork {
    None,
    BarUpdate, // QueueModel::formatUs: a bar that redraws at most every 0.1 s
    Redraw, // QueueModel::redrawUs: a forced redraw or a printed line
};

// The host time of a style's per-step work in a queue model's units: formatUs for a bar update,
// redrawUs for a forced redraw or a printed line, nothing otherwise.
double hostWorkCostUs(HostWork work, double formatUs, double redrawUs);

// What the queue simulator charges a style, beyond the syncs its cadence places.
struct SimulatedCost {
    int roundTripsPerRead = 0; // metrics_item_each reads four scalars one after another
    int extraLaunches = 0; // small kernels per step: an accumulate, a copy, the metrics
    HostWork hostWork = HostWork::None; // every step; a postfix every n steps is left out
};

// A logging style, named as in configs and results: everything the config, the engine, the
// simulator and the UI need to know about it, described once in styleCatalog().
struct StyleInfo {
    std::string name;
    std::string summary; // one line: what the style does per step (the UI's tooltip)
    int defaultN = 0; // 0 when the style has no interval
    ReadCadence cadence = ReadCadence::Never;
    StyleBehaviour behaviour = StyleBehaviour::Nothing;
    SimulatedCost cost;

    bool takesN() const { return cadence == ReadCadence::EveryN; }
};

const std::vector<StyleInfo>& styleCatalog();
const StyleInfo* findStyle(const std::string& name); // nullptr for a name outside the catalog
std::vector<std::string> styleNames();

// Whether the style makes the host wait for the GPU right after `step` (0-based within a block),
// following its cadence: a BlockEnd read counts as after the block's last step. The baseline's own
// end-of-block synchronize is not counted; a style outside the catalog never waits.
bool syncsAfterStep(const struct StyleSpec& spec, int64_t step, int64_t stepsPerBlock);
bool syncsAfterStep(const StyleInfo& style, int64_t n, int64_t step, int64_t stepsPerBlock);

// The baseline every overhead is measured against.
inline const char* baselineStyle() { return "none"; }

// The baseline's second copy in every round, compared with the first like any style: an A/A test
// whose interval is the noise floor. Added by the runner, never listed in configs.
inline const char* aaControlStyle() { return "aa_control"; }

// The baseline without per-step CUDA events, added with observer_control: its overhead against
// the baseline is (minus) the cost of the instrumentation itself.
inline const char* observerControlStyle() { return "none_no_events"; }

// A control runs the baseline under another name (aa_control, none_no_events): it logs nothing.
inline bool isControlStyle(const std::string& style)
{
    return style == aaControlStyle() || style == observerControlStyle();
}

} // namespace synctax
