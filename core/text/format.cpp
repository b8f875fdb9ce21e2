#include "core/text/format.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>

namespace synctax {

std::string formatClock(double seconds)
{
    const long long s = std::isfinite(seconds) ? (long long)std::max(seconds, 0.0) : 0;
    char text[32];
    if (s >= 3600)
        std::snprintf(text, sizeof text, "%lld:%02lld:%02lld", s / 3600, s / 60 % 60, s % 60);
    else
        std::snprintf(text, sizeof text, "%02lld:%02lld", s / 60, s % 60);
    return text;
}

std::string formatDuration(double seconds)
{
    const long long s = std::isfinite(seconds) ? std::llround(std::max(seconds, 0.0)) : 0;
    char text[48];
    if (s >= 3600)
        std::snprintf(text, sizeof text, "%lld h %02lld min", s / 3600, s % 3600 / 60);
    else if (s >= 60)
        std::snprintf(text, sizeof text, "%lld min %02lld s", s / 60, s % 60);
    else
        std::snprintf(text, sizeof text, "%lld s", s);
    return text;
}

std::string formatTimestamp(std::chrono::system_clock::time_point time, TimestampStyle style)
{
    const std::time_t seconds = std::chrono::system_clock::to_time_t(time);
    std::tm parts {};
    char text[48];
    if (style == TimestampStyle::Iso8601Utc) {
        gmtime_r(&seconds, &parts);
        std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &parts);
        return text;
    }
    localtime_r(&seconds, &parts);
    std::strftime(text, sizeof text, "%Y%m%d-%H%M%S", &parts);
    const auto sinceEpoch = time.time_since_epoch();
    const long long ms = std::chrono::duration_cast<std::chrono::milliseconds>(
        sinceEpoch - std::chrono::floor<std::chrono::seconds>(sinceEpoch))
                             .count();
    char millis[8];
    std::snprintf(millis, sizeof millis, "-%03lld", ms);
    return std::string(text) + millis;
}

std::string syncEveryLabel(int64_t n)
{
    if (n <= 0)
        return "no sync";
    if (n == 1)
        return "item every step";
    return "item every " + std::to_string(n) + " steps";
}

std::string csvField(const std::string& s)
{
    if (s.find_first_of(",\"\n") == std::string::npos)
        return s;
    std::string quoted = "\"";
    for (const char c : s) {
        if (c == '"')
            quoted += '"';
        quoted += c;
    }
    return quoted + "\"";
}

std::string formatNumber(const char* pattern, double v)
{
    char text[64];
    std::snprintf(text, sizeof text, pattern, v);
    return text;
}

std::string formatMs(double ms)
{
    if (!std::isfinite(ms))
        return "?";
    const double a = std::fabs(ms);
    return formatNumber(a >= 100 ? "%.0f" : a >= 10 ? "%.1f" : a >= 1 ? "%.2f" : "%.3f", ms);
}

std::string formatOverhead(const Interval& pct)
{
    const auto part = [](double v, const char* pattern) { return std::isfinite(v) ? formatNumber(pattern, v) : ""; };
    return part(pct.estimate, "%+.1f%%") + " [" + part(pct.low, "%+.1f") + ", " + part(pct.high, "%+.1f") + "]";
}

std::string formatHostWork(int64_t us) { return formatNumber("%.10g", double(us) / 1000.0) + " ms"; }

std::string sweepPointSuffix(const SweptKeys& swept, int64_t hostWorkUs, int64_t batch)
{
    std::string suffix;
    if (swept.hostWork)
        suffix += " h=" + formatHostWork(hostWorkUs);
    if (swept.batch)
        suffix += " b=" + std::to_string(batch);
    return suffix;
}

} // namespace synctax
