#include "models/modelfactory.h"

#include "models/resnet50.h"
#include "models/smallresnet.h"
#include "models/tinymlp.h"

#include <torch/torch.h>

#include <stdexcept>

namespace synctax {

namespace {

template <typename Holder> BuiltModel wrap(Holder holder, std::vector<int64_t> sampleShape, int64_t classes)
{
    BuiltModel built;
    built.module = holder.ptr();
    built.forward = [holder](const torch::Tensor& x) mutable { return holder->forward(x); };
    built.sampleShape = std::move(sampleShape);
    built.classes = classes;
    return built;
}

} // namespace

BuiltModel buildModel(const ModelShape& shape)
{
    if (shape.name == "tiny_mlp") {
        TinyMLPOptions o;
        o.inputs = shape.inputSize;
        o.width = shape.width;
        o.classes = shape.classes;
        return wrap(TinyMLP(o), { shape.inputSize }, shape.classes);
    }
    if (shape.name == "small_resnet") {
        SmallResNetOptions o;
        o.width = shape.width;
        o.classes = shape.classes;
        return wrap(SmallResNet(o), { 3, shape.inputSize, shape.inputSize }, shape.classes);
    }
    if (shape.name == "resnet50") {
        ResNet50Options o;
        o.width = shape.width;
        o.classes = shape.classes;
        return wrap(ResNet50(o), { 3, shape.inputSize, shape.inputSize }, shape.classes);
    }
    throw std::invalid_argument("unknown model '" + shape.name + "'");
}

} // namespace synctax
