#include "core/files/resultsjson.h"
#include "core/files/resultsloader.h"
#include "tests/core/corpus.h"

#include <gtest/gtest.h>

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
    EXPECT_EQ(r.errors[0].format(), "/nonexistent/results.json: cannot open the file for reading");
}

TEST(ResultsLoader, ADirectorySaysSo)
{
    const std::string dir = SYNCTAX_TEST_DATA "/bad-results";
    const auto r = loadResultsFile(dir);
    ASSERT_EQ(r.errors.size(), 1u);
    EXPECT_EQ(r.errors[0].format(), dir + ": is a directory; expected a results.json file");
}
