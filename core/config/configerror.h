#pragma once

#include <string>
#include <vector>

namespace synctax {

// One problem in an input file, located so that an editor can jump to it.
struct ConfigError {
    std::string file;
    int line = 0; // 1-based; 0 when the problem has no single place
    int column = 0; // 1-based
    std::string message;

    std::string format() const; // "file:line:col: message"
};

std::string formatErrors(const std::vector<ConfigError>& errors);

} // namespace synctax
