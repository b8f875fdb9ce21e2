#pragma once

#include <cstddef>
#include <string>

namespace synctax {

// `line` cut at spaces into lines of at most `columns` (0: no limit), the continuations two spaces
// further in than the line starts; a word longer than a line is cut where the line ends. Each
// line ends in a newline.
std::string wrapped(const std::string& line, int columns);

// `s` padded with spaces to `width`: on the left (right-aligned) by default, else on the right.
std::string padded(const std::string& s, size_t width, bool right = true);

} // namespace synctax
