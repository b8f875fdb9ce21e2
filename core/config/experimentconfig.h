#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace synctax {

enum class Mode { Eager, CudaGraph };
enum class OptimizerKind { Sgd, Adam };

std::string toString(Mode mode);
std::optional<Mode> modeFromString(const std::string& name);
std::string toString(OptimizerKind kind);

// sweep: the host works and batches a model is measured at, one group per combination. An empty
// list is a key not swept.
struct SweepSpec {
    std::vector<int64_t> hostWorkUs;
    std::vector<int64_t> batch;

    bool operator==(const SweepSpec& other) const { return hostWorkUs == other.hostWorkUs && batch == other.batch; }
};

// Where a key was written, for the checks that run after loading (a TorchScript file's).
struct KeyPlace {
    std::string file;
    int line = 0; // 1-based; 0 when unknown
    int column = 0;
};

// One input of a TorchScript model: the shape of one sample (the batch is put in front) and its
// dtype; integer inputs (token ids) are drawn from [0, high).
struct InputSpec {
    std::vector<int64_t> shape;
    std::string dtype = "float32";
    int64_t high = 0; // integer dtypes only

    bool operator==(const InputSpec& other) const
    {
        return shape == other.shape && dtype == other.dtype && high == other.high;
    }
};

// What a TorchScript model's output is trained against: class indices (cross-entropy over an
// output of [batch, classes]) or values of a shape (mean squared error over [batch, shape...]).
struct TargetSpec {
    enum class Kind { Classes, Mse };
    Kind kind = Kind::Classes;
    int64_t classes = 0;
    std::vector<int64_t> shape; // Mse only

    bool operator==(const TargetSpec& other) const
    {
        return kind == other.kind && classes == other.classes && shape == other.shape;
    }
};

// A model the user saved with torch.jit.script or torch.jit.trace, run in place of a built-in one.
struct TorchScriptSpec {
    std::string path; // absolute: resolved against the config file's folder
    std::vector<InputSpec> inputs; // forward's arguments, in order
    bool inputsListed = false; // written as `inputs:` (a list, even of one), not `input:`
    TargetSpec target;
    KeyPlace pathAt, inputsAt, targetAt; // where each key was written, for the checks before a run
};

// One model as an experiment runs it. Sizes start from the catalog's defaults.
struct ModelSpec {
    std::string name;
    int64_t batch = 0;
    int64_t width = 0;
    int64_t inputSize = 0;
    int64_t classes = 0;
    int64_t stepsPerBlock = 0; // per-model override of ExperimentConfig::stepsPerBlock
    int64_t blocks = 0; // per-model override of ExperimentConfig::blocks
    int64_t hostWorkUs = -1; // per-model override; -1 takes ExperimentConfig::hostWorkUs
    double timeBudgetS = 0; // per-model override of ExperimentConfig::timeBudgetS; 0 takes it
    std::optional<SweepSpec> sweep; // replaces ExperimentConfig::sweep for this model
    std::optional<TorchScriptSpec> torchscript; // a user's module; name is then its display name
};

struct StyleSpec {
    std::string name;
    int64_t n = 0; // every n steps, for the *_every_n styles
};

// Where progress bars, prints and scalar writers send their text.
struct SinkSpec {
    enum class Kind { Null, Stdout, Stderr, File };
    Kind kind = Kind::Null;
    std::string path;
};

// As configs write it: null, stdout, stderr or file:PATH.
std::string toString(const SinkSpec& sink);

// distributed: the run as data-parallel training over N rank processes (synctax-run starts them),
// every step ending in a gradient all-reduce; the logging styles run on rank 0 alone or on all.
enum class CollectiveBackend { Gloo, Nccl };
enum class SyncOn { Rank0, All };

struct DistributedSpec {
    CollectiveBackend backend = CollectiveBackend::Gloo;
    int ranks = 2;
    SyncOn syncOn = SyncOn::Rank0;
    // How long a rank waits in a collective (and the launcher for a silent rank) before the run ends.
    double timeoutS = 60;

    bool operator==(const DistributedSpec& other) const
    {
        return backend == other.backend && ranks == other.ranks && syncOn == other.syncOn && timeoutS == other.timeoutS;
    }
};

std::string toString(CollectiveBackend backend);
std::string toString(SyncOn syncOn);

struct ExperimentConfig {
    int version = 1;
    std::string name = "experiment";
    std::string description;
    std::string device = "auto";
    uint64_t seed = 1;
    int64_t stepsPerBlock = 50;
    int64_t blocks = 20; // the most rounds (blocks per cell) a model and mode may run
    int64_t minBlocks = 10; // rounds run before the interval target may stop a model early
    double targetCiPp = 0.5; // stop once every cell's 95% interval is this narrow (half-width, points)
    double timeBudgetS = 60; // per model and mode, warm-up included
    // Fresh processes the run is spread over (synctax-run): each measures every model for its share
    // of the rounds and time, and the interval then covers how much processes differ.
    int processes = 1;
    int64_t warmupMinSteps = 20;
    int64_t warmupMaxSteps = 300;
    int64_t hostWorkUs = 0;
    OptimizerKind optimizer = OptimizerKind::Sgd;
    double learningRate = 0.01;
    bool gpuEvents = true; // per-step CUDA events (queue depth, lag); off to run uninstrumented
    bool observerControl = false; // add a cell of the baseline without events: their cost
    SinkSpec sink;
    std::vector<ModelSpec> models;
    std::vector<StyleSpec> styles;
    std::vector<Mode> modes { Mode::Eager };
    std::optional<SweepSpec> sweep; // every model's, unless the model has its own
    std::optional<DistributedSpec> distributed; // absent: one process, no collectives

    int64_t stepsPerBlockFor(const ModelSpec& model) const;
    int64_t blocksFor(const ModelSpec& model) const;
    int64_t minBlocksFor(const ModelSpec& model) const;
    int64_t hostWorkUsFor(const ModelSpec& model) const;
    double timeBudgetSFor(const ModelSpec& model) const;
    const std::optional<SweepSpec>& sweepFor(const ModelSpec& model) const;
    // How a cell of this style runs: its entry in `styles`; a control cell (stylecatalog.h's
    // isControlStyle), or a style the config does not list, runs the baseline.
    StyleSpec styleSpecOf(const std::string& style) const;
};

// Shrinks every cell to a few steps of a tiny batch, for smoke tests.
void applyQuick(ExperimentConfig& config);

} // namespace synctax
