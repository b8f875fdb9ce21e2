#include "core/files/atomicwrite.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <stdexcept>

namespace synctax {

void writeFileAtomically(const std::string& path, const std::function<void(std::ostream&)>& write)
{
    const std::string temp = path + ".tmp";
    {
        std::ofstream out(temp, std::ios::binary | std::ios::trunc);
        if (!out)
            throw std::runtime_error("cannot write '" + temp + "': " + std::strerror(errno));
        write(out);
        out.flush();
        if (!out)
            throw std::runtime_error("cannot write '" + temp + "': " + std::strerror(errno));
    }
    if (std::rename(temp.c_str(), path.c_str()) != 0)
        throw std::runtime_error("cannot rename '" + temp + "' to '" + path + "': " + std::strerror(errno));
}

void writeJsonFileAtomically(const std::string& path, const nlohmann::json& json)
{
    writeFileAtomically(path, [&](std::ostream& out) { out << json.dump(2) << '\n'; });
}

} // namespace synctax
