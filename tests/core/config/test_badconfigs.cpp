// Every file in tests/data/bad-configs/ must be rejected with the message its .expect file gives
// ("line:col: text" is matched after the file name; anything else anywhere in the errors).
#include "core/config/configloader.h"
#include "tests/core/corpus.h"

#include <gtest/gtest.h>

#include <regex>

using namespace synctax;

TEST(BadConfigs, EachIsRejectedWithItsMessage)
{
    const auto cases = corpus(SYNCTAX_TEST_DATA "/bad-configs", ".yaml");
    for (const auto& [path, expected] : cases) {
        ASSERT_FALSE(expected.empty()) << path << " has no .expect line";
        const ConfigLoadResult r = loadConfigFile(path);
        EXPECT_FALSE(r.config) << path << " was accepted";
        const std::string errors = formatErrors(r.errors);
        const bool located = std::regex_search(expected, std::regex("^[0-9]+:[0-9]+: "));
        const std::string wanted = located ? path + ":" + expected : expected;
        EXPECT_NE(errors.find(wanted), std::string::npos) << "expected: " << wanted << "\ngot:\n" << errors;
    }
    EXPECT_GE(cases.size(), 30u);
}
