#include "core/config/configerror.h"

#include <fstream>
#include <sstream>

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

std::optional<std::string> readInputFile(const std::string& path, std::vector<ConfigError>& errors)
{
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        errors.push_back({ path, 0, 0, "cannot open the file for reading" });
        return std::nullopt;
    }
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

} // namespace synctax
