#pragma once

#include "core/config/experimentconfig.h"

#include <cstdio>
#include <string_view>

namespace synctax {

// Where a logging style's text goes. The null sink still receives (and drops) the formatted text,
// so formatting costs stay in the measurement while the terminal stays quiet.
class Sink {
public:
    explicit Sink(const SinkSpec& spec);
    ~Sink();
    Sink(const Sink&) = delete;
    Sink& operator=(const Sink&) = delete;

    void write(std::string_view text);
    void flush();

private:
    std::FILE* m_file = nullptr;
    bool m_owned = false;
};

} // namespace synctax
