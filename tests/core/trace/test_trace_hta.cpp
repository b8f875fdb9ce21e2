#include "core/statistics/numpysort.h"
#include "core/trace/kinetoreader.h"
#include "core/trace/tracehta.h"
#include "core/trace/tracejoin.h"
#include "core/trace/tracequeue.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <stdexcept>
#include <string>

using namespace synctax;

namespace {

// tests/data/hta-values.jsonl holds Holistic Trace Analysis's own numbers for real traces,
// printed by HTA (commit f4d0062) through bench/hta-compare/hta_values.py: per stream, the queue
// length time series' size, mean and max (get_queue_length_summary) and the idle time breakdown in
// µs (get_idle_time_breakdown); per trace, the launch delays' count, mean and max
// (get_cuda_kernel_launch_stats). tracehta.h computes them HTA's way.
std::vector<nlohmann::json> htaValues()
{
    std::vector<nlohmann::json> values;
    std::ifstream in(SYNCTAX_TEST_DATA "/hta-values.jsonl");
    for (std::string line; std::getline(in, line);)
        if (!line.empty())
            values.push_back(nlohmann::json::parse(line));
    return values;
}

std::string sourcePath(const nlohmann::json& v)
{
    const std::string trace = v["trace"];
    return std::string(SYNCTAX_TEST_DATA) + trace.substr(std::string("tests/data").size());
}

KinetoTrace readTrace(const nlohmann::json& v)
{
    auto read = readKinetoTrace(sourcePath(v));
    if (!read.trace)
        throw std::runtime_error(read.error ? read.error->format() : "cancelled");
    return std::move(*read.trace);
}

TEST(TraceHta, QueueLengthSummaryPerStreamMatchesHta)
{
    const auto values = htaValues();
    ASSERT_GE(values.size(), 8u);
    for (const auto& v : values) {
        SCOPED_TRACE(v["trace"].get<std::string>());
        const auto summary = htaQueueLengthSummary(readTrace(v));
        for (const auto& [stream, hta] : v["streams"].items()) {
            if (!hta.contains("queue_max"))
                continue;
            const auto q = std::find_if(summary.begin(), summary.end(),
                [&](const HtaQueueSummary& s) { return std::to_string(s.stream) == stream; });
            ASSERT_NE(q, summary.end()) << "stream " << stream;
            EXPECT_EQ(q->count, hta["queue_count"].get<int>()) << "stream " << stream;
            EXPECT_EQ(q->max, hta["queue_max"].get<int>()) << "stream " << stream;
            // Both are sums of whole numbers divided by the same count: only the last bits may differ.
            EXPECT_NEAR(q->mean, hta["queue_mean"].get<double>(), 1e-9) << "stream " << stream;
        }
    }
}

TEST(TraceHta, IdleBreakdownPerStreamMatchesHta)
{
    for (const auto& v : htaValues()) {
        SCOPED_TRACE(v["trace"].get<std::string>());
        const auto idle = htaIdleTimeBreakdown(readTrace(v));
        for (const auto& [stream, hta] : v["streams"].items()) {
            if (!hta.contains("idle_other") && !hta.contains("idle_host_wait") && !hta.contains("idle_kernel_wait"))
                continue;
            const auto b = std::find_if(idle.begin(), idle.end(),
                [&](const HtaIdleBreakdown& s) { return std::to_string(s.stream) == stream; });
            ASSERT_NE(b, idle.end()) << "stream " << stream;
            // HTA sums whole µs: the same sums, exactly.
            EXPECT_EQ(b->hostWaitUs, hta.value("idle_host_wait", 0.0)) << "stream " << stream;
            EXPECT_EQ(b->kernelWaitUs, hta.value("idle_kernel_wait", 0.0)) << "stream " << stream;
            EXPECT_EQ(b->otherUs, hta.value("idle_other", 0.0)) << "stream " << stream;
        }
    }
}

TEST(TraceHta, LaunchDelayMatchesHta)
{
    int compared = 0;
    for (const auto& v : htaValues()) {
        if (!v.contains("launch_delay"))
            continue;
        SCOPED_TRACE(v["trace"].get<std::string>());
        const auto delays = htaLaunchDelaysUs(readTrace(v));
        const auto& hta = v["launch_delay"];
        ASSERT_EQ(delays.size(), hta["count"].get<size_t>());
        double sum = 0;
        for (double d : delays)
            sum += d;
        EXPECT_NEAR(sum / double(delays.size()), hta["mean"].get<double>(), 1e-9);
        EXPECT_EQ(*std::max_element(delays.begin(), delays.end()), hta["max"].get<double>());
        ++compared;
    }
    EXPECT_GE(compared, 8);
}

// What HTA's own test states for this trace (tests/test_trace_analysis.py,
// test_generate_trace_with_counters): "1 ranks x 6 streams" in the queue length summary, and no
// negative queue length although some kernels lack their operator. SyncTax's own queue depth
// (launches counted at their call's start, in ns) holds the same.
TEST(TraceHta, NegativeQueueLengthTraceHasSixStreamsAndNoNegativeLength)
{
    const auto read = readKinetoTrace(SYNCTAX_TEST_DATA "/traces/hta/negative_queue_length_values_check_rank0.json.gz");
    ASSERT_TRUE(read.trace);
    EXPECT_EQ(htaQueueLengthSummary(*read.trace).size(), 6u);
    const auto queues = streamQueues(*read.trace, joinLaunches(*read.trace));
    EXPECT_EQ(queues.size(), 6u);
    for (const StreamQueue& q : queues)
        for (const QueueDepthPoint& p : q.points)
            ASSERT_GE(p.depth, 0) << "stream " << q.stream << " at " << p.ns;
}

TEST(TraceHta, NumpyQuicksortOrderLeavesTiesAsNumpyDoes)
{
    // Expected: numpy 1.24.2 (Debian 12), keys = np.random.default_rng(2).integers(0, 5, 100),
    // keys.argsort(kind="quicksort"). 100 keys: partitions down to insertion sort at 16 elements.
    const std::vector<double> keys = { 4, 1, 0, 1, 2, 4, 2, 0, 1, 3, 4, 3, 4, 0, 4, 0, 2, 1, 1, 3, 1, 2, 1, 0, 3, 2, 3,
        3, 4, 2, 1, 3, 4, 4, 4, 3, 1, 1, 0, 0, 1, 1, 2, 2, 3, 4, 4, 3, 4, 1, 4, 4, 1, 2, 2, 3, 3, 0, 2, 0, 4, 1, 2, 4,
        2, 3, 2, 4, 2, 3, 2, 2, 2, 2, 3, 2, 2, 4, 1, 2, 2, 4, 2, 3, 0, 4, 2, 2, 0, 3, 3, 1, 3, 2, 0, 1, 1, 0, 2, 0 };
    const std::vector<std::size_t> numpy = { 99, 38, 39, 15, 57, 13, 23, 84, 59, 7, 94, 2, 97, 88, 78, 61, 91, 95, 96,
        52, 41, 40, 37, 36, 30, 49, 1, 3, 17, 18, 22, 8, 20, 62, 79, 16, 53, 54, 76, 75, 58, 73, 72, 71, 25, 70, 64, 80,
        98, 68, 66, 86, 87, 43, 42, 21, 82, 29, 6, 4, 93, 83, 69, 89, 90, 74, 92, 9, 26, 65, 47, 19, 35, 44, 55, 31, 24,
        11, 27, 56, 5, 32, 33, 34, 28, 45, 46, 67, 48, 81, 50, 51, 10, 77, 14, 12, 60, 63, 85, 0 };
    EXPECT_EQ(numpyQuicksortOrder(keys), numpy);
}

} // namespace
