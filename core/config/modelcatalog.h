#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace synctax {

// What a model is called in configs and results, and the sizes it runs at unless told otherwise.
// Free of LibTorch so that config validation and the GUI can list models without it.
struct ModelDefaults {
    std::string name;
    std::string description;
    int64_t batch;
    int64_t width; // hidden width (tiny_mlp) or base channels (ResNets)
    int64_t inputSize; // features (tiny_mlp) or image side (ResNets)
    int64_t classes;
};

const std::vector<ModelDefaults>& modelCatalog();
std::optional<ModelDefaults> findModel(const std::string& name);
std::vector<std::string> modelNames();

} // namespace synctax
