#pragma once

#include "core/trace/tracereport.h"

// A report as analyseTrace makes one of a two-step loop with one .item() per step, numbers by hand.
inline synctax::TraceReport sampleTraceReport()
{
    using namespace synctax;
    TraceReport r;
    r.source.file = "train.pt.trace.json.gz";
    r.source.cudaVersion = "13.0";
    r.source.device = "NVIDIA H200";
    r.source.rank = 1;
    r.source.worldSize = 2;
    r.stepsMarked = true;
    for (int i = 0; i < 2; ++i) {
        TraceStep s;
        s.name = "ProfilerStep#" + std::to_string(12 + i);
        s.startNs = 1000000 * i;
        s.endNs = s.startNs + 1000000;
        s.stepMs = 1.0;
        s.dispatchMs = 0.25;
        s.gpuBusyMs = 0.5;
        s.launches = 40;
        s.syncs = 1;
        s.syncWaitMs = 0.125;
        s.syncBubbleMs = 0.0625;
        s.queueMax = 7 + i;
        s.lagMs = 0.375;
        s.taxPct = 6.25;
        s.idleHostWaitMs = 0.25;
        s.idleOtherMs = 0.125;
        r.steps.push_back(s);
        TraceSync sync;
        sync.startNs = s.startNs + 900000;
        sync.endNs = sync.startNs + 125000;
        sync.waitMs = 0.125;
        sync.bubbleMs = 0.0625;
        sync.api = "cudaStreamSynchronize";
        sync.site = 0;
        sync.step = i;
        r.syncs.push_back(sync);
    }
    TraceSyncSite site;
    site.op = "aten::item";
    site.python = "train.py(87): <module>";
    site.count = 2;
    site.perStep = 1;
    site.waitMs = 0.125;
    site.bubbleMs = 0.0625;
    site.sharePct = 6.25;
    r.sites.push_back(site);
    r.queues.push_back({ 0, 7, {}, 8, 3.5 });
    r.regime = { 0.25, 0.5, 0.625, 1, "dispatch_bound", "Dispatch-bound: the host needs more than the GPU." };
    r.meanStepMs = 1.0;
    r.taxPct = 6.25;
    r.notes = { "a note from the reader" };
    return r;
}
