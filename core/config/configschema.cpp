#include "core/config/configschema.h"

namespace synctax {

bool isDeviceName(const std::string& text)
{
    for (const auto& name : configkeys::deviceNames) {
        if (text == name)
            return true;
    }
    const std::string cuda = "cuda:";
    return text.size() > cuda.size() && text.compare(0, cuda.size(), cuda) == 0
        && text.find_first_not_of("0123456789", cuda.size()) == std::string::npos;
}

std::string nameRule()
{
    return "a name is 1 to " + std::to_string(maxNameLength)
        + " characters, none of them /, \\ or a control character, and is not . or ..";
}

bool isConfigName(const std::string& text)
{
    if (text.empty() || text == "." || text == "..")
        return false;
    size_t characters = 0;
    for (const char c : text) {
        const auto byte = static_cast<unsigned char>(c);
        if (c == '/' || c == '\\' || byte < 0x20 || byte == 0x7f)
            return false;
        if ((byte & 0xc0) != 0x80) // not a UTF-8 continuation byte
            ++characters;
    }
    return characters <= maxNameLength;
}

const std::vector<std::string>& topLevelKeyNames()
{
    using namespace configkeys;
    static const std::vector<std::string> names { version.name, name.name, description.name, device.name, seed.name,
        stepsPerBlock.name, blocks.name, minBlocks.name, targetCiPp.name, timeBudgetS.name, processes.name,
        gpuEvents.name, observerControl.name, warmup.name, hostWorkUs.name, optimizer.name, learningRate.name,
        sink.name, models.name, styles.name, modes.name, sweep.name, distributed.name };
    return names;
}

const std::vector<std::string>& warmupKeyNames()
{
    static const std::vector<std::string> names { warmupkeys::minSteps.name, warmupkeys::maxSteps.name };
    return names;
}

const std::vector<std::string>& modelKeyNames()
{
    using namespace modelkeys;
    static const std::vector<std::string> names { name.name, batch.name, width.name, inputSize.name, classes.name,
        configkeys::stepsPerBlock.name, configkeys::blocks.name, configkeys::hostWorkUs.name,
        configkeys::timeBudgetS.name, configkeys::sweep.name, torchscriptkeys::path.name, torchscriptkeys::input.name,
        torchscriptkeys::inputs.name, torchscriptkeys::target.name };
    return names;
}

const std::vector<std::string>& inputKeyNames()
{
    using namespace torchscriptkeys;
    static const std::vector<std::string> names { dimension.name, dtype.name, high.name };
    return names;
}

const std::vector<std::string>& targetKeyNames()
{
    using namespace torchscriptkeys;
    static const std::vector<std::string> names { classes.name, mse.name };
    return names;
}

const std::vector<std::string>& styleKeyNames()
{
    static const std::vector<std::string> names { stylekeys::name.name, stylekeys::n.name };
    return names;
}

const std::vector<std::string>& sweepKeyNames()
{
    static const std::vector<std::string> names { sweepkeys::hostWorkUs.name, sweepkeys::batch.name };
    return names;
}

const std::vector<std::string>& distributedKeyNames()
{
    using namespace distributedkeys;
    static const std::vector<std::string> names { backend.name, ranks.name, syncOn.name, timeoutS.name };
    return names;
}

std::string joinedOr(const std::vector<std::string>& names)
{
    std::string text;
    for (size_t i = 0; i < names.size(); ++i)
        text += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
    return text;
}

} // namespace synctax
