#pragma once

#include "models/bottleneck.h"

#include <torch/nn/module.h>
#include <torch/nn/modules/batchnorm.h>
#include <torch/nn/modules/container/sequential.h>
#include <torch/nn/modules/conv.h>
#include <torch/nn/modules/linear.h>

#include <cstdint>

namespace synctax {

struct ResNet50Options {
    int64_t width = 64; // torchvision's width_per_group * groups; 64 gives the standard network
    int64_t classes = 1000;
};

// torchvision.models.resnet50, layer for layer: 25,557,032 parameters with 1000 classes.
struct ResNet50Impl : torch::nn::Module {
    explicit ResNet50Impl(const ResNet50Options& options = {});
    torch::Tensor forward(torch::Tensor x);

    torch::nn::Conv2d conv1 { nullptr };
    torch::nn::BatchNorm2d bn1 { nullptr };
    torch::nn::Sequential layer1 { nullptr };
    torch::nn::Sequential layer2 { nullptr };
    torch::nn::Sequential layer3 { nullptr };
    torch::nn::Sequential layer4 { nullptr };
    torch::nn::Linear fc { nullptr };

private:
    torch::nn::Sequential makeLayer(int64_t& inPlanes, int64_t planes, int64_t blocks, int64_t stride);
};
TORCH_MODULE(ResNet50);

} // namespace synctax
