#pragma once

#include <torch/nn/modules/conv.h>

#include <cstdint>

namespace synctax {

// Bias-free convolutions as torchvision's ResNets use them (BatchNorm follows each one).
inline torch::nn::Conv2d conv3x3(int64_t in, int64_t out, int64_t stride = 1)
{
    return torch::nn::Conv2d(torch::nn::Conv2dOptions(in, out, 3).stride(stride).padding(1).bias(false));
}

inline torch::nn::Conv2d conv1x1(int64_t in, int64_t out, int64_t stride = 1)
{
    return torch::nn::Conv2d(torch::nn::Conv2dOptions(in, out, 1).stride(stride).bias(false));
}

} // namespace synctax
