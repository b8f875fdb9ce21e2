#include "core/files/linetail.h"

#include <algorithm>
#include <fstream>

#include <sys/stat.h>

namespace synctax {

namespace {

constexpr std::size_t chunkBytes = 1 << 20;

} // namespace

FileStamp FileStamp::of(const std::string& path)
{
    struct stat st { };
    FileStamp s;
    if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode))
        return s;
    s.exists = true;
    s.size = static_cast<uint64_t>(st.st_size);
    s.mtimeNs = static_cast<int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
    s.inode = static_cast<uint64_t>(st.st_ino);
    return s;
}

LineTail::LineTail(std::string path, std::string name, size_t maxLineBytes)
    : m_path(std::move(path))
    , m_name(std::move(name))
    , m_maxLineBytes(maxLineBytes)
{
}

void LineTail::reset()
{
    m_offset = 0;
    m_inode = 0;
    m_pending.clear();
    m_line = 0;
    m_skipping = false;
}

bool LineTail::consume(size_t maxLines, size_t& done, const Sink& sink, std::vector<std::string>& notes)
{
    std::size_t start = 0;
    bool more = false;
    for (std::size_t newline; (newline = m_pending.find('\n', start)) != std::string::npos;) {
        if (done >= maxLines) {
            more = true;
            break;
        }
        ++m_line;
        ++done;
        if (m_skipping)
            m_skipping = false; // the end of a line too long to read
        else
            sink(m_pending.substr(start, newline - start), m_line);
        start = newline + 1;
    }
    m_pending.erase(0, start);
    if (!more && (m_skipping || m_pending.size() > m_maxLineBytes)) {
        if (!m_skipping) {
            notes.push_back(m_name + ":" + std::to_string(m_line + 1) + ":1: expected a line under "
                + std::to_string(m_maxLineBytes) + " bytes, found more");
        }
        m_skipping = true;
        m_pending.clear();
    }
    return more;
}

LineTail::Read LineTail::read(
    const FileStamp& stamp, size_t maxLines, const Sink& sink, std::vector<std::string>& notes)
{
    Read result;
    const uint64_t size = stamp.exists ? stamp.size : 0;
    const bool shrank = size < m_offset;
    if (shrank || (stamp.exists && m_inode != 0 && stamp.inode != m_inode)) {
        if (m_offset > 0 || m_line > 0) {
            notes.push_back(m_name + ": "
                + (shrank ? "the file shrank to " + std::to_string(size) + " bytes"
                          : std::string("the file was replaced"))
                + " after " + std::to_string(m_offset)
                + " bytes were read: the probe started again in this folder; read from its start");
            result.restarted = true;
        }
        reset();
    }
    if (!stamp.exists)
        return result;
    m_inode = stamp.inode;
    size_t done = 0;
    result.more = consume(maxLines, done, sink, notes);
    if (result.more || m_offset >= size)
        return result;
    std::ifstream in(m_path, std::ios::binary);
    in.seekg(static_cast<std::streamoff>(m_offset));
    std::string chunk;
    while (in && m_offset < size && !result.more) {
        chunk.resize(static_cast<std::size_t>(std::min<uint64_t>(chunkBytes, size - m_offset)));
        in.read(chunk.data(), static_cast<std::streamsize>(chunk.size()));
        const auto got = static_cast<std::size_t>(in.gcount());
        if (got == 0)
            break;
        m_offset += got;
        m_pending.append(chunk, 0, got);
        result.more = consume(maxLines, done, sink, notes);
    }
    return result;
}

} // namespace synctax
