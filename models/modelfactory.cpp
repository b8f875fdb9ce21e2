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
    built.forward = [holder](const std::vector<torch::Tensor>& x) mutable { return holder->forward(x.at(0)); };
    built.parameters = [holder] { return holder->parameters(); };
    built.buffers = [holder] { return holder->buffers(); };
    built.to = [holder](torch::Device device) mutable { holder->to(device); };
    built.train = [holder]() mutable { holder->train(); };
    built.inputs = { SampleInput { std::move(sampleShape), "float32", 0 } };
    built.classes = classes;
    return built;
}

std::vector<int64_t> withBatch(int64_t batch, const std::vector<int64_t>& sample)
{
    std::vector<int64_t> shape { batch };
    shape.insert(shape.end(), sample.begin(), sample.end());
    return shape;
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

torch::ScalarType scalarTypeOf(const std::string& dtype)
{
    static const std::vector<std::pair<std::string, torch::ScalarType>> types { { "float32", torch::kFloat },
        { "float64", torch::kDouble }, { "float16", torch::kHalf }, { "bfloat16", torch::kBFloat16 },
        { "int64", torch::kLong }, { "int32", torch::kInt } };
    for (const auto& [name, type] : types) {
        if (name == dtype)
            return type;
    }
    throw std::invalid_argument("unknown dtype '" + dtype + "'");
}

torch::Tensor sampleBatch(const SampleInput& input, int64_t batch, const torch::TensorOptions& options)
{
    const torch::ScalarType type = scalarTypeOf(input.dtype);
    const auto shape = withBatch(batch, input.shape);
    if (torch::isIntegralType(type, /*includeBool=*/false))
        return torch::randint(0, input.high, shape, options.dtype(type));
    return torch::randn(shape, options.dtype(type));
}

torch::Tensor targetBatch(const BuiltModel& model, int64_t batch, const torch::TensorOptions& options)
{
    if (model.classes > 0)
        return torch::randint(0, model.classes, { batch }, options.dtype(torch::kLong));
    return torch::randn(withBatch(batch, model.targetShape), options.dtype(torch::kFloat));
}

torch::Tensor modelLoss(const BuiltModel& model, const torch::Tensor& output, const torch::Tensor& target)
{
    if (model.classes > 0)
        return torch::nn::functional::cross_entropy(output, target);
    return torch::nn::functional::mse_loss(output.to(target.scalar_type()), target);
}

} // namespace synctax
