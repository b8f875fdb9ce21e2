#include "core/config/yamlchecker.h"

#include "core/config/stylecatalog.h"
#include "core/config/unsignedtext.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace synctax {

std::string joined(const std::vector<std::string>& names)
{
    std::string text;
    for (const auto& n : names)
        text += (text.empty() ? "" : ", ") + n;
    return text;
}

std::optional<YAML::Node> parseYaml(
    const std::string& text, const std::string& source, std::vector<ConfigError>& errors)
{
    // yaml-cpp reads a NUL as the text's end, or as a bad escape: a binary file is said to be one.
    if (const size_t nul = text.find('\0'); nul != std::string::npos) {
        const size_t lineStart = text.rfind('\n', nul);
        const int line = int(std::count(text.begin(), text.begin() + std::ptrdiff_t(nul), '\n')) + 1;
        const int column = int(nul - (lineStart == std::string::npos ? 0 : lineStart + 1)) + 1;
        errors.push_back({ source, line, column, "a NUL byte; expected YAML text (is this a binary file?)" });
        return std::nullopt;
    }
    try {
        const std::vector<YAML::Node> documents = YAML::LoadAll(text);
        // A file of several documents would be read as its first alone: the others said, not dropped.
        for (size_t i = 1; i < documents.size(); ++i) {
            if (!documents[i].IsNull()) {
                errors.push_back({ source, documents[i].Mark().line + 1, documents[i].Mark().column + 1,
                    "a second YAML document (after a '---' line); expected one: remove the '---', or split the "
                    "file" });
                return std::nullopt;
            }
        }
        return documents.empty() ? YAML::Node() : documents.front();
    } catch (const YAML::ParserException& e) {
        // yaml-cpp's guard against deep nesting throws with the words of a file it cannot open.
        const std::string why = e.msg == YAML::ErrorMsg::BAD_FILE
            ? "nested deeper than yaml-cpp reads (hundreds of lists or mappings inside each other)"
            : printable(e.msg);
        errors.push_back({ source, e.mark.line + 1, e.mark.column + 1, "YAML syntax: " + why });
        return std::nullopt;
    }
}

std::optional<YAML::Node> findKey(const YAML::Node& map, const std::string& key)
{
    if (!map.IsMap())
        return std::nullopt;
    for (auto it = map.begin(); it != map.end(); ++it) {
        if (it->first.IsScalar() && it->first.Scalar() == key)
            return it->first;
    }
    return std::nullopt;
}

std::string kindOf(const YAML::Node& node)
{
    switch (node.Type()) {
    case YAML::NodeType::Map:
        return "a mapping";
    case YAML::NodeType::Sequence:
        return "a list";
    case YAML::NodeType::Null:
        return "nothing";
    default:
        return "'" + node.Scalar() + "'";
    }
}

YamlChecker::YamlChecker(std::string source, std::vector<ConfigError>& errors)
    : CheckedReader(std::move(source), errors, Wording::AsWritten)
{
}

ValuePlace YamlChecker::place(const YAML::Node& node, const std::string& what)
{
    return { what, node.Mark().line + 1, node.Mark().column + 1 };
}

void YamlChecker::error(const YAML::Node& node, const std::string& message) { error(place(node), message); }

void YamlChecker::error(const YAML::Mark& mark, const std::string& message)
{
    error(ValuePlace { "", mark.line + 1, mark.column + 1 }, message);
}

std::vector<std::pair<YAML::Node, YAML::Node>> YamlChecker::entries(
    const YAML::Node& map, const std::vector<std::string>& allowed, const std::string& where)
{
    std::vector<std::pair<YAML::Node, YAML::Node>> result;
    std::set<std::string> seen;
    for (auto it = map.begin(); it != map.end(); ++it) {
        const YAML::Node key = it->first;
        if (!key.IsScalar()) {
            error(key, "expected a key name in " + where + ", found " + kindOf(key));
            continue;
        }
        const std::string& name = key.Scalar();
        if (!seen.insert(name).second) {
            error(key, "duplicate key '" + name + "' in " + where);
            continue;
        }
        if (std::find(allowed.begin(), allowed.end(), name) == allowed.end()) {
            error(key, "unknown key '" + name + "' in " + where + "; expected one of: " + joined(allowed));
            continue;
        }
        result.emplace_back(key, it->second);
    }
    return result;
}

std::optional<int64_t> YamlChecker::integer(const YAML::Node& node, const std::string& what, int64_t min, int64_t max)
{
    int64_t value = 0;
    const bool decoded = node.IsScalar() && YAML::convert<int64_t>::decode(node, value);
    return CheckedReader::integer(
        place(node, what), decoded ? std::optional<int64_t>(value) : std::nullopt, kindOf(node), min, max);
}

std::optional<uint64_t> YamlChecker::unsignedInteger(const YAML::Node& node, const std::string& what)
{
    if (!node.IsScalar()) {
        error(node, what + ": expected an integer, found " + kindOf(node));
        return std::nullopt;
    }
    const UnsignedRead read = readUnsigned(node.Scalar());
    if (!read.value)
        error(node, what + ": " + read.problem);
    return read.value;
}

std::optional<double> YamlChecker::number(const YAML::Node& node, const std::string& what, double min, double max)
{
    double value = 0;
    const bool decoded = node.IsScalar() && YAML::convert<double>::decode(node, value) && !std::isnan(value);
    return CheckedReader::number(place(node, what), decoded ? std::optional<double>(value) : std::nullopt, kindOf(node),
        node.IsScalar() ? node.Scalar() : "", min, max);
}

std::optional<bool> YamlChecker::boolean(const YAML::Node& node, const std::string& what)
{
    bool value = false;
    const bool decoded = node.IsScalar() && YAML::convert<bool>::decode(node, value);
    return CheckedReader::boolean(place(node, what), decoded ? std::optional<bool>(value) : std::nullopt, kindOf(node));
}

std::optional<std::string> YamlChecker::string(const YAML::Node& node, const std::string& what)
{
    if (!node.IsScalar()) {
        expected(place(node, what), "a string", kindOf(node));
        return std::nullopt;
    }
    return node.Scalar();
}

std::optional<int64_t> YamlChecker::integer(const YAML::Node& node, const IntegerKey& key, const std::string& prefix)
{
    return integer(node, prefix + key.name, key.min, key.max);
}

std::optional<double> YamlChecker::number(const YAML::Node& node, const NumberKey& key)
{
    return number(node, key.name, key.min, key.max);
}

std::optional<bool> YamlChecker::boolean(const YAML::Node& node, const FlagKey& key) { return boolean(node, key.name); }

std::optional<std::string> YamlChecker::string(const YAML::Node& node, const TextKey& key)
{
    return string(node, key.name);
}

void YamlChecker::readStyles(const YAML::Node& value, std::vector<StyleSpec>& styles)
{
    if (!value.IsSequence() || value.size() == 0) {
        error(value, "styles: expected a non-empty list of style names, found " + kindOf(value));
        return;
    }
    std::set<std::string> seen;
    for (const auto& item : value) {
        std::optional<YAML::Node> nameNode;
        std::optional<YAML::Node> nNode;
        if (!item.IsMap()) {
            nameNode.emplace(item);
        } else {
            bool hasName = false;
            for (const auto& [key, v] : entries(item, styleKeyNames(), "a style")) {
                if (key.Scalar() == stylekeys::name.name) {
                    hasName = true;
                    nameNode.emplace(v);
                } else {
                    nNode.emplace(v);
                }
            }
            if (!hasName) {
                error(item, "a style mapping needs 'name' (one of: " + joined(styleNames()) + ")");
                continue;
            }
        }
        auto name = string(*nameNode, "style");
        if (!name)
            continue;
        auto info = findStyle(*name);
        if (!info) {
            error(*nameNode, "unknown style '" + *name + "'; expected one of: " + joined(styleNames()));
            continue;
        }
        if (!seen.insert(*name).second) {
            error(*nameNode, "style '" + *name + "' is listed twice");
            continue;
        }
        StyleSpec spec { *name, info->defaultN };
        if (nNode) {
            if (info->defaultN == 0)
                error(*nNode, std::string(stylekeys::n.name) + ": style '" + *name + "' takes no interval");
            else if (auto n = integer(*nNode, stylekeys::n))
                spec.n = *n;
        }
        styles.push_back(spec);
    }
    const bool hasBaseline
        = std::any_of(styles.begin(), styles.end(), [](const StyleSpec& s) { return s.name == baselineStyle(); });
    if (!hasBaseline)
        styles.insert(styles.begin(), StyleSpec { baselineStyle(), 0 });
}

} // namespace synctax
