#pragma once

#include "core/config/experimentconfig.h"
#include "models/modelfactory.h"

#include <torch/optim/optimizer.h>
#include <torch/types.h>

#include <memory>
#include <vector>

namespace synctax {

struct TorchScriptModelSpec;
// The loader's spec of a config's torchscript entry.
TorchScriptModelSpec torchScriptModelSpec(const TorchScriptSpec& spec);

struct StepOutput {
    torch::Tensor loss;
    torch::Tensor logits;
    torch::Tensor target;
};

struct Batch {
    std::vector<torch::Tensor> inputs; // the forward's arguments, in order
    torch::Tensor target;
};

// A model (built in, or the user's TorchScript file), its optimizer and a few synthetic batches, all
// resident on the device, so no input pipeline hides anything. runStep() is one training step:
// zero_grad, forward, the loss (cross-entropy, or mean squared error), backward, optimizer step —
// nothing in it waits for the device.
class TrainingState {
public:
    TrainingState(const ModelSpec& spec, torch::Device device, OptimizerKind optimizer, double learningRate,
        uint64_t seed, int batches = 4);

    StepOutput runStep(const std::vector<torch::Tensor>& inputs, const torch::Tensor& target);
    // runStep's two halves, for a step that exchanges the gradients between them (data-parallel).
    StepOutput forwardBackward(const std::vector<torch::Tensor>& inputs, const torch::Tensor& target);
    void optimizerStep();
    const Batch& batch(size_t i) const { return m_batches[i % m_batches.size()]; }
    size_t batchCount() const { return m_batches.size(); }
    torch::Device device() const { return m_device; }
    void synchronize() const;
    std::vector<torch::Tensor> parameters() const;
    std::vector<torch::Tensor> buffers() const;

private:
    torch::Device m_device;
    BuiltModel m_model;
    std::unique_ptr<torch::optim::Optimizer> m_optimizer;
    std::vector<Batch> m_batches;
};

} // namespace synctax
