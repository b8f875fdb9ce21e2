#include "core/config/configerror.h"

namespace synctax {

std::string ConfigError::format() const
{
    if (line <= 0)
        return file + ": " + message;
    return file + ":" + std::to_string(line) + ":" + std::to_string(column) + ": " + message;
}

std::string formatErrors(const std::vector<ConfigError>& errors)
{
    std::string text;
    for (const auto& e : errors)
        text += e.format() + "\n";
    return text;
}

} // namespace synctax
