#include "ui/charts/downsample.h"

#include <algorithm>
#include <numeric>

namespace synctax {

namespace {

// Appends the lowest and highest of points [begin, end) in index order, once if they coincide.
template <typename ValueAt> void keepMinMax(size_t begin, size_t end, const ValueAt& valueAt, std::vector<size_t>& kept)
{
    if (begin >= end)
        return;
    size_t lowest = begin;
    size_t highest = begin;
    for (size_t i = begin + 1; i < end; ++i) {
        const double v = valueAt(i);
        if (v < valueAt(lowest))
            lowest = i;
        if (v > valueAt(highest))
            highest = i;
    }
    kept.push_back(std::min(lowest, highest));
    if (lowest != highest)
        kept.push_back(std::max(lowest, highest));
}

std::vector<size_t> allIndices(size_t count)
{
    std::vector<size_t> kept(count);
    std::iota(kept.begin(), kept.end(), size_t(0));
    return kept;
}

} // namespace

std::vector<size_t> minMaxIndices(const float* values, size_t count, size_t buckets)
{
    if (buckets == 0 || count <= 2 * buckets)
        return allIndices(count);
    std::vector<size_t> kept;
    kept.reserve(2 * buckets);
    const auto valueAt = [values](size_t i) { return double(values[i]); };
    for (size_t b = 0; b < buckets; ++b)
        keepMinMax(b * count / buckets, (b + 1) * count / buckets, valueAt, kept);
    return kept;
}

std::vector<XBin> maxBinsOverX(const double* x, const float* values, size_t count, size_t buckets, size_t& gaps)
{
    std::vector<XBin> bins;
    gaps = 0;
    if (count == 0)
        return bins;
    buckets = std::max<size_t>(1, buckets);
    const double first = x[0];
    const double span = std::max(1.0, x[count - 1] - first + 1);
    size_t bucket = 0;
    for (size_t i = 0; i < count; ++i) {
        const size_t at = std::min(buckets - 1, size_t((x[i] - first) / span * double(buckets)));
        const bool gap = i > 0 && x[i] > x[i - 1] + 1.5;
        gaps += gap ? 1 : 0;
        if (bins.empty() || at != bucket || gap) {
            bins.push_back({ i, i, i });
            bucket = at;
            continue;
        }
        XBin& bin = bins.back();
        bin.last = i;
        if (values[i] > values[bin.highest])
            bin.highest = i;
    }
    return bins;
}

std::vector<SamplePoint> minMaxDownsample(const std::vector<float>& values, size_t buckets, double firstX)
{
    const std::vector<size_t> kept = minMaxIndices(values.data(), values.size(), buckets);
    std::vector<SamplePoint> points;
    points.reserve(kept.size());
    for (size_t i : kept)
        points.push_back({ firstX + double(i), double(values[i]) });
    return points;
}

std::vector<SamplePoint> minMaxDownsample(const std::vector<SamplePoint>& points, size_t buckets)
{
    if (buckets == 0 || points.size() <= 2 * buckets)
        return points;
    const double first = points.front().x;
    const double span = points.back().x - first;
    const auto bucketOf = [&](const SamplePoint& p) {
        if (span <= 0)
            return size_t(0);
        return std::min(buckets - 1, size_t((p.x - first) / span * double(buckets)));
    };
    const auto valueAt = [&points](size_t i) { return points[i].y; };
    std::vector<size_t> kept;
    kept.reserve(2 * buckets);
    size_t begin = 0;
    while (begin < points.size()) {
        const size_t bucket = bucketOf(points[begin]);
        size_t end = begin + 1;
        while (end < points.size() && bucketOf(points[end]) == bucket)
            ++end;
        keepMinMax(begin, end, valueAt, kept);
        begin = end;
    }
    std::vector<SamplePoint> result;
    result.reserve(kept.size());
    for (size_t i : kept)
        result.push_back(points[i]);
    return result;
}

QList<QPointF> toQPoints(const std::vector<SamplePoint>& points)
{
    QList<QPointF> drawn;
    drawn.reserve(qsizetype(points.size()));
    for (const SamplePoint& p : points)
        drawn.append(QPointF(p.x, p.y));
    return drawn;
}

} // namespace synctax
