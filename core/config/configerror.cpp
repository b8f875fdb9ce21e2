#include "core/config/configerror.h"

#include <cstdio>

namespace synctax {

std::string printable(const std::string& text)
{
    std::string shown;
    for (const char c : text) {
        const auto byte = static_cast<unsigned char>(c);
        if (byte < 0x20 || byte == 0x7f) {
            char escaped[8];
            std::snprintf(escaped, sizeof escaped, "\\x%02x", byte);
            shown += escaped;
        } else {
            shown += c;
        }
    }
    return shown;
}

std::string ConfigError::format() const
{
    if (line <= 0)
        return printable(file) + ": " + printable(message);
    return printable(file) + ":" + std::to_string(line) + ":" + std::to_string(column) + ": " + printable(message);
}

std::string formatErrors(const std::vector<ConfigError>& errors)
{
    std::string text;
    for (const auto& e : errors)
        text += e.format() + "\n";
    return text;
}

} // namespace synctax
