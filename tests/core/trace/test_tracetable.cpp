#include "core/text/format.h"
#include "core/trace/tracetable.h"

#include "sampletracereport.h"

#include <gtest/gtest.h>

#include <sstream>

using namespace synctax;

namespace {

void expectFits(const std::string& text)
{
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);)
        EXPECT_LE(line.size(), 80u) << line;
}

} // namespace

TEST(TraceTable, StepTableRowsAndMean)
{
    const std::string t = formatStepTable(sampleTraceReport());
    expectFits(t);
    // The columns, right-aligned: ms, D, G, K, syncs, wait, bubble, tax, queue, lag (formatMs spells
    // 0.0625 as 0.062 or 0.063 by printf's rounding of the binary value: 0.0625 is exact, so 0.062).
    EXPECT_NE(
        t.find("#12           1.00  0.250  0.500    40     1  0.125  0.062  6.2%     7  0.375\n"), std::string::npos)
        << t;
    EXPECT_NE(t.find("#13 "), std::string::npos);
    EXPECT_NE(
        t.find("mean          1.00  0.250  0.500    40   1.0  0.125  0.062  6.2%     8  0.375\n"), std::string::npos)
        << t;
}

TEST(TraceTable, SiteTableWithPythonLine)
{
    const std::string t = formatSiteTable(sampleTraceReport());
    expectFits(t);
    EXPECT_NE(t.find("aten::item                                     1.00    0.125      0.062   6.2%\n"
                     "  train.py(87): <module>\n"),
        std::string::npos)
        << t;
}

TEST(TraceTable, NoSitesSaysSo)
{
    TraceReport r = sampleTraceReport();
    r.sites.clear();
    EXPECT_EQ(formatSiteTable(r), "no syncs inside steps\n");
}

TEST(TraceTable, LongPathIsNotCut)
{
    TraceReport r = sampleTraceReport();
    r.source.file = "/data/" + std::string(90, 'p') + "/rank0.pt.trace.json.gz";
    const std::string t = formatTraceReport(r);
    EXPECT_EQ(t.rfind(r.source.file + "\n  (NVIDIA H200, CUDA 13.0, rank 1)\n", 0), 0u) << t;
}

TEST(TraceTable, LongPythonLineKeepsItsEnd)
{
    TraceReport r = sampleTraceReport();
    r.sites[0].python = std::string(120, 'd') + "/train.py(87): <module>";
    const std::string t = formatSiteTable(r);
    expectFits(t);
    EXPECT_NE(t.find("...dddd"), std::string::npos);
    EXPECT_NE(t.find("/train.py(87): <module>\n"), std::string::npos);
}

TEST(TraceTable, ReportBlockHasTitleRegimeAndNotes)
{
    const std::string t = formatTraceReport(sampleTraceReport());
    expectFits(t);
    EXPECT_EQ(t.rfind("train.pt.trace.json.gz (NVIDIA H200, CUDA 13.0, rank 1)\n", 0), 0u) << t;
    EXPECT_NE(t.find("regime dispatch_bound: D 0.250 ms, G 0.500 ms, H 0.625 ms per step\n"
                     "Dispatch-bound: the host needs more than the GPU.\n"
                     "Syncs cost 6.2% of the step time: 1.00 per step leave the GPU idle, in steps of\n"
                     "  1.00 ms on average.\n"
                     "The worst site is aten::item at train.py(87): <module>: 1.00 per step, the host\n"),
        std::string::npos)
        << t;
    // The same words as the app's (explainTrace), what to try among them.
    EXPECT_NE(t.find("What to try: Keep the value on the GPU"), std::string::npos) << t;
    EXPECT_NE(t.find("note: a note from the reader\n"), std::string::npos);
    EXPECT_EQ(formatRankLine(sampleTraceReport()),
        "rank 1: 2 steps, 1.00 ms/step, 1.00 syncs/step, tax 6.2%, dispatch_bound\n");
}
