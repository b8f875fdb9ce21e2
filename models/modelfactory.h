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

// A built model seen through one interface: its parameters, its forward pass and the shape of
// one input sample.
struct BuiltModel {
    std::shared_ptr<torch::nn::Module> module;
    std::function<torch::Tensor(const torch::Tensor&)> forward;
    std::vector<int64_t> sampleShape;
    int64_t classes = 0;
};

// Throws std::invalid_argument for an unknown name.
BuiltModel buildModel(const ModelShape& shape);

} // namespace synctax
