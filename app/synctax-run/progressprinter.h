#pragma once

#include "core/steps/runprogress.h"

#include <cstdio>

namespace synctax {

// Progress with ETA on stderr: one redrawn line on a terminal, plain lines (every 10% or 30 s)
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
