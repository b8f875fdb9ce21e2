#include "models/torchscriptmodel.h"

#include <caffe2/serialize/inline_container.h>
#include <caffe2/serialize/versions.h>
#include <torch/csrc/jit/runtime/graph_executor.h>
#include <torch/script.h>
#include <torch/torch.h>
#include <torch/version.h>

#include <optional>
#include <regex>
#include <sstream>

namespace synctax {

namespace {

using Part = TorchScriptError::Part;

// The line of a LibTorch error a user can act on: the interpreter's RuntimeError where it reports
// one, else the first line (the rest is the module's code and a backtrace).
std::string torchMessage(const std::exception& e)
{
    const auto* error = dynamic_cast<const c10::Error*>(&e);
    std::string text = error ? error->what_without_backtrace() : e.what();
    const std::string runtime = "RuntimeError: ";
    if (const size_t at = text.rfind(runtime); at != std::string::npos)
        return text.substr(at + runtime.size(), text.find('\n', at) - at - runtime.size());
    std::istringstream lines(text);
    std::string line;
    while (std::getline(lines, line)) {
        if (line.find_first_not_of(" \t") != std::string::npos)
            return line;
    }
    return text;
}

std::string shapeText(const std::vector<int64_t>& shape)
{
    std::string text = "[";
    for (size_t i = 0; i < shape.size(); ++i)
        text += (i ? ", " : "") + std::to_string(shape[i]);
    return text + "]";
}

std::string shapeText(torch::IntArrayRef shape) { return shapeText(shape.vec()); }

// Group `group` of the first match of `pattern` in a LibTorch error's message.
std::optional<std::string> firstMatch(const std::exception& e, const std::regex& pattern, size_t group)
{
    const auto* error = dynamic_cast<const c10::Error*>(&e);
    const std::string message = error ? error->what_without_backtrace() : e.what();
    std::smatch m;
    if (!std::regex_search(message, m, pattern))
        return std::nullopt;
    return m[group].str();
}

TorchScriptError newerPyTorch(const std::string& why)
{
    return TorchScriptError(
        Part::File, "saved by a newer PyTorch than this LibTorch " + libTorchVersion() + ": " + why);
}

// The archive's file format version, or a TorchScriptError for a file that is no TorchScript archive.
uint64_t checkArchive(const std::string& path)
{
    try {
        caffe2::serialize::PyTorchStreamReader reader(path);
        bool code = false;
        for (const auto& record : reader.getAllRecords())
            code = code || record.rfind("code/", 0) == 0;
        if (!code) {
            throw TorchScriptError(Part::File,
                "a torch.save file (weights, a state_dict or a pickled module), not TorchScript: save the module with "
                "torch.jit.script(model).save(PATH) or torch.jit.trace(model, example).save(PATH)");
        }
        return reader.version();
    } catch (const c10::Error& e) {
        static const std::regex newer("read a PyTorch file with version ([0-9]+)");
        if (const auto version = firstMatch(e, newer, 1)) {
            throw newerPyTorch("its file format version is " + *version + ", and LibTorch " + libTorchVersion()
                + " reads up to " + std::to_string(newestFileFormatRead()));
        }
        throw TorchScriptError(Part::File,
            "not a TorchScript file: " + torchMessage(e)
                + " (torch.jit.save writes a zip archive of the module's code and weights)");
    }
}

torch::jit::Module loadModule(const std::string& path)
{
    const uint64_t format = checkArchive(path);
    try {
        return torch::jit::load(path, torch::kCPU);
    } catch (const std::exception& e) { // the script compiler's ErrorReport is no c10::Error
        // The name without the sentence's full stop: "Unknown builtin op: aten::name."
        static const std::regex unknown(
            "Unknown (builtin op|type name|type constructor): '?([A-Za-z0-9_:.]*[A-Za-z0-9_])");
        if (const auto name = firstMatch(e, unknown, 2)) {
            throw newerPyTorch("it uses " + *name + ", which LibTorch " + libTorchVersion()
                + " does not have (the file's format version is " + std::to_string(format) + ")");
        }
        throw TorchScriptError(Part::File, "LibTorch " + libTorchVersion() + " cannot load it: " + torchMessage(e));
    }
}

std::string inputsText(const std::vector<SampleInput>& inputs, int64_t batch)
{
    std::string text;
    for (const SampleInput& input : inputs) {
        std::vector<int64_t> shape { batch };
        shape.insert(shape.end(), input.shape.begin(), input.shape.end());
        text += (text.empty() ? "" : ", ") + shapeText(shape) + " " + input.dtype;
    }
    return text;
}

void checkOutput(const TorchScriptModelSpec& spec, const torch::Tensor& output, int64_t batch)
{
    const std::string shape = shapeText(output.sizes());
    if (spec.classes > 0) {
        if (output.dim() != 2 || output.size(0) != batch || output.size(1) != spec.classes) {
            throw TorchScriptError(Part::Target,
                "the output " + shape + " does not fit target classes: " + std::to_string(spec.classes) + " (expected ["
                    + std::to_string(batch) + ", " + std::to_string(spec.classes) + "]: one score per class)");
        }
        if (!output.is_floating_point())
            throw TorchScriptError(Part::Target, "the output is not floating point; cross-entropy needs scores");
        return;
    }
    std::vector<int64_t> expected { batch };
    expected.insert(expected.end(), spec.targetShape.begin(), spec.targetShape.end());
    if (output.sizes().vec() != expected) {
        throw TorchScriptError(Part::Target,
            "the output " + shape + " does not fit target mse: " + shapeText(spec.targetShape) + " (expected "
                + shapeText(expected) + ")");
    }
}

// The module, loaded on the CPU in training mode, with at least one parameter to train.
torch::jit::Module loadTrainable(const std::string& path)
{
    // Off for every TorchScript module of the process: it is set before the first forward runs.
    torch::jit::setGraphExecutorOptimize(false);
    torch::jit::Module module = loadModule(path);
    module.train(true);
    int64_t total = 0, trainable = 0;
    for (const auto& p : module.parameters()) {
        ++total;
        trainable += p.requires_grad() ? 1 : 0;
    }
    if (trainable == 0) {
        throw TorchScriptError(Part::File,
            "has no trainable parameters (" + std::to_string(total)
                + " parameters, none requires grad): there is nothing to train; save it before freezing it");
    }
    return module;
}

BuiltModel wrapModule(torch::jit::Module module, const TorchScriptModelSpec& spec)
{
    BuiltModel built;
    built.forward = [module](const std::vector<torch::Tensor>& inputs) mutable {
        std::vector<torch::jit::IValue> args(inputs.begin(), inputs.end());
        return module.forward(args).toTensor();
    };
    built.parameters = [module] {
        std::vector<torch::Tensor> result;
        for (const auto& p : module.parameters()) {
            if (p.requires_grad())
                result.push_back(p);
        }
        return result;
    };
    built.buffers = [module] {
        std::vector<torch::Tensor> result;
        for (const auto& b : module.buffers())
            result.push_back(b);
        return result;
    };
    built.to = [module](torch::Device device) mutable { module.to(device); };
    built.train = [module]() mutable { module.train(true); };
    built.inputs = spec.inputs;
    built.classes = spec.classes;
    built.targetShape = spec.targetShape;
    return built;
}

} // namespace

std::string libTorchVersion() { return TORCH_VERSION; }

uint64_t newestFileFormatRead() { return caffe2::serialize::kMaxSupportedFileFormatVersion; }

BuiltModel loadTorchScriptModel(const TorchScriptModelSpec& spec) { return wrapModule(loadTrainable(spec.path), spec); }

void checkTorchScriptModel(const TorchScriptModelSpec& spec)
{
    torch::jit::Module module = loadTrainable(spec.path);
    BuiltModel built = wrapModule(module, spec);
    const int64_t batch = 2;
    const auto options = torch::TensorOptions().device(torch::kCPU);
    std::vector<torch::jit::IValue> args;
    for (const SampleInput& input : spec.inputs)
        args.emplace_back(sampleBatch(input, batch, options));
    torch::jit::IValue result;
    try {
        result = module.forward(args);
    } catch (const std::exception& e) { // the interpreter's errors are not all c10::Error
        throw TorchScriptError(Part::Inputs,
            "the forward does not take the declared input (" + inputsText(spec.inputs, batch)
                + "): " + torchMessage(e));
    }
    if (!result.isTensor()) {
        throw TorchScriptError(Part::Target,
            "the forward returns " + result.type()->str()
                + ", not a Tensor: the loss is taken on one output tensor (return the logits or the prediction)");
    }
    checkOutput(spec, result.toTensor(), batch);
    try { // the backward of the forward above: its output holds the autograd graph
        modelLoss(built, result.toTensor(), targetBatch(built, batch, options)).backward();
    } catch (const std::exception& e) {
        throw TorchScriptError(Part::File, "a training step fails on the CPU: " + torchMessage(e));
    }
}

} // namespace synctax
