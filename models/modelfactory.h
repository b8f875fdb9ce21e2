#pragma once

#include <torch/nn/module.h>
#include <torch/types.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace synctax {

struct ModelShape {
    std::string name;
    int64_t width;
    int64_t inputSize;
    int64_t classes;
};

// One input of a model's forward: one sample's shape (the batch goes in front) and its dtype's
// name (float32, float64, float16, bfloat16, int64, int32); integer inputs are drawn from [0, high).
struct SampleInput {
    std::vector<int64_t> shape;
    std::string dtype = "float32";
    int64_t high = 0;
};

// A built or loaded model seen through one interface: its trainable parameters, its forward pass
// over its inputs, the shape of one sample of each, and what its output is trained against.
struct BuiltModel {
    std::shared_ptr<torch::nn::Module> module; // a built-in model's; null for a TorchScript file's
    std::function<torch::Tensor(const std::vector<torch::Tensor>&)> forward;
    std::function<std::vector<torch::Tensor>()> parameters; // those with requires_grad
    std::function<std::vector<torch::Tensor>()> buffers; // running statistics and the like
    std::function<void(torch::Device)> to;
    std::function<void()> train;
    std::vector<SampleInput> inputs;
    int64_t classes = 0; // cross-entropy over [batch, classes]; 0: mean squared error
    std::vector<int64_t> targetShape; // one sample's target, for mean squared error
};

// Throws std::invalid_argument for an unknown name.
BuiltModel buildModel(const ModelShape& shape);

torch::ScalarType scalarTypeOf(const std::string& dtype); // throws std::invalid_argument
// A batch of `batch` samples of `input` on `options`' device: normal floats, or integers in [0, high).
torch::Tensor sampleBatch(const SampleInput& input, int64_t batch, const torch::TensorOptions& options);
// Targets for `batch` samples: class indices, or normal floats of the target shape.
torch::Tensor targetBatch(const BuiltModel& model, int64_t batch, const torch::TensorOptions& options);
// The model's loss: cross-entropy against class indices, or mean squared error.
torch::Tensor modelLoss(const BuiltModel& model, const torch::Tensor& output, const torch::Tensor& target);

} // namespace synctax
