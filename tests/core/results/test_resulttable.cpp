#include "core/results/resulttable.h"

#include "tests/core/textlines.h"

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

using namespace synctax;

namespace {

// A run as the seed preset makes one on a GPU: three models, styles with long names, intervals,
// predictions and queue lines, one failed cell.
ExperimentResult seedLikeResult()
{
    ExperimentResult r;
    r.config.name = "seed";
    r.config.models = { ModelSpec { "tiny_mlp", 256, 512, 256, 10 }, ModelSpec { "small_resnet", 64, 32, 32, 10 },
        ModelSpec { "resnet50", 32, 0, 224, 1000 } };
    const std::vector<std::string> styles { "none", "item", "item_every_n", "progress_bar_postfix_every_n",
        "print_every_step", "writer_flush_every_step" };
    const double baseMs[] = { 0.412, 3.187, 41.904 };
    for (size_t m = 0; m < r.config.models.size(); ++m) {
        const std::string model = r.config.models[m].name;
        GroupResult g;
        g.model = model;
        g.mode = "eager";
        g.rounds = 20;
        g.stopReason = "ci_target";
        g.noiseFloorPct = 0.4;
        g.drift = DriftCheck { 1.0, 1.001, 0.1, 0.5, false };
        g.clocks.available = true;
        g.clocks.defaultMhz = 1980;
        g.clocks.minMhz = 1755;
        g.clocks.maxMhz = 1980;
        g.clocks.lowClockBlocks = 2;
        g.regime.available = true;
        g.regime.dMs = 0.381;
        g.regime.gMs = baseMs[m] * 0.97;
        g.regime.lUs = 9.4;
        g.regime.k = 42;
        g.regime.hUs = 0;
        g.regime.queueLimited = m == 2;
        g.regime.label = m == 0 ? "balanced" : "gpu_bound";
        r.groups.push_back(g);
        for (size_t s = 0; s < styles.size(); ++s) {
            CellResult c;
            c.model = model;
            c.mode = "eager";
            c.style = styles[s];
            c.stepsMeasured = 1000;
            c.stepMs.mean = baseMs[m] * (1 + 0.013 * double(s));
            if (s > 0) {
                c.overheadPct = Interval { 1.3 * double(s) - (m == 2 ? 1.2 : 0), -0.4 + double(s), 2.9 * double(s) };
                c.verdict = m == 2 && s == 1 ? Verdict::WithinNoise : Verdict::Significant;
                c.prediction = Prediction { 1.1 * double(s), g.regime.label };
            }
            c.queue = QueueSummary { 0.123 * double(m + 1), 12.5, 17 };
            c.syncsPerStep = s == 0 ? 0.0 : 1.0;
            if (m == 1 && s == styles.size() - 1) {
                c.ok = false;
                c.error = "CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 139.80 GiB total capacity; "
                          "137.10 GiB already allocated)";
                c.stepsMeasured = 0;
                c.queue.reset();
            }
            r.cells.push_back(c);
        }
    }
    return r;
}

std::string fileText(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

// The grid's cells by the first column (style, and "style" for the models' names), trimmed, left
// to right and block after block.
std::map<std::string, std::vector<std::string>> cellsByRow(const std::string& table)
{
    std::map<std::string, std::vector<std::string>> rows;
    const auto trimmed = [](const std::string& s) {
        const size_t first = s.find_first_not_of(' ');
        return first == std::string::npos ? std::string() : s.substr(first, s.find_last_not_of(' ') - first + 1);
    };
    for (const auto& line : linesOf(table.substr(0, table.find("ms = mean")))) {
        if (line.find(" | ") == std::string::npos)
            continue;
        std::vector<std::string> fields;
        for (size_t start = 0;;) {
            const size_t bar = line.find(" | ", start);
            fields.push_back(trimmed(line.substr(start, bar == std::string::npos ? bar : bar - start)));
            if (bar == std::string::npos)
                break;
            start = bar + 3;
        }
        auto& row = rows[fields[0]];
        row.insert(row.end(), fields.begin() + 1, fields.end());
    }
    return rows;
}

} // namespace

// Piped, in a file or on a wide terminal the table is as it always was: every model side by side.
TEST(ResultTable, WideOrPipedIsTheFullTable)
{
    const std::string expected = fileText(SYNCTAX_TEST_DATA "/tables/seed-like-wide.txt");
    ASSERT_FALSE(expected.empty());
    EXPECT_EQ(formatTable(seedLikeResult()), expected);
    EXPECT_EQ(formatTable(seedLikeResult(), 0), expected);
    EXPECT_EQ(formatTable(seedLikeResult(), 400), expected);
}

// On an 80-column terminal no line wraps: the models come in blocks and the notes are wrapped,
// with every cell and every word of the notes still there.
TEST(ResultTable, FitsAnEightyColumnTerminal)
{
    const ExperimentResult result = seedLikeResult();
    const std::string table = formatTable(result, 80);
    for (const auto& line : linesOf(table))
        EXPECT_LE(line.size(), 80u) << line;
    EXPECT_EQ(cellsByRow(table), cellsByRow(formatTable(result)));
    EXPECT_EQ(cellsByRow(table)["style"], (std::vector<std::string> { "tiny_mlp", "small_resnet", "resnet50" }));
    const auto words = [](const std::string& text) {
        std::vector<std::string> all;
        std::istringstream in(text);
        for (std::string w; in >> w;)
            all.push_back(w);
        return all;
    };
    const std::string wide = formatTable(result);
    const std::string wideNotes = wide.substr(wide.find("ms = mean"));
    EXPECT_EQ(words(table.substr(table.find("ms = mean"))), words(wideNotes));
}

TEST(ResultTable, ModelsShareABlockWhileTheyFit)
{
    const ExperimentResult result = seedLikeResult();
    // 29 + 46 + 46 columns: two models side by side, the third under them.
    const std::string table = formatTable(result, 121);
    EXPECT_NE(table.find("style                        | tiny_mlp "), std::string::npos) << table;
    EXPECT_NE(table.find(" | small_resnet "), std::string::npos) << table;
    EXPECT_NE(table.find("\nstyle                        | resnet50 "), std::string::npos) << table;
    for (const auto& line : linesOf(table))
        EXPECT_LE(line.size(), 121u) << line;
}

// A terminal too narrow for even one model's column: each cell goes under its style.
TEST(ResultTable, AVeryNarrowTerminalStacksTheCells)
{
    const std::string table = formatTable(seedLikeResult(), 50);
    for (const auto& line : linesOf(table))
        EXPECT_LE(line.size(), 50u) << line;
    EXPECT_NE(table.find("resnet50\n  none\n    41.904 ms  baseline\n"), std::string::npos) << table;
}

TEST(ResultTable, ACpuRunSaysLastThatThereIsNoGpuQueueToExplain)
{
    ExperimentResult cpu = seedLikeResult();
    for (auto& g : cpu.groups) {
        g.regime = RegimeMeasurement {};
        g.regime.reason = noQueueOnCpu;
    }
    for (const int columns : { 0, 80 }) {
        const std::string table = formatTable(cpu, columns);
        const size_t at = table.rfind("No GPU queue to explain");
        ASSERT_NE(at, std::string::npos) << table;
        EXPECT_EQ(table.find('\n', table.find("style.", at)), table.size() - 1) << "not the last line:\n" << table;
    }
    // A GPU run, whose regime was measured, says nothing of the kind.
    EXPECT_EQ(formatTable(seedLikeResult()).find("No GPU queue"), std::string::npos);
}

TEST(ResultTable, AGpuRunWhoseQueueWasNotProbedSaysWhyNotThatThereIsNone)
{
    ExperimentResult rank = seedLikeResult();
    for (auto& g : rank.groups)
        g.regime = RegimeMeasurement { false, "not measured in a data-parallel run" };
    const std::string table = formatTable(rank, 0);
    EXPECT_EQ(table.find("No GPU queue"), std::string::npos) << table;
    EXPECT_NE(table.find("The GPU's queue was not probed (not measured in a data-parallel run): no overhead above is "
                         "explained by it.\n"),
        std::string::npos)
        << table;
}

TEST(ResultTable, AReplayLineSaysHowItsStepWasCalibrated)
{
    ExperimentResult r = seedLikeResult();
    CapturedReplay replay;
    replay.step.ops = { { 0, 5, 30000, 7 } };
    replay.regime = { 26.5, 33.0, "balanced" };
    replay.calibration.how = "host x 0.66 to the unprofiled step from an idle GPU (26.50 ms)";
    r.groups[2].replay = replay;
    std::string table = formatTable(r, 0);
    EXPECT_NE(table.find("\n  replay: 1 launches, D 26.500 ms, G 33.000 ms; host x 0.66 to the unprofiled step from an "
                         "idle GPU (26.50 ms)\n"),
        std::string::npos)
        << table;
    // With the step's drain from an idle GPU measured, what the replay's start was fitted to.
    r.groups[2].replay->drainMs = 34.25;
    r.groups[2].replay->idleStartUs = 812.5;
    table = formatTable(r, 0);
    EXPECT_NE(table.find("(26.50 ms); from idle it drains in 34.25 ms: GPU start on an idle queue +812.5 us\n"),
        std::string::npos)
        << table;
}

// A within-noise mark says which rule made it: "~" for an interval that holds 0, "~floor" for one
// that excludes 0 with an estimate no larger than the model's noise floor; the legend says both.
TEST(ResultTable, AWithinNoiseMarkSaysWhichRuleMadeIt)
{
    ExperimentResult r = seedLikeResult();
    r.groups[1].noiseFloorPct = 35.8;
    CellResult& underFloor = r.cells[7]; // small_resnet item
    ASSERT_EQ(underFloor.style, "item");
    underFloor.overheadPct = Interval { -21.0, -49.0, -1.4 };
    underFloor.verdict = Verdict::WithinNoise;
    CellResult& holdsZero = r.cells[8]; // small_resnet item_every_n
    holdsZero.overheadPct = Interval { 2.0, -1.0, 5.0 };
    holdsZero.verdict = Verdict::WithinNoise;
    const std::string table = formatTable(r, 0);
    EXPECT_NE(table.find("-21.0% [-49.0, -1.4] ~floor"), std::string::npos) << table;
    EXPECT_NE(table.find("+2.0% [-1.0, +5.0] ~ "), std::string::npos) << table;
    EXPECT_NE(table.find("~ = within noise: the interval includes 0"), std::string::npos) << table;
    EXPECT_NE(table.find("~floor = within noise: the interval excludes 0, but the estimate is no larger than the "
                         "model's noise floor"),
        std::string::npos)
        << table;
}

// "drift -7.8% FLAGGED" is explained under the table where a model has a drift, and only there.
TEST(ResultTable, AFlaggedDriftIsExplained)
{
    ExperimentResult r = seedLikeResult();
    r.groups[0].drift = DriftCheck { 1.0, 0.922, -7.8, 3.5, true };
    const std::string table = formatTable(r, 0);
    EXPECT_NE(table.find("drift -7.8% FLAGGED"), std::string::npos) << table;
    EXPECT_NE(table.find("drift = the baseline's ms/step over the second half of the rounds against the first; "
                         "FLAGGED: it moved more than the aa_control interval is wide"),
        std::string::npos)
        << table;
    for (auto& g : r.groups)
        g.drift.reset();
    EXPECT_EQ(formatTable(r, 0).find("drift ="), std::string::npos);
}

// The ms column is each cell's mean, the overhead a paired ratio: the legend says they can disagree,
// as they do here (fewer ms than the baseline beside a positive overhead).
TEST(ResultTable, TheMsColumnSaysItIsAMeanThePairedOverheadNeedNotFollow)
{
    ExperimentResult r = seedLikeResult();
    r.cells[1].stepMs.mean = 0.405; // tiny_mlp item, under the baseline's 0.412 ms, at +1.3%
    const std::string table = formatTable(r, 0);
    EXPECT_NE(table.find("0.405 ms  +1.3%"), std::string::npos) << table;
    EXPECT_NE(table.find("ms = mean ms/step over the cell's blocks"), std::string::npos) << table;
    EXPECT_NE(table.find("so a style can show fewer ms than 'none' beside a positive overhead"), std::string::npos)
        << table;
}
