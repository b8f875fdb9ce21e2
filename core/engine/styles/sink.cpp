#include "core/engine/styles/sink.h"

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>

namespace synctax {

Sink::Sink(const SinkSpec& spec)
{
    switch (spec.kind) {
    case SinkSpec::Kind::Null:
        break;
    case SinkSpec::Kind::Stdout:
        m_file = stdout;
        break;
    case SinkSpec::Kind::Stderr:
        m_file = stderr;
        break;
    case SinkSpec::Kind::File:
        m_file = std::fopen(spec.path.c_str(), "a");
        if (!m_file)
            throw std::runtime_error("cannot open sink file '" + spec.path + "': " + std::strerror(errno));
        m_owned = true;
        break;
    }
}

Sink::~Sink()
{
    if (m_owned)
        std::fclose(m_file);
}

void Sink::write(std::string_view text)
{
    if (m_file)
        std::fwrite(text.data(), 1, text.size(), m_file);
}

void Sink::flush()
{
    if (m_file)
        std::fflush(m_file);
}

} // namespace synctax
