#pragma once

#include "core/analysis/experimentresult.h"

#include <cmath>

namespace synctax {

// A small result of three cells (the baseline, item with an interval, a failed cell) that the
// files room's tests write and read.
inline ExperimentResult sampleResult()
{
    ExperimentResult r;
    r.config.name = "sample";
    r.config.models = { ModelSpec { "tiny_mlp", 256, 512, 256, 10 } };
    r.config.styles = { { "none", 0 }, { "item", 0 } };
    r.environment.device = "cpu";
    CellResult base;
    base.model = "tiny_mlp";
    base.mode = "eager";
    base.style = "none";
    base.stepsMeasured = 100;
    base.stepMs = { 1.0, 0.9, 1.2, 1.05 };
    CellResult item = base;
    item.style = "item";
    item.overheadPct = Interval { 1.44, 0.91, 1.96 };
    item.naiveBestOfPct = 3.0;
    CellResult failed = base;
    failed.style = "print_every_step";
    failed.ok = false;
    failed.error = "CUDA out of memory, \"really\"";
    failed.stepsMeasured = 0;
    failed.stepMs.median = NAN;
    r.cells = { base, item, failed };
    return r;
}

} // namespace synctax
