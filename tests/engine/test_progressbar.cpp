#include "core/engine/styles/progressbar.h"
#include "core/engine/styles/sink.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

using namespace synctax;

namespace {

std::string tempPath(const std::string& name)
{
    return (std::filesystem::temp_directory_path() / ("synctax-test-" + name)).string();
}

std::string readAll(const std::string& path)
{
    std::ifstream in(path);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

} // namespace

TEST(ProgressBar, RendersLikeTqdm)
{
    Sink sink(SinkSpec {});
    ProgressBar bar(sink, 100);
    bar.start(10.0);
    bar.update(50, 12.0);
    EXPECT_EQ(bar.render(12.0), " 50%|##########          | 50/100 [00:02<00:02, 25.00it/s]");
    bar.setPostfix("loss=0.1234", 12.0);
    EXPECT_EQ(bar.render(12.0), " 50%|##########          | 50/100 [00:02<00:02, 25.00it/s, loss=0.1234]");
}

TEST(ProgressBar, UpdatesRedrawAtMostEveryMinInterval)
{
    Sink sink(SinkSpec {});
    ProgressBar bar(sink, 1000, 0.125);
    bar.start(0.0);
    for (int i = 1; i <= 100; ++i)
        bar.update(i, i / 64.0); // a redraw every 8 steps: at steps 8, 16, ..., 96
    EXPECT_EQ(bar.draws(), 1 + 12);
}

TEST(ProgressBar, PostfixForcesARedrawEveryTime)
{
    Sink sink(SinkSpec {});
    ProgressBar bar(sink, 1000, 0.1);
    bar.start(0.0);
    for (int i = 1; i <= 100; ++i) {
        bar.update(i, i * 0.001);
        bar.setPostfix("loss=1", i * 0.001);
    }
    EXPECT_EQ(bar.draws(), 1 + 100);
}

TEST(Sink, FileSinkReceivesTheBar)
{
    const std::string path = tempPath("bar.txt");
    std::remove(path.c_str());
    {
        Sink sink(SinkSpec { SinkSpec::Kind::File, path });
        ProgressBar bar(sink, 4);
        bar.start(0.0);
        bar.update(4, 1.0);
        bar.close(1.0);
    }
    const std::string text = readAll(path);
    EXPECT_NE(text.find("100%|####################| 4/4"), std::string::npos) << text;
    EXPECT_EQ(text.back(), '\n');
    std::remove(path.c_str());
}

TEST(Sink, UnwritableFileIsAClearError)
{
    try {
        Sink sink(SinkSpec { SinkSpec::Kind::File, "/nonexistent-dir/x.log" });
        FAIL() << "expected an exception";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("/nonexistent-dir/x.log"), std::string::npos);
    }
}
