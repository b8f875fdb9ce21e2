#include "terminal.h"

#include <cstdlib>
#include <string>
#include <sys/ioctl.h>
#include <unistd.h>

namespace synctax {

int terminalColumns(std::FILE* stream)
{
    const int fd = fileno(stream);
    winsize size {};
    if (fd >= 0 && isatty(fd) && ioctl(fd, TIOCGWINSZ, &size) == 0 && size.ws_col > 0)
        return size.ws_col;
    if (const char* columns = std::getenv("COLUMNS")) {
        char* end = nullptr;
        const long n = std::strtol(columns, &end, 10);
        if (end != columns && *end == '\0' && n > 0 && n < 100000)
            return int(n);
    }
    return 0;
}

} // namespace synctax
