#include "core/trace/tracewatch.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

using namespace synctax;

namespace {

void writeFile(const std::filesystem::path& p, const std::string& text) { std::ofstream(p, std::ios::binary) << text; }

} // namespace

TEST(TraceWatch, NamesItFollows)
{
    EXPECT_TRUE(TraceWatch::isTraceName("host_123.1796126742683255719.pt.trace.json.gz"));
    EXPECT_TRUE(TraceWatch::isTraceName("w.pt.trace.json"));
    EXPECT_FALSE(TraceWatch::isTraceName("w.pt.trace.json.gz.tmp"));
    EXPECT_FALSE(TraceWatch::isTraceName("trace.json"));
}

// A file is handed out once its size held over one poll, once only, and again when it changes.
TEST(TraceWatch, FileReadyOnceItsSizeHolds)
{
    const auto dir = std::filesystem::temp_directory_path() / "synctax-test-tracewatch";
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    TraceWatch watch(dir.string(), 0);
    EXPECT_TRUE(watch.poll().empty());
    EXPECT_TRUE(watch.idle());

    writeFile(dir / "b.pt.trace.json.gz", "12345");
    writeFile(dir / "a.pt.trace.json", "{}");
    writeFile(dir / "notes.txt", "x");
    EXPECT_TRUE(watch.poll().empty()); // first seen: not known to be complete
    EXPECT_FALSE(watch.idle());
    writeFile(dir / "b.pt.trace.json.gz", "123456789"); // still growing
    const auto ready = watch.poll();
    ASSERT_EQ(ready.size(), 1u);
    EXPECT_EQ(std::filesystem::path(ready[0]).filename(), "a.pt.trace.json");
    watch.finished(ready[0]);
    const auto next = watch.poll();
    ASSERT_EQ(next.size(), 1u);
    EXPECT_EQ(std::filesystem::path(next[0]).filename(), "b.pt.trace.json.gz");
    watch.finished(next[0]);
    EXPECT_TRUE(watch.poll().empty());
    EXPECT_TRUE(watch.idle());

    writeFile(dir / "a.pt.trace.json", "{\"traceEvents\": []}"); // written again
    EXPECT_TRUE(watch.poll().empty());
    EXPECT_EQ(watch.poll().size(), 1u);
    std::filesystem::remove_all(dir);
}

TEST(TraceWatch, EmptyFileReportedOnlyWhenItStaysEmpty)
{
    const auto dir = std::filesystem::temp_directory_path() / "synctax-test-tracewatch-empty";
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    writeFile(dir / "e.pt.trace.json", "");
    TraceWatch watch(dir.string(), 0);
    int polls = 0;
    while (watch.poll().empty() && polls < 10)
        ++polls;
    EXPECT_EQ(polls, 4); // one poll sees it, three find it unchanged, the fourth unchanged one hands it out
    std::filesystem::remove_all(dir);
}
