#include "core/results/runoutputs.h"
#include "core/text/format.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <ctime>

using namespace synctax;

TEST(Format, ClockIsTqdmsMinutesAndSecondsWithHoursPastTheFirst)
{
    EXPECT_EQ(formatClock(0), "00:00");
    EXPECT_EQ(formatClock(7.9), "00:07"); // truncated, as tqdm does
    EXPECT_EQ(formatClock(3599.9), "59:59");
    EXPECT_EQ(formatClock(3723), "1:02:03");
    EXPECT_EQ(formatClock(-4), "00:00");
    EXPECT_EQ(formatClock(NAN), "00:00");
}

TEST(Format, DurationInWordsRoundsToTheSecond)
{
    EXPECT_EQ(formatDuration(0.4), "0 s");
    EXPECT_EQ(formatDuration(41.6), "42 s");
    EXPECT_EQ(formatDuration(125), "2 min 05 s");
    EXPECT_EQ(formatDuration(3600 + 5 * 60 + 20), "1 h 05 min");
}

TEST(Format, TimestampsInEachStyle)
{
    // 2024-05-01T12:00:00.123Z
    const auto t = std::chrono::system_clock::from_time_t(1714564800) + std::chrono::milliseconds(123);
    EXPECT_EQ(formatTimestamp(t, TimestampStyle::Iso8601Utc), "2024-05-01T12:00:00Z");
    // A folder is named in local time: two hours east of UTC here (POSIX counts west).
    const char* oldTz = std::getenv("TZ");
    const std::string saved = oldTz ? oldTz : "";
    setenv("TZ", "XYZ-2", 1);
    tzset();
    EXPECT_EQ(formatTimestamp(t, TimestampStyle::FolderName), "20240501-140000-123");
    EXPECT_EQ(runFolderName("seed", t), "seed-20240501-140000-123");
    if (oldTz)
        setenv("TZ", saved.c_str(), 1);
    else
        unsetenv("TZ");
    tzset();
}

TEST(Format, SyncIntervalLabel)
{
    EXPECT_EQ(syncEveryLabel(0), "no sync");
    EXPECT_EQ(syncEveryLabel(1), "item every step");
    EXPECT_EQ(syncEveryLabel(10), "item every 10 steps");
}

TEST(Format, HostWorkInMillisecondsAsWritten)
{
    EXPECT_EQ(formatHostWork(0), "0 ms");
    EXPECT_EQ(formatHostWork(15000), "15 ms");
    EXPECT_EQ(formatHostWork(2500), "2.5 ms");
    EXPECT_EQ(formatHostWork(250), "0.25 ms");
    EXPECT_EQ(formatHostWork(1234567), "1234.567 ms");
}

TEST(Format, ASweepsPointNamesOnlyTheKeysSwept)
{
    EXPECT_EQ(sweepPointSuffix(SweptKeys {}, 15000, 64), "");
    EXPECT_EQ(sweepPointSuffix(SweptKeys { true, false }, 15000, 64), " h=15 ms");
    EXPECT_EQ(sweepPointSuffix(SweptKeys { false, true }, 15000, 64), " b=64");
    EXPECT_EQ(sweepPointSuffix(SweptKeys { true, true }, 0, 32), " h=0 ms b=32");
}
