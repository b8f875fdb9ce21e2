#include "core/results/stepcsvwriter.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

using namespace synctax;

namespace {

StepRecord record(uint32_t cell, int64_t startNs, int queueSteps)
{
    StepRecord r;
    r.cell = cell;
    r.round = 3;
    r.step = 7;
    r.startNs = startNs;
    r.dispatchedNs = startNs + 1'250'000; // 1250 us of dispatch
    r.loggedNs = r.dispatchedNs + 500; // 0.5 us of logging
    r.gpuDoneNs = startNs + 2'000'000;
    r.lagMs = 0.75f;
    r.queueSteps = queueSteps;
    return r;
}

std::string readFile(const std::string& path)
{
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

} // namespace

TEST(StepsCsv, RowsCarryHostTimesAndGpuColumnsWhenMeasured)
{
    // The group's host work and batch after the style: the cell of a sweep's point.
    const CellPlan cell = cellPlan(0, { { "tiny_mlp", "eager", 15000, 64 }, "item" });
    EXPECT_EQ(stepCsvRow(record(0, 5'000'000, 2), cell),
        "tiny_mlp,eager,item,15000,64,3,7,5.000000,1250.000,0.500,7.000000,0.7500,2\n");
    EXPECT_EQ(
        stepCsvRow(record(0, 5'000'000, -1), cell), "tiny_mlp,eager,item,15000,64,3,7,5.000000,1250.000,0.500,,,\n");
}

TEST(StepsCsv, ADataParallelRanksRowsEndWithTheirWaitInTheAllReduce)
{
    const CellPlan cell = cellPlan(0, { { "tiny_mlp", "eager", 0, 16 }, "item" });
    StepRecord r = record(0, 5'000'000, -1);
    r.collectiveWaitMs = 0.304125; // 304125 ns, as the gradient buckets measured it
    EXPECT_EQ(stepCsvRow(r, cell, StepCsvColumns::WithCollectiveWait),
        "tiny_mlp,eager,item,0,16,3,7,5.000000,1250.000,0.500,,,,0.304125\n");
    // The same record in an ordinary file: no column, as before.
    EXPECT_EQ(stepCsvRow(r, cell), "tiny_mlp,eager,item,0,16,3,7,5.000000,1250.000,0.500,,,\n");
    r.collectiveWaitMs = -1;
    EXPECT_EQ(stepCsvRow(r, cell, StepCsvColumns::WithCollectiveWait),
        "tiny_mlp,eager,item,0,16,3,7,5.000000,1250.000,0.500,,,,\n");
    EXPECT_EQ(std::string(stepCsvHeader(StepCsvColumns::WithCollectiveWait)),
        "model,mode,style,host_work_us,batch,round,step,start_ms,host_dispatch_us,host_logging_us,gpu_done_ms,lag_ms,"
        "queue_steps,collective_wait_ms\n");
    // Every other run's header is the one it always was.
    EXPECT_EQ(std::string(stepCsvHeader()),
        "model,mode,style,host_work_us,batch,round,step,start_ms,host_dispatch_us,host_logging_us,gpu_done_ms,lag_ms,"
        "queue_steps\n");
}

TEST(StepsCsv, AWholeFileIsInStartOrderWithTheRunnersHeader)
{
    const std::vector<CellPlan> cells { cellPlan(0, { { "tiny_mlp", "eager" }, "none" }),
        cellPlan(1, { { "tiny_mlp", "eager" }, "item" }) };
    // Kept cell by cell, as the app's history keeps them; a record of an unknown cell has no row.
    const std::vector<StepRecord> records { record(0, 1'000'000, 1), record(0, 3'000'000, 1), record(1, 2'000'000, 1),
        record(9, 4'000'000, 1) };
    const std::string path = (std::filesystem::temp_directory_path() / "synctax-test-steps.csv").string();
    writeStepsCsv(path, records, cells);
    const std::string text = readFile(path);
    std::remove(path.c_str());
    std::istringstream lines(text);
    std::string header, a, b, c, extra;
    std::getline(lines, header);
    std::getline(lines, a);
    std::getline(lines, b);
    std::getline(lines, c);
    EXPECT_FALSE(std::getline(lines, extra));
    EXPECT_EQ(header + "\n", stepCsvHeader());
    EXPECT_EQ(a.rfind("tiny_mlp,eager,none,0,0,3,7,1.000000,", 0), 0u) << a;
    EXPECT_EQ(b.rfind("tiny_mlp,eager,item,0,0,3,7,2.000000,", 0), 0u) << b;
    EXPECT_EQ(c.rfind("tiny_mlp,eager,none,0,0,3,7,3.000000,", 0), 0u) << c;
}
