#pragma once

#include "core/steps/runprogress.h"

#include <cstdio>
#include <string>

namespace synctax {

// The line redrawn on a terminal: bar, percent, elapsed time, ETA and cell. Cut to fit `columns`
// (0: no limit) so that it never wraps and `\r` redraws it in place: the cell is shortened first,
// then dropped, then the bar.
std::string progressLine(const RunProgress& progress, int columns);

// Progress with ETA on stderr: one redrawn line on a terminal, as wide as it is, plain lines (every 10% or 30 s)
// when stderr is a file or a pipe.
class ProgressPrinter {
public:
    explicit ProgressPrinter(std::FILE* out);
    void update(const RunProgress& progress);
    void finish();

private:
    std::FILE* m_out;
    bool m_terminal;
    double m_lastPrintS = -1e300;
    int m_lastDecile = -1;
    bool m_drawn = false;
};

} // namespace synctax
