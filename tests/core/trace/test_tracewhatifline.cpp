// The what-if's loop without one line's syncs (ImportedLoopOptions::withoutLine), what --ab defer
// measures by deferring them: on a real loop whose every sync is at one line it is the loop without
// its syncs; on a step with syncs at two lines, taking one out keeps the other; a line with no sync
// there, and a capture without Python frames, say why there is none.
#include "core/trace/kinetoreader.h"
#include "core/trace/traceanalysis.h"
#include "core/trace/tracewhatif.h"

#include <gtest/gtest.h>

#include <string>

using namespace synctax;

namespace {

const std::string kDir = SYNCTAX_TEST_DATA "/traces/torch-2.11-h200";

const WhatIfRow* row(const WhatIf& w, const std::string& style)
{
    for (const WhatIfRow& r : w.rows) {
        if (r.style == style)
            return &r;
    }
    return nullptr;
}

ImportedLoop loopOf(const std::string& file, ImportedLoopOptions options = {})
{
    const TraceReadResult read = readKinetoTrace(kDir + "/" + file);
    EXPECT_TRUE(read.trace) << file;
    if (!read.trace)
        return {};
    return importedLoop(*read.trace, analyseTrace(*read.trace), options);
}

// A step of 40 launches, 20 us of host each and 60 us of GPU work, with a read after the 10th
// launch at /work/train.py:10 and one at the step's end at /work/train.py:20.
ImportedLoop twoLineLoop()
{
    ImportedLoop loop;
    loop.available = true;
    StepSequence& step = loop.profiled;
    double at = 0;
    for (int i = 0; i < 40; ++i) {
        if (i == 10) {
            step.syncAtUs.push_back(at);
            at += 400; // the recorded wait for the queued work
            step.syncEndUs.push_back(at);
        }
        step.ops.push_back({ at, 5, 60, 7 });
        at += 20;
    }
    step.syncAtUs.push_back(at);
    at += 600;
    step.syncEndUs.push_back(at);
    step.stepHostUs = at + 10;
    loop.profiledSyncFrames = { "/work/train.py(10): step", "/work/train.py(20): <module>" };
    ImportedLoopOptions options;
    options.profilerUsPerEvent = 0;
    options.profilerUsPerEventUncertainty = 0;
    return recalibrated(loop, options);
}

} // namespace

TEST(TraceWhatIfLine, ALoopWhoseSyncsAreAllAtTheLineIsTheLoopWithoutItsSyncs)
{
    ImportedLoopOptions options;
    options.withoutLine = "scripts/record-traces.py:123";
    const ImportedLoop loop = loopOf("small_resnet-mixed.pt.trace.json.gz", options);
    ASSERT_TRUE(loop.available) << loop.reason;
    ASSERT_EQ(loop.profiledSyncFrames.size(), loop.profiled.syncAtUs.size());
    ASSERT_FALSE(loop.profiledSyncFrames.empty());
    const WhatIf w = whatIf(loop, 0);
    ASSERT_TRUE(w.withoutLine) << w.withoutLineWhy;
    const WhatIfRow* recorded = row(w, "as_recorded");
    const WhatIfRow* none = row(w, "none");
    ASSERT_TRUE(recorded && none);
    EXPECT_EQ(w.withoutLine->syncs, int(loop.profiled.syncAtUs.size()));
    EXPECT_EQ(w.withoutLine->otherSyncs, 0);
    EXPECT_NEAR(w.withoutLine->stepMs, none->stepMs, 1e-9 * none->stepMs);
    EXPECT_NEAR(w.withoutLine->changePct, (none->stepMs / recorded->stepMs - 1.0) * 100.0, 1e-6);
    EXPECT_LT(w.withoutLine->changePct, 0);
    EXPECT_LE(w.withoutLine->changeLowPct, w.withoutLine->changePct);
    EXPECT_GE(w.withoutLine->changeHighPct, w.withoutLine->changePct);

    // Another line of the same file: none of the step's syncs is there.
    std::string why;
    EXPECT_FALSE(whatIfWithoutLine(loop, "scripts/record-traces.py:124", 0, &why));
    EXPECT_EQ(why, "no sync of the captured step is at scripts/record-traces.py:124");
    EXPECT_FALSE(whatIfWithoutLine(loop, "record-traces.py", 0, &why));
    EXPECT_EQ(why, "'record-traces.py' is no FILE:LINE");
    // Kineto names a frame's file by its name alone ("record-traces.py(123): step"): the line's file
    // is matched by its name, at a folder's boundary, not inside a name.
    EXPECT_FALSE(whatIfWithoutLine(loop, "traces.py:123", 0, &why));
    EXPECT_TRUE(whatIfWithoutLine(loop, "record-traces.py:123", 0, &why)) << why;
}

TEST(TraceWhatIfLine, TakingOneLinesSyncsOutKeepsTheOthers)
{
    const ImportedLoop loop = twoLineLoop();
    ASSERT_TRUE(loop.available);
    const WhatIf w = whatIf(loop, 0);
    const WhatIfRow* recorded = row(w, "as_recorded");
    const WhatIfRow* none = row(w, "none");
    ASSERT_TRUE(recorded && none);
    ASSERT_LT(none->stepMs, recorded->stepMs); // the reads leave the GPU idle

    std::string why;
    const std::optional<WhatIfLine> first = whatIfWithoutLine(loop, "train.py:10", 0, &why);
    ASSERT_TRUE(first) << why;
    EXPECT_EQ(first->syncs, 1);
    EXPECT_EQ(first->otherSyncs, 1);
    const std::optional<WhatIfLine> last = whatIfWithoutLine(loop, "/work/train.py:20", 0, &why);
    ASSERT_TRUE(last) << why;
    for (const WhatIfLine& one : { *first, *last }) {
        EXPECT_LT(one.stepMs, recorded->stepMs) << one.site;
        EXPECT_GT(one.stepMs, none->stepMs) << one.site; // the other line's read still waits
        EXPECT_LT(one.changePct, 0) << one.site;
    }
}

TEST(TraceWhatIfLine, ACaptureWithoutPythonFramesSaysWhy)
{
    ImportedLoop loop = twoLineLoop();
    loop.profiledSyncFrames = { "", "" };
    std::string why;
    EXPECT_FALSE(whatIfWithoutLine(loop, "train.py:10", 0, &why));
    EXPECT_EQ(why, "the capture names no Python line of its syncs (recorded without with_stack=True)");

    loop.options.withoutLine = "train.py:10";
    const WhatIf w = whatIf(loop, 0);
    EXPECT_FALSE(w.withoutLine);
    EXPECT_EQ(w.withoutLineWhy, why);
}
