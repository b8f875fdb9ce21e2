#pragma once

#include "core/config/boundedkey.h"
#include "core/config/experimentconfig.h"

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace synctax {

// Every key of an experiment config, written once: its name in YAML, what it holds and the values
// it takes. The loader checks against these, the writer writes their names, and the app's config
// panel takes its limits from them, so that the three cannot drift apart.
struct FlagKey {
    const char* name; // true or false
};
struct TextKey {
    const char* name;
};
// A list or mapping whose entries have keys of their own (warmup, models, styles, modes).
struct SectionKey {
    const char* name;
};
// One of a fixed set of names, each standing for a value of E.
template <typename E> struct ChoiceKey {
    const char* name;
    std::vector<std::pair<std::string, E>> choices;

    std::optional<E> find(const std::string& text) const
    {
        for (const auto& [choice, value] : choices) {
            if (choice == text)
                return value;
        }
        return std::nullopt;
    }
    std::string nameOf(E value) const
    {
        for (const auto& [choice, v] : choices) {
            if (v == value)
                return choice;
        }
        return choices.front().first;
    }
    std::vector<std::string> names() const
    {
        std::vector<std::string> result;
        for (const auto& choice : choices)
            result.push_back(choice.first);
        return result;
    }
};

// The top level of a config.
namespace configkeys {
inline const IntegerKey version { "synctax", 1, 1 };
inline const TextKey name { "name" };
inline const TextKey description { "description" };
// auto, cpu or cuda, or cuda:N for the N-th CUDA device (isDeviceName).
inline const TextKey device { "device" };
inline const std::vector<std::string> deviceNames { "auto", "cpu", "cuda" };
inline const char* const deviceIndexed = "cuda:N";
inline const UnsignedKey seed { "seed", 0, std::numeric_limits<uint64_t>::max() };
inline const IntegerKey stepsPerBlock { "steps_per_block", 1, 100000 };
inline const IntegerKey blocks { "blocks", 2, 100000 };
inline const IntegerKey minBlocks { "min_blocks", 2, 100000 };
inline const NumberKey targetCiPp { "target_ci_pp", 0.0, 100.0 };
inline const NumberKey timeBudgetS { "time_budget_s", 0.1, 86400.0 };
inline const IntegerKey processes { "processes", 1, 64 };
inline const FlagKey gpuEvents { "gpu_events" };
inline const FlagKey observerControl { "observer_control" };
inline const SectionKey warmup { "warmup" };
inline const IntegerKey hostWorkUs { "host_work_us", 0, 10'000'000 };
inline const ChoiceKey<OptimizerKind> optimizer { "optimizer",
    { { "sgd", OptimizerKind::Sgd }, { "adam", OptimizerKind::Adam } } };
inline const NumberKey learningRate { "learning_rate", 1e-9, 10.0 };
// null, stdout or stderr, or file:PATH.
inline const ChoiceKey<SinkSpec::Kind> sink { "sink",
    { { "null", SinkSpec::Kind::Null }, { "stdout", SinkSpec::Kind::Stdout }, { "stderr", SinkSpec::Kind::Stderr } } };
inline const char* const sinkFilePrefix = "file:";
inline const SectionKey models { "models" };
inline const SectionKey styles { "styles" };
inline const SectionKey modes { "modes" };
// sweep: { host_work_us: [...], batch: [...] }, at the top level or in one model's mapping.
inline const SectionKey sweep { "sweep" };
// distributed: { backend, ranks, sync_on, timeout_s }
inline const SectionKey distributed { "distributed" };
} // namespace configkeys

namespace distributedkeys {
inline const ChoiceKey<CollectiveBackend> backend { "backend",
    { { "gloo", CollectiveBackend::Gloo }, { "nccl", CollectiveBackend::Nccl } } };
inline const IntegerKey ranks { "ranks", 1, 64 };
inline const ChoiceKey<SyncOn> syncOn { "sync_on", { { "rank0", SyncOn::Rank0 }, { "all", SyncOn::All } } };
inline const NumberKey timeoutS { "timeout_s", 1.0, 3600.0 };
} // namespace distributedkeys

// What makes a YAML file a simulation (synctax-run simulate) rather than a config: its version key
// in place of configkeys::version. Each loader names the other's files by it.
inline const char* const simulationVersionKey = "synctax_simulation";

// warmup: { min_steps, max_steps }
namespace warmupkeys {
inline const IntegerKey minSteps { "min_steps", 0, 100000 };
inline const IntegerKey maxSteps { "max_steps", 0, 100000 };
} // namespace warmupkeys

// One entry of models: a name, or a mapping with the name, its sizes and the per-model overrides of
// steps_per_block, blocks, host_work_us and time_budget_s (the top-level keys, same bounds).
namespace modelkeys {
inline const TextKey name { "name" };
inline const IntegerKey batch { "batch", 1, 65536 };
inline const IntegerKey width { "width", 1, 8192 };
inline const IntegerKey inputSize { "input_size", 1, 4096 };
inline const IntegerKey classes { "classes", 2, 1'000'000 };
} // namespace modelkeys

// A model saved by PyTorch with torch.jit.script or torch.jit.trace: `torchscript: PATH` (relative to
// the config file) with `input` (one {shape, dtype, high}) or `inputs` (a list of them) and `target`
// ({classes: N} or {mse: [shape]}) in place of width, input_size and classes.
namespace torchscriptkeys {
inline const TextKey path { "torchscript" };
inline const SectionKey input { "input" };
inline const SectionKey inputs { "inputs" };
inline const SectionKey target { "target" };
inline const IntegerKey dimension { "shape", 1, 1'000'000 }; // each dimension of one sample
inline const ChoiceKey<std::string> dtype { "dtype",
    { { "float32", "float32" }, { "float64", "float64" }, { "float16", "float16" }, { "bfloat16", "bfloat16" },
        { "int64", "int64" }, { "int32", "int32" } } };
inline const IntegerKey high { "high", 1, 2'147'483'647 }; // integer inputs are drawn from [0, high)
// Whether a dtype of `dtype` is an integer one, whose input takes `high`.
inline bool isIntegerDtype(const std::string& name) { return name == "int64" || name == "int32"; }
inline const IntegerKey& classes = modelkeys::classes;
inline const SectionKey mse { "mse" };
inline const int maxInputs = 16;
inline const int64_t defaultBatch = 32;
inline const int maxDimensions = 8;
} // namespace torchscriptkeys

// sweep: lists of the top-level host_work_us and the model's batch, each value within that key's bounds.
namespace sweepkeys {
inline const IntegerKey& hostWorkUs = configkeys::hostWorkUs;
inline const IntegerKey& batch = modelkeys::batch;
} // namespace sweepkeys

// One entry of styles (configs and simulations): a name, or { name, n } for the *_every_n styles.
namespace stylekeys {
inline const TextKey name { "name" };
inline const IntegerKey n { "n", 1, 1'000'000 };
} // namespace stylekeys

// One entry of modes.
inline const ChoiceKey<Mode> modeChoice { "mode", { { "eager", Mode::Eager }, { "cuda_graph", Mode::CudaGraph } } };

bool isDeviceName(const std::string& text);

// A config's name names its results folder (results/NAME-TIME): what it may be, in words, and
// whether `text` is one.
inline const size_t maxNameLength = 100;
std::string nameRule();
bool isConfigName(const std::string& text);

// The keys each mapping allows, in the order messages list them.
const std::vector<std::string>& topLevelKeyNames();
const std::vector<std::string>& warmupKeyNames();
const std::vector<std::string>& modelKeyNames();
const std::vector<std::string>& inputKeyNames(); // one input of a TorchScript model
const std::vector<std::string>& targetKeyNames();
const std::vector<std::string>& styleKeyNames();
const std::vector<std::string>& sweepKeyNames();
const std::vector<std::string>& distributedKeyNames();

// "a or b", "a, b or c".
std::string joinedOr(const std::vector<std::string>& names);

} // namespace synctax
