// Every file in tests/data/bad-configs/ must be rejected with the message its .expect file gives
// ("line:col: text" is matched after the file name; anything else anywhere in the errors).
#include "core/configloader.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>

using namespace synctax;

namespace {

std::string firstLine(const std::filesystem::path& path)
{
    std::ifstream in(path);
    std::string line;
    std::getline(in, line);
    return line;
}

} // namespace

TEST(BadConfigs, EachIsRejectedWithItsMessage)
{
    const std::filesystem::path dir = SYNCTAX_TEST_DATA "/bad-configs";
    int files = 0;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
        if (entry.path().extension() != ".yaml")
            continue;
        ++files;
        const std::string path = entry.path().string();
        const std::string expected = firstLine(std::filesystem::path(entry.path()).replace_extension(".expect"));
        ASSERT_FALSE(expected.empty()) << path << " has no .expect line";
        const ConfigLoadResult r = loadConfigFile(path);
        EXPECT_FALSE(r.config) << path << " was accepted";
        const std::string errors = formatErrors(r.errors);
        const bool located = std::regex_search(expected, std::regex("^[0-9]+:[0-9]+: "));
        const std::string wanted = located ? path + ":" + expected : expected;
        EXPECT_NE(errors.find(wanted), std::string::npos) << "expected: " << wanted << "\ngot:\n" << errors;
    }
    EXPECT_GE(files, 30);
}
