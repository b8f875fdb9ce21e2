#include "core/engine/training/trainingstate.h"

#include "models/torchscriptmodel.h"

#include <torch/cuda.h>
#include <torch/torch.h>

namespace synctax {

TrainingState::TrainingState(const ModelSpec& spec, torch::Device device, OptimizerKind optimizer, double learningRate,
    uint64_t seed, int batches)
    : m_device(device)
{
    torch::manual_seed(seed);
    m_model = spec.torchscript ? loadTorchScriptModel(torchScriptModelSpec(*spec.torchscript))
                               : buildModel({ spec.name, spec.width, spec.inputSize, spec.classes });
    m_model.to(device);
    m_model.train();
    if (optimizer == OptimizerKind::Sgd) {
        m_optimizer = std::make_unique<torch::optim::SGD>(
            m_model.parameters(), torch::optim::SGDOptions(learningRate).momentum(0.9));
    } else {
        m_optimizer
            = std::make_unique<torch::optim::Adam>(m_model.parameters(), torch::optim::AdamOptions(learningRate));
    }
    const auto options = torch::TensorOptions().device(device);
    for (int i = 0; i < batches; ++i) {
        Batch b;
        for (const SampleInput& input : m_model.inputs)
            b.inputs.push_back(sampleBatch(input, spec.batch, options));
        b.target = targetBatch(m_model, spec.batch, options);
        m_batches.push_back(std::move(b));
    }
}

TorchScriptModelSpec torchScriptModelSpec(const TorchScriptSpec& spec)
{
    TorchScriptModelSpec result;
    result.path = spec.path;
    for (const InputSpec& input : spec.inputs)
        result.inputs.push_back({ input.shape, input.dtype, input.high });
    if (spec.target.kind == TargetSpec::Kind::Classes)
        result.classes = spec.target.classes;
    else
        result.targetShape = spec.target.shape;
    return result;
}

StepOutput TrainingState::runStep(const std::vector<torch::Tensor>& inputs, const torch::Tensor& target)
{
    StepOutput out = forwardBackward(inputs, target);
    optimizerStep();
    return out;
}

StepOutput TrainingState::forwardBackward(const std::vector<torch::Tensor>& inputs, const torch::Tensor& target)
{
    m_optimizer->zero_grad();
    auto logits = m_model.forward(inputs);
    auto loss = modelLoss(m_model, logits, target);
    loss.backward();
    return { loss, logits, target };
}

void TrainingState::optimizerStep() { m_optimizer->step(); }

std::vector<torch::Tensor> TrainingState::parameters() const { return m_model.parameters(); }

std::vector<torch::Tensor> TrainingState::buffers() const { return m_model.buffers(); }

void TrainingState::synchronize() const
{
    if (m_device.is_cuda())
        torch::cuda::synchronize(m_device.index());
}

} // namespace synctax
