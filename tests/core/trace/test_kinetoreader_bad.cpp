// The corpus of malformed traces (tests/data/traces/bad/): each NAME.json or NAME.json.gz has its
// expected outcome in NAME.expect or NAME.json.expect beside it: a fragment of the error's format()
// ("byte N, event K: expected ..."), or "readable; note: TEXT" for a trace that reads with that note.
#include "core/trace/kinetoreader.h"
#include "tests/core/corpus.h"

#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <thread>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace synctax;

namespace {

const std::string kBad = SYNCTAX_TEST_DATA "/traces/bad";
const std::string kReadable = "readable; note: ";

std::string joined(const std::vector<std::string>& notes)
{
    std::string text;
    for (const std::string& n : notes)
        text += n + "\n";
    return text;
}

} // namespace

TEST(KinetoReaderBad, EachFileGivesItsExpectedErrorOrNote)
{
    auto cases = corpus(kBad, ".json");
    const auto gz = corpus(kBad, ".gz");
    cases.insert(cases.end(), gz.begin(), gz.end());
    std::size_t readable = 0;
    for (const auto& [path, expected] : cases) {
        SCOPED_TRACE(path);
        ASSERT_FALSE(expected.empty()) << "no .expect beside it";
        const TraceReadResult r = readKinetoTrace(path);
        if (expected.rfind(kReadable, 0) == 0) {
            ++readable;
            ASSERT_FALSE(r.error) << r.error->format();
            ASSERT_TRUE(r.trace);
            const std::string notes = joined(r.trace->notes);
            EXPECT_NE(notes.find(expected.substr(kReadable.size())), std::string::npos) << "notes:\n" << notes;
        } else {
            ASSERT_TRUE(r.error) << "was read";
            EXPECT_FALSE(r.trace);
            const std::string text = r.error->format();
            EXPECT_EQ(text.rfind(path + ": ", 0), 0u) << text;
            EXPECT_NE(text.find(expected), std::string::npos) << "expected: " << expected << "\ngot: " << text;
        }
    }
    EXPECT_GE(cases.size(), 25u);
    EXPECT_GE(readable, 5u);
}

TEST(KinetoReaderBad, ADirectorySaysSo)
{
    const std::filesystem::path dir = std::filesystem::temp_directory_path() / "synctax-kineto-dir.json";
    std::filesystem::create_directories(dir);
    const TraceReadResult r = readKinetoTrace(dir.string());
    std::filesystem::remove(dir);
    ASSERT_TRUE(r.error);
    EXPECT_EQ(r.error->format(), dir.string() + ": is a directory; expected a Kineto trace file (.json or .json.gz)");
}

TEST(KinetoReaderBad, AMissingFileSaysSo)
{
    const TraceReadResult r = readKinetoTrace("/nonexistent/trace.json.gz");
    ASSERT_TRUE(r.error);
    EXPECT_EQ(
        r.error->format(), "/nonexistent/trace.json.gz: cannot open the file for reading (No such file or directory)");
}

TEST(KinetoReaderBad, GzipIsRecognisedByItsBytesNotItsName)
{
    // A .json.gz of the corpus copied under a plain .json name, and plain text under a .gz name.
    const auto tmp = std::filesystem::temp_directory_path();
    const auto gzipped = tmp / "synctax-kineto-gzip-named.json";
    const auto plain = tmp / "synctax-kineto-plain-named.json.gz";
    std::filesystem::copy_file(kBad + "/truncated.json.gz", gzipped, std::filesystem::copy_options::overwrite_existing);
    std::filesystem::copy_file(kBad + "/no-gpu-events.json", plain, std::filesystem::copy_options::overwrite_existing);
    const TraceReadResult g = readKinetoTrace(gzipped.string());
    const TraceReadResult p = readKinetoTrace(plain.string());
    std::filesystem::remove(gzipped);
    std::filesystem::remove(plain);
    ASSERT_TRUE(g.error);
    EXPECT_NE(g.error->message.find("truncated .gz"), std::string::npos) << g.error->message;
    EXPECT_FALSE(p.error);
    EXPECT_TRUE(p.trace);
}

TEST(KinetoReaderBad, AFifoIsRefusedNotWaitedOn)
{
    // Opening a FIFO with no writer blocks until one comes, deaf to Ctrl-C. Should the reader open
    // it, a writer comes after a while and hangs up, so that the test fails instead of hanging.
    const std::filesystem::path fifo = std::filesystem::temp_directory_path() / "synctax-kineto-fifo.json";
    std::filesystem::remove(fifo);
    ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
    std::mutex m;
    std::condition_variable cv;
    bool read = false;
    std::thread writer([&] {
        std::unique_lock<std::mutex> lock(m);
        if (cv.wait_for(lock, std::chrono::seconds(5), [&] { return read; }))
            return;
        const int fd = open(fifo.c_str(), O_WRONLY | O_NONBLOCK);
        if (fd >= 0)
            close(fd);
    });
    const TraceReadResult r = readKinetoTrace(fifo.string());
    {
        std::lock_guard<std::mutex> lock(m);
        read = true;
    }
    cv.notify_one();
    writer.join();
    std::filesystem::remove(fifo);
    ASSERT_TRUE(r.error);
    EXPECT_EQ(r.error->format(),
        fifo.string() + ": is a FIFO, not a regular file; expected a Kineto trace file (.json or .json.gz)");
}
