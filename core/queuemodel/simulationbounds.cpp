#include "core/queuemodel/simulationbounds.h"

#include "core/config/yamlchecker.h"

#include <cstring>

namespace synctax {

namespace {

// The file's checker itself reads the text, as a YAML scalar: the same parsing, the same message.
template <typename Bound, typename Read> std::string messageOf(const Bound& bound, const std::string& text, Read read)
{
    std::vector<ConfigError> errors;
    YamlChecker checker("", errors);
    read(checker, YAML::Node(text));
    if (errors.empty())
        return "";
    const std::string& message = errors.front().message; // "d_ms: ..."
    return message.substr(std::strlen(bound.name) + 2);
}

} // namespace

std::string outOfBound(const NumberKey& bound, const std::string& text)
{
    return messageOf(bound, text,
        [&](YamlChecker& checker, const YAML::Node& node) { checker.number(node, bound.name, bound.min, bound.max); });
}

std::string outOfBound(const IntegerKey& bound, const std::string& text)
{
    return messageOf(bound, text,
        [&](YamlChecker& checker, const YAML::Node& node) { checker.integer(node, bound.name, bound.min, bound.max); });
}

} // namespace synctax
