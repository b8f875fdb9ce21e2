#include "core/engine/styles/progressbar.h"

#include "core/engine/styles/sink.h"
#include "core/text/format.h"

#include <algorithm>
#include <cstdio>

namespace synctax {

ProgressBar::ProgressBar(Sink& sink, int64_t total, double minIntervalS)
    : m_sink(sink)
    , m_total(std::max<int64_t>(total, 1))
    , m_minInterval(minIntervalS)
{
}

void ProgressBar::start(double nowS)
{
    m_n = 0;
    m_startS = nowS;
    m_postfix.clear();
    draw(nowS);
}

void ProgressBar::update(int64_t n, double nowS)
{
    m_n = n;
    if (nowS - m_lastDrawS >= m_minInterval)
        draw(nowS);
}

void ProgressBar::setPostfix(const std::string& postfix, double nowS)
{
    m_postfix = postfix;
    draw(nowS);
}

void ProgressBar::close(double nowS)
{
    draw(nowS);
    m_sink.write("\n");
}

std::string ProgressBar::render(double nowS) const
{
    constexpr int width = 20;
    const double fraction = std::clamp(double(m_n) / double(m_total), 0.0, 1.0);
    const int filled = int(fraction * width);
    std::string bar(size_t(filled), '#');
    bar.append(size_t(width - filled), ' ');
    const double elapsed = nowS - m_startS;
    const double rate = elapsed > 0 ? double(m_n) / elapsed : 0.0;
    const double remaining = rate > 0 ? double(m_total - m_n) / rate : 0.0;
    char text[160];
    std::snprintf(text, sizeof text, "%3d%%|%s| %lld/%lld [%s<%s, %.2fit/s", int(fraction * 100), bar.c_str(),
        static_cast<long long>(m_n), static_cast<long long>(m_total), formatClock(elapsed).c_str(),
        formatClock(remaining).c_str(), rate);
    std::string line = text;
    if (!m_postfix.empty())
        line += ", " + m_postfix;
    line += "]";
    return line;
}

void ProgressBar::draw(double nowS)
{
    m_line = "\r" + render(nowS);
    m_sink.write(m_line);
    m_lastDrawS = nowS;
    ++m_draws;
}

} // namespace synctax
