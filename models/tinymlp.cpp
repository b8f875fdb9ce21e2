#include "models/tinymlp.h"

#include <torch/torch.h>

namespace synctax {

TinyMLPImpl::TinyMLPImpl(const TinyMLPOptions& options)
{
    fc1 = register_module("fc1", torch::nn::Linear(options.inputs, options.width));
    fc2 = register_module("fc2", torch::nn::Linear(options.width, options.width));
    fc3 = register_module("fc3", torch::nn::Linear(options.width, options.width));
    fc4 = register_module("fc4", torch::nn::Linear(options.width, options.classes));
}

torch::Tensor TinyMLPImpl::forward(torch::Tensor x)
{
    x = torch::relu(fc1->forward(x));
    x = torch::relu(fc2->forward(x));
    x = torch::relu(fc3->forward(x));
    return fc4->forward(x);
}

} // namespace synctax
