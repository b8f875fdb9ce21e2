#include "core/config/embeddedfiles.h"

#include <algorithm>

namespace synctax {

std::vector<std::string> embeddedNames(const EmbeddedFiles& files)
{
    std::vector<std::string> names;
    names.reserve(files.size());
    for (const auto& [name, text] : files)
        names.push_back(name);
    std::sort(names.begin(), names.end());
    return names;
}

std::optional<std::string> embeddedText(const EmbeddedFiles& files, const std::string& name)
{
    const auto it = std::find_if(files.begin(), files.end(), [&](const auto& file) { return file.first == name; });
    if (it == files.end())
        return std::nullopt;
    return it->second;
}

} // namespace synctax
