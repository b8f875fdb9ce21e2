// A run folder of `python3 -m synctax_probe --ab defer:FILE:LINE` (tests/data/probe/defer-log-cpu):
// read back with its line and its answer said as the probe says it; a killed run's A/B from its
// defer blocks; the live view taking `defer` as the treatment; and the defer object's impossible
// values refused at their file and key.
#include "core/probe/probefolder.h"
#include "core/probe/probefollow.h"
#include "core/probe/probelines.h"
#include "core/probe/traceopen.h"

#include "tests/core/probe/probefiles.h"
#include "tests/core/textlines.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <numeric>
#include <string>
#include <vector>

#include <unistd.h>

using namespace synctax;

namespace {

namespace fs = std::filesystem;

const std::string kFolder = SYNCTAX_TEST_DATA "/probe/defer-log-cpu";
const std::string kSite = "probe/tests/scripts/defer_log.py:26";

// A copy of the committed folder in a fresh temporary folder, to spoil; removed at the end.
struct FolderCopy {
    explicit FolderCopy(const std::string& name)
        : dir(fs::temp_directory_path() / ("synctax-probedefer-" + name + "-" + std::to_string(::getpid())))
    {
        copyFolder(kFolder, dir);
    }
    ~FolderCopy() { fs::remove_all(dir); }
    fs::path dir;
};

std::string replaced(std::string text, const std::string& from, const std::string& to)
{
    for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
        text.replace(at, from.size(), to);
    return text;
}

std::vector<ProbeBlock> readBlocks(const fs::path& path)
{
    std::vector<ProbeBlock> blocks;
    std::ifstream in(path);
    for (std::string line; std::getline(in, line);) {
        ConfigError error;
        const auto block = parseProbeBlock(line, error);
        EXPECT_TRUE(block) << error.message;
        if (block)
            blocks.push_back(*block);
    }
    return blocks;
}

// The 1-based line of the text where `key` is written, from byte `from` on.
int lineOf(const std::string& text, const std::string& key, size_t from = 0)
{
    const size_t at = text.find('"' + key + '"', from);
    return at == std::string::npos ? 0 : int(std::count(text.begin(), text.begin() + std::ptrdiff_t(at), '\n')) + 1;
}

} // namespace

TEST(ProbeDefer, AFolderOfDeferIsReadWithItsLineAndItsAnswer)
{
    const ProbeFolderRead read = readProbeFolder(kFolder);
    ASSERT_TRUE(read.folder) << formatErrors(read.errors);
    const ProbeFolder& f = *read.folder;
    const nlohmann::json ab = readJson(kFolder + "/ab.json");
    const nlohmann::json& defer = ab.at("defer");
    EXPECT_EQ(f.ab, "defer");
    EXPECT_EQ(f.cudaAvailable, false);
    ASSERT_TRUE(f.item && f.control);
    EXPECT_DOUBLE_EQ(f.item->pct, ab.at("estimates").at("defer").at("pct").get<double>());
    EXPECT_DOUBLE_EQ(f.item->ciHigh, defer.at("measured").at("ci_high").get<double>());
    EXPECT_EQ(f.rounds, ab.at("rounds").get<int>());

    ASSERT_TRUE(f.defer);
    const ProbeDefer& d = *f.defer;
    EXPECT_EQ(d.site, kSite);
    EXPECT_FALSE(d.picked);
    EXPECT_FALSE(d.fromBlocks);
    EXPECT_EQ(d.ops, std::vector<std::string> { "item" });
    EXPECT_DOUBLE_EQ(d.callsPerStep, defer.at("calls_per_step").get<double>());
    ASSERT_TRUE(d.waitMs);
    EXPECT_DOUBLE_EQ(*d.waitMs, defer.at("wait_ms").get<double>());
    EXPECT_TRUE(d.refused.empty());
    const nlohmann::json& reads = defer.at("deferred");
    EXPECT_EQ(d.calls, reads.at("calls").get<int64_t>());
    EXPECT_EQ(d.late, reads.at("late").get<int64_t>());
    EXPECT_EQ(d.waited, reads.at("waited_first").get<int64_t>() + reads.at("waited_in_flight").get<int64_t>());
    ASSERT_TRUE(d.lagCalls && d.lagSteps);
    EXPECT_EQ(d.lagCalls->max, reads.at("lag_calls").at("max").get<int64_t>());
    EXPECT_EQ(d.lagLimitCalls, 8);

    // The answer is the probe's own closing line (its µs written us), in place of "defer (measured)".
    const std::string text = unwrapped(formatProbeAnswer(f, nullptr));
    const std::string probeSaid = replaced(defer.at("text").get<std::string>(), "\u00b5s", "us");
    EXPECT_NE(text.find("Measured in your loop (synctax_probe --ab defer, "), std::string::npos) << text;
    EXPECT_NE(text.find(probeSaid), std::string::npos) << probeSaid << "\n" << text;
    EXPECT_NE(text.find("deferring " + kSite + " (`item`, 1 a step, "), std::string::npos) << text;
    EXPECT_NE(text.find("in its blocks the loop saw that line's values late: " + std::to_string(d.late) + " of "
                  + std::to_string(d.calls) + " reads, 1 read (1 step) late at the median, 1 read at most"),
        std::string::npos)
        << text;
    EXPECT_EQ(text.find("defer (measured)"), std::string::npos) << text;
    EXPECT_EQ(unwrapped(formatDeferAnswer(f, 0)).find(probeSaid), 2u);
}

TEST(ProbeDefer, ASavingIsSaidAsOneAndACpuRunsCaveatOnlyWithoutADevice)
{
    ProbeFolder f = *readProbeFolder(kFolder).folder;
    f.item->pct = -12.25;
    f.item->ciLow = -20.0;
    f.item->ciHigh = -4.5;
    f.cudaAvailable = true;
    f.defer->ops = { "float", "item" };
    f.defer->callsPerStep = 2;
    f.defer->waitMs = 3.125;
    f.roundsBeforeCaptureOnly = true;
    const std::string text = unwrapped(formatDeferAnswer(f, 0));
    EXPECT_NE(text.find("deferring " + kSite
                  + " (`float, item`, 2 a step, 3.12 ms wait) saves -12.2% [-20.0, -4.5] "
                    "of the step, measured in your loop ("
                  + std::to_string(f.rounds) + " rounds before the capture, which left the loop changed, paired, A/A "),
        std::string::npos)
        << text;
    EXPECT_EQ(text.find("no device"), std::string::npos) << text;
}

TEST(ProbeDefer, AKilledDeferRunsABComesFromItsBlocks)
{
    // No ab.json nor end.json: the A/B from blocks.jsonl's complete rounds with `defer` the
    // treatment, as the app's live view computes it, and the line and its reads from the blocks.
    FolderCopy copy("killed");
    const ProbeFolderRead whole = readProbeFolder(copy.dir.string());
    ASSERT_TRUE(whole.folder && whole.folder->item) << formatErrors(whole.errors);
    fs::remove(copy.dir / "ab.json");
    fs::remove(copy.dir / "end.json");
    std::ofstream(copy.dir / "blocks.jsonl", std::ios::app) << "{\"block\":9999,\"round\":"; // cut off mid-line
    const ProbeFolderRead read = readProbeFolder(copy.dir.string());
    ASSERT_TRUE(read.folder) << formatErrors(read.errors);
    const ProbeFolder& f = *read.folder;
    EXPECT_EQ(f.ab, "defer");
    ASSERT_TRUE(f.item && f.control);
    EXPECT_EQ(f.rounds, whole.folder->rounds);
    EXPECT_NEAR(f.item->pct, whole.folder->item->pct, 0.05);
    EXPECT_NEAR(f.item->ciLow, whole.folder->item->ciLow, 0.05);
    EXPECT_NEAR(f.control->ciHigh, whole.folder->control->ciHigh, 0.05);
    ASSERT_TRUE(f.defer);
    EXPECT_TRUE(f.defer->fromBlocks);
    EXPECT_EQ(f.defer->site, kSite);
    EXPECT_EQ(f.defer->late, whole.folder->defer->late);
    EXPECT_EQ(f.defer->calls, whole.folder->defer->calls);
    const std::string text = unwrapped(formatProbeAnswer(f, nullptr));
    EXPECT_NE(text.find("deferring " + kSite + (f.item->pct <= 0 ? " saves " : " costs ")), std::string::npos) << text;
    EXPECT_NE(text.find("in its blocks the loop saw that line's values late: " + std::to_string(f.defer->late)),
        std::string::npos)
        << text;
    EXPECT_NE(text.find("no ab.json"), std::string::npos) << text;
}

TEST(ProbeDefer, ARoundBeforeTheLineWasPickedIsLeftOutAsTheProbeLeavesItOut)
{
    std::vector<ProbeBlock> blocks = readBlocks(kFolder + "/blocks.jsonl");
    const ProbeLiveAb all = liveAb(blocks);
    // --ab defer had picked no line when round 0's defer block ran.
    const auto first = std::find_if(
        blocks.begin(), blocks.end(), [](const ProbeBlock& b) { return b.style == "defer" && b.round == 0; });
    ASSERT_NE(first, blocks.end());
    first->deferredSite.reset();
    first->deferred = 0;
    const ProbeLiveAb without = liveAb(blocks);
    EXPECT_EQ(without.rounds, all.rounds - 1);
    const ProbeAb ab = abOfBlocks(blocks, without, "defer");
    ASSERT_TRUE(ab.defer);
    EXPECT_EQ(ab.defer->roundsWithoutLine, 1);
    EXPECT_EQ(ab.defer->site, kSite);

    // Before any defer block, probe.json's --ab names the style; none of its blocks is a treatment.
    std::vector<ProbeBlock> firstBlocks;
    std::copy_if(blocks.begin(), blocks.end(), std::back_inserter(firstBlocks),
        [](const ProbeBlock& b) { return b.round == 0 && b.style != "defer"; });
    ASSERT_FALSE(firstBlocks.empty());
    EXPECT_EQ(abTreatment(firstBlocks, "defer:" + kSite), "defer");
    EXPECT_EQ(abTreatment(firstBlocks, "item"), "item");
    EXPECT_EQ(abTreatment(blocks, "item"), "defer"); // the blocks say what ran
    const ProbeAb early = abOfBlocks(firstBlocks, liveAb(firstBlocks), "defer:" + kSite);
    EXPECT_EQ(early.ab, "defer");
    EXPECT_FALSE(early.item);
    EXPECT_NE(early.reason.find("no line deferred yet"), std::string::npos) << early.reason;
}

TEST(ProbeDefer, TheFollowerHandsOutTheDeferAnswerAndTheLiveABAgreesWithIt)
{
    ProbeFollower follower(kFolder);
    std::vector<ProbeBlock> blocks;
    std::optional<ProbeAb> written;
    std::optional<ProbeStart> start;
    for (int i = 0; i < 100; ++i) {
        ProbeFollowUpdate u = follower.poll();
        blocks.insert(blocks.end(), u.blocks.begin(), u.blocks.end());
        if (u.abWritten)
            written = u.abWritten;
        if (u.start)
            start = u.start;
        if (isOver(u.state) && !u.more)
            break;
    }
    ASSERT_TRUE(written && written->defer && written->item);
    ASSERT_TRUE(start);
    EXPECT_EQ(start->ab, "defer:" + kSite);
    EXPECT_EQ(start->cudaAvailable, false);
    EXPECT_EQ(written->defer->site, kSite);
    const ProbeLiveAb live = liveAb(blocks, start->resamples, start->seed);
    ASSERT_TRUE(live.item);
    EXPECT_EQ(live.rounds, written->rounds);
    EXPECT_NEAR(live.item->estimate, written->item->pct, 0.05);
    EXPECT_NEAR(live.item->low, written->item->ciLow, 0.05);
    EXPECT_NEAR(live.item->high, written->item->ciHigh, 0.05);
    const std::optional<ProbeBlock> deferBlock = [&]() -> std::optional<ProbeBlock> {
        for (const ProbeBlock& b : blocks)
            if (b.style == "defer")
                return b;
        return std::nullopt;
    }();
    ASSERT_TRUE(deferBlock);
    EXPECT_EQ(deferBlock->deferredSite, kSite);
    EXPECT_GT(deferBlock->deferred, 0);
}

TEST(ProbeDefer, ImpossibleValuesInTheDeferObjectAreRefusedAtTheirFileAndKey)
{
    FolderCopy copy("impossible");
    const std::string abText = readText(copy.dir / "ab.json");
    const auto spoilt = [&](const std::function<void(nlohmann::json&)>& spoil, std::string* written = nullptr) {
        nlohmann::json ab = nlohmann::json::parse(abText);
        spoil(ab.at("defer"));
        const std::string text = ab.dump(1);
        std::ofstream(copy.dir / "ab.json", std::ios::trunc) << text;
        if (written)
            *written = text;
        return readProbeFolder(copy.dir.string());
    };
    // Each located at its key inside `defer`, not at a key of the same name before it.
    std::string text;
    ProbeFolderRead read = spoilt([](nlohmann::json& d) { d["calls_per_step"] = -1.0; }, &text);
    EXPECT_FALSE(read.folder);
    ASSERT_EQ(read.errors.size(), 1u);
    EXPECT_EQ(read.errors[0].file, (copy.dir / "ab.json").string());
    EXPECT_EQ(
        read.errors[0].message, "expected a number of reads a step from 0 to 1e+12 at \"calls_per_step\", found -1");
    EXPECT_EQ(read.errors[0].line, lineOf(text, "calls_per_step"));

    read = spoilt([](nlohmann::json& d) { d["wait_ms"] = "slow"; });
    ASSERT_EQ(read.errors.size(), 1u);
    EXPECT_EQ(read.errors[0].message, "expected a number at \"wait_ms\", found \"slow\"");

    read = spoilt([](nlohmann::json& d) { d["wait_ms"] = 2e6; });
    ASSERT_EQ(read.errors.size(), 1u);
    EXPECT_EQ(read.errors[0].message, "expected a wait in ms from 0 to 1e+06 at \"wait_ms\", found 2e+06");

    read = spoilt([](nlohmann::json& d) { d["site"] = ""; });
    ASSERT_EQ(read.errors.size(), 1u);
    EXPECT_EQ(read.errors[0].message, "expected FILE:LINE at \"site\", found \"\"");

    read = spoilt([](nlohmann::json& d) { d["chosen"] = "guessed"; });
    ASSERT_EQ(read.errors.size(), 1u);
    EXPECT_EQ(read.errors[0].message, "expected \"named\" or \"picked\" at \"chosen\", found \"guessed\"");

    read = spoilt([](nlohmann::json& d) { d["ops"] = { "item", 3 }; });
    ASSERT_EQ(read.errors.size(), 1u);
    EXPECT_EQ(read.errors[0].message, "expected a list of sync ops at \"ops\", found [\"item\",3]");

    // The reads inside `deferred`: located there, not at defer's own "calls".
    read = spoilt([](nlohmann::json& d) { d["deferred"]["late"] = d["deferred"]["calls"].get<int64_t>() + 5; }, &text);
    ASSERT_EQ(read.errors.size(), 1u);
    EXPECT_EQ(read.errors[0].message.rfind(
                  "expected the sum of late, waited_first, waited_in_flight and not_deferred at \"calls\"", 0),
        0u)
        << read.errors[0].message;
    EXPECT_EQ(read.errors[0].line, lineOf(text, "calls", text.find("\"deferred\": {")));
    EXPECT_NE(read.errors[0].line, lineOf(text, "calls", text.rfind("\"defer\":")));

    read = spoilt([](nlohmann::json& d) { d["deferred"]["waited_first"] = -2; });
    ASSERT_EQ(read.errors.size(), 1u);
    EXPECT_EQ(read.errors[0].message, "expected a number of reads from 0 to 1e+12 at \"waited_first\", found -2");

    read = spoilt([](nlohmann::json& d) { d["deferred"]["lag_calls"] = { { "median", 3 }, { "max", 1 } }; });
    ASSERT_EQ(read.errors.size(), 1u);
    EXPECT_NE(read.errors[0].message.find("with 0 <= median <= max at \"lag_calls\""), std::string::npos)
        << read.errors[0].message;

    read = spoilt([](nlohmann::json& d) { d = 3; });
    ASSERT_EQ(read.errors.size(), 1u);
    EXPECT_EQ(read.errors[0].message, "expected an object: the line --ab defer deferred at \"defer\", found 3");

    // A refused line is no error: no estimate, and the reason said.
    read = spoilt([](nlohmann::json& d) { d["refused"] = "a bool sync steers the loop"; });
    ASSERT_TRUE(read.folder) << formatErrors(read.errors);
    EXPECT_EQ(read.folder->defer->refused, "a bool sync steers the loop");
    std::ofstream(copy.dir / "ab.json", std::ios::trunc) << abText;

    // Without ab.json, a defer block's counts are refused in blocks.jsonl at their line.
    fs::remove(copy.dir / "ab.json");
    std::string blocks = readText(copy.dir / "blocks.jsonl");
    const size_t at = blocks.find("\"deferred\":");
    ASSERT_NE(at, std::string::npos);
    blocks.replace(at, blocks.find(',', at) - at, "\"deferred\":-7");
    std::ofstream(copy.dir / "blocks.jsonl", std::ios::trunc) << blocks;
    read = readProbeFolder(copy.dir.string());
    EXPECT_FALSE(read.folder);
    ASSERT_EQ(read.errors.size(), 1u);
    EXPECT_EQ(read.errors[0].line, int(std::count(blocks.begin(), blocks.begin() + std::ptrdiff_t(at), '\n')) + 1);
    EXPECT_EQ(read.errors[0].message, "expected a number of reads from 0 to 1e+12 at \"deferred\", found -7");
}

TEST(ProbeDefer, TheWhatIfWithoutTheLinesSyncsIsSaidBesideTheMeasuredSaving)
{
    ProbeFolder f = *readProbeFolder(kFolder).folder;
    f.item->pct = -3.5;
    f.item->ciLow = -5.0;
    f.item->ciHigh = -2.0;
    WhatIf w;
    w.withoutLine = WhatIfLine { kSite, 1, 2, 0.9, -4.25, -6.0, -3.0 };
    std::string text = unwrapped(formatProbeAnswer(f, &w, 0));
    EXPECT_NE(text.find("the what-if above, the captured step without " + kSite
                  + "'s 1 sync (2 others kept): -4.2% [-6.0, -3.0]; 0.8 points below the measurement, inside its "
                    "interval"),
        std::string::npos)
        << text;
    w.withoutLine.reset();
    w.withoutLineWhy = "no sync of the captured step is at " + kSite;
    text = unwrapped(formatProbeAnswer(f, &w, 0));
    EXPECT_NE(text.find("the what-if without that line's syncs: not available (no sync of the captured step is at "
                  + kSite + ")"),
        std::string::npos)
        << text;
    // The item what-if's rows are no answer to a defer A/B: none is set beside it.
    EXPECT_EQ(text.find("(what-if above)"), std::string::npos) << text;
}

TEST(ProbeDefer, OpeningADeferFolderReplaysItsCaptureWithoutTheDeferredLine)
{
    // The folder's capture swapped for a GPU loop's whose loss.item() is at record-traces.py:123
    // (tests/data/traces/torch-2.11-h200), and its line named so: openTrace asks the what-if for
    // the loop without that line's syncs.
    FolderCopy copy("whatif");
    fs::remove(copy.dir / "trace.pt.trace.json.gz");
    fs::copy_file(SYNCTAX_TEST_DATA "/traces/torch-2.11-h200/tiny_mlp-item.pt.trace.json.gz",
        copy.dir / "trace.pt.trace.json.gz");
    const std::string site = "scripts/record-traces.py:123";
    std::string ab = readText(copy.dir / "ab.json");
    ab = replaced(ab, kSite, site);
    std::ofstream(copy.dir / "ab.json", std::ios::trunc) << ab;
    const OpenTraceResult opened = openTrace(copy.dir.string(), {});
    ASSERT_TRUE(opened.opened) << opened.error;
    ASSERT_TRUE(opened.probe && opened.probe->defer);
    EXPECT_EQ(opened.opened->loop.options.withoutLine, site);
    const WhatIf w = whatIf(opened.opened->loop, 0);
    ASSERT_TRUE(w.withoutLine) << w.withoutLineWhy;
    EXPECT_EQ(w.withoutLine->syncs, 1);
    EXPECT_LT(w.withoutLine->changePct, 0);
    const std::string text = unwrapped(formatProbeAnswer(*opened.probe, &w, 0));
    EXPECT_NE(text.find("the what-if above, the captured step without " + site + "'s 1 sync (0 others kept): "),
        std::string::npos)
        << text;
}
