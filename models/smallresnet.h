#pragma once

#include "models/basicblock.h"

#include <torch/nn/module.h>
#include <torch/nn/modules/batchnorm.h>
#include <torch/nn/modules/container/sequential.h>
#include <torch/nn/modules/conv.h>
#include <torch/nn/modules/linear.h>

#include <cstdint>

namespace synctax {

struct SmallResNetOptions {
    int64_t width = 64; // channels of the stem and first stage; each later stage doubles them
    int64_t blocksPerStage = 2;
    int64_t classes = 10;
};

// A CIFAR-size ResNet (3x32x32 input): a 3x3 stem and four stages of basic blocks, ResNet-18
// shaped. A step is a few milliseconds of GPU work, enough to keep the launch queue busy.
struct SmallResNetImpl : torch::nn::Module {
    explicit SmallResNetImpl(const SmallResNetOptions& options = {});
    torch::Tensor forward(torch::Tensor x);

    torch::nn::Conv2d stem { nullptr };
    torch::nn::BatchNorm2d stemBn { nullptr };
    torch::nn::Sequential stages { nullptr };
    torch::nn::Linear fc { nullptr };
};
TORCH_MODULE(SmallResNet);

} // namespace synctax
