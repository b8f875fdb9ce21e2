#include "progressprinter.h"

#include "core/analysis/format.h"

#include <algorithm>
#include <string>
#include <unistd.h>

namespace synctax {

ProgressPrinter::ProgressPrinter(std::FILE* out)
    : m_out(out)
    , m_terminal(isatty(fileno(out)))
{
}

void ProgressPrinter::update(const RunProgress& p)
{
    const double fraction = p.fraction();
    const std::string eta = p.remainingS >= 0 && p.blocksDone > 0 ? formatClock(p.remainingS) : std::string("--:--");
    const int percent = int(fraction * 100);
    if (m_terminal) {
        if (p.elapsedS - m_lastPrintS < 0.1 && p.blocksDone < p.blocksTotal)
            return;
        constexpr int width = 24;
        const int filled = int(fraction * width);
        std::fprintf(m_out, "\r\033[K[%s%s] %3d%%  %s elapsed, ETA %s  %s", std::string(size_t(filled), '#').c_str(),
            std::string(size_t(width - filled), ' ').c_str(), percent, formatClock(p.elapsedS).c_str(), eta.c_str(),
            p.cell.c_str());
        m_drawn = true;
    } else {
        const int decile = percent / 10;
        if (decile == m_lastDecile && p.elapsedS - m_lastPrintS < 30)
            return;
        m_lastDecile = decile;
        std::fprintf(m_out, "progress: %3d%%, %s elapsed, ETA %s, %s\n", percent, formatClock(p.elapsedS).c_str(),
            eta.c_str(), p.cell.c_str());
    }
    m_lastPrintS = p.elapsedS;
    std::fflush(m_out);
}

void ProgressPrinter::finish()
{
    if (m_terminal && m_drawn)
        std::fputs("\n", m_out);
    std::fflush(m_out);
}

} // namespace synctax
