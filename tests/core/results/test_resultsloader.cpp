#include "core/config/inputsource.h"
#include "core/results/resultsjson.h"
#include "core/results/resultsloader.h"
#include "sampleresult.h"
#include "tests/core/corpus.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <zlib.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

using namespace synctax;

TEST(ResultsLoader, EachBadFileIsRejectedWithItsMessage)
{
    const auto cases = corpus(SYNCTAX_TEST_DATA "/bad-results", ".json");
    for (const auto& [path, expected] : cases) {
        const ResultsLoadResult r = loadResultsFile(path);
        EXPECT_FALSE(r.result) << path << " was accepted";
        const std::string errors = formatErrors(r.errors);
        EXPECT_NE(errors.find(expected), std::string::npos) << path << "\nexpected: " << expected << "\ngot:\n"
                                                            << errors;
    }
    EXPECT_GE(cases.size(), 20u);
}

TEST(ResultsLoader, AMissingFileSaysSo)
{
    const auto r = loadResultsFile("/nonexistent/results.json");
    ASSERT_EQ(r.errors.size(), 1u);
    EXPECT_EQ(r.errors[0].format(),
        "/nonexistent/results.json: cannot open the file for reading (No such file or directory)");
}

TEST(ResultsLoader, ADirectorySaysSo)
{
    const std::string dir = SYNCTAX_TEST_DATA "/bad-results";
    const auto r = loadResultsFile(dir);
    ASSERT_EQ(r.errors.size(), 1u);
    EXPECT_EQ(r.errors[0].format(),
        dir
            + ": is a folder with neither results.json nor journal.jsonl; expected a results.json file or a run's "
              "folder");
}

TEST(ResultsLoader, TheBlocksHostTimesRoundTripAndOlderFilesHaveNone)
{
    ExperimentResult written = sampleResult();
    ASSERT_GE(written.cells.size(), 2u);
    CellResult& item = written.cells[1];
    item.blockRounds = { 0, 1, 2 };
    item.blockStepMs = { 1.5, 1.6, 1.4 };
    item.blockDispatchMs = { 1.25, 1.375, 1.125 };
    item.blockFirstStepsMs = { { 1.5, 1.25 }, { 0.875, 1.0 }, { 1.125, 1.125 } };
    const auto path = (std::filesystem::temp_directory_path() / "synctax-test-dispatch.json").string();
    writeJsonFileAtomically(path, toJson(written));
    const ResultsLoadResult back = loadResultsFile(path);
    ASSERT_TRUE(back.result) << formatErrors(back.errors);
    EXPECT_EQ(back.result->cells[1].blockDispatchMs, item.blockDispatchMs);
    EXPECT_EQ(back.result->cells[1].blockFirstStepsMs, item.blockFirstStepsMs);

    // A file written before the host's time per block was kept: the keys are absent.
    nlohmann::json older = toJson(written);
    older["cells"][1].erase("block_dispatch_ms");
    older["cells"][1].erase("block_first_steps_ms");
    writeJsonFileAtomically(path, older);
    const ResultsLoadResult old = loadResultsFile(path);
    ASSERT_TRUE(old.result) << formatErrors(old.errors);
    EXPECT_TRUE(old.result->cells[1].blockDispatchMs.empty());
    EXPECT_TRUE(old.result->cells[1].blockFirstStepsMs.empty());
    EXPECT_EQ(old.result->cells[1].blockStepMs, item.blockStepMs);
    std::remove(path.c_str());
}

namespace {

std::string fileBytes(const std::string& path)
{
    std::vector<ConfigError> errors;
    return readInputFile(path, "a file", errors).value_or(std::string());
}

void writeBytes(const std::string& path, const std::string& bytes)
{
    std::ofstream(path, std::ios::binary).write(bytes.data(), std::streamsize(bytes.size()));
}

} // namespace

TEST(ResultsLoader, AGzippedFileReadsAsTheFileItHolds)
{
    const auto dir = std::filesystem::temp_directory_path();
    const std::string plain = (dir / "synctax-test-gzip.json").string();
    const std::string packed = plain + ".gz";
    writeJsonFileAtomically(plain, toJson(sampleResult()));
    const std::string text = fileBytes(plain);
    gzFile out = gzopen(packed.c_str(), "wb9");
    ASSERT_NE(out, nullptr);
    ASSERT_EQ(gzwrite(out, text.data(), unsigned(text.size())), int(text.size()));
    ASSERT_EQ(gzclose(out), Z_OK);
    ASSERT_NE(fileBytes(packed), text);

    const ResultsLoadResult a = loadResultsFile(plain);
    const ResultsLoadResult b = loadResultsFile(packed);
    ASSERT_TRUE(a.result) << formatErrors(a.errors);
    ASSERT_TRUE(b.result) << formatErrors(b.errors);
    EXPECT_EQ(toJson(*b.result), toJson(*a.result));
    EXPECT_EQ(textHead(packed, 64).text, text.substr(0, 64));
    EXPECT_EQ(textHead(plain, 64).text, text.substr(0, 64));

    // Cut short: an error for the file, at the text it reached, not a parse error in made-up text.
    const std::string bytes = fileBytes(packed);
    writeBytes(packed, bytes.substr(0, bytes.size() / 2));
    const ResultsLoadResult cut = loadResultsFile(packed);
    EXPECT_FALSE(cut.result);
    ASSERT_EQ(cut.errors.size(), 1u);
    EXPECT_EQ(cut.errors[0].file, packed);
    EXPECT_NE(cut.errors[0].message.find("expected gzip data: the compressed data ends early"), std::string::npos)
        << cut.errors[0].message;
    EXPECT_NE(cut.errors[0].message.find(" bytes of text)"), std::string::npos) << cut.errors[0].message;
    std::remove(plain.c_str());
    std::remove(packed.c_str());
}
