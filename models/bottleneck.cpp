#include "models/bottleneck.h"

#include "models/convutil.h"

#include <torch/torch.h>

namespace synctax {

BottleneckImpl::BottleneckImpl(int64_t inPlanes, int64_t planes, int64_t stride)
{
    conv1 = register_module("conv1", conv1x1(inPlanes, planes));
    bn1 = register_module("bn1", torch::nn::BatchNorm2d(planes));
    conv2 = register_module("conv2", conv3x3(planes, planes, stride));
    bn2 = register_module("bn2", torch::nn::BatchNorm2d(planes));
    conv3 = register_module("conv3", conv1x1(planes, planes * expansion));
    bn3 = register_module("bn3", torch::nn::BatchNorm2d(planes * expansion));
    if (stride != 1 || inPlanes != planes * expansion) {
        downsample = register_module("downsample",
            torch::nn::Sequential(
                conv1x1(inPlanes, planes * expansion, stride), torch::nn::BatchNorm2d(planes * expansion)));
    }
}

torch::Tensor BottleneckImpl::forward(torch::Tensor x)
{
    auto identity = downsample ? downsample->forward(x) : x;
    auto out = torch::relu(bn1->forward(conv1->forward(x)));
    out = torch::relu(bn2->forward(conv2->forward(out)));
    out = bn3->forward(conv3->forward(out));
    return torch::relu(out + identity);
}

} // namespace synctax
