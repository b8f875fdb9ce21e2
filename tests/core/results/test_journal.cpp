// A run's journal.jsonl read back as its results: what a run killed before it wrote results.json
// measured opens from its folder or its journal, marked as rebuilt, with its folder's lock told
// stale or held; a line cut off mid-write is left out with a note, a bad one is located.
#include "core/config/configloader.h"
#include "core/results/journal.h"
#include "core/results/journalreader.h"
#include "core/results/outputlock.h"
#include "core/results/resultsloader.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

using namespace synctax;
namespace fs = std::filesystem;

namespace {

const char* const configText = R"(synctax: 1
name: journal-test
device: cpu
steps_per_block: 4
blocks: 6
min_blocks: 3
models:
  - {name: tiny_mlp, batch: 16, width: 64}
styles: [none, item]
)";

CellPlan plan(uint32_t index, const std::string& style)
{
    return cellPlan(index, { { "tiny_mlp", "eager", 0, 16 }, style });
}

struct JournalTest : ::testing::Test {
    void SetUp() override
    {
        dir = fs::temp_directory_path() / ("synctax-test-journal-" + std::to_string(getpid()));
        fs::remove_all(dir);
        fs::create_directories(dir);
        const ConfigLoadResult loaded = loadConfigText(configText, "journal-test.yaml");
        ASSERT_TRUE(loaded.config) << formatErrors(loaded.errors);
        config = *loaded.config;
        environment.device = "cpu";
        environment.deviceName = "a CPU";
        environment.torchVersion = "2.5.0";
    }
    void TearDown() override { fs::remove_all(dir); }

    std::string journalPath() const { return (dir / "journal.jsonl").string(); }

    // Six rounds of the three cells, item 10% slower than none and its A/A copy; then the run dies.
    void writeKilledRun(bool finishTheGroup = false)
    {
        Journal journal(journalPath(), config, environment, plans);
        journal.note("device cpu: no asynchronous queue on CPU");
        for (int round = 0; round < 6; ++round) {
            const double wobble = 0.01 * (round % 3);
            journal.block(plans[0], round, 4, 1.0 + wobble);
            journal.block(plans[1], round, 4, 1.0 + wobble);
            journal.block(plans[2], round, 4, 1.1 + wobble);
        }
        if (finishTheGroup) {
            GroupResult group;
            static_cast<GroupKey&>(group) = GroupKey { "tiny_mlp", "eager", 0, 16 };
            group.rounds = 6;
            group.stopReason = "ci_target";
            group.regime.reason = "no asynchronous queue on CPU";
            std::vector<CellResult> cells;
            for (const CellPlan& p : plans) {
                CellResult c;
                c.key() = p.key();
                c.stepsPerBlock = 4;
                c.stepsMeasured = 24;
                c.stepMs = { 1.0, 1.0, 1.0, 1.0 };
                c.blockRounds = { 0, 1, 2, 3, 4, 5 };
                c.blockStepMs = { 1, 1, 1, 1, 1, 1 };
                if (p.style == "item")
                    c.overheadPct = Interval { 5, 4, 6 }; // not what its blocks give: read, not analysed again
                cells.push_back(c);
            }
            journal.group(group, cells);
        }
    }

    std::string text() const
    {
        std::ifstream in(journalPath());
        std::stringstream all;
        all << in.rdbuf();
        return all.str();
    }

    static bool notes(const ExperimentResult& r, const std::string& words)
    {
        return std::any_of(r.notes.begin(), r.notes.end(),
            [&](const std::string& note) { return note.find(words) != std::string::npos; });
    }

    fs::path dir;
    ExperimentConfig config;
    Environment environment;
    std::vector<CellPlan> plans { plan(0, "none"), plan(1, "aa_control"), plan(2, "item") };
};

} // namespace

TEST_F(JournalTest, AKilledRunOpensFromItsFolderAndItsJournal)
{
    writeKilledRun();
    for (const std::string& given : { dir.string(), journalPath() }) {
        SCOPED_TRACE(given);
        const ResultsLoadResult back = loadResultsFile(given);
        ASSERT_TRUE(back.result) << formatErrors(back.errors);
        const ExperimentResult& r = *back.result;
        EXPECT_TRUE(r.stopped);
        EXPECT_EQ(r.config.name, "journal-test");
        EXPECT_EQ(r.environment.deviceName, "a CPU");
        EXPECT_EQ(r.environment.torchVersion, "2.5.0");
        ASSERT_EQ(r.cells.size(), 3u);
        const CellResult& item = r.cells[2];
        EXPECT_EQ(item.style, "item");
        EXPECT_EQ(item.blockRounds.size(), 6u);
        EXPECT_EQ(item.stepsMeasured, 24);
        ASSERT_TRUE(item.overheadPct);
        EXPECT_NEAR(item.overheadPct->estimate, 10.0, 1.0);
        ASSERT_EQ(r.groups.size(), 1u);
        EXPECT_EQ(r.groups[0].stopReason, "killed");
        EXPECT_EQ(r.groups[0].regime.reason, "no asynchronous queue on CPU");
        EXPECT_EQ(r.notes.front(), "device cpu: no asynchronous queue on CPU"); // the run's own, as it said it
        EXPECT_TRUE(notes(r,
            "rebuilt from " + journalPath()
                + ": the run wrote no results.json; 18 blocks kept, 0 groups finished whole, 1 cut short "
                  "(analysed from their blocks alone: no queue, regime or prediction)"))
            << r.notes.back();
    }
}

TEST_F(JournalTest, AFinishedGroupIsReadWholeAndAnEndedRunIsNotStopped)
{
    writeKilledRun(true);
    std::ofstream(journalPath(), std::ios::app) << R"({"stopped":false,"t_s":12.5,"type":"end"})"
                                                << "\n";
    const ResultsLoadResult back = loadResultsFile(dir.string());
    ASSERT_TRUE(back.result) << formatErrors(back.errors);
    const ExperimentResult& r = *back.result;
    EXPECT_FALSE(r.stopped);
    EXPECT_DOUBLE_EQ(r.durationS, 12.5);
    ASSERT_EQ(r.groups.size(), 1u);
    EXPECT_EQ(r.groups[0].stopReason, "ci_target");
    ASSERT_EQ(r.cells.size(), 3u);
    ASSERT_TRUE(r.cells[2].overheadPct);
    EXPECT_DOUBLE_EQ(r.cells[2].overheadPct->estimate, 5.0);
    EXPECT_TRUE(notes(r, "the run ended, but its results.json is missing; 18 blocks kept, 1 group finished whole"))
        << r.notes.back();
}

TEST_F(JournalTest, ALastLineCutOffIsLeftOutWithANote)
{
    writeKilledRun();
    std::ofstream(journalPath(), std::ios::app) << R"({"model":"tiny_mlp","mode":"eag)";
    const ResultsLoadResult back = loadResultsFile(journalPath());
    ASSERT_TRUE(back.result) << formatErrors(back.errors);
    EXPECT_EQ(back.result->cells[2].blockRounds.size(), 6u);
    EXPECT_TRUE(notes(*back.result, journalPath() + ":21: the last line is cut off (the run ended while writing it)"));
}

TEST_F(JournalTest, ABadLineIsLocated)
{
    writeKilledRun();
    const std::string whole = text();
    const struct {
        std::string line;
        std::string says;
    } cases[] = {
        { R"({"type":"block","model":"tiny_mlp","mode":"eager","style":"item","round":-1,"ms_per_step":1})",
            ":2:1: round: expected a round number (0 or more)" },
        { R"({"type":"block","model":"tiny_mlp","mode":"eager","style":"item","round":1,"ms_per_step":"fast"})",
            ":2:1: ms_per_step: expected a positive number" },
        { R"({"type":"block","model":"tiny_mlp","mode":"eager","style":"print","round":1,"ms_per_step":1})",
            ":2:1: a block of tiny_mlp/eager/print, a cell the start line does not plan" },
        { R"({"type":"block",)", ":2:17: not valid JSON: syntax error" },
        { R"([1, 2])", ":2:1: expected an object with a \"type\"" },
    };
    const size_t firstEnd = whole.find('\n') + 1;
    for (const auto& c : cases) {
        SCOPED_TRACE(c.line);
        const ResultsLoadResult back
            = loadJournalText(whole.substr(0, firstEnd) + c.line + "\n" + whole.substr(firstEnd), "journal.jsonl");
        EXPECT_FALSE(back.result);
        ASSERT_EQ(back.errors.size(), 1u);
        EXPECT_NE(back.errors[0].format().find("journal.jsonl" + c.says), std::string::npos) << back.errors[0].format();
    }
    const ResultsLoadResult noStart = loadJournalText(whole.substr(firstEnd), "journal.jsonl");
    ASSERT_EQ(noStart.errors.size(), 1u);
    EXPECT_EQ(noStart.errors[0].format(),
        "journal.jsonl:1:1: expected the journal's start line (\"type\": \"start\"), found \"note\"");
}

TEST_F(JournalTest, AJournalFromBeforeItsCellsAndMachineWereKeptOpens)
{
    // The start line held the config alone; blocks named no host work or batch.
    const std::string older
        = R"({"config":{"synctax":1,"name":"old","device":"cpu","models":["tiny_mlp"],)"
          R"("styles":["none","item"]},"schema":"synctax.journal/1","type":"start"})"
          "\n"
          R"({"mode":"eager","model":"tiny_mlp","ms_per_step":1.0,"round":0,"steps":10,"style":"none","type":"block"})"
          "\n"
          R"({"mode":"eager","model":"tiny_mlp","ms_per_step":1.2,"round":0,"steps":10,"style":"item","type":"block"})"
          "\n";
    const ResultsLoadResult back = loadJournalText(older, "journal.jsonl");
    ASSERT_TRUE(back.result) << formatErrors(back.errors);
    EXPECT_EQ(back.result->environment.device, "cpu");
    ASSERT_EQ(back.result->cells.size(), 2u);
    EXPECT_EQ(back.result->cells[1].style, "item");
    EXPECT_EQ(back.result->cells[1].blockStepMs, std::vector<double> { 1.2 });
}

TEST_F(JournalTest, TheFoldersLockTellsAKilledRunFromOneStillGoing)
{
    writeKilledRun();
    std::ofstream(dir / OutputLock::fileName) << "pid 999999999, started 2024-05-01T12:00:00Z\n";
    {
        const ResultsLoadResult back = loadResultsFile(dir.string());
        ASSERT_TRUE(back.result) << formatErrors(back.errors);
        EXPECT_EQ(back.result->groups[0].stopReason, "killed");
        EXPECT_TRUE(notes(*back.result,
            "its lock (.synctax-run.lock) is stale: pid 999999999, started 2024-05-01T12:00:00Z is no longer "
            "running: the run was killed or crashed"))
            << back.result->notes.back();
    }
    std::string why;
    const auto lock = OutputLock::acquire(dir.string(), "pid 1234, started now", &why);
    ASSERT_TRUE(lock) << why;
    const ResultsLoadResult back = loadResultsFile(dir.string());
    ASSERT_TRUE(back.result) << formatErrors(back.errors);
    EXPECT_EQ(back.result->groups[0].stopReason, "running");
    EXPECT_TRUE(notes(*back.result, "its lock is held by a run still going (pid 1234, started now)"))
        << back.result->notes.back();
}

TEST_F(JournalTest, AFolderWithoutResultsOrJournalSaysSo)
{
    const ResultsLoadResult back = loadResultsFile(dir.string());
    ASSERT_EQ(back.errors.size(), 1u);
    EXPECT_EQ(back.errors[0].format(),
        dir.string()
            + ": is a folder with neither results.json nor journal.jsonl; expected a results.json file or a run's "
              "folder");
}
