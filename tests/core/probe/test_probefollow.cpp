// A probe folder followed while it is written: lines read once each, in order, across polls that
// land mid-line; back-pressure instead of drops; a restarted run, a malformed line, a stall, a
// crash, a deleted folder; the trace handed out once it is whole; the live A/B against the probe's
// ab.json; and the replay script's synthetic run followed end to end.
#include "core/probe/probefollow.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace synctax;

extern char** environ;

namespace {

namespace fs = std::filesystem;

const std::string kFolder = SYNCTAX_TEST_DATA "/probe/tiny_mlp-h0-h200";

std::string hostName()
{
    char name[256] = {};
    gethostname(name, sizeof name - 1);
    return name;
}

// A fresh folder under the temporary folder, removed at the end.
struct TempFolder {
    explicit TempFolder(const std::string& name)
        : path(fs::temp_directory_path() / ("synctax-test-probefollow-" + name + "-" + std::to_string(getpid())))
    {
        fs::remove_all(path);
        fs::create_directories(path);
    }
    ~TempFolder() { fs::remove_all(path); }
    std::string file(const std::string& name) const { return (path / name).string(); }
    fs::path path;
};

void writeFile(const std::string& path, const std::string& text)
{
    std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
}

void append(const std::string& path, const std::string& text)
{
    std::ofstream(path, std::ios::binary | std::ios::app) << text;
}

void writeProbeJson(const TempFolder& dir, int64_t pid, const std::string& host)
{
    const nlohmann::json probe = { { "format_version", 1 }, { "script", "/tmp/train.py" }, { "hostname", host },
        { "pid", pid }, { "start_time", "2026-12-04T01:31:39+0000" },
        { "options", { { "ab", "item" }, { "block_steps", 20 }, { "seed", 1 }, { "bootstrap", 2000 } } } };
    writeFile(dir.file("probe.json"), probe.dump(1));
}

// A step line as the probe writes it (probe/synctax_probe/blocks.py step_lines).
std::string stepLine(int64_t step, const std::string& stage = "warmup")
{
    return "{\"step\":" + std::to_string(step) + ",\"stage\":\"" + stage
        + "\",\"block\":null,\"round\":null,\"style\":null,\"t_ns\":" + std::to_string(step * 1000000)
        + ",\"f_ns\":400000,\"b_ns\":450000,\"o_ns\":150000,\"x_ns\":0,\"waits_ns\":[0,0,0],"
          "\"syncs\":[[\"item\",0,5000,\"F\"]],\"gpu_ms\":null}\n";
}

const char* kEnd = R"({"format_version": 1, "exit_code": 0, "exception": null, "interrupted": false,
 "signal": null, "steps": 3, "steps_written": 3, "steps_dropped": 0})";

// A follower whose clock the test moves.
struct Clocked {
    explicit Clocked(const TempFolder& dir, double stallS = 10)
        : follower(dir.path.string(), FollowOptions { stallS, 1 << 20, [this] { return now; } })
    {
    }
    double now = 100;
    ProbeFollower follower;
};

bool hasNote(const ProbeFollowUpdate& u, const std::string& text)
{
    for (const std::string& n : u.notes) {
        if (n.find(text) != std::string::npos)
            return true;
    }
    return false;
}

} // namespace

TEST(ProbeFollow, CountedAndTimedBlockLinesRead)
{
    // As the probe writes them (blocks.py block_summary and counted_block_summary); a line from
    // before counted blocks (no "timed") is a timed one.
    TempFolder dir("blocks");
    writeProbeJson(dir, 1, hostName());
    writeFile(dir.file("blocks.jsonl"),
        R"({"block":0,"round":0,"style":"calib","first_step":30,"t_ms":40.5,"steps":20,"ms_per_step":1.2,)"
        R"("f_ms":0.4,"b_ms":0.5,"o_ms":0.2,"f_wait_ms":0.0,"b_wait_ms":0.0,"o_wait_ms":0.0,"syncs_per_step":0.0,)"
        R"("added_item_ms_per_step":0.0,"probe_ms":0.002,"drain_ms":0.3,"timed":true,"gpu_ms_median":0.9,"gpu_steps":20})"
        "\n"
        R"({"block":1,"round":0,"style":"item","first_step":50,"t_ms":70.1,"steps":20,"ms_per_step":1.3,)"
        R"("syncs_per_step":1.0,"wait_ms_per_step":0.05,"added_items":20,"drain_ms":0.2,"timed":false,)"
        R"("gpu_ms_median":null,"gpu_steps":0})"
        "\n"
        R"({"block":2,"round":0,"style":"none","t_ms":90.0,"steps":20,"ms_per_step":1.1,"f_ms":0.4,"b_ms":0.5,"o_ms":0.2})"
        "\n");
    Clocked c(dir);
    const ProbeFollowUpdate u = c.follower.poll();
    ASSERT_EQ(u.blocks.size(), 3u) << (u.notes.empty() ? "" : u.notes.front());
    EXPECT_TRUE(u.blocks[0].timed);
    EXPECT_EQ(u.blocks[0].firstStep, 30);
    EXPECT_DOUBLE_EQ(u.blocks[0].fMs, 0.4);
    EXPECT_FALSE(u.blocks[1].timed);
    EXPECT_EQ(u.blocks[1].firstStep, 50);
    EXPECT_EQ(u.blocks[1].addedItems, 20);
    EXPECT_DOUBLE_EQ(u.blocks[1].waitMsPerStep, 0.05);
    EXPECT_DOUBLE_EQ(u.blocks[1].fMs, 0.0);
    EXPECT_FALSE(u.blocks[1].gpuMsMedian.has_value());
    EXPECT_TRUE(u.blocks[2].timed);
    EXPECT_EQ(u.blocks[2].firstStep, -1);
}

TEST(ProbeFollow, PartialLineWaitsForItsNewline)
{
    TempFolder dir("partial");
    writeProbeJson(dir, getpid(), hostName());
    const std::string second = stepLine(1);
    writeFile(dir.file("steps.jsonl"), stepLine(0) + second.substr(0, 40));
    Clocked c(dir);
    auto u = c.follower.poll();
    ASSERT_EQ(u.steps.size(), 1u);
    EXPECT_EQ(u.steps[0].step, 0);
    EXPECT_EQ(u.steps[0].syncs.size(), 1u);
    EXPECT_TRUE(u.notes.empty());
    EXPECT_EQ(c.follower.poll().steps.size(), 0u); // still no newline
    append(dir.file("steps.jsonl"), second.substr(40));
    u = c.follower.poll();
    ASSERT_EQ(u.steps.size(), 1u);
    EXPECT_EQ(u.steps[0].step, 1);
    EXPECT_EQ(u.steps[0].fNs, 400000);
    EXPECT_TRUE(u.notes.empty());
    EXPECT_EQ(u.state, FollowState::Running);
}

TEST(ProbeFollow, AtMostMaxStepsAPollTheRestNext)
{
    TempFolder dir("backpressure");
    writeProbeJson(dir, getpid(), hostName());
    for (int i = 0; i < 10; ++i)
        append(dir.file("steps.jsonl"), stepLine(i));
    Clocked c(dir);
    std::vector<int64_t> seen;
    std::vector<bool> more;
    for (int poll = 0; poll < 4; ++poll) {
        const auto u = c.follower.poll(4);
        EXPECT_LE(u.steps.size(), 4u);
        for (const ProbeStep& s : u.steps)
            seen.push_back(s.step);
        more.push_back(u.more);
    }
    EXPECT_EQ(seen, (std::vector<int64_t> { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9 }));
    EXPECT_EQ(more, (std::vector<bool> { true, true, false, false }));
}

TEST(ProbeFollow, FileThatShrinksIsReadAgainFromItsStart)
{
    TempFolder dir("shrink");
    writeProbeJson(dir, getpid(), hostName());
    for (int i = 0; i < 5; ++i)
        append(dir.file("steps.jsonl"), stepLine(i));
    Clocked c(dir);
    EXPECT_EQ(c.follower.poll().steps.size(), 5u);
    writeFile(dir.file("steps.jsonl"), stepLine(0) + stepLine(1)); // the probe started again
    const auto u = c.follower.poll();
    ASSERT_EQ(u.steps.size(), 2u);
    EXPECT_EQ(u.steps[0].step, 0);
    EXPECT_TRUE(u.restarted);
    EXPECT_TRUE(hasNote(u, "steps.jsonl: the file shrank to")) << ::testing::PrintToString(u.notes);
}

// A new probe.json (another pid) is another run, even where its files grew past what was read.
TEST(ProbeFollow, AnotherRunInTheFolderStartsOver)
{
    TempFolder dir("another-run");
    writeProbeJson(dir, getpid(), hostName());
    writeFile(dir.file("steps.jsonl"), stepLine(7) + stepLine(8));
    Clocked c(dir);
    EXPECT_EQ(c.follower.poll().steps.size(), 2u);
    writeProbeJson(dir, getppid(), hostName());
    writeFile(dir.file("steps.jsonl"), stepLine(0) + stepLine(1) + stepLine(2));
    const auto u = c.follower.poll();
    EXPECT_TRUE(u.restarted);
    ASSERT_TRUE(u.start);
    EXPECT_EQ(u.start->pid, getppid());
    ASSERT_EQ(u.steps.size(), 3u);
    EXPECT_EQ(u.steps[0].step, 0);
}

// The probe writes its JSON files whole, but one that does not parse is said where, and read again.
TEST(ProbeFollow, WholeFileThatDoesNotParseIsReadAgain)
{
    TempFolder dir("whole-file");
    writeProbeJson(dir, getpid(), hostName());
    writeFile(dir.file("end.json"), "{\"exit_code\": 0,");
    Clocked c(dir);
    auto u = c.follower.poll();
    EXPECT_EQ(u.state, FollowState::Running);
    EXPECT_EQ(u.notes,
        (std::vector<std::string> { "end.json:1:17: expected JSON as the probe writes it, found the end of the file "
                                    "(read again at the next poll)" }));
    EXPECT_TRUE(c.follower.poll().notes.empty()); // said once
    writeFile(dir.file("end.json"), kEnd);
    u = c.follower.poll();
    EXPECT_EQ(u.state, FollowState::Ended);
    EXPECT_TRUE(u.end);
}

TEST(ProbeFollow, MalformedLineLocatedOnceAndSkipped)
{
    TempFolder dir("malformed");
    writeProbeJson(dir, getpid(), hostName());
    std::string typed = stepLine(2);
    typed.replace(typed.find("\"step\":2"), 8, "\"step\":\"two\"");
    writeFile(dir.file("steps.jsonl"), stepLine(0) + "{\"step\":1,\"stage\":x}\n" + typed + stepLine(3));
    Clocked c(dir);
    const auto u = c.follower.poll();
    ASSERT_EQ(u.steps.size(), 2u);
    EXPECT_EQ(u.steps[0].step, 0);
    EXPECT_EQ(u.steps[1].step, 3);
    EXPECT_EQ(u.notes,
        (std::vector<std::string> { "steps.jsonl:2:19: expected JSON as the probe writes it, found 'x'",
            "steps.jsonl:3:2: expected an integer at \"step\", found \"two\"" }));
    EXPECT_TRUE(c.follower.poll().notes.empty());
}

TEST(ProbeFollow, WaitingRunningEnded)
{
    TempFolder dir("states");
    Clocked c(dir);
    EXPECT_EQ(c.follower.poll().state, FollowState::Waiting);
    writeProbeJson(dir, getpid(), hostName());
    auto u = c.follower.poll();
    EXPECT_EQ(u.state, FollowState::Running);
    ASSERT_TRUE(u.start);
    EXPECT_EQ(u.start->pid, getpid());
    EXPECT_EQ(u.start->blockSteps, 20);
    EXPECT_FALSE(c.follower.poll().start); // said once, until probe.json changes

    for (int i = 0; i < 3; ++i)
        append(dir.file("steps.jsonl"), stepLine(i));
    writeFile(dir.file("end.json"), kEnd);
    // The last steps come before the end: while steps wait beyond maxSteps, the job still runs.
    u = c.follower.poll(2);
    EXPECT_EQ(u.steps.size(), 2u);
    EXPECT_TRUE(u.more);
    EXPECT_EQ(u.state, FollowState::Running);
    EXPECT_FALSE(u.end);
    u = c.follower.poll(2);
    EXPECT_EQ(u.steps.size(), 1u);
    EXPECT_EQ(u.state, FollowState::Ended);
    ASSERT_TRUE(u.end);
    EXPECT_EQ(u.end->outcome, "ok");
    EXPECT_EQ(u.end->exitCode, 0);
    EXPECT_EQ(u.end->stepsWritten, 3);
    u = c.follower.poll(2);
    EXPECT_EQ(u.state, FollowState::Ended);
    EXPECT_FALSE(u.end); // handed out once
    EXPECT_STREQ(toString(FollowState::Ended), "ended");
}

TEST(ProbeFollow, ASiteNamesTheUserLineThatLedToALibrarysSync)
{
    TempFolder dir("usersite");
    Clocked c(dir);
    writeProbeJson(dir, getpid(), hostName());
    writeFile(dir.file("sites.json"),
        R"({"format_version": 1, "sites": [{"id": 0, "op": "item", "file": "/venv/lib/python3.12/site-packages/)"
        R"(metrics/log.py", "line": 12, "function": "log", "user_file": "/home/me/train.py", "user_line": 88, )"
        R"("user_function": "main", "count": 3, "total_wait_ms": 1.5, "median_wait_us": 500, "max_wait_us": 600},)"
        R"({"id": 1, "op": "float", "file": "/home/me/train.py", "line": 90, "function": "main", "count": 1, )"
        R"("total_wait_ms": 0.1, "median_wait_us": 100, "max_wait_us": 100}]})");
    const ProbeFollowUpdate u = c.follower.poll();
    ASSERT_TRUE(u.sites);
    ASSERT_EQ(u.sites->size(), 2u);
    EXPECT_EQ((*u.sites)[0].file, "/venv/lib/python3.12/site-packages/metrics/log.py");
    EXPECT_EQ((*u.sites)[0].userFile, "/home/me/train.py");
    EXPECT_EQ((*u.sites)[0].userLine, 88);
    EXPECT_TRUE((*u.sites)[1].userFile.empty()); // a folder of an earlier probe: no user frame said
    EXPECT_EQ((*u.sites)[1].userLine, 0);
}

TEST(ProbeFollow, AFifoWhereStepsShouldBeIsANoteNotAWait)
{
    TempFolder dir("fifo");
    writeProbeJson(dir, getpid(), hostName());
    ASSERT_EQ(::mkfifo(dir.file("steps.jsonl").c_str(), 0600), 0);
    Clocked c(dir);
    const ProbeFollowUpdate u = c.follower.poll();
    EXPECT_EQ(u.state, FollowState::Running);
    EXPECT_EQ(u.notes, std::vector<std::string> { "steps.jsonl: a FIFO where the probe writes a file; not read" });
    EXPECT_TRUE(c.follower.poll().notes.empty()); // said once
}

TEST(ProbeFollow, JobGoneMidLineIsCrashed)
{
    TempFolder dir("crashed");
    const pid_t child = fork();
    if (child == 0)
        _exit(0);
    ASSERT_GT(child, 0);
    int status = 0;
    ASSERT_EQ(waitpid(child, &status, 0), child); // reaped: the pid is free

    const std::string cut = stepLine(1).substr(0, 50);
    writeFile(dir.file("steps.jsonl"), stepLine(0) + cut);
    const auto size = fs::file_size(dir.file("steps.jsonl"));

    writeProbeJson(dir, getpid(), hostName()); // alive: running, the line may still complete
    Clocked alive(dir);
    EXPECT_EQ(alive.follower.poll().state, FollowState::Running);

    writeProbeJson(dir, child, hostName());
    Clocked c(dir);
    const auto u = c.follower.poll();
    EXPECT_EQ(u.steps.size(), 1u);
    EXPECT_EQ(u.state, FollowState::Crashed);
    EXPECT_TRUE(hasNote(
        u, "steps.jsonl: the last line is cut off at byte " + std::to_string(size) + " (the job stopped mid-write)"))
        << ::testing::PrintToString(u.notes);

    writeProbeJson(dir, child, hostName() + "-elsewhere"); // another host's pid says nothing here
    Clocked other(dir);
    EXPECT_EQ(other.follower.poll().state, FollowState::Running);
}

TEST(ProbeFollow, NoGrowthForStallSIsStalled)
{
    TempFolder dir("stalled");
    writeProbeJson(dir, getpid(), hostName());
    Clocked c(dir, 10);
    EXPECT_EQ(c.follower.poll().state, FollowState::Running);
    c.now += 9;
    EXPECT_EQ(c.follower.poll().state, FollowState::Running);
    c.now += 2;
    EXPECT_EQ(c.follower.poll().state, FollowState::Stalled);
    append(dir.file("steps.jsonl"), stepLine(0));
    EXPECT_EQ(c.follower.poll().state, FollowState::Running);
    c.now += 10;
    EXPECT_EQ(c.follower.poll().state, FollowState::Stalled);
    writeFile(dir.file("end.json"), kEnd);
    EXPECT_EQ(c.follower.poll().state, FollowState::Ended);
}

TEST(ProbeFollow, SitesRewrittenWhileNoStepComesIsStillAStall)
{
    // The probe rewrites sites.json every 5 s, steps or not: a job stuck in a step is stalled.
    TempFolder dir("stalledsites");
    writeProbeJson(dir, getpid(), hostName());
    append(dir.file("steps.jsonl"), stepLine(0));
    Clocked c(dir, 10);
    EXPECT_EQ(c.follower.poll().state, FollowState::Running);
    for (int i = 1; i <= 5; ++i) {
        c.now += 5;
        writeFile(dir.file("sites.json"),
            R"({"format_version": 1, "sites": [{"id": 0, "op": "item", "file": "t.py", "line": )" + std::to_string(i)
                + R"(, "count": 1, "total_wait_ms": 0.1}]})");
        const ProbeFollowUpdate u = c.follower.poll();
        EXPECT_EQ(u.state, i < 2 ? FollowState::Running : FollowState::Stalled) << i;
    }
}

TEST(ProbeFollow, DeletedFolderKeepsWhatWasRead)
{
    auto dir = std::make_unique<TempFolder>("deleted");
    writeProbeJson(*dir, getpid(), hostName());
    writeFile(dir->file("steps.jsonl"), stepLine(0) + stepLine(1));
    Clocked c(*dir);
    EXPECT_EQ(c.follower.poll().steps.size(), 2u);
    dir.reset();
    const auto u = c.follower.poll();
    EXPECT_EQ(u.state, FollowState::Deleted);
    EXPECT_EQ(c.follower.state(), FollowState::Deleted);
    EXPECT_TRUE(hasNote(u, "the folder is gone"));
}

TEST(ProbeFollow, TraceHandedOutOnceWhole)
{
    TempFolder dir("trace");
    writeProbeJson(dir, getpid(), hostName());
    Clocked c(dir);
    c.follower.poll();
    writeFile(dir.file("trace.pt.trace.json"), "{\"traceEvents\": [");
    EXPECT_FALSE(c.follower.poll().traceAppeared); // first seen: may still be written
    append(dir.file("trace.pt.trace.json"), "]}");
    EXPECT_FALSE(c.follower.poll().traceAppeared); // grew
    auto u = c.follower.poll(); // held its size over one poll
    EXPECT_TRUE(u.traceAppeared);
    EXPECT_EQ(u.tracePath, dir.file("trace.pt.trace.json"));
    EXPECT_FALSE(c.follower.poll().traceAppeared);

    // Steps of a block after it: the capture was written before them, so it is whole at once.
    TempFolder second("trace-block");
    writeProbeJson(second, getpid(), hostName());
    Clocked d(second);
    writeFile(second.file("trace.pt.trace.json.gz"), "gz bytes");
    writeFile(second.file("steps.jsonl"), stepLine(0, "block"));
    u = d.follower.poll();
    EXPECT_TRUE(u.traceAppeared);
    EXPECT_EQ(u.tracePath, second.file("trace.pt.trace.json.gz"));
}

// The live A/B ports the probe's method (stats.py, its random stream and math.fsum included): on
// the committed folder's blocks it must give ab.json's numbers. Both sides compute from the same
// 53 rounds with the same resampling draws, so they differ only by the last bits of exp/log (the
// folder was written by another machine's libm): 1e-9 percentage points leaves room for that and
// none for a different method (another seed or resample index moves the bounds by 0.01 or more).
TEST(ProbeFollow, LiveAbAgreesWithAbJson)
{
    ProbeFollower follower(kFolder);
    std::vector<ProbeBlock> blocks;
    std::optional<ProbeLiveAb> final;
    ProbeFollowUpdate u;
    for (int poll = 0; poll < 10 && u.state != FollowState::Ended; ++poll) {
        u = follower.poll();
        blocks.insert(blocks.end(), u.blocks.begin(), u.blocks.end());
        if (u.abFinal)
            final = u.abFinal;
        EXPECT_TRUE(u.notes.empty()) << ::testing::PrintToString(u.notes);
    }
    EXPECT_EQ(u.state, FollowState::Ended);
    ASSERT_EQ(blocks.size(), 213u);
    ASSERT_TRUE(final);
    EXPECT_FALSE(blocks.front().probeMs); // written before the probe timed itself: absent, not 0

    std::ifstream in(kFolder + "/ab.json");
    const auto ab = nlohmann::json::parse(in);
    const ProbeLiveAb live = liveAb(blocks);
    EXPECT_EQ(live.rounds, ab.at("rounds").get<int>());
    EXPECT_EQ(final->rounds, live.rounds);
    ASSERT_TRUE(live.item && live.control && final->item && final->control);
    const auto expectNear = [](const Interval& got, const nlohmann::json& want) {
        EXPECT_NEAR(got.estimate, want.at("pct").get<double>(), 1e-9);
        EXPECT_NEAR(got.low, want.at("ci_low").get<double>(), 1e-9);
        EXPECT_NEAR(got.high, want.at("ci_high").get<double>(), 1e-9);
    };
    expectNear(*live.item, ab.at("estimates").at("item"));
    expectNear(*live.control, ab.at("estimates").at("none_aa"));
    expectNear(*final->item, ab.at("estimates").at("item"));

    // Rounds complete one at a time: fewer than 2, no interval yet.
    const std::vector<ProbeBlock> first(blocks.begin(), blocks.begin() + 6);
    const ProbeLiveAb early = liveAb(first);
    EXPECT_EQ(early.rounds, 1);
    EXPECT_FALSE(early.item);
}

TEST(ProbeFollow, RoundsWithoutCalibrationFromOlderFolders)
{
    std::vector<ProbeBlock> blocks;
    for (int round = 0; round < 3; ++round) {
        for (const char* style : { "none", "none_aa", "item" }) {
            ProbeBlock b;
            b.round = round;
            b.style = style;
            b.msPerStep = std::string(style) == "item" ? 1.1 : 1.0 + 0.01 * round;
            blocks.push_back(b);
        }
    }
    const ProbeLiveAb ab = liveAb(blocks);
    EXPECT_EQ(ab.rounds, 3);
    ASSERT_TRUE(ab.item);
    EXPECT_GT(ab.item->estimate, 8);
    EXPECT_LT(ab.item->estimate, 11);
    blocks.push_back(blocks.back());
    blocks.back().style = "calib"; // a folder with calibration blocks: only round 2 has one
    EXPECT_EQ(liveAb(blocks).rounds, 1);
}

namespace {

pid_t spawnReplay(const std::vector<std::string>& args)
{
#ifdef SYNCTAX_PYTHON3
    std::vector<std::string> words = { SYNCTAX_PYTHON3, SYNCTAX_SCRIPTS "/replay-probe-run.py" };
    words.insert(words.end(), args.begin(), args.end());
    std::vector<char*> argv;
    argv.reserve(words.size() + 1);
    for (std::string& w : words)
        argv.push_back(w.data());
    argv.push_back(nullptr);
    pid_t pid = 0;
    return posix_spawn(&pid, argv[0], nullptr, nullptr, argv.data(), environ) == 0 ? pid : -1;
#else
    (void)args;
    return -1;
#endif
}

} // namespace

// scripts/replay-probe-run.py writes 2000 steps at 1000 a second while the follower polls every
// 20 ms: each step arrives once, in order, and the run ends as Ended.
TEST(ProbeFollow, SyntheticReplayFollowedToItsEnd)
{
#ifndef SYNCTAX_PYTHON3
    GTEST_SKIP() << "no python3 found at configure time";
#endif
    TempFolder dir("replay");
    const std::string out = dir.file("run");
    const pid_t pid = spawnReplay({ "--synthetic-steps", "2000", "--steps-per-s", "1000", out });
    ASSERT_GT(pid, 0);
    ProbeFollower follower(out);
    std::vector<int64_t> steps;
    size_t blocks = 0;
    size_t timed = 0; // blocks that say the probe's own time
    bool trace = false;
    ProbeFollowUpdate u;
    // A bound on polls, not a timing: a follower that never sees the end fails here, not by hanging.
    for (int poll = 0; poll < 6000; ++poll) {
        u = follower.poll(16); // fewer than arrive in 20 ms: back-pressure, every step still once
        for (const ProbeStep& s : u.steps)
            steps.push_back(s.step);
        blocks += u.blocks.size();
        for (const ProbeBlock& b : u.blocks)
            timed += b.probeMs && *b.probeMs > 0 ? 1 : 0;
        trace = trace || u.traceAppeared;
        EXPECT_TRUE(u.notes.empty()) << ::testing::PrintToString(u.notes);
        if (u.state == FollowState::Ended || u.state == FollowState::Crashed)
            break;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    int status = -1;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    EXPECT_EQ(u.state, FollowState::Ended);
    ASSERT_EQ(steps.size(), 2000u);
    for (size_t i = 0; i < steps.size(); ++i)
        ASSERT_EQ(steps[i], static_cast<int64_t>(i));
    EXPECT_EQ(blocks, 97u); // (2000 - 45) / 20 whole blocks after warm-up, capture and settling
    EXPECT_EQ(timed, blocks);
    EXPECT_TRUE(trace);
    ASSERT_TRUE(u.end);
    EXPECT_EQ(u.end->stepsWritten, 2000);
}

// --crash-at-step: the script exits mid-line without end.json; the follower says Crashed and
// where the line was cut.
TEST(ProbeFollow, ReplayCrashedMidLine)
{
#ifndef SYNCTAX_PYTHON3
    GTEST_SKIP() << "no python3 found at configure time";
#endif
    TempFolder dir("replay-crash");
    const std::string out = dir.file("run");
    const pid_t pid
        = spawnReplay({ "--synthetic-steps", "200", "--steps-per-s", "4000", "--crash-at-step", "150", out });
    ASSERT_GT(pid, 0);
    int status = -1;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 1);
    ProbeFollower follower(out);
    const auto u = follower.poll();
    EXPECT_EQ(u.state, FollowState::Crashed);
    ASSERT_EQ(u.steps.size(), 150u);
    EXPECT_EQ(u.steps.back().step, 149);
    EXPECT_TRUE(hasNote(u,
        "steps.jsonl: the last line is cut off at byte " + std::to_string(fs::file_size(out + "/steps.jsonl"))
            + " (the job stopped mid-write)"))
        << ::testing::PrintToString(u.notes);
}
