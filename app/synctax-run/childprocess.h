#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

namespace synctax {

// Starts this program again with `args` (argv[0] first), its stdout into `stdoutPath` and, unless
// empty, its stderr into `stderrPath` (else this process's). Returns its pid, or -1 when it could
// not be started (said on stderr).
pid_t spawnSelf(std::vector<std::string> args, const std::string& stdoutPath, const std::string& stderrPath = "");

} // namespace synctax
