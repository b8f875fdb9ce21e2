#pragma once

#include "core/config/configerror.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace synctax {

// Inputs compiled into the program (presets, built-in simulations), found by name.
struct BuiltinInputs {
    std::string file; // what a file of them is: "a config file (YAML)"
    std::string kind; // "preset": messages say "no preset of that name; presets: ..."
    std::string prefix; // a built-in's messages name it prefix + name ("preset:seed")
    std::function<std::vector<std::string>()> names;
    std::function<std::optional<std::string>(const std::string& name)> text;
};

// The whole file as text, or nothing and one error for `path` in `errors`: it cannot be opened, or it
// is a directory where `expected` ("a config file (YAML)") was.
std::optional<std::string> readInputFile(
    const std::string& path, const std::string& expected, std::vector<ConfigError>& errors);

// Whether a file or anything else is at `path`: a path wins over a built-in of the same name.
bool inputExists(const std::string& path);

// "no such file, and no preset of that name; presets: cpu-quick, seed, ...", for `nameOrPath`.
ConfigError noSuchInput(const std::string& nameOrPath, const BuiltinInputs& builtins);

// The front doors every loader has, beside its own from-text one, `fromText(text, sourceName)`:
// a file, and a file or else a built-in's name. Result is the loader's result, with its `errors`.
template <typename Result, typename FromText>
Result loadFromFile(const std::string& path, const std::string& expected, FromText fromText)
{
    Result result;
    if (const auto text = readInputFile(path, expected, result.errors))
        return fromText(*text, path);
    return result;
}

template <typename Result, typename FromText>
Result loadFromFileOrBuiltin(const std::string& nameOrPath, const BuiltinInputs& builtins, FromText fromText)
{
    if (inputExists(nameOrPath))
        return loadFromFile<Result>(nameOrPath, builtins.file + " or a " + builtins.kind + "'s name", fromText);
    if (const auto text = builtins.text(nameOrPath))
        return fromText(*text, builtins.prefix + nameOrPath);
    Result result;
    result.errors.push_back(noSuchInput(nameOrPath, builtins));
    return result;
}

} // namespace synctax
