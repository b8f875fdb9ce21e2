#pragma once

#include <torch/nn/module.h>
#include <torch/nn/modules/batchnorm.h>
#include <torch/nn/modules/container/sequential.h>
#include <torch/nn/modules/conv.h>

#include <cstdint>

namespace synctax {

// The two-convolution residual block of ResNet-18/34 (He et al. 2016), as in torchvision.
struct BasicBlockImpl : torch::nn::Module {
    BasicBlockImpl(int64_t inPlanes, int64_t planes, int64_t stride);
    torch::Tensor forward(torch::Tensor x);

    torch::nn::Conv2d conv1 { nullptr };
    torch::nn::BatchNorm2d bn1 { nullptr };
    torch::nn::Conv2d conv2 { nullptr };
    torch::nn::BatchNorm2d bn2 { nullptr };
    torch::nn::Sequential downsample { nullptr };
};
TORCH_MODULE(BasicBlock);

} // namespace synctax
