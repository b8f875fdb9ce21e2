#include "core/config/modelcatalog.h"

#include <algorithm>

namespace synctax {

const std::vector<ModelDefaults>& modelCatalog()
{
    static const std::vector<ModelDefaults> catalog {
        { "tiny_mlp", "4 linear layers 256-512-512-512-10: sub-millisecond, dispatch-bound steps", 256, 512, 256, 10 },
        { "small_resnet", "CIFAR-size ResNet-18 shape (3x32x32): a few milliseconds per step", 128, 64, 32, 10 },
        { "resnet50", "torchvision's ResNet-50 at 224x224: tens of milliseconds per step, GPU-bound", 64, 64, 224,
            1000 },
    };
    return catalog;
}

std::optional<ModelDefaults> findModel(const std::string& name)
{
    const auto& catalog = modelCatalog();
    auto it = std::find_if(catalog.begin(), catalog.end(), [&](const ModelDefaults& m) { return m.name == name; });
    if (it == catalog.end())
        return std::nullopt;
    return *it;
}

std::vector<std::string> modelNames()
{
    std::vector<std::string> names;
    for (const auto& m : modelCatalog())
        names.push_back(m.name);
    return names;
}

} // namespace synctax
