#include "core/config/torchscriptentry.h"

#include <filesystem>
#include <system_error>

namespace synctax {

namespace fs = std::filesystem;

namespace {

KeyPlace keyPlace(const YamlChecker& checker, const YAML::Node& node)
{
    const ValuePlace at = YamlChecker::place(node);
    return { checker.source(), at.line, at.column };
}

class EntryReader {
public:
    EntryReader(YamlChecker& checker, std::string baseDir, bool checkFile)
        : m_checker(checker)
        , m_baseDir(std::move(baseDir))
        , m_checkFile(checkFile)
    {
    }

    std::optional<TorchScriptSpec> read(const YAML::Node& entry, const TorchScriptNodes& nodes)
    {
        using namespace torchscriptkeys;
        const size_t errorsBefore = errorCount();
        TorchScriptSpec spec;
        if (nodes.builtInSize) {
            m_checker.error(*nodes.builtInSize,
                nodes.builtInSize->Scalar()
                    + " is a built-in model's size; a TorchScript model's sizes are its own (give input and target)");
        }
        spec.path = resolvedPath(*nodes.path);
        spec.pathAt = keyPlace(m_checker, *nodes.path);
        if (nodes.input && nodes.inputs) {
            m_checker.error(
                *nodes.inputs, std::string("give ") + input.name + " (one) or " + inputs.name + " (a list), not both");
        } else if (!nodes.input && !nodes.inputs) {
            m_checker.error(entry,
                std::string("a torchscript model needs ") + input.name + " ({shape: [...], dtype: ...}) or "
                    + inputs.name + " (a list of them): what its forward takes");
        } else if (nodes.input) {
            spec.inputsAt = keyPlace(m_checker, *nodes.input);
            if (auto one = readInput(*nodes.input, input.name))
                spec.inputs.push_back(*one);
        } else {
            spec.inputsAt = keyPlace(m_checker, *nodes.inputs);
            spec.inputsListed = true;
            readInputList(*nodes.inputs, spec.inputs);
        }
        if (!nodes.target) {
            m_checker.error(entry,
                std::string("a torchscript model needs ") + target.name + " ({" + classes.name + ": N} or {" + mse.name
                    + ": [shape]}): what its output is trained against");
        } else {
            spec.targetAt = keyPlace(m_checker, *nodes.target);
            readTarget(*nodes.target, spec.target);
        }
        if (errorCount() != errorsBefore)
            return std::nullopt;
        return spec;
    }

private:
    size_t errorCount() const { return m_checker.errorCount(); }

    std::string resolvedPath(const YAML::Node& value)
    {
        const auto written = m_checker.string(value, torchscriptkeys::path);
        if (!written)
            return {};
        if (written->empty()) {
            m_checker.error(value, std::string(torchscriptkeys::path.name) + ": expected a file's path, found ''");
            return {};
        }
        fs::path path(*written);
        if (path.is_relative())
            path = fs::path(m_baseDir) / path;
        path = path.lexically_normal();
        if (!m_checkFile)
            return path.string();
        std::error_code ec;
        const auto status = fs::status(path, ec);
        const std::string name = torchscriptkeys::path.name;
        // Where it was looked for, as a path from here: beside the config when written relative.
        fs::path looked(*written);
        if (looked.is_relative())
            looked = (fs::path(m_checker.source()).parent_path() / looked).lexically_normal();
        if (!fs::exists(status)) {
            m_checker.error(value,
                name + ": no such file '" + printable(*written) + "' (looked for " + printable(looked.string()) + ")");
        } else if (!fs::is_regular_file(status)) {
            m_checker.error(value,
                name + ": '" + printable(*written) + "' is not a file (" + printable(looked.string())
                    + "); expected a module saved by torch.jit.save");
        }
        return path.string();
    }

    void readInputList(const YAML::Node& value, std::vector<InputSpec>& inputs)
    {
        using namespace torchscriptkeys;
        const std::string what = torchscriptkeys::inputs.name;
        if (!value.IsSequence() || value.size() == 0 || value.size() > size_t(maxInputs)) {
            m_checker.error(value,
                what + ": expected a list of 1 to " + std::to_string(maxInputs)
                    + " inputs ({shape: [...], dtype: ...}), found "
                    + (value.IsSequence() ? std::to_string(value.size()) + " entries" : kindOf(value)));
            return;
        }
        for (size_t i = 0; i < value.size(); ++i) {
            if (auto one = readInput(value[i], what + "[" + std::to_string(i) + "]"))
                inputs.push_back(*one);
        }
    }

    std::optional<InputSpec> readInput(const YAML::Node& value, const std::string& what)
    {
        using namespace torchscriptkeys;
        if (!value.IsMap()) {
            m_checker.error(value, what + ": expected a mapping {shape: [...], dtype: ...}, found " + kindOf(value));
            return std::nullopt;
        }
        InputSpec spec;
        bool sawShape = false;
        std::optional<YAML::Node> highNode;
        for (const auto& [key, v] : m_checker.entries(value, inputKeyNames(), what)) {
            const std::string k = key.Scalar();
            if (k == dimension.name) {
                sawShape = true;
                readShape(v, what + "." + dimension.name, spec.shape);
            } else if (k == dtype.name) {
                if (auto text = m_checker.string(v, what + "." + dtype.name)) {
                    if (auto d = m_checker.choice(YamlChecker::place(v, what + "." + dtype.name), *text, dtype))
                        spec.dtype = *d;
                }
            } else {
                highNode.emplace(v);
                spec.high = m_checker.integer(v, high, what + ".").value_or(0);
            }
        }
        if (!sawShape) {
            m_checker.error(value,
                what
                    + ": missing shape (one sample's, without the batch: [3, 224, 224] for an image, [] for a scalar)");
        }
        if (torchscriptkeys::isIntegerDtype(spec.dtype) && !highNode) {
            m_checker.error(value,
                what + ": an " + spec.dtype + " input needs " + high.name
                    + ": its values (token ids, indices) are drawn from [0, high)");
        } else if (!torchscriptkeys::isIntegerDtype(spec.dtype) && highNode) {
            m_checker.error(*highNode, what + "." + high.name + ": only an integer input (int64, int32) takes high");
        }
        return spec;
    }

    // A list of dimensions, each within torchscriptkeys::dimension's bounds; [] is a scalar per sample.
    void readShape(const YAML::Node& value, const std::string& what, std::vector<int64_t>& shape)
    {
        using namespace torchscriptkeys;
        if (!value.IsSequence() || value.size() > size_t(maxDimensions)) {
            m_checker.error(value,
                what + ": expected a list of at most " + std::to_string(maxDimensions) + " dimensions, found "
                    + (value.IsSequence() ? std::to_string(value.size()) + " of them" : kindOf(value)));
            return;
        }
        for (const auto& item : value) {
            if (auto n = m_checker.integer(item, what, dimension.min, dimension.max))
                shape.push_back(*n);
        }
    }

    void readTarget(const YAML::Node& value, TargetSpec& target)
    {
        using namespace torchscriptkeys;
        const std::string what = torchscriptkeys::target.name;
        const std::string forms = std::string("{") + classes.name + ": N} or {" + mse.name + ": [shape]}";
        if (!value.IsMap() || value.size() != 1) {
            m_checker.error(value,
                what + ": expected " + forms + ", found "
                    + (value.IsMap() ? std::to_string(value.size()) + " keys" : kindOf(value)));
            if (!value.IsMap())
                return;
        }
        for (const auto& [key, v] : m_checker.entries(value, targetKeyNames(), what)) {
            if (key.Scalar() == classes.name) {
                target.kind = TargetSpec::Kind::Classes;
                target.classes = m_checker.integer(v, classes, what + ".").value_or(0);
            } else {
                target.kind = TargetSpec::Kind::Mse;
                readShape(v, what + "." + mse.name, target.shape);
            }
        }
    }

    YamlChecker& m_checker;
    std::string m_baseDir;
    bool m_checkFile;
};

} // namespace

std::optional<TorchScriptSpec> readTorchScriptEntry(YamlChecker& checker, const YAML::Node& entry,
    const TorchScriptNodes& nodes, const std::string& baseDir, bool checkFile)
{
    return EntryReader(checker, baseDir, checkFile).read(entry, nodes);
}

std::string torchScriptDisplayName(const std::string& path)
{
    const fs::path p(path);
    const std::string ext = p.extension().string();
    return ext == ".pt" || ext == ".pth" ? p.stem().string() : p.filename().string();
}

std::string configBaseDir(const std::string& source)
{
    std::error_code ec;
    if (fs::is_regular_file(source, ec))
        return fs::absolute(fs::path(source), ec).parent_path().string();
    return fs::current_path(ec).string();
}

} // namespace synctax
