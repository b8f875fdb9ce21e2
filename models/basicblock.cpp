#include "models/basicblock.h"

#include "models/convutil.h"

#include <torch/torch.h>

namespace synctax {

BasicBlockImpl::BasicBlockImpl(int64_t inPlanes, int64_t planes, int64_t stride)
{
    conv1 = register_module("conv1", conv3x3(inPlanes, planes, stride));
    bn1 = register_module("bn1", torch::nn::BatchNorm2d(planes));
    conv2 = register_module("conv2", conv3x3(planes, planes));
    bn2 = register_module("bn2", torch::nn::BatchNorm2d(planes));
    if (stride != 1 || inPlanes != planes) {
        downsample = register_module(
            "downsample", torch::nn::Sequential(conv1x1(inPlanes, planes, stride), torch::nn::BatchNorm2d(planes)));
    }
}

torch::Tensor BasicBlockImpl::forward(torch::Tensor x)
{
    auto identity = downsample ? downsample->forward(x) : x;
    auto out = torch::relu(bn1->forward(conv1->forward(x)));
    out = bn2->forward(conv2->forward(out));
    return torch::relu(out + identity);
}

} // namespace synctax
