#pragma once

#include "core/config/checkedreader.h"
#include "core/config/configerror.h"
#include "core/config/configschema.h"
#include "core/config/experimentconfig.h"

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace synctax {

std::string joined(const std::vector<std::string>& names); // "a, b, c"
std::string kindOf(const YAML::Node& node); // "a mapping", "a list", "nothing" or the scalar quoted
// The key node `key` of the mapping `map`, or nothing.
std::optional<YAML::Node> findKey(const YAML::Node& map, const std::string& key);
// The document in `text`, or nothing with the syntax error (line and column) added to `errors`.
std::optional<YAML::Node> parseYaml(
    const std::string& text, const std::string& source, std::vector<ConfigError>& errors);

// Strict reading of YAML values: decodes each node and leaves the checks and their messages to
// CheckedReader, located at the node's line and column.
class YamlChecker : public CheckedReader {
public:
    YamlChecker(std::string source, std::vector<ConfigError>& errors);

    using CheckedReader::error;
    void error(const YAML::Node& node, const std::string& message);
    void error(const YAML::Mark& mark, const std::string& message);
    // Where `node` is, its messages starting with `what`.
    static ValuePlace place(const YAML::Node& node, const std::string& what = "");

    // The key/value pairs of a mapping; reports duplicate keys and keys not in `allowed`.
    std::vector<std::pair<YAML::Node, YAML::Node>> entries(
        const YAML::Node& map, const std::vector<std::string>& allowed, const std::string& where);
    std::optional<int64_t> integer(const YAML::Node& node, const std::string& what, int64_t min, int64_t max);
    std::optional<uint64_t> unsignedInteger(const YAML::Node& node, const std::string& what); // 0 to 2^64 - 1
    std::optional<uint64_t> unsignedInteger(const YAML::Node& node, const UnsignedKey& key)
    {
        return unsignedInteger(node, key.name);
    }
    std::optional<double> number(const YAML::Node& node, const std::string& what, double min, double max);
    std::optional<bool> boolean(const YAML::Node& node, const std::string& what);
    std::optional<std::string> string(const YAML::Node& node, const std::string& what);
    // The same for a key of the config schema, within its bounds; `prefix` names its section.
    std::optional<int64_t> integer(const YAML::Node& node, const IntegerKey& key, const std::string& prefix = "");
    std::optional<double> number(const YAML::Node& node, const NumberKey& key);
    std::optional<bool> boolean(const YAML::Node& node, const FlagKey& key);
    std::optional<std::string> string(const YAML::Node& node, const TextKey& key);

    // A list of logging styles, as configs and simulations write it: names, or {name, n} for the
    // *_every_n styles. The baseline is put first when the list lacks it.
    void readStyles(const YAML::Node& value, std::vector<StyleSpec>& styles);
};

} // namespace synctax
