#pragma once

#include <cstdio>

namespace synctax {

// The columns that text written to `stream` should fit: the terminal's width when the stream is
// one, else $COLUMNS when it holds a width, else 0, no limit (a pipe or a file: the full table).
int terminalColumns(std::FILE* stream);

} // namespace synctax
