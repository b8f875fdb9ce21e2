#include "core/text/textwrap.h"

#include <algorithm>

namespace synctax {

std::string wrapped(const std::string& line, int columns)
{
    if (columns <= 0 || line.size() <= size_t(columns))
        return line + "\n";
    const size_t limit = size_t(columns);
    const std::string continuation(std::min(line.find_first_not_of(' ') + 2, limit / 2), ' ');
    std::string out;
    std::string rest = line;
    size_t indent = rest.find_first_not_of(' ');
    while (rest.size() > limit) {
        size_t cut = rest.rfind(' ', limit);
        if (cut == std::string::npos || cut <= indent)
            cut = limit;
        const size_t next = rest.find_first_not_of(' ', cut);
        const size_t end = rest.find_last_not_of(' ', cut - 1);
        out += rest.substr(0, end == std::string::npos ? cut : end + 1) + "\n";
        if (next == std::string::npos)
            return out;
        rest = continuation + rest.substr(next);
        indent = continuation.size();
    }
    return out + rest + "\n";
}

std::string padded(const std::string& s, size_t width, bool right)
{
    if (s.size() >= width)
        return s;
    return right ? std::string(width - s.size(), ' ') + s : s + std::string(width - s.size(), ' ');
}

} // namespace synctax
