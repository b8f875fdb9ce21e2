#pragma once

#include <QList>
#include <QPointF>

#include <cstddef>
#include <vector>

namespace synctax {

struct SamplePoint {
    double x = 0;
    double y = 0;
};

// Min/max decimation for drawing a long series into a plot `buckets` pixels wide: the points are
// cut into `buckets` runs of equal length and each run keeps its lowest and highest point, in
// x order, so a single spike still shows. Returns the indices kept, ascending. At most
// 2 * buckets indices; every index when count <= 2 * buckets or buckets == 0 (no width known).
std::vector<size_t> minMaxIndices(const float* values, size_t count, size_t buckets);

// The highest point of each of `buckets` runs of equal length (every index when count <= buckets
// or buckets == 0), ascending: a series' upper outline, one point a bucket.
std::vector<size_t> maxIndices(const float* values, size_t count, size_t buckets);

// The points kept by minMaxIndices, at x = firstX + index.
std::vector<SamplePoint> minMaxDownsample(const std::vector<float>& values, size_t buckets, double firstX = 0);

// The same for points with their own x values (ascending): the buckets split the x range evenly,
// so a gap in x stays a gap. At most 2 * buckets points; all of them when there are <= 2 * buckets.
std::vector<SamplePoint> minMaxDownsample(const std::vector<SamplePoint>& points, size_t buckets);

// The points as a series takes them (QXYSeries::replace).
QList<QPointF> toQPoints(const std::vector<SamplePoint>& points);

} // namespace synctax
