#pragma once

#include <torch/nn/module.h>
#include <torch/nn/modules/batchnorm.h>
#include <torch/nn/modules/container/sequential.h>
#include <torch/nn/modules/conv.h>

#include <cstdint>

namespace synctax {

// torchvision's Bottleneck (ResNet v1.5: the stride sits on the 3x3 convolution).
struct BottleneckImpl : torch::nn::Module {
    static constexpr int64_t expansion = 4;

    BottleneckImpl(int64_t inPlanes, int64_t planes, int64_t stride);
    torch::Tensor forward(torch::Tensor x);

    torch::nn::Conv2d conv1 { nullptr };
    torch::nn::BatchNorm2d bn1 { nullptr };
    torch::nn::Conv2d conv2 { nullptr };
    torch::nn::BatchNorm2d bn2 { nullptr };
    torch::nn::Conv2d conv3 { nullptr };
    torch::nn::BatchNorm2d bn3 { nullptr };
    torch::nn::Sequential downsample { nullptr };
};
TORCH_MODULE(Bottleneck);

} // namespace synctax
