#pragma once

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

// A corpus of bad inputs: each file NAME.EXT beside NAME.expect, whose first line is the message
// (or its fragment) the loader must give.
struct CorpusCase {
    std::string path;
    std::string expected;
};

inline std::vector<CorpusCase> corpus(const std::filesystem::path& dir, const std::string& extension)
{
    std::vector<CorpusCase> cases;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
        if (entry.path().extension() != extension)
            continue;
        std::ifstream in(std::filesystem::path(entry.path()).replace_extension(".expect"));
        std::string expected;
        std::getline(in, expected);
        cases.push_back({ entry.path().string(), expected });
    }
    return cases;
}
