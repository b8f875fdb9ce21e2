// A run folder as `python3 -m synctax_probe --ab item` wrote it on the H200 (tests/data/probe): read
// back, the what-if calibrated to its blocks' phases with an interval on each row, and the A/B it
// measured said beside the prediction; and the folders a reader must refuse or qualify.
#include "core/probe/probefolder.h"
#include "core/probe/probelines.h"
#include "core/probe/traceopen.h"

#include "tests/core/probe/probefiles.h"
#include "tests/core/textlines.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

using namespace synctax;

namespace {

namespace fs = std::filesystem;

const std::string kFolder = SYNCTAX_TEST_DATA "/probe/tiny_mlp-h0-h200";
// A loop whose GPU is slower than its host, its steps.jsonl kept (tests/data/probe/README.md).
const std::string kGpuBound = SYNCTAX_TEST_DATA "/probe/resnet50-h0-h200";

const WhatIfRow* row(const WhatIf& w, const std::string& style)
{
    for (const WhatIfRow& r : w.rows) {
        if (r.style == style)
            return &r;
    }
    return nullptr;
}

// A copy of the committed folder in a fresh temporary folder, to spoil.
fs::path copyOfFolder(const std::string& name, const std::string& from = kFolder)
{
    const fs::path dir = fs::temp_directory_path() / ("synctax-probefolder-" + name + "-" + std::to_string(::getpid()));
    copyFolder(from, dir);
    return dir;
}

} // namespace

TEST(ProbeFolder, AFolderTheProbeWroteIsReadWithItsPhasesAndItsAB)
{
    ASSERT_TRUE(isProbeFolder(kFolder));
    const ProbeFolderRead read = readProbeFolder(kFolder);
    ASSERT_TRUE(read.folder) << formatErrors(read.errors);
    const ProbeFolder& f = *read.folder;
    EXPECT_EQ(f.tracePath, kFolder + "/trace.pt.trace.json.gz");
    EXPECT_EQ(f.blockSteps, 20);
    EXPECT_TRUE(f.ended);

    std::ifstream phases(kFolder + "/phases.csv");
    std::size_t lines = 0;
    for (std::string line; std::getline(phases, line);)
        lines += !line.empty() && std::isdigit(static_cast<unsigned char>(line[0]));
    EXPECT_EQ(f.phasesMs.size(), lines);

    const nlohmann::json ab = readJson(kFolder + "/ab.json");
    ASSERT_TRUE(f.item && f.control);
    EXPECT_EQ(f.ab, "item");
    EXPECT_EQ(f.rounds, ab.at("rounds").get<int>());
    EXPECT_DOUBLE_EQ(f.item->pct, ab.at("estimates").at("item").at("pct").get<double>());
    EXPECT_DOUBLE_EQ(f.item->ciLow, ab.at("estimates").at("item").at("ci_low").get<double>());
    EXPECT_DOUBLE_EQ(f.control->ciHigh, ab.at("estimates").at("none_aa").at("ci_high").get<double>());
    EXPECT_EQ(f.windows.size(), ab.at("windows").size());
}

TEST(ProbeFolder, ItsWhatIfIsCalibratedToTheBlocksAndSaidBesideTheMeasurement)
{
    const ProbeFolderRead read = readProbeFolder(kFolder);
    ASSERT_TRUE(read.folder);
    OpenTraceOptions options;
    options.loop = phasesOptions(read.folder->phasesMs);
    const OpenTraceResult opened = openTrace(read.folder->tracePath, options);
    ASSERT_TRUE(opened.opened) << opened.error;
    const ImportedLoop& loop = opened.opened->loop;
    ASSERT_TRUE(loop.available) << loop.reason;
    EXPECT_TRUE(loop.calibrated);
    EXPECT_FALSE(loop.spreadBase.empty());
    const WhatIf w = whatIf(loop, 0);
    EXPECT_TRUE(w.calibrated);
    const WhatIfRow* item = row(w, "item");
    ASSERT_TRUE(item);
    EXPECT_LT(item->taxLowPct, item->taxPct);
    EXPECT_GT(item->taxHighPct, item->taxPct);
    EXPECT_NE(w.uncertaintyHow.find(std::to_string(read.folder->phasesMs.size()) + " blocks"), std::string::npos)
        << w.uncertaintyHow;

    const std::string text = formatProbeAnswer(*read.folder, &w);
    EXPECT_NE(text.find("item (measured)"), std::string::npos) << text;
    EXPECT_NE(text.find("item (what-if above)"), std::string::npos) << text;
    EXPECT_NE(text.find("A/A control"), std::string::npos) << text;
    EXPECT_NE(text.find("over time"), std::string::npos) << text;
}

TEST(ProbeFolder, ATaxThatMovedDuringTheRunIsSaidWithBothHalves)
{
    const fs::path dir = copyOfFolder("taxdrift");
    nlohmann::json ab = readJson((dir / "ab.json").string());
    const auto half = [](double pct, double low, double high) {
        return nlohmann::json { { "pct", pct }, { "ci_low", low }, { "ci_high", high } };
    };
    ab["tax_drift"] = { { "item",
        { { "first_half", half(3.8, 3.1, 4.5) }, { "second_half", half(7.3, 6.0, 8.6) }, { "flagged", true } } } };
    std::ofstream(dir / "ab.json", std::ios::trunc) << ab.dump(1);
    const ProbeFolderRead read = readProbeFolder(dir.string());
    ASSERT_TRUE(read.folder) << formatErrors(read.errors);
    EXPECT_TRUE(read.folder->taxDriftFlagged);
    ASSERT_TRUE(read.folder->taxSecondHalf);
    EXPECT_DOUBLE_EQ(read.folder->taxSecondHalf->ciLow, 6.0);
    const std::string text = formatProbeAnswer(*read.folder, nullptr);
    EXPECT_NE(text.find("the tax moved during the run: +3.8% [+3.1, +4.5]"), std::string::npos) << text;
    EXPECT_NE(text.find("+7.3% [+6.0, +8.6] in the second"), std::string::npos) << text;

    ab["tax_drift"]["item"]["flagged"] = false;
    std::ofstream(dir / "ab.json", std::ios::trunc) << ab.dump(1);
    const ProbeFolderRead steady = readProbeFolder(dir.string());
    ASSERT_TRUE(steady.folder);
    EXPECT_FALSE(steady.folder->taxDriftFlagged);
    EXPECT_EQ(formatProbeAnswer(*steady.folder, nullptr).find("the tax moved during"), std::string::npos);
    fs::remove_all(dir);
}

TEST(ProbeFolder, TimingsCostIsSaidWhereTheOtherBlocksWereCounted)
{
    // The fixture's blocks were all timed (before counted blocks): calib against none is no cost
    // of the probe's there, and is not said. Where ab.json says the others were counted, it is.
    const fs::path dir = copyOfFolder("timing");
    const ProbeFolderRead before = readProbeFolder(dir.string());
    ASSERT_TRUE(before.folder) << formatErrors(before.errors);
    EXPECT_FALSE(before.folder->timing);
    EXPECT_EQ(formatProbeAnswer(*before.folder, nullptr).find("every step timed"), std::string::npos);
    nlohmann::json ab = readJson((dir / "ab.json").string());
    ab["counted_styles"] = { "none", "none_aa", "item" };
    ab["estimates"]["calib"]["pct"] = 1.25;
    ab["estimates"]["calib"]["ci_low"] = -0.5;
    ab["estimates"]["calib"]["ci_high"] = 3.0;
    std::ofstream(dir / "ab.json", std::ios::trunc) << ab.dump(1);
    const ProbeFolderRead read = readProbeFolder(dir.string());
    ASSERT_TRUE(read.folder) << formatErrors(read.errors);
    ASSERT_TRUE(read.folder->timing);
    EXPECT_DOUBLE_EQ(read.folder->timing->ciHigh, 3.0);
    const std::string text = formatProbeAnswer(*read.folder, nullptr, 0);
    EXPECT_NE(text.find("every step timed (calibration blocks) +1.2% [-0.5, +3.0] against the blocks only counted"),
        std::string::npos)
        << text;
    fs::remove_all(dir);
}

TEST(ProbeFolder, AKilledRunsABComesFromItsBlocksAsTheLiveViewComputesIt)
{
    // A job killed before its end writes no ab.json: the A/B is read from blocks.jsonl's rounds, the
    // same answer the app's live view gives and, for a run that did end, the one its ab.json holds.
    const fs::path dir = copyOfFolder("killed");
    const ProbeFolderRead whole = readProbeFolder(dir.string());
    ASSERT_TRUE(whole.folder && whole.folder->item) << formatErrors(whole.errors);
    fs::remove(dir / "ab.json");
    fs::remove(dir / "end.json");
    std::ofstream(dir / "blocks.jsonl", std::ios::app) << "{\"block\":9999,\"round\":"; // cut off mid-line
    const ProbeFolderRead read = readProbeFolder(dir.string());
    ASSERT_TRUE(read.folder) << formatErrors(read.errors);
    const ProbeFolder& f = *read.folder;
    ASSERT_TRUE(f.item && f.control);
    EXPECT_EQ(f.ab, "item");
    EXPECT_EQ(f.rounds, whole.folder->rounds);
    EXPECT_NEAR(f.item->pct, whole.folder->item->pct, 0.05);
    EXPECT_NEAR(f.item->ciLow, whole.folder->item->ciLow, 0.05);
    EXPECT_NEAR(f.item->ciHigh, whole.folder->item->ciHigh, 0.05);
    const std::string text = unwrapped(formatProbeAnswer(f, nullptr));
    EXPECT_EQ(text.find("no A/B ran"), std::string::npos) << text;
    EXPECT_NE(text.find("no ab.json (the job has not ended, or ended without a word): the A/B from blocks.jsonl's "
                  + std::to_string(f.rounds) + " complete rounds"),
        std::string::npos)
        << text;
    fs::remove_all(dir);
}

TEST(ProbeFolder, ACutOffLastLineOfThePhasesIsLeftOutWithANote)
{
    // A job killed while writing phases.csv: its last line stops mid-number, without a newline.
    const fs::path dir = copyOfFolder("cutphases");
    const ProbeFolderRead whole = readProbeFolder(dir.string());
    ASSERT_TRUE(whole.folder) << formatErrors(whole.errors);
    std::ofstream(dir / "phases.csv", std::ios::app) << "0.41";
    const ProbeFolderRead read = readProbeFolder(dir.string());
    ASSERT_TRUE(read.folder) << formatErrors(read.errors);
    EXPECT_EQ(read.folder->phasesMs.size(), whole.folder->phasesMs.size());
    const std::string text = unwrapped(formatProbeAnswer(*read.folder, nullptr));
    EXPECT_NE(text.find("phases.csv:" + std::to_string(whole.folder->phasesMs.size() + 5)
                  + ": a cut-off last line (the job stopped while writing it) left out"),
        std::string::npos)
        << text;
    // A bad line with its newline is still the file's error, located.
    std::ofstream(dir / "phases.csv", std::ios::app) << ",x,1\n";
    const ProbeFolderRead bad = readProbeFolder(dir.string());
    EXPECT_FALSE(bad.folder);
    fs::remove_all(dir);
}

TEST(ProbeFolder, ImpossibleValuesAreRefusedAtTheirFileAndKey)
{
    // Hand-edited or spoilt files: each refused with its file, line and key, never printed as it is
    // nor thrown as a raw JSON error.
    const fs::path dir = copyOfFolder("impossible");
    const std::string probeText = readText(dir / "probe.json");
    nlohmann::json probe = nlohmann::json::parse(probeText);
    probe["script"] = 3;
    std::ofstream(dir / "probe.json", std::ios::trunc) << probe.dump(1);
    ProbeFolderRead read = readProbeFolder(dir.string());
    EXPECT_FALSE(read.folder);
    ASSERT_EQ(read.errors.size(), 1u);
    EXPECT_NE(read.errors[0].file.find("probe.json"), std::string::npos);
    EXPECT_GT(read.errors[0].line, 0);
    EXPECT_EQ(read.errors[0].message, "expected a string at \"script\", found 3");
    std::ofstream(dir / "probe.json", std::ios::trunc) << probeText;

    const std::string abText = readText(dir / "ab.json");
    const auto spoilt = [&](const std::function<void(nlohmann::json&)>& spoil) {
        nlohmann::json ab = nlohmann::json::parse(abText);
        spoil(ab);
        std::ofstream(dir / "ab.json", std::ios::trunc) << ab.dump(1);
        return readProbeFolder(dir.string());
    };
    read = spoilt([](nlohmann::json& ab) { ab["rounds"] = -3; });
    ASSERT_EQ(read.errors.size(), 1u);
    EXPECT_EQ(read.errors[0].message, "expected a count of rounds (0 or more) at \"rounds\", found -3");
    read = spoilt([](nlohmann::json& ab) {
        ab["estimates"]["item"]["pct"] = 250.0;
        ab["estimates"]["item"]["ci_low"] = -50.0;
        ab["estimates"]["item"]["ci_high"] = -60.0;
    });
    ASSERT_EQ(read.errors.size(), 1u);
    EXPECT_NE(read.errors[0].message.find("expected estimates with ci_low <= pct <= ci_high"), std::string::npos)
        << read.errors[0].message;
    read = spoilt([](nlohmann::json& ab) { ab["estimates"]["none_aa"]["ci_low"] = -1e9; });
    ASSERT_EQ(read.errors.size(), 1u);
    read = spoilt([](nlohmann::json& ab) { ab["baseline_step_ms"] = -2.0; });
    ASSERT_EQ(read.errors.size(), 1u);
    EXPECT_EQ(read.errors[0].message, "expected milliseconds above 0 at \"baseline_step_ms\", found -2.0");
    fs::remove_all(dir);
}

TEST(ProbeFolder, ImpossibleNumbersInTheLinesAreRefusedAtTheirLineAndColumn)
{
    // Negative, NaN or absurd phases, and a block or step line the probe could not have written:
    // each refused at its file and line (the column of the number, or its key), not taken as it is.
    const fs::path dir = copyOfFolder("impossible-lines");
    const std::string phasesText = readText(dir / "phases.csv");
    const auto withPhases = [&](const std::string& row) {
        std::ofstream(dir / "phases.csv", std::ios::trunc) << phasesText << row << "\n";
        return readProbeFolder(dir.string());
    };
    const int rowLine = int(std::count(phasesText.begin(), phasesText.end(), '\n')) + 1;
    for (const auto& [row, message] : std::vector<std::pair<std::string, std::string>> {
             { "-0.5,1.0,0.2", "-0.5 is out of range; expected 0 to 1e+06" },
             { "0.5,nan,0.2", "expected a number, found 'nan'" },
             { "0.5,1.0,1e8", "1e8 is out of range; expected 0 to 1e+06" } }) {
        const ProbeFolderRead read = withPhases(row);
        EXPECT_FALSE(read.folder) << row;
        ASSERT_EQ(read.errors.size(), 1u) << row;
        EXPECT_EQ(read.errors[0].file, (dir / "phases.csv").string());
        EXPECT_EQ(read.errors[0].line, rowLine) << row;
        EXPECT_EQ(read.errors[0].message, message);
    }
    std::ofstream(dir / "phases.csv", std::ios::trunc) << phasesText;

    // Without ab.json, blocks.jsonl is read for the A/B: a block of -4 ms a step is refused there.
    fs::remove(dir / "ab.json");
    std::string blocks = readText(dir / "blocks.jsonl");
    const std::size_t at = blocks.find("\"ms_per_step\":");
    ASSERT_NE(at, std::string::npos);
    blocks.replace(at, blocks.find(',', at) - at, "\"ms_per_step\":-4");
    std::ofstream(dir / "blocks.jsonl", std::ios::trunc) << blocks;
    const ProbeFolderRead read = readProbeFolder(dir.string());
    EXPECT_FALSE(read.folder);
    ASSERT_EQ(read.errors.size(), 1u);
    EXPECT_EQ(read.errors[0].line, 1);
    EXPECT_EQ(read.errors[0].message, "expected a time in ms from 0 to 1e+06 at \"ms_per_step\", found -4");
    fs::remove_all(dir);
}

TEST(ProbeFolder, AFifoOrAFolderWhereAFileShouldBeIsLocatedNotWaitedOn)
{
    const fs::path dir = copyOfFolder("fifo");
    fs::remove(dir / "blocks.jsonl");
    ASSERT_EQ(::mkfifo((dir / "blocks.jsonl").c_str(), 0600), 0);
    fs::create_directory(dir / "steps.jsonl");
    const ProbeFolderRead read = readProbeFolder(dir.string()); // a FIFO opened would wait here for ever
    EXPECT_FALSE(read.folder);
    ASSERT_EQ(read.errors.size(), 2u) << formatErrors(read.errors);
    EXPECT_EQ(read.errors[0].file, (dir / "steps.jsonl").string());
    EXPECT_EQ(read.errors[0].message, "is a folder; expected the file python3 -m synctax_probe writes");
    EXPECT_EQ(read.errors[1].message, "is a FIFO; expected the file python3 -m synctax_probe writes");
    fs::remove_all(dir);
}

TEST(ProbeFolder, TheCapturesAfterEffectIsSaidAndAFlaggedOneNamesTheRoundsUsed)
{
    const fs::path dir = copyOfFolder("capture");
    nlohmann::json end = readJson((dir / "end.json").string());
    end["capture_after_effect"] = { { "pct", 0.4 }, { "ci_low", -0.6 }, { "ci_high", 1.5 }, { "before_blocks", 4 },
        { "after_blocks", 4 }, { "before_ms", 15.0 }, { "after_ms", 15.06 } };
    end["capture_after_effect_flagged"] = false;
    end["capture_teardown"] = "TEARDOWN_CUPTI=1 set by the probe: CUPTI torn down after the capture";
    std::ofstream(dir / "end.json", std::ios::trunc) << end.dump(1);
    ProbeFolderRead read = readProbeFolder(dir.string());
    ASSERT_TRUE(read.folder && read.folder->end) << formatErrors(read.errors);
    ASSERT_TRUE(read.folder->end->captureAfterEffect);
    EXPECT_EQ(read.folder->end->captureBlocksBefore, 4);
    std::string text = unwrapped(formatProbeAnswer(*read.folder, nullptr));
    EXPECT_NE(text.find("The capture's after-effect: the loop as it is ran +0.4% [-0.6, +1.5] after the profiled "
                        "capture against before it (4 and 4 blocks); TEARDOWN_CUPTI=1 set by the probe"),
        std::string::npos)
        << text;
    EXPECT_EQ(text.find("the capture left the loop changed"), std::string::npos) << text;

    end["capture_after_effect"]["pct"] = -12.0;
    end["capture_after_effect"]["ci_low"] = -19.0;
    end["capture_after_effect"]["ci_high"] = -3.0;
    end["capture_faster_after"] = true;
    std::ofstream(dir / "end.json", std::ios::trunc) << end.dump(1);
    read = readProbeFolder(dir.string());
    ASSERT_TRUE(read.folder) << formatErrors(read.errors);
    text = unwrapped(formatProbeAnswer(*read.folder, nullptr));
    EXPECT_NE(text.find("-12.0% [-19.0, -3.0] after the profiled capture against before it (4 and 4 blocks); "
                        "TEARDOWN_CUPTI=1 set by the probe: CUPTI torn down after the capture; the loop ran faster "
                        "after it: still speeding up before it, not an after-effect"),
        std::string::npos)
        << text;

    end["capture_faster_after"] = false;
    end["capture_after_effect"]["pct"] = 20.0;
    end["capture_after_effect"]["ci_low"] = 15.0;
    end["capture_after_effect"]["ci_high"] = 25.0;
    end["capture_within_drift"] = true;
    end["capture_drift"] = { { "pct", 21.0 }, { "ci_low", 16.0 }, { "ci_high", 26.0 } };
    std::ofstream(dir / "end.json", std::ios::trunc) << end.dump(1);
    read = readProbeFolder(dir.string());
    ASSERT_TRUE(read.folder) << formatErrors(read.errors);
    text = unwrapped(formatProbeAnswer(*read.folder, nullptr));
    EXPECT_NE(text.find("; not flagged: the loop slowed +21.0% over as many blocks after it with no capture between "
                        "them (its own drift)"),
        std::string::npos)
        << text;

    end["capture_within_drift"] = false;
    end["capture_after_effect"]["pct"] = 30.0;
    end["capture_after_effect"]["ci_low"] = 25.0;
    end["capture_after_effect"]["ci_high"] = 35.0;
    end["capture_after_effect_flagged"] = true;
    std::ofstream(dir / "end.json", std::ios::trunc) << end.dump(1);
    nlohmann::json ab = readJson((dir / "ab.json").string());
    ab["rounds_from"] = "before the capture";
    std::ofstream(dir / "ab.json", std::ios::trunc) << ab.dump(1);
    read = readProbeFolder(dir.string());
    ASSERT_TRUE(read.folder) << formatErrors(read.errors);
    text = unwrapped(formatProbeAnswer(*read.folder, nullptr));
    EXPECT_NE(text.find("rounds, those before the capture, of"), std::string::npos) << text;
    EXPECT_NE(text.find("flagged: the capture left the loop changed, so the A/B comes from the rounds before it"),
        std::string::npos)
        << text;

    end.erase("capture_after_effect");
    end["capture_after_effect_reason"] = "no capture was taken (--profile-steps 0)";
    std::ofstream(dir / "end.json", std::ios::trunc) << end.dump(1);
    read = readProbeFolder(dir.string());
    ASSERT_TRUE(read.folder) << formatErrors(read.errors);
    text = unwrapped(formatProbeAnswer(*read.folder, nullptr));
    EXPECT_NE(text.find("The capture's after-effect was not measured: no capture was taken (--profile-steps 0)"),
        std::string::npos)
        << text;
    fs::remove_all(dir);
}

TEST(ProbeFolder, TheProbesOwnTimeIsNotSaidAsItsCostAndABrokenEndIsANote)
{
    const fs::path dir = copyOfFolder("owntime");
    nlohmann::json end = readJson((dir / "end.json").string());
    end["probe_us_per_step"] = 12.5;
    end["writer_us_per_step"] = 3.25;
    std::ofstream(dir / "end.json", std::ios::trunc) << end.dump(1);
    const double baseMs = readJson((dir / "ab.json").string()).at("baseline_step_ms").get<double>();
    const ProbeFolderRead read = readProbeFolder(dir.string());
    ASSERT_TRUE(read.folder) << formatErrors(read.errors);
    ASSERT_TRUE(read.folder->probeUsPerStep && read.folder->baselineStepMs);
    EXPECT_DOUBLE_EQ(*read.folder->baselineStepMs, baseMs);
    const std::string text = formatProbeAnswer(*read.folder, nullptr);
    EXPECT_NE(text.find("The probe's own time after each optimizer step: median 12.5 us"), std::string::npos) << text;
    // Its own bookkeeping is no cost of the loop's: no share of the step is claimed from it.
    EXPECT_EQ(text.find("% of the"), std::string::npos) << text;
    const std::string flat = unwrapped(text);
    EXPECT_NE(flat.find("its writer thread's CPU: 3.2 us a step (off the loop's thread"), std::string::npos) << text;
    EXPECT_NE(flat.find("What it costs a loop in all is measured against plain processes"), std::string::npos) << text;

    std::ofstream(dir / "end.json", std::ios::trunc) << "{\n \"steps\": 3,\n";
    const ProbeFolderRead broken = readProbeFolder(dir.string());
    ASSERT_TRUE(broken.folder) << formatErrors(broken.errors);
    EXPECT_FALSE(broken.folder->probeUsPerStep);
    const std::string said = formatProbeAnswer(*broken.folder, nullptr);
    EXPECT_NE(said.find("note: end.json does not read"), std::string::npos) << said;
    fs::remove_all(dir);
}

TEST(ProbeFolder, ABrokenFileIsLocatedAndAMissingOneIsANote)
{
    const fs::path dir = copyOfFolder("broken");
    {
        std::ofstream out(dir / "ab.json", std::ios::trunc);
        out << "{\n \"rounds\": 3,\n \"estimates\": {,\n}\n";
    }
    const ProbeFolderRead broken = readProbeFolder(dir.string());
    EXPECT_FALSE(broken.folder);
    ASSERT_EQ(broken.errors.size(), 1u);
    EXPECT_EQ(broken.errors[0].file, (dir / "ab.json").string());
    EXPECT_EQ(broken.errors[0].line, 3);

    // JSON of the wrong shape is located at its key, with what was expected there.
    {
        std::ofstream out(dir / "ab.json", std::ios::trunc);
        out << "{\n \"ab\": \"item\",\n \"rounds\": \"many\",\n \"estimates\": {}\n}\n";
    }
    const ProbeFolderRead misshapen = readProbeFolder(dir.string());
    EXPECT_FALSE(misshapen.folder);
    ASSERT_EQ(misshapen.errors.size(), 1u);
    EXPECT_EQ(misshapen.errors[0].line, 3);
    EXPECT_NE(misshapen.errors[0].message.find("an integer"), std::string::npos) << formatErrors(misshapen.errors);

    fs::remove(dir / "ab.json");
    fs::remove(dir / "end.json");
    fs::remove(dir / "trace.pt.trace.json.gz");
    const ProbeFolderRead partial = readProbeFolder(dir.string());
    ASSERT_TRUE(partial.folder) << formatErrors(partial.errors);
    EXPECT_EQ(partial.folder->ab, "item"); // from blocks.jsonl's rounds
    EXPECT_TRUE(partial.folder->tracePath.empty());
    EXPECT_FALSE(partial.folder->ended);
    EXPECT_EQ(partial.folder->notes.size(), 3u); // no capture; the job has not ended; the A/B of the blocks
    std::string text = formatProbeAnswer(*partial.folder, nullptr);
    EXPECT_NE(text.find("has not ended"), std::string::npos) << text;
    fs::remove(dir / "blocks.jsonl");
    const ProbeFolderRead bare = readProbeFolder(dir.string());
    ASSERT_TRUE(bare.folder) << formatErrors(bare.errors);
    EXPECT_TRUE(bare.folder->ab.empty());
    text = formatProbeAnswer(*bare.folder, nullptr);
    EXPECT_NE(text.find("no A/B ran"), std::string::npos) << text;
    fs::remove_all(dir);
}

TEST(ProbeFolder, EveryStepLineReadsAsItsJsonSays)
{
    // steps.jsonl's lines are read on a quick path; each field as the JSON holds it, a sync list
    // and waits included, and a line the quick path does not take whole still located when off.
    std::vector<std::string> lines;
    std::ifstream in(kGpuBound + "/steps.jsonl");
    for (std::string line; std::getline(in, line);)
        lines.push_back(line);
    ASSERT_GT(lines.size(), 100u);
    lines.push_back(R"({"step":7,"stage":"block","block":3,"round":0,"style":"item","t_ns":5,"f_ns":10,"b_ns":20,)"
                    R"("o_ns":30,"x_ns":40,"waits_ns":[1,2,3],"syncs":[["item",2,900,"O"],["nonzero",0,7,"F"]],)"
                    R"("gpu_ms":1.25,"unknown":{"kept":true}})");
    lines.push_back(R"({"step":8,"stage":"warmup","block":null,"round":null,"style":null,"t_ns":5,"f_ns":1,"b_ns":2,)"
                    R"("o_ns":3})");
    for (const std::string& line : lines) {
        ConfigError error;
        const std::optional<ProbeStep> got = parseProbeStep(line, error);
        ASSERT_TRUE(got) << line << ": " << error.message;
        const nlohmann::json j = nlohmann::json::parse(line);
        EXPECT_EQ(got->step, j.at("step").get<int64_t>());
        EXPECT_EQ(got->stage, j.at("stage").get<std::string>());
        EXPECT_EQ(got->block.has_value(), !j.at("block").is_null());
        if (got->block)
            EXPECT_EQ(*got->block, j.at("block").get<int>());
        EXPECT_EQ(got->style, j.at("style").is_null() ? std::string() : j.at("style").get<std::string>());
        EXPECT_EQ(got->tNs, j.at("t_ns").get<int64_t>());
        EXPECT_EQ(got->fNs, j.at("f_ns").get<int64_t>());
        EXPECT_EQ(got->bNs, j.at("b_ns").get<int64_t>());
        EXPECT_EQ(got->oNs, j.at("o_ns").get<int64_t>());
        EXPECT_EQ(got->xNs, j.value("x_ns", int64_t(0)));
        if (j.contains("waits_ns"))
            EXPECT_EQ(got->waitsNs[2], j.at("waits_ns")[2].get<int64_t>());
        const size_t syncs = j.contains("syncs") ? j.at("syncs").size() : 0;
        ASSERT_EQ(got->syncs.size(), syncs);
        for (size_t k = 0; k < syncs; ++k) {
            EXPECT_EQ(got->syncs[k].op, j.at("syncs")[k][0].get<std::string>());
            EXPECT_EQ(got->syncs[k].site, j.at("syncs")[k][1].get<int>());
            EXPECT_EQ(got->syncs[k].waitNs, j.at("syncs")[k][2].get<int64_t>());
            EXPECT_EQ(got->syncs[k].phase, j.at("syncs")[k][3].get<std::string>()[0]);
        }
        const bool gpu = j.contains("gpu_ms") && !j.at("gpu_ms").is_null();
        ASSERT_EQ(got->gpuMs.has_value(), gpu);
        if (gpu)
            EXPECT_EQ(*got->gpuMs, j.at("gpu_ms").get<double>());
    }
    ConfigError error;
    EXPECT_FALSE(parseProbeStep(R"({"step":1,"stage":"block","t_ns":1,"f_ns":"x","b_ns":2,"o_ns":3})", error));
    EXPECT_EQ(error.message, "expected an integer at \"f_ns\", found \"x\"");
    EXPECT_FALSE(parseProbeStep(
        R"({"step":1,"stage":"block","t_ns":1,"f_ns":1,"b_ns":2,"o_ns":3,"syncs":[["item",0,-5,"O"]]})", error));
    EXPECT_EQ(error.message, "expected a wait in ns from 0 to 1e+12 at \"syncs\", found -5");
}

TEST(ProbeFolder, EachCalibrationBlocksFirstStepsAreReadFromItsSteps)
{
    const ProbeFolderRead read = readProbeFolder(kGpuBound);
    ASSERT_TRUE(read.folder) << formatErrors(read.errors);
    // steps.jsonl's calibration steps, block by block, their sync waits taken out
    std::map<int, std::vector<std::array<double, 3>>> expected;
    std::ifstream in(kGpuBound + "/steps.jsonl");
    for (std::string line; std::getline(in, line);) {
        const nlohmann::json s = nlohmann::json::parse(line);
        if (s.at("style") != "calib")
            continue;
        const auto ms = [&](const char* key, int k) {
            return double(s.at(key).get<std::int64_t>() - s.at("waits_ns")[k].get<std::int64_t>()) * 1e-6;
        };
        auto& steps = expected[s.at("block").get<int>()];
        if (steps.size() < std::size_t(kBlockFirstSteps))
            steps.push_back({ ms("f_ns", 0), ms("b_ns", 1), ms("o_ns", 2) });
    }
    ASSERT_GT(expected.size(), 10u);
    const auto& got = read.folder->blockFirstStepsMs;
    ASSERT_EQ(got.size(), expected.size());
    std::size_t i = 0;
    for (const auto& entry : expected) {
        ASSERT_EQ(got[i].size(), entry.second.size()) << "block " << entry.first;
        for (std::size_t k = 0; k < 3; ++k)
            EXPECT_NEAR(got[i].front()[k], entry.second.front()[k], 1e-9) << "block " << entry.first;
        ++i;
    }

    // Without steps.jsonl (the tiny folder), or without an A/B, none.
    EXPECT_TRUE(readProbeFolder(kFolder).folder->blockFirstStepsMs.empty());
    const fs::path dir = copyOfFolder("noab", kGpuBound);
    fs::remove(dir / "ab.json");
    fs::rename(dir / "blocks.jsonl", dir / "blocks.jsonl.away"); // nor the blocks' A/B
    const ProbeFolderRead noAb = readProbeFolder(dir.string());
    fs::rename(dir / "blocks.jsonl.away", dir / "blocks.jsonl");
    ASSERT_TRUE(noAb.folder) << formatErrors(noAb.errors);
    EXPECT_TRUE(noAb.folder->blockFirstStepsMs.empty());

    // A line that does not read refuses the folder at its place; an unfinished last line (the job
    // still writing) is no error.
    fs::copy_file(kGpuBound + "/ab.json", dir / "ab.json");
    {
        std::ofstream out(dir / "steps.jsonl", std::ios::app);
        out << "{\"step\":1090,\"stage\":\"block\",\"block\":99,\"round\":24,\"style\":\"calib\",\"t_ns\":1,";
    }
    const ProbeFolderRead writing = readProbeFolder(dir.string());
    ASSERT_TRUE(writing.folder);
    EXPECT_EQ(writing.folder->blockFirstStepsMs.size(), expected.size());
    {
        std::ofstream out(dir / "steps.jsonl", std::ios::app);
        out << "\n{\"step\":1091,\"stage\":\"block\",\"block\":99,\"style\":\"calib\"}\n";
    }
    const ProbeFolderRead broken = readProbeFolder(dir.string());
    EXPECT_FALSE(broken.folder);
    ASSERT_EQ(broken.errors.size(), 1u);
    EXPECT_EQ(broken.errors[0].file, (dir / "steps.jsonl").string());
    EXPECT_EQ(broken.errors[0].line, 1091);
    fs::remove_all(dir);
}

TEST(ProbeFolder, QueueFreePhasesAreTheLowerOfTwoUpperBounds)
{
    // Three blocks whose phases over all their steps hold a full queue's waits (30 ms a step) and
    // whose first steps do not (21 ms); 40 first steps each, of which 32 are kept.
    const std::vector<std::array<double, 3>> blocks(3, { 15.0, 13.0, 2.0 });
    std::vector<std::vector<std::array<double, 3>>> first(3);
    for (auto& steps : first) {
        steps.push_back({ 10.0, 10.0, 1.0 });
        for (int i = 1; i < kBlockFirstSteps; ++i)
            steps.push_back({ 14.0 + 0.01 * i, 13.0, 2.0 });
    }
    // 815 launches a step: one step fills most of a 1021-launch queue, so only the first counts.
    const auto one = queueFreePhases(blocks, first, 815, 1021);
    ASSERT_TRUE(one);
    EXPECT_EQ(one->steps, 1);
    ASSERT_EQ(one->rows.size(), 3u);
    EXPECT_DOUBLE_EQ(one->rows[0][0], 10.0);
    EXPECT_DOUBLE_EQ(one->hostMs, 21.0);
    EXPECT_DOUBLE_EQ(one->blocksHostMs, 30.0);
    // 300 launches: three steps fit; their medians (14.01 of 10, 14.01, 14.02).
    const auto three = queueFreePhases(blocks, first, 300, 1021);
    ASSERT_TRUE(three);
    EXPECT_EQ(three->steps, 3);
    EXPECT_DOUBLE_EQ(three->rows[0][0], 14.01);
    // A few launches a step: at most kBlockFirstSteps steps.
    EXPECT_EQ(queueFreePhases(blocks, first, 4, 1021)->steps, kBlockFirstSteps);
    // First steps no quicker than the blocks: the blocks' phases stay.
    const std::vector<std::array<double, 3>> quick(3, { 9.0, 10.0, 1.0 });
    EXPECT_FALSE(queueFreePhases(quick, first, 815, 1021));
    EXPECT_FALSE(queueFreePhases(blocks, {}, 815, 1021));
    EXPECT_FALSE(queueFreePhases(blocks, first, 0, 1021)); // nothing launched: no queue to wait for
}

TEST(ProbeFolder, AGpuBoundLoopIsCalibratedToItsBlocksFirstSteps)
{
    const ProbeFolderRead read = readProbeFolder(kGpuBound);
    ASSERT_TRUE(read.folder) << formatErrors(read.errors);
    const ProbeFolder& f = *read.folder;
    ASSERT_TRUE(f.item);
    const OpenTraceResult opened = openTrace(kGpuBound, {});
    ASSERT_TRUE(opened.opened) << opened.error;
    const ImportedLoop& loop = opened.opened->loop;
    ASSERT_TRUE(loop.available) << loop.reason;
    EXPECT_NE(loop.calibration.how.find("each block's first step after its drain"), std::string::npos)
        << loop.calibration.how;
    EXPECT_EQ(loop.spreadBase.size(), std::min<std::size_t>(20, f.blockFirstStepsMs.size()));
    const WhatIf w = whatIf(loop, 0);
    const WhatIfRow* item = row(w, "item");
    ASSERT_TRUE(item);
    const bool close = std::abs(item->taxPct - f.item->pct) <= 3.0
        || (item->taxPct >= f.item->ciLow && item->taxPct <= f.item->ciHigh);
    EXPECT_TRUE(close) << "what-if " << item->taxPct << "% against measured " << f.item->pct << "% [" << f.item->ciLow
                       << ", " << f.item->ciHigh << "]";

    // The blocks' phases as given (as --phases-file gives them) are taken as they are: here they
    // hold the queue's waits, and the same replay puts the tax far above the measurement.
    OpenTraceOptions given;
    given.loop = phasesOptions(f.phasesMs);
    const OpenTraceResult asGiven = openTrace(kGpuBound, given);
    ASSERT_TRUE(asGiven.opened) << asGiven.error;
    EXPECT_EQ(asGiven.opened->loop.calibration.how.find("first step"), std::string::npos);
    const WhatIf fromBlocks = whatIf(asGiven.opened->loop, 0);
    const WhatIfRow* blocksItem = row(fromBlocks, "item");
    ASSERT_TRUE(blocksItem);
    EXPECT_GT(blocksItem->taxPct, f.item->ciHigh + 3.0);
}

TEST(ProbeFolder, AFolderWithoutProbeJsonIsNotOne)
{
    EXPECT_FALSE(isProbeFolder(SYNCTAX_TEST_DATA "/probe"));
    EXPECT_FALSE(isProbeFolder(kFolder + "/probe.json"));
}
