// The what-if block of synctax-run trace over a hand-built loop and rows: every number below is
// written here, so the text is checked against values that no model computed.
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
    w.rows = { { "as_recorded", 0, 12.5, 25.0 }, { "none", 0, 10.0, 0.0 }, { "item_every_n", 10, 10.25, 2.5 },
        { "progress_bar_postfix_every_n", 50, 10.125, 1.25 } };
    w.model = "replay of the median step (800 launches); host x 0.50: fitted; sync 30 us";
    w.uncertaintyPct = 12.4;
    return w;
}

} // namespace

TEST(TraceWhatIfTable, RowsUnderTheHeaderTheRecordedLoopMarked)
{
    const std::string t = formatWhatIfTable(availableLoop(), sampleWhatIf());
    const auto lines = linesOf(t);
    for (const std::string& line : lines)
        EXPECT_LE(line.size(), 80u) << line;
    ASSERT_GE(lines.size(), 8u) << t;
    EXPECT_EQ(lines[0], "What if you logged differently (each style replayed on this loop, steady state,");
    EXPECT_EQ(lines[1], "  +5.00 ms of host work per step):");
    EXPECT_EQ(lines[2], "  style                          every   step ms  tax vs none");
    EXPECT_EQ(lines[3], std::string(61, '-'));
    EXPECT_EQ(lines[4], "> as_recorded                               12.5       +25.0%");
    EXPECT_EQ(lines[5], "  none                                      10.0        +0.0%");
    EXPECT_EQ(lines[6], "  item_every_n                      10      10.2        +2.5%"); // formatMs: 3 digits
    EXPECT_EQ(lines[7], "  progress_bar_postfix_every_n      50      10.1        +1.2%"); // 1.25 is exact: 1.2
    EXPECT_NE(t.find("> the loop as recorded, with its own syncs (2 per step)"), std::string::npos) << t;
    EXPECT_NE(
        t.find("model: replay of the median step (800 launches); host x 0.50: fitted; sync 30 us\n"), std::string::npos)
        << t;
    EXPECT_NE(t.find("uncertainty: the host time the rows assume is known to within 12%\n"), std::string::npos) << t;
}

TEST(TraceWhatIfTable, NoHostWorkNoUncertainty)
{
    WhatIf w = sampleWhatIf();
    w.hostWorkUs = 0;
    w.uncertaintyPct = 0;
    const std::string t = formatWhatIfTable(availableLoop(), w);
    EXPECT_EQ(t.rfind("What if you logged differently (each style replayed on this loop, steady state):\n", 0), 0u)
        << t;
    EXPECT_NE(t.find("uncertainty: not estimated\n"), std::string::npos) << t;
}

TEST(TraceWhatIfTable, AbsentSaysWhy)
{
    ImportedLoop loop;
    loop.reason = "its steps launch no GPU work";
    EXPECT_EQ(formatWhatIfTable(loop, WhatIf {}),
        "What if you logged differently: not available (its steps launch no GPU work)\n");
}

TEST(TraceWhatIfTable, HostWorkInMilliseconds) { EXPECT_EQ(hostWorkText(1500), "+1.50 ms"); }
