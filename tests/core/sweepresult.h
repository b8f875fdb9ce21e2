#pragma once

#include "core/analysis/experimentresult.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace synctax {

// A run of tiny_mlp (batch 4) that swept host work over 0, 5 and 15 ms, with the styles none, item
// and progress_bar: per host work the baseline, the A/A control and the two styles with hand-picked
// overheads, and the queue model's predictions when asked for (a CUDA run has them, a CPU run not).
// The files room's, the analysis room's and the app's tests read it.
struct SweepSample {
    int64_t hostWorkUs;
    Interval item;
    double itemPredicted;
    Interval progressBar;
    double progressBarPredicted;
};

inline const std::vector<SweepSample>& sweepSamples()
{
    static const std::vector<SweepSample> samples {
        { 0, { 0.5, 0.1, 0.9 }, 0.3, { 0.2, -0.3, 0.7 }, 0.0 },
        { 5000, { 12.0, 10.5, 13.4 }, 11.0, { 0.4, -0.1, 0.9 }, 0.2 },
        { 15000, { 3.2, 2.5, 3.9 }, 2.8, { 0.1, -0.2, 0.4 }, 0.1 },
    };
    return samples;
}

inline ExperimentResult sweepResult(bool predictions)
{
    ExperimentResult r;
    r.config.name = "sweep";
    r.config.device = "cpu";
    r.config.models = { ModelSpec { "tiny_mlp", 4, 512, 256, 10 } };
    r.config.styles = { { "none", 0 }, { "item", 0 }, { "progress_bar", 0 } };
    r.config.sweep = SweepSpec { { 0, 5000, 15000 }, {} };
    r.environment.device = "cpu";
    for (const SweepSample& s : sweepSamples()) {
        GroupResult g;
        g.model = "tiny_mlp";
        g.mode = "eager";
        g.hostWorkUs = s.hostWorkUs;
        g.batch = 4;
        g.rounds = 20;
        g.stopReason = "ci_target";
        r.groups.push_back(g);
        CellResult base;
        base.model = "tiny_mlp";
        base.mode = "eager";
        base.style = "none";
        base.hostWorkUs = s.hostWorkUs;
        base.batch = 4;
        base.stepsMeasured = 100;
        base.stepMs = { 1.0, 0.9, 1.2, 1.05 };
        CellResult aa = base;
        aa.style = "aa_control";
        aa.overheadPct = Interval { 0.0, -0.2, 0.2 };
        CellResult item = base;
        item.style = "item";
        item.overheadPct = s.item;
        CellResult bar = base;
        bar.style = "progress_bar";
        bar.overheadPct = s.progressBar;
        if (predictions) {
            item.prediction = Prediction { s.itemPredicted, "balanced" };
            bar.prediction = Prediction { s.progressBarPredicted, "balanced" };
        }
        r.cells.insert(r.cells.end(), { base, aa, item, bar });
        r.roundOrders.push_back(
            { { "tiny_mlp", "eager", s.hostWorkUs, 4 }, 0, { "item", "none", "aa_control", "progress_bar" } });
    }
    return r;
}

} // namespace synctax
