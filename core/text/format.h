#pragma once

#include <chrono>
#include <cstdint>
#include <string>

#include "core/config/sweepgrid.h"
#include "core/statistics/statistics.h"

namespace synctax {

// Every spelling of a time or a sync interval that SyncTax shows, in one place, C locale.

// "00:07", "59:59", "1:02:03": whole seconds (truncated, never negative) as tqdm shows elapsed and
// remaining time; hours only past the first.
std::string formatClock(double seconds);

// "42 s", "2 min 05 s", "1 h 05 min": a duration in words, rounded to the second.
std::string formatDuration(double seconds);

enum class TimestampStyle {
    Iso8601Utc, // "2024-05-01T12:00:00Z": results.json's started_at
    FolderName, // "20240501-140000-123", local time to the millisecond: a run's folder
};
std::string formatTimestamp(std::chrono::system_clock::time_point time, TimestampStyle style);

// "item every step", "item every 10 steps"; "no sync" for n <= 0.
std::string syncEveryLabel(int64_t n);

// A CSV field (RFC 4180): as it is, or in double quotes (inner quotes doubled) where it holds a
// comma, a quote or a newline.
std::string csvField(const std::string& s);

// One number through a printf pattern, C locale: formatNumber("%.1f", 2.5) is "2.5".
std::string formatNumber(const char* pattern, double v);

// Milliseconds with about three significant digits: "32.1", "8.54", "0.231". No unit.
std::string formatMs(double ms);

// "+1.4% [+0.9, +1.9]": an overhead and its 95% interval; empty parts where a bound is not finite.
std::string formatOverhead(const Interval& pct);

// "15 ms", "2.5 ms", "0 ms": a host work per step, given in microseconds.
std::string formatHostWork(int64_t us);

// What tells a group of a swept run from the others of its model and mode, after a space: " h=15 ms",
// " b=64", " h=15 ms b=64" for the keys the run swept; empty for a run without a sweep.
std::string sweepPointSuffix(const SweptKeys& swept, int64_t hostWorkUs, int64_t batch);
template <typename T> std::string sweepPointSuffix(const SweptKeys& swept, const T& record)
{
    return sweepPointSuffix(swept, record.hostWorkUs, record.batch);
}

} // namespace synctax
