// steps.csv read back: rows of both layouts (with collective_wait_ms, a data-parallel rank's, and
// without, every other file's) give the records they were written from; malformed lines are
// located. The rows are hand-written here, or written by stepCsvRow from hand-built records.
#include "core/results/stepcsvreader.h"
#include "core/results/stepcsvwriter.h"

#include <gtest/gtest.h>

using namespace synctax;

namespace {

StepRecord record(uint32_t cell, int32_t round, uint32_t step, int64_t startNs)
{
    StepRecord r;
    r.cell = cell;
    r.round = round;
    r.step = step;
    r.startNs = startNs;
    r.dispatchedNs = startNs + 1'234'567; // ns: the file keeps them to the nanosecond
    r.loggedNs = r.dispatchedNs + 891;
    return r;
}

void expectSameTimes(const StepRecord& a, const StepRecord& b)
{
    EXPECT_EQ(a.round, b.round);
    EXPECT_EQ(a.step, b.step);
    EXPECT_EQ(a.startNs, b.startNs);
    EXPECT_EQ(a.dispatchedNs, b.dispatchedNs);
    EXPECT_EQ(a.loggedNs, b.loggedNs);
    EXPECT_EQ(a.gpuDoneNs, b.gpuDoneNs);
    EXPECT_EQ(a.queueSteps, b.queueSteps);
}

} // namespace

TEST(StepsCsvReader, ReadsAnOrdinaryFileBackIntoItsRecords)
{
    const std::vector<CellPlan> cells { cellPlan(0, { { "tiny_mlp", "eager", 0, 16 }, "none" }),
        cellPlan(1, { { "tiny_mlp", "eager", 0, 16 }, "item" }) };
    std::vector<StepRecord> written { record(1, -1, 0, 1'000'001), record(0, 0, 0, 7'000'002),
        record(0, 0, 1, 9'500'003) };
    written[1].gpuDoneNs = 8'250'004;
    written[1].lagMs = 0.25f;
    written[1].queueSteps = 2;
    std::string text = stepCsvHeader();
    for (const StepRecord& r : written)
        text += stepCsvRow(r, cells[r.cell]);
    const StepsCsvLoadResult back = loadStepsCsvText(text, "steps.csv");
    ASSERT_TRUE(back.steps) << formatErrors(back.errors);
    EXPECT_FALSE(back.steps->hasCollectiveWait);
    // Cells in the order of their first row: item's came first.
    ASSERT_EQ(back.steps->cells.size(), 2u);
    EXPECT_EQ(back.steps->cells[0].style, "item");
    EXPECT_EQ(back.steps->cells[1].style, "none");
    EXPECT_EQ(back.steps->cells[1].batch, 16);
    ASSERT_EQ(back.steps->records.size(), 3u);
    EXPECT_EQ(back.steps->records[0].cell, 0u);
    EXPECT_EQ(back.steps->records[2].cell, 1u);
    for (size_t i = 0; i < written.size(); ++i) {
        SCOPED_TRACE(i);
        expectSameTimes(back.steps->records[i], written[i]);
        EXPECT_EQ(back.steps->records[i].collectiveWaitMs, -1);
    }
    EXPECT_FLOAT_EQ(back.steps->records[1].lagMs, 0.25f);
}

TEST(StepsCsvReader, ReadsARanksWaitPerStep)
{
    const std::string text = "model,mode,style,host_work_us,batch,round,step,start_ms,host_dispatch_us,host_logging_us,"
                             "gpu_done_ms,lag_ms,queue_steps,collective_wait_ms\r\n"
                             "tiny_mlp,eager,none,0,16,0,0,10.000000,200.000,1.000,,,,0.304125\r\n"
                             "tiny_mlp,eager,none,0,16,0,1,10.300000,250.500,1.000,,,,0.000000\r\n";
    const StepsCsvLoadResult back = loadStepsCsvText(text, "rank-1/steps.csv");
    ASSERT_TRUE(back.steps) << formatErrors(back.errors);
    EXPECT_TRUE(back.steps->hasCollectiveWait);
    ASSERT_EQ(back.steps->records.size(), 2u);
    EXPECT_DOUBLE_EQ(back.steps->records[0].collectiveWaitMs, 0.304125);
    EXPECT_DOUBLE_EQ(back.steps->records[1].collectiveWaitMs, 0.0);
    EXPECT_EQ(back.steps->records[1].startNs, 10'300'000);
    EXPECT_EQ(back.steps->records[1].dispatchedNs, 10'550'500);
    EXPECT_EQ(back.steps->records[1].loggedNs, 10'551'500);
}

TEST(StepsCsvReader, ColumnsAreFoundByName)
{
    // A later version's column in between is skipped.
    const std::string text = "model,mode,style,host_work_us,batch,round,step,start_ms,extra,host_dispatch_us,"
                             "host_logging_us,gpu_done_ms,lag_ms,queue_steps\n"
                             "m,eager,none,5,2,1,3,1.500000,whatever,2.000,0.001,,,\n";
    const StepsCsvLoadResult back = loadStepsCsvText(text, "steps.csv");
    ASSERT_TRUE(back.steps) << formatErrors(back.errors);
    EXPECT_EQ(back.steps->cells[0].hostWorkUs, 5);
    EXPECT_EQ(back.steps->records[0].dispatchedNs, 1'502'000);
    EXPECT_EQ(back.steps->records[0].loggedNs, 1'502'001);
}

TEST(StepsCsvReader, MalformedLinesAreLocated)
{
    const std::string header = std::string(stepCsvHeader(StepCsvColumns::WithCollectiveWait));
    const std::string good = "m,eager,none,0,2,0,0,1.000000,2.000,0.001,,,,0.5\n";
    const struct {
        std::string text;
        int line;
        std::string says;
    } cases[] = {
        { "model,mode,style\n", 1, "no column host_work_us" },
        { header + good + "m,eager,none,0,2,0,0,1.000000\n", 3, "8 fields where the header has 14" },
        { header + "m,eager,none,0,2,0,0,1,0x2,0.001,,,,0.5\n", 2, "host_dispatch_us: '0x2' is not a number" },
        { header + "m,eager,none,0,2,0,0,1,2,0.001,,,,-0.5\n", 2, "collective_wait_ms: '-0.5' is not a number" },
        { header + "m,eager,none,0,2,0,0,1,2,0.001,,,1,0.5\n", 2, "gpu_done_ms: '' is not a number" },
        { "", 0, "empty" },
    };
    for (const auto& c : cases) {
        SCOPED_TRACE(c.text);
        const StepsCsvLoadResult back = loadStepsCsvText(c.text, "steps.csv");
        EXPECT_FALSE(back.steps);
        ASSERT_EQ(back.errors.size(), 1u);
        EXPECT_EQ(back.errors[0].line, c.line);
        EXPECT_NE(back.errors[0].message.find(c.says), std::string::npos) << back.errors[0].message;
    }
}

TEST(StepsCsvReader, ALastRowCutOffIsLeftOutWithANote)
{
    // A run killed while writing steps.csv leaves its last row without its line end.
    const std::string header = std::string(stepCsvHeader());
    const std::string good = "m,eager,none,0,2,0,0,1.000000,2.000,0.001,,,\n";
    for (const std::string& cut : { std::string("m,eager,no"), std::string("m,eager,none,0,2,0,1,1.5") }) {
        SCOPED_TRACE(cut);
        const StepsCsvLoadResult back = loadStepsCsvText(header + good + cut, "steps.csv");
        ASSERT_TRUE(back.steps) << formatErrors(back.errors);
        EXPECT_EQ(back.steps->records.size(), 1u);
        ASSERT_EQ(back.notes.size(), 1u);
        EXPECT_EQ(back.notes[0],
            "steps.csv:3: the last row is cut off (no line end: the run ended while writing it): left out");
    }
    const StepsCsvLoadResult whole = loadStepsCsvText(header + good, "steps.csv");
    ASSERT_TRUE(whole.steps);
    EXPECT_TRUE(whole.notes.empty());
}
