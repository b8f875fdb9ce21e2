#include "core/engine/run/modelcheck.h"

#include "core/config/configschema.h"
#include "core/engine/training/trainingstate.h"
#include "models/torchscriptmodel.h"

namespace synctax {

namespace {

ConfigError located(const KeyPlace& at, const std::string& key, const std::string& message)
{
    return { at.file, at.line, at.column, key + ": " + message };
}

} // namespace

std::vector<ConfigError> checkModelFiles(const ExperimentConfig& config)
{
    using Part = TorchScriptError::Part;
    std::vector<ConfigError> errors;
    for (const ModelSpec& model : config.models) {
        if (!model.torchscript)
            continue;
        const TorchScriptSpec& script = *model.torchscript;
        try {
            checkTorchScriptModel(torchScriptModelSpec(script));
        } catch (const TorchScriptError& e) {
            if (e.part() == Part::File) {
                errors.push_back(located(script.pathAt, torchscriptkeys::path.name, e.what()));
            } else if (e.part() == Part::Inputs) {
                const char* key = script.inputsListed ? torchscriptkeys::inputs.name : torchscriptkeys::input.name;
                errors.push_back(located(script.inputsAt, key, e.what()));
            } else {
                errors.push_back(located(script.targetAt, torchscriptkeys::target.name, e.what()));
            }
        }
    }
    return errors;
}

} // namespace synctax
