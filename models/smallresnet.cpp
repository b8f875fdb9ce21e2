#include "models/smallresnet.h"

#include "models/convutil.h"

#include <torch/torch.h>

namespace synctax {

SmallResNetImpl::SmallResNetImpl(const SmallResNetOptions& options)
{
    stem = register_module("stem", conv3x3(3, options.width));
    stemBn = register_module("stem_bn", torch::nn::BatchNorm2d(options.width));
    torch::nn::Sequential blocks;
    int64_t inPlanes = options.width;
    for (int stage = 0; stage < 4; ++stage) {
        const int64_t planes = options.width << stage;
        for (int64_t b = 0; b < options.blocksPerStage; ++b) {
            const int64_t stride = (stage > 0 && b == 0) ? 2 : 1;
            blocks->push_back(BasicBlock(inPlanes, planes, stride));
            inPlanes = planes;
        }
    }
    stages = register_module("stages", blocks);
    fc = register_module("fc", torch::nn::Linear(inPlanes, options.classes));
}

torch::Tensor SmallResNetImpl::forward(torch::Tensor x)
{
    x = torch::relu(stemBn->forward(stem->forward(x)));
    x = stages->forward(x);
    x = torch::adaptive_avg_pool2d(x, { 1, 1 }).flatten(1);
    return fc->forward(x);
}

} // namespace synctax
