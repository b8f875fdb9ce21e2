#include "progressprinter.h"

#include <gtest/gtest.h>

using namespace synctax;

namespace {

RunProgress midRun()
{
    RunProgress p;
    p.blocksDone = 117;
    p.blocksTotal = 360;
    p.cell = "small_resnet/cuda_graph/progress_bar_postfix_every_n";
    p.elapsedS = 16;
    p.remainingS = 34;
    return p;
}

} // namespace

// Wide enough, or no width known: the whole line, as before.
TEST(ProgressLine, WholeWhenItFits)
{
    const std::string whole = "[#######                 ]  32%  00:16 elapsed, ETA 00:34  "
                              "small_resnet/cuda_graph/progress_bar_postfix_every_n";
    EXPECT_EQ(progressLine(midRun(), 0), whole);
    EXPECT_EQ(progressLine(midRun(), 200), whole);
    EXPECT_EQ(progressLine(midRun(), int(whole.size()) + 1), whole);
}

// A line as wide as the terminal wraps, and `\r` then redraws only its last row: each redraw
// leaves a stale line. Cut to the width less one, it stays on one row, percent and ETA kept.
TEST(ProgressLine, CutToTheTerminalWidth)
{
    const std::string whole = progressLine(midRun(), 0);
    for (int columns = 1; columns <= int(whole.size()) + 1; ++columns) {
        const std::string line = progressLine(midRun(), columns);
        EXPECT_LE(line.size(), size_t(std::max(columns - 1, 0))) << columns << ": " << line;
        if (columns > 32)
            EXPECT_NE(line.find("32%  00:16 elapsed, ETA 00:34"), std::string::npos) << columns << ": " << line;
    }
    EXPECT_EQ(
        progressLine(midRun(), 80), "[#######                 ]  32%  00:16 elapsed, ETA 00:34  small_resnet/cuda...");
    EXPECT_EQ(progressLine(midRun(), 50), "[#####           ]  32%  00:16 elapsed, ETA 00:34");
}
