#pragma once

#include <cstddef>

namespace synctax {

// The `quantile` of the non-negative values (negative ones mean "not measured"), read from an
// even sample of at most `maxSamples` of them so that a chart refreshing at 60 Hz over a million
// steps stays cheap. 0 when there is no such value. Axes end a little above it, so that one
// 200 ms hiccup does not squash every other step against the floor.
double robustQuantile(const float* values, size_t count, double quantile = 0.99, size_t maxSamples = 20000);

// A y axis ceiling: the 99th percentile with 20% headroom, never below `atLeast`.
double robustCeiling(const float* values, size_t count, double atLeast);

// A tick spacing of 1, 2 or 5 times a power of ten that cuts `span` into at most `maxTicks`
// intervals, and no finer than `smallest` (1 for whole steps).
double niceTickStep(double span, int maxTicks, double smallest = 0);

} // namespace synctax
