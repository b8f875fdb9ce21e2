#pragma once

#include <torch/nn/module.h>
#include <torch/nn/modules/linear.h>

#include <cstdint>

namespace synctax {

struct TinyMLPOptions {
    int64_t inputs = 256;
    int64_t width = 512;
    int64_t classes = 10;
};

// Four linear layers with ReLU between them: a step of a few dozen small kernels, so the loop is
// bound by the host's dispatch rate rather than by the GPU.
struct TinyMLPImpl : torch::nn::Module {
    explicit TinyMLPImpl(const TinyMLPOptions& options = {});
    torch::Tensor forward(torch::Tensor x);

    torch::nn::Linear fc1 { nullptr };
    torch::nn::Linear fc2 { nullptr };
    torch::nn::Linear fc3 { nullptr };
    torch::nn::Linear fc4 { nullptr };
};
TORCH_MODULE(TinyMLP);

} // namespace synctax
