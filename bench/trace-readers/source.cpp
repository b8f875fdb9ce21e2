#include "source.h"

namespace tracebench {

ChunkSource::ChunkSource(const std::string& path)
{
    m_file = std::fopen(path.c_str(), "rb");
    if (!m_file)
        return;
    unsigned char magic[2] = { 0, 0 };
    const std::size_t got = std::fread(magic, 1, 2, m_file);
    std::rewind(m_file);
    m_gzip = got == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
    if (m_gzip && inflateInit2(&m_z, 15 + 32) != Z_OK) { // 32: accept a gzip header
        std::fclose(m_file);
        m_file = nullptr;
    }
}

ChunkSource::~ChunkSource()
{
    if (m_gzip && m_file)
        inflateEnd(&m_z);
    if (m_file)
        std::fclose(m_file);
}

std::size_t ChunkSource::read(char* out)
{
    if (!m_file)
        return 0;
    if (!m_gzip) {
        const std::size_t got = std::fread(out, 1, kChunk, m_file);
        m_textBytes += got;
        return got;
    }
    m_z.next_out = reinterpret_cast<unsigned char*>(out);
    m_z.avail_out = kChunk;
    while (m_z.avail_out == kChunk && !m_streamEnd) {
        if (m_z.avail_in == 0) {
            m_z.avail_in = static_cast<uInt>(std::fread(m_in, 1, kChunk, m_file));
            m_z.next_in = m_in;
            if (m_z.avail_in == 0)
                break; // truncated file: the parser reports the early end
        }
        const int rc = inflate(&m_z, Z_NO_FLUSH);
        if (rc == Z_STREAM_END)
            m_streamEnd = true;
        else if (rc != Z_OK)
            break;
    }
    m_textBytes += kChunk - m_z.avail_out;
    return kChunk - m_z.avail_out;
}

} // namespace tracebench
