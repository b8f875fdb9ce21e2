#pragma once

#include <string>

namespace synctax {

// `line` cut at spaces into lines of at most `columns` (0: no limit), the continuations two spaces
// further in than the line starts; a word longer than a line is cut where the line ends. Each
// line ends in a newline.
std::string wrapped(const std::string& line, int columns);

} // namespace synctax
