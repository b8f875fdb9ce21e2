#include "runcommand.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>

namespace synctax {

int execEngine(char** argv)
{
    std::error_code ec;
    const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
    const std::filesystem::path engine
        = (ec ? std::filesystem::path(argv[0]) : self).parent_path() / "synctax-run-engine";
    ::execv(engine.c_str(), argv);
    std::cerr << "synctax-run: cannot start " << engine.string() << " (" << std::strerror(errno)
              << "), which runs experiments: install it beside synctax-run\n";
    return 2;
}

} // namespace synctax
