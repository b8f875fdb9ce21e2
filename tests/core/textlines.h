#pragma once

#include <sstream>
#include <string>
#include <vector>

// A table's text as its lines, without their newlines.
inline std::vector<std::string> linesOf(const std::string& text)
{
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        lines.push_back(line);
    return lines;
}

// The text unwrapped: a line break and its indent read as one space.
inline std::string unwrapped(const std::string& text)
{
    std::string flat;
    for (size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '\n') {
            while (i + 1 < text.size() && text[i + 1] == ' ')
                ++i;
            flat += ' ';
        } else {
            flat += text[i];
        }
    }
    return flat;
}
