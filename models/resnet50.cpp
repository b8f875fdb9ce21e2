#include "models/resnet50.h"

#include <torch/torch.h>

namespace synctax {

ResNet50Impl::ResNet50Impl(const ResNet50Options& options)
{
    const int64_t w = options.width;
    conv1 = register_module(
        "conv1", torch::nn::Conv2d(torch::nn::Conv2dOptions(3, w, 7).stride(2).padding(3).bias(false)));
    bn1 = register_module("bn1", torch::nn::BatchNorm2d(w));
    int64_t inPlanes = w;
    layer1 = register_module("layer1", makeLayer(inPlanes, w, 3, 1));
    layer2 = register_module("layer2", makeLayer(inPlanes, w * 2, 4, 2));
    layer3 = register_module("layer3", makeLayer(inPlanes, w * 4, 6, 2));
    layer4 = register_module("layer4", makeLayer(inPlanes, w * 8, 3, 2));
    fc = register_module("fc", torch::nn::Linear(inPlanes, options.classes));
}

torch::nn::Sequential ResNet50Impl::makeLayer(int64_t& inPlanes, int64_t planes, int64_t blocks, int64_t stride)
{
    torch::nn::Sequential layer;
    for (int64_t b = 0; b < blocks; ++b) {
        layer->push_back(Bottleneck(inPlanes, planes, b == 0 ? stride : 1));
        inPlanes = planes * BottleneckImpl::expansion;
    }
    return layer;
}

torch::Tensor ResNet50Impl::forward(torch::Tensor x)
{
    x = torch::relu(bn1->forward(conv1->forward(x)));
    x = torch::max_pool2d(x, 3, 2, 1);
    x = layer4->forward(layer3->forward(layer2->forward(layer1->forward(x))));
    x = torch::adaptive_avg_pool2d(x, { 1, 1 }).flatten(1);
    return fc->forward(x);
}

} // namespace synctax
