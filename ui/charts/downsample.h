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

// A run of consecutive points in one bucket of the x axis: its first and last index and the index
// of its highest value.
struct XBin {
    size_t first = 0;
    size_t last = 0;
    size_t highest = 0;
};

// The points (x ascending) in `buckets` equal spans of the x range from x[0] to x[count - 1] + 1, each
// span's points one bin, ascending: a series' upper outline, one bin a bucket. A step of more than
// 1.5 in x (points missing, as steps only counted) ends a bin, and the spans over it get none;
// `gaps` is how many there were. At most buckets + gaps bins.
std::vector<XBin> maxBinsOverX(const double* x, const float* values, size_t count, size_t buckets, size_t& gaps);

// The points kept by minMaxIndices, at x = firstX + index.
std::vector<SamplePoint> minMaxDownsample(const std::vector<float>& values, size_t buckets, double firstX = 0);

// The same for points with their own x values (ascending): the buckets split the x range evenly,
// so a gap in x stays a gap. At most 2 * buckets points; all of them when there are <= 2 * buckets.
std::vector<SamplePoint> minMaxDownsample(const std::vector<SamplePoint>& points, size_t buckets);

// The points as a series takes them (QXYSeries::replace).
QList<QPointF> toQPoints(const std::vector<SamplePoint>& points);

} // namespace synctax
