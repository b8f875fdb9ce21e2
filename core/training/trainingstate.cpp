#include "core/training/trainingstate.h"

#include <torch/cuda.h>
#include <torch/torch.h>

namespace synctax {

TrainingState::TrainingState(const ModelSpec& spec, torch::Device device, OptimizerKind optimizer, double learningRate,
    uint64_t seed, int batches)
    : m_device(device)
{
    torch::manual_seed(seed);
    m_model = buildModel({ spec.name, spec.width, spec.inputSize, spec.classes });
    m_model.module->to(device);
    m_model.module->train();
    if (optimizer == OptimizerKind::Sgd) {
        m_optimizer = std::make_unique<torch::optim::SGD>(
            m_model.module->parameters(), torch::optim::SGDOptions(learningRate).momentum(0.9));
    } else {
        m_optimizer = std::make_unique<torch::optim::Adam>(
            m_model.module->parameters(), torch::optim::AdamOptions(learningRate));
    }
    std::vector<int64_t> shape { spec.batch };
    shape.insert(shape.end(), m_model.sampleShape.begin(), m_model.sampleShape.end());
    const auto options = torch::TensorOptions().device(device);
    for (int i = 0; i < batches; ++i) {
        m_batches.push_back({ torch::randn(shape, options.dtype(torch::kFloat)),
            torch::randint(0, m_model.classes, { spec.batch }, options.dtype(torch::kLong)) });
    }
}

StepOutput TrainingState::runStep(const torch::Tensor& input, const torch::Tensor& target)
{
    m_optimizer->zero_grad();
    auto logits = m_model.forward(input);
    auto loss = torch::nn::functional::cross_entropy(logits, target);
    loss.backward();
    if (beforeOptimizerStep)
        beforeOptimizerStep();
    m_optimizer->step();
    return { loss, logits, target };
}

std::vector<torch::Tensor> TrainingState::parameters() const { return m_model.module->parameters(); }

std::vector<torch::Tensor> TrainingState::buffers() const { return m_model.module->buffers(); }

void TrainingState::synchronize() const
{
    if (m_device.is_cuda())
        torch::cuda::synchronize(m_device.index());
}

} // namespace synctax
