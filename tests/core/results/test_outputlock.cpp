#include "core/results/folderclaim.h"
#include "core/results/outputlock.h"
#include "core/results/outputpaths.h"

#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

using namespace synctax;
namespace fs = std::filesystem;

namespace {

struct OutputFolderTest : ::testing::Test {
    void SetUp() override
    {
        dir = fs::temp_directory_path() / ("synctax-test-lock-" + std::to_string(getpid()));
        fs::remove_all(dir);
        fs::create_directories(dir);
    }
    void TearDown() override { fs::remove_all(dir); }

    fs::path lockFile() const { return dir / OutputLock::fileName; }

    fs::path dir;
};

} // namespace

TEST_F(OutputFolderTest, ASecondLockIsRefusedNamingTheHolder)
{
    std::string why;
    auto first = OutputLock::acquire(dir.string(), "pid 4242, started 2024-05-01T12:00:00Z", &why);
    ASSERT_TRUE(first) << why;
    // flock is per open file: a second open in this process is refused as another process would be.
    EXPECT_FALSE(OutputLock::acquire(dir.string(), "pid 1, started now", &why));
    EXPECT_EQ(why, "in use by another run (pid 4242, started 2024-05-01T12:00:00Z)");
}

TEST_F(OutputFolderTest, ALockLetGoLeavesNoFileAndCanBeTakenAgain)
{
    std::string why;
    ASSERT_TRUE(OutputLock::acquire(dir.string(), OutputLock::thisProcess(), &why)) << why;
    EXPECT_FALSE(fs::exists(lockFile()));
    EXPECT_TRUE(OutputLock::acquire(dir.string(), OutputLock::thisProcess(), &why)) << why;
}

TEST_F(OutputFolderTest, ACrashedHoldersLockIsNotStale)
{
    // A child takes the lock and dies without letting it go: its lock file stays, naming it.
    const pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        std::string why;
        auto lock = OutputLock::acquire(dir.string(), OutputLock::thisProcess(), &why);
        const bool locked = lock != nullptr;
        lock.release(); // never destroyed: the file is not removed
        _exit(locked ? 0 : 1);
    }
    int status = 0;
    ASSERT_EQ(waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    ASSERT_TRUE(fs::exists(lockFile()));
    std::string why;
    auto lock = OutputLock::acquire(dir.string(), "pid 7, started later", &why);
    ASSERT_TRUE(lock) << why;
    std::ifstream in(lockFile());
    std::string holder;
    std::getline(in, holder);
    EXPECT_EQ(holder, "pid 7, started later");
}

TEST_F(OutputFolderTest, AFoldersLockDoesNotCoverItsSubfolders)
{
    fs::create_directories(dir / "process-1");
    std::string why;
    auto parent = OutputLock::acquire(dir.string(), OutputLock::thisProcess(), &why);
    ASSERT_TRUE(parent) << why;
    EXPECT_TRUE(OutputLock::acquire((dir / "process-1").string(), OutputLock::thisProcess(), &why)) << why;
}

TEST_F(OutputFolderTest, ThisProcessIsNamedByPidAndStart)
{
    const std::string holder = OutputLock::thisProcess();
    EXPECT_EQ(holder.rfind("pid " + std::to_string(getpid()) + ", started 20", 0), 0u) << holder;
    EXPECT_EQ(holder.back(), 'Z') << holder;
}

TEST_F(OutputFolderTest, EarlierRunFilesAreNamed)
{
    EXPECT_TRUE(earlierRunFiles(dir.string()).empty());
    std::ofstream(dir / "config.yaml") << "x"; // a child's config and table are not results
    std::ofstream(dir / "table.txt") << "x";
    std::ofstream(dir / "steps.csv") << "x";
    std::ofstream(dir / "results.json") << "x";
    fs::create_directories(dir / "process-2");
    fs::create_directories(dir / "process-1");
    EXPECT_EQ(earlierRunFiles(dir.string()),
        (std::vector<std::string> { "results.json", "steps.csv", "process-1/", "process-2/" }));
}

TEST_F(OutputFolderTest, OutputPathProblemsSayWhy)
{
    EXPECT_EQ(outputPathProblem((dir / "results.json").string()), "");
    std::ofstream(dir / "old.json") << "x";
    EXPECT_EQ(outputPathProblem((dir / "old.json").string()), ""); // replaced, as --force asks
    fs::create_directories(dir / "adir");
    EXPECT_EQ(outputPathProblem((dir / "adir").string()), "it is a folder");
    fs::create_directories(dir / "b.json.tmp");
    EXPECT_EQ(outputPathProblem((dir / "b.json").string()),
        "its temporary file " + (dir / "b.json.tmp").string() + " is a folder");
    EXPECT_EQ(outputPathProblem((dir / "missing" / "t.json").string()),
        "the folder " + (dir / "missing").string() + " does not exist");
    EXPECT_EQ(
        outputPathProblem((dir / "old.json" / "t.json").string()), (dir / "old.json").string() + " is not a folder");
    // The probe leaves nothing behind.
    size_t entries = 0;
    for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir))
        ++entries;
    EXPECT_EQ(entries, 3u); // old.json, adir, b.json.tmp
}

TEST_F(OutputFolderTest, AClaimRefusesAHeldFolderEarlierResultsAndUnwritableOutputs)
{
    const std::vector<std::string> outputs { (dir / "results.json").string() };
    {
        FolderClaim first = claimOutputFolder(dir.string(), outputs, false);
        ASSERT_TRUE(first.lock) << first.why;
        const FolderClaim second = claimOutputFolder(dir.string(), outputs, false);
        EXPECT_EQ(second.refusal, FolderClaim::Refusal::InUse);
        EXPECT_EQ(second.why.rfind(dir.string() + ": in use by another run (pid ", 0), 0u) << second.why;
    }
    std::ofstream(dir / "results.json") << "{}";
    const FolderClaim refused = claimOutputFolder(dir.string(), outputs, false);
    EXPECT_FALSE(refused.lock);
    EXPECT_EQ(refused.refusal, FolderClaim::Refusal::EarlierResults);
    EXPECT_EQ(refused.why, dir.string() + " holds the results of an earlier run (results.json)");
    EXPECT_TRUE(claimOutputFolder(dir.string(), outputs, true).lock);

    // An output elsewhere that exists counts too; one that cannot be written is named.
    const fs::path other = dir.parent_path() / ("synctax-test-trace-" + std::to_string(getpid()) + ".json");
    std::ofstream(other) << "{}";
    fs::remove(dir / "results.json");
    const FolderClaim elsewhere = claimOutputFolder(dir.string(), { other.string() }, false);
    fs::remove(other);
    EXPECT_EQ(elsewhere.why, dir.string() + " holds the results of an earlier run (" + other.string() + ")");
    fs::create_directories(dir / "trace.json");
    const FolderClaim unwritable = claimOutputFolder(dir.string(), { (dir / "trace.json").string() }, true);
    EXPECT_EQ(unwritable.refusal, FolderClaim::Refusal::Unwritable);
    EXPECT_EQ(unwritable.why, "cannot write '" + (dir / "trace.json").string() + "': it is a folder");
}

TEST_F(OutputFolderTest, ALockFileIsToldHeldOrStale)
{
    EXPECT_EQ(OutputLock::inspect(dir.string()).kind, OutputLock::State::Kind::None);
    EXPECT_EQ(OutputLock::describe(OutputLock::inspect(dir.string())), "");
    // What SIGKILL leaves: the file naming a process that is gone, and no lock on it.
    std::ofstream(lockFile()) << "pid 999999999, started 2024-05-01T12:00:00Z\n";
    const OutputLock::State stale = OutputLock::inspect(dir.string());
    EXPECT_EQ(stale.kind, OutputLock::State::Kind::Stale);
    EXPECT_EQ(OutputLock::describe(stale),
        "its lock (.synctax-run.lock) is stale: pid 999999999, started 2024-05-01T12:00:00Z is no longer running");
    // A live process whose lock it is not (this one's pid, no lock taken): stale too, said so.
    std::ofstream(lockFile()) << "pid " << getpid() << ", started 2024-05-01T12:00:00Z\n";
    EXPECT_EQ(OutputLock::inspect(dir.string()).kind, OutputLock::State::Kind::Stale);
    EXPECT_NE(OutputLock::describe(OutputLock::inspect(dir.string())).find("that pid is another process now"),
        std::string::npos);
    std::string why;
    auto held = OutputLock::acquire(dir.string(), "pid 4242, started 2024-05-01T12:00:00Z", &why);
    ASSERT_TRUE(held) << why;
    const OutputLock::State state = OutputLock::inspect(dir.string());
    EXPECT_EQ(state.kind, OutputLock::State::Kind::Held);
    EXPECT_EQ(
        OutputLock::describe(state), "its lock is held by a run still going (pid 4242, started 2024-05-01T12:00:00Z)");
    // Asking took no lock that stays: the folder is still its holder's alone.
    EXPECT_FALSE(OutputLock::acquire(dir.string(), "pid 1, started now", &why));
}

TEST_F(OutputFolderTest, AClaimOnAKilledRunsFolderSaysSo)
{
    std::ofstream(dir / "journal.jsonl") << "{}\n";
    std::ofstream(lockFile()) << "pid 999999999, started 2024-05-01T12:00:00Z\n";
    const FolderClaim refused = claimOutputFolder(dir.string(), { (dir / "results.json").string() }, false);
    EXPECT_EQ(refused.refusal, FolderClaim::Refusal::EarlierResults);
    EXPECT_EQ(refused.why,
        dir.string()
            + " holds the results of an earlier run (journal.jsonl); that run ended without its results.json "
              "and its lock (.synctax-run.lock) is stale: pid 999999999, started 2024-05-01T12:00:00Z is no "
              "longer running ('synctax-run show "
            + dir.string() + "' prints what it measured)");
}
