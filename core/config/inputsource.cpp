#include "core/config/inputsource.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace synctax {

bool inputExists(const std::string& path)
{
    // The link itself: a dangling link or a loop is a path the user gave, whose reading says what is wrong.
    std::error_code ec;
    return std::filesystem::exists(std::filesystem::symlink_status(path, ec));
}

ConfigError noSuchInput(const std::string& nameOrPath, const BuiltinInputs& builtins)
{
    std::string names;
    for (const auto& n : builtins.names())
        names += (names.empty() ? "" : ", ") + n;
    return { nameOrPath, 0, 0,
        "no such file, and no " + builtins.kind + " of that name; " + builtins.kind + "s: " + names };
}

std::optional<std::string> readInputFile(
    const std::string& path, const std::string& expected, std::vector<ConfigError>& errors)
{
    // A directory opens and reads as nothing on Linux, which the loaders would call an empty file.
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) {
        errors.push_back({ path, 0, 0, "is a directory; expected " + expected });
        return std::nullopt;
    }
    errno = 0;
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        const int why = errno; // as the open left it
        errors.push_back({ path, 0, 0,
            "cannot open the file for reading" + (why != 0 ? " (" + std::string(std::strerror(why)) + ")" : "") });
        return std::nullopt;
    }
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

} // namespace synctax
