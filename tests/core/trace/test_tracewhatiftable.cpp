// The what-if block of synctax-run trace over a hand-built loop and rows: every number below is
// written here, so the text is checked against values that no model computed.
#include "core/text/format.h"
#include "core/trace/tracewhatiftable.h"

#include "tests/core/textlines.h"

#include <gtest/gtest.h>

using namespace synctax;

namespace {

ImportedLoop availableLoop()
{
    ImportedLoop loop;
    loop.available = true;
    loop.recordedSyncsPerStep = 2;
    return loop;
}

WhatIf sampleWhatIf()
{
    WhatIf w;
    w.hostWorkUs = 5000;
    w.rows = { { "as_recorded", 0, 12.5, 25.0, 20.0, 27.5 }, { "none", 0, 10.0, 0.0, 0.0, 0.0 },
        { "item_every_n", 10, 10.25, 2.5, 2.0, 3.0 },
        { "progress_bar_postfix_every_n", 50, 10.125, 1.25, 1.25, 1.25 } };
    w.model = "replay of the median step (800 launches); host x 0.50: fitted; sync 30 us";
    w.uncertaintyPct = 12.4;
    w.uncertaintyHow = "calibrated to the step time given; each row's range is the replay with the host 12% faster "
                       "and slower";
    w.calibrated = true;
    return w;
}

} // namespace

TEST(TraceWhatIfTable, RowsUnderTheHeaderTheRecordedLoopMarkedEachWithItsRange)
{
    const std::string t = formatWhatIfTable(availableLoop(), sampleWhatIf());
    const auto lines = linesOf(t);
    for (const std::string& line : lines)
        EXPECT_LE(line.size(), 80u) << line;
    ASSERT_GE(lines.size(), 8u) << t;
    EXPECT_EQ(lines[0], "What if you logged differently (each style replayed on this loop, steady state,");
    EXPECT_EQ(lines[1], "  +5.00 ms of host work per step):");
    EXPECT_EQ(lines[2], "  style                          every   step ms  tax vs none [range]");
    EXPECT_EQ(lines[3], std::string(74, '-'));
    EXPECT_EQ(lines[4], "> as_recorded                               12.5   +25.0% [+20.0, +27.5]");
    EXPECT_EQ(lines[5], "  none                                      10.0    +0.0%");
    EXPECT_EQ(lines[6], "  item_every_n                      10      10.2    +2.5% [+2.0, +3.0]"); // formatMs: 3 digits
    EXPECT_EQ(lines[7], "  progress_bar_postfix_every_n      50      10.1    +1.2%"); // 1.25 is exact: 1.2
    EXPECT_NE(t.find("> the loop as recorded, with its own syncs (2 per step)"), std::string::npos) << t;
    EXPECT_NE(
        t.find("model: replay of the median step (800 launches); host x 0.50: fitted; sync 30 us\n"), std::string::npos)
        << t;
    EXPECT_NE(t.find("uncertainty: calibrated to the step time given; each row's range is the replay\n"
                     "  with the host 12% faster and slower\n"),
        std::string::npos)
        << t;
    EXPECT_EQ(t.find("ignored:"), std::string::npos) << t;
}

TEST(TraceWhatIfTable, AnUncalibratedWhatIfSaysSoInItsTitle)
{
    WhatIf w = sampleWhatIf();
    w.hostWorkUs = 0;
    w.calibrated = false;
    const std::string t = formatWhatIfTable(availableLoop(), w);
    EXPECT_EQ(t.rfind("What if you logged differently, uncalibrated (each style replayed on this loop,\n", 0), 0u) << t;
}

TEST(TraceWhatIfTable, AnIgnoredInputIsSaidOnItsOwnLine)
{
    ImportedLoop loop = availableLoop();
    loop.ignored = { "the step time given (9.00 ms): out of the host's reach, the GPU alone takes longer" };
    const std::string t = formatWhatIfTable(loop, sampleWhatIf());
    EXPECT_NE(
        t.find("\nignored: the step time given (9.00 ms): out of the host's reach, the GPU alone\n  takes longer\n"),
        std::string::npos)
        << t;
}

TEST(TraceWhatIfTable, TheTracesOwnTaxAgainstTheReplayIsExplainedWhereTheyDiffer)
{
    ImportedLoop loop = availableLoop();
    WhatIf w = sampleWhatIf();
    w.hostWorkUs = 0;
    loop.recordedTaxPct = 24.0; // as_recorded +25.0%: the two agree
    EXPECT_EQ(formatWhatIfTable(loop, w).find("why the trace's own tax differs"), std::string::npos);
    loop.recordedTaxPct = 1.7;
    const std::string t = formatWhatIfTable(loop, w);
    EXPECT_NE(t.find("why the trace's own tax differs: its syncs cost 1.7% of the profiled step"), std::string::npos)
        << t;
}

TEST(TraceWhatIfTable, AbsentSaysWhy)
{
    ImportedLoop loop;
    loop.reason = "its steps launch no GPU work";
    EXPECT_EQ(formatWhatIfTable(loop, WhatIf {}),
        "What if you logged differently: not available (its steps launch no GPU work)\n");
}

TEST(TraceWhatIfTable, HostWorkInMilliseconds) { EXPECT_EQ(hostWorkText(1500), "+1.50 ms"); }
