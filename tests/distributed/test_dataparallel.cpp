// The data-parallel step over real Gloo process groups: two ranks as two threads of this process,
// meeting at a FileStore. The reference each check compares with is computed here, in one process,
// by the plain training step (TrainingState::runStep) on the whole batch.
#include "core/engine/distributed/collectives.h"
#include "core/engine/distributed/dataparallelexecutor.h"
#include "core/engine/distributed/gradientbuckets.h"
#include "core/engine/training/trainingstate.h"

#include <gtest/gtest.h>
#include <torch/torch.h>

#include <unistd.h>

#include <filesystem>
#include <thread>

using namespace synctax;

namespace {

const ModelSpec mlp { "tiny_mlp", 8, 32, 16, 10 };

std::string freshRendezvous(const std::string& name)
{
    const auto path = std::filesystem::temp_directory_path() / ("synctax-" + name + "-" + std::to_string(getpid()));
    std::filesystem::remove(path);
    return path.string();
}

// Runs `body(rank)` on `ranks` threads at once, each with its own Collectives; rethrows the first failure.
void onRanks(int ranks, const std::string& rendezvous, const std::function<void(Collectives&)>& body)
{
    std::vector<std::thread> threads;
    std::vector<std::string> failures(static_cast<size_t>(ranks));
    for (int r = 0; r < ranks; ++r) {
        threads.emplace_back([&, r] {
            try {
                auto group = joinRanks(CollectiveBackend::Gloo, rendezvous, r, ranks, 20);
                body(*group);
            } catch (const std::exception& e) {
                failures[size_t(r)] = e.what();
            }
        });
    }
    for (auto& t : threads)
        t.join();
    for (int r = 0; r < ranks; ++r)
        ASSERT_TRUE(failures[size_t(r)].empty()) << "rank " << r << ": " << failures[size_t(r)];
}

std::vector<torch::Tensor> copies(const std::vector<torch::Tensor>& tensors)
{
    std::vector<torch::Tensor> out;
    for (const auto& t : tensors)
        out.push_back(t.detach().clone());
    return out;
}

double largestDifference(const std::vector<torch::Tensor>& a, const std::vector<torch::Tensor>& b)
{
    double largest = 0;
    for (size_t i = 0; i < a.size(); ++i)
        largest = std::max(largest, (a[i] - b[i]).abs().max().item<double>());
    return largest;
}

} // namespace

// N ranks with batch b each step like one process with batch N*b: the mean cross entropy over the
// whole batch is the average of the per-rank means when the per-rank batches are equal, so the
// averaged gradients, and after the SGD steps the parameters, must agree.
TEST(DataParallel, TwoRanksMatchOneProcessWithTheWholeBatch)
{
    constexpr int ranks = 2, steps = 3;
    // The reference: one process, batch 2*8, the same initial weights (seed 7) and data.
    ModelSpec whole = mlp;
    whole.batch = mlp.batch * ranks;
    TrainingState reference(whole, torch::kCPU, OptimizerKind::Sgd, 0.05, 7, steps);
    // Each rank's state is made here (manual_seed is process-wide), then fed its half of every batch;
    // rank 1 starts from other weights, which the broadcast of rank 0's replaces.
    std::vector<std::unique_ptr<TrainingState>> states;
    for (int r = 0; r < ranks; ++r)
        states.push_back(std::make_unique<TrainingState>(mlp, torch::kCPU, OptimizerKind::Sgd, 0.05, 7 + r));
    std::vector<std::vector<torch::Tensor>> after(ranks);
    onRanks(ranks, freshRendezvous("whole-batch"), [&](Collectives& group) {
        const int r = group.rank();
        // A small cap: several buckets, so their order and the hooks are exercised too.
        DataParallelExecutor executor(std::move(states[size_t(r)]), group, 4096);
        EXPECT_GT(executor.bucketCount(), 1u);
        for (int s = 0; s < steps; ++s) {
            const Batch& b = reference.batch(size_t(s));
            executor.step({ b.inputs.at(0).narrow(0, r * mlp.batch, mlp.batch).clone() },
                b.target.narrow(0, r * mlp.batch, mlp.batch).clone());
        }
        EXPECT_EQ(executor.takeWaitMs().size(), size_t(steps));
        after[size_t(r)] = copies(executor.state().parameters());
    });
    for (int s = 0; s < steps; ++s) {
        const Batch& b = reference.batch(size_t(s));
        reference.runStep(b.inputs, b.target);
    }
    const auto expected = copies(reference.parameters());
    EXPECT_LT(largestDifference(after[0], expected), 1e-5);
    EXPECT_LT(largestDifference(after[1], expected), 1e-5);
}

// Every rank trains on its own data (other seeds), yet after each step all hold the same parameters.
TEST(DataParallel, RanksHoldTheSameParametersAfterEveryStep)
{
    constexpr int ranks = 2, steps = 4;
    std::vector<std::unique_ptr<TrainingState>> states;
    for (int r = 0; r < ranks; ++r)
        states.push_back(std::make_unique<TrainingState>(mlp, torch::kCPU, OptimizerKind::Adam, 0.01, 100 + r));
    std::vector<std::vector<std::vector<torch::Tensor>>> perStep(ranks);
    onRanks(ranks, freshRendezvous("equal-params"), [&](Collectives& group) {
        DataParallelExecutor executor(std::move(states[size_t(group.rank())]), group);
        for (int s = 0; s < steps; ++s) {
            executor.step();
            perStep[size_t(group.rank())].push_back(copies(executor.state().parameters()));
        }
    });
    for (int s = 0; s < steps; ++s) {
        SCOPED_TRACE("step " + std::to_string(s + 1));
        EXPECT_EQ(largestDifference(perStep[0][size_t(s)], perStep[1][size_t(s)]), 0.0);
    }
    // And they did train: the parameters moved between the first step and the last.
    EXPECT_GT(largestDifference(perStep[0].front(), perStep[0].back()), 0.0);
}

// Buckets hold the parameters in reverse order, each at most the cap unless one parameter alone is larger.
TEST(DataParallel, BucketsFollowTheCap)
{
    onRanks(1, freshRendezvous("buckets"), [&](Collectives& group) {
        std::vector<torch::Tensor> params { torch::zeros({ 100 }, torch::requires_grad()),
            torch::zeros({ 100 }, torch::requires_grad()), torch::zeros({ 300 }, torch::requires_grad()) };
        // 400 bytes each for the first two, 1200 for the last: a cap of 800 gives {p2}, {p1, p0}.
        GradientBuckets buckets(params, group, 800);
        EXPECT_EQ(buckets.bucketCount(), 2u);
        const torch::Tensor loss = (params[0] * 1 + params[1] * 2).sum() + (params[2] * 3).sum();
        loss.backward();
        buckets.finish();
        EXPECT_TRUE(torch::all(params[0].grad() == 1).item<bool>());
        EXPECT_TRUE(torch::all(params[1].grad() == 2).item<bool>());
        EXPECT_TRUE(torch::all(params[2].grad() == 3).item<bool>());
    });
}
