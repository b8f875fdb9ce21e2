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

    std::string format() const; // "file:line:col: message", control characters escaped
};

// `text` with every control character written as \xNN, fit to quote in a message: a terminal shown
// a file's bytes (an escape sequence, a carriage return) would act on them.
std::string printable(const std::string& text);

std::string formatErrors(const std::vector<ConfigError>& errors);

} // namespace synctax
