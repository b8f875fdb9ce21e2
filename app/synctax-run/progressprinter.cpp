#include "progressprinter.h"

#include "terminal.h"

#include "core/text/format.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <unistd.h>

namespace synctax {

namespace {

std::string eta(const RunProgress& p)
{
    return p.remainingS >= 0 && p.blocksDone > 0 ? formatClock(p.remainingS) : std::string("--:--");
}

} // namespace

std::string progressLine(const RunProgress& p, int columns)
{
    const double fraction = p.fraction();
    char times[96];
    std::snprintf(times, sizeof times, "%3d%%  %s elapsed, ETA %s", int(fraction * 100),
        formatClock(p.elapsedS).c_str(), eta(p).c_str());
    const auto bar = [&](size_t width) {
        const size_t filled = std::min(size_t(std::max(fraction, 0.0) * double(width)), width);
        return "[" + std::string(filled, '#') + std::string(width - filled, ' ') + "] ";
    };
    std::string cell = "  " + p.cell;
    constexpr size_t fullBar = 24;
    const size_t fixed = fullBar + 3 + std::strlen(times);
    if (columns <= 0 || fixed + cell.size() < size_t(columns))
        return bar(fullBar) + times + cell;

    // One column short of the width: a line that fills the last column wraps on some terminals.
    const size_t room = size_t(columns) - 1;
    constexpr size_t shortestCell = 8;
    if (room >= fixed + 2 + shortestCell)
        return bar(fullBar) + times + cell.substr(0, room - fixed - 3) + "...";
    constexpr size_t shortestBar = 8;
    std::string line = times;
    if (room >= std::strlen(times) + 3 + shortestBar)
        line = bar(std::min(fullBar, room - std::strlen(times) - 3)) + times;
    line.resize(std::min(line.size(), room));
    return line;
}

ProgressPrinter::ProgressPrinter(std::FILE* out)
    : m_out(out)
    , m_terminal(isatty(fileno(out)))
{
}

void ProgressPrinter::update(const RunProgress& p)
{
    if (m_terminal) {
        if (p.elapsedS - m_lastPrintS < 0.1 && p.blocksDone < p.blocksTotal)
            return;
        // Asked at each redraw: the window may have been resized since.
        std::fprintf(m_out, "\r\033[K%s", progressLine(p, terminalColumns(m_out)).c_str());
        m_drawn = true;
    } else {
        const int percent = int(p.fraction() * 100);
        const int decile = percent / 10;
        if (decile == m_lastDecile && p.elapsedS - m_lastPrintS < 30)
            return;
        m_lastDecile = decile;
        std::fprintf(m_out, "progress: %3d%%, %s elapsed, ETA %s, %s\n", percent, formatClock(p.elapsedS).c_str(),
            eta(p).c_str(), p.cell.c_str());
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
