#include "core/files/bytestream.h"

#include <zlib.h>

#include <algorithm>
#include <cstring>

namespace synctax {

namespace {

constexpr std::size_t kChunk = std::size_t { 64 } * 1024;
constexpr std::uint64_t kProgressEvery = std::uint64_t { 1024 } * 1024;

} // namespace

struct ByteStream::Inflater {
    z_stream z {};
    bool ready = false;
    bool memberDone = false; // one gzip member ended; more input starts another (as gzip -c a b writes)

    Inflater()
    {
        // 16 + MAX_WBITS: a gzip header and trailer, not a raw zlib stream.
        ready = inflateInit2(&z, 16 + MAX_WBITS) == Z_OK;
    }
    ~Inflater()
    {
        if (ready)
            inflateEnd(&z);
    }
    Inflater(const Inflater&) = delete;
    Inflater& operator=(const Inflater&) = delete;
};

ByteStream::ByteStream(std::FILE* file)
    : m_file(file)
    , m_raw(kChunk)
{
}

ByteStream::ByteStream(const std::string& bytes)
    : m_memory(&bytes)
    , m_raw(kChunk)
{
}

ByteStream::~ByteStream() = default;

bool ByteStream::readRaw()
{
    if (m_rawEnded)
        return false;
    if (m_file) {
        m_rawLen = std::fread(m_raw.data(), 1, m_raw.size(), m_file);
    } else {
        m_rawLen = std::min(m_raw.size(), m_memory->size() - m_memoryPos);
        std::memcpy(m_raw.data(), m_memory->data() + m_memoryPos, m_rawLen);
        m_memoryPos += m_rawLen;
    }
    if (m_rawLen == 0) {
        m_rawEnded = true;
        return false;
    }
    m_fileBytesRead += m_rawLen;
    if (m_progress && m_fileBytesRead >= m_nextProgress) {
        m_nextProgress = m_fileBytesRead + kProgressEvery;
        m_progress(m_fileBytesRead);
    }
    return true;
}

bool ByteStream::refill()
{
    if (m_finished)
        return false;
    if (m_cancel && m_cancel->load(std::memory_order_relaxed)) {
        m_cancelled = true;
        m_finished = true;
        return false;
    }
    if (!m_started) {
        m_started = true;
        if (!readRaw()) {
            m_finished = true;
            return false;
        }
        m_gzip = m_rawLen >= 2 && static_cast<unsigned char>(m_raw[0]) == 0x1f
            && static_cast<unsigned char>(m_raw[1]) == 0x8b;
        if (m_gzip) {
            m_inflater = std::make_unique<Inflater>();
            if (!m_inflater->ready) {
                m_gzipError = "zlib could not start";
                m_finished = true;
                return false;
            }
            m_text.resize(kChunk);
            m_inflater->z.next_in = reinterpret_cast<Bytef*>(m_raw.data());
            m_inflater->z.avail_in = static_cast<uInt>(m_rawLen);
            return inflateChunk();
        }
        m_cur = m_raw.data();
        m_end = m_cur + m_rawLen;
        return true;
    }
    if (m_gzip)
        return inflateChunk();
    if (!readRaw()) {
        m_finished = true;
        return false;
    }
    m_cur = m_raw.data();
    m_end = m_cur + m_rawLen;
    return true;
}

bool ByteStream::inflateChunk()
{
    z_stream& z = m_inflater->z;
    z.next_out = reinterpret_cast<Bytef*>(m_text.data());
    z.avail_out = static_cast<uInt>(m_text.size());
    while (z.avail_out == m_text.size()) {
        if (z.avail_in == 0) {
            if (!readRaw()) {
                if (!m_inflater->memberDone)
                    m_gzipError = "the compressed data ends early (a truncated .gz file)";
                m_finished = true;
                return false;
            }
            z.next_in = reinterpret_cast<Bytef*>(m_raw.data());
            z.avail_in = static_cast<uInt>(m_rawLen);
        }
        if (m_inflater->memberDone) {
            inflateReset(&z);
            m_inflater->memberDone = false;
        }
        const int r = inflate(&z, Z_NO_FLUSH);
        if (r == Z_STREAM_END) {
            m_inflater->memberDone = true;
            if (z.avail_out != m_text.size())
                break;
            continue;
        }
        if (r == Z_OK || (r == Z_BUF_ERROR && z.avail_in == 0))
            continue;
        m_gzipError = std::string("the compressed data is corrupt (zlib: ")
            + (z.msg ? z.msg : "error " + std::to_string(r)) + ")";
        m_finished = true;
        return false;
    }
    m_cur = m_text.data();
    m_end = m_cur + (m_text.size() - z.avail_out);
    return true;
}

} // namespace synctax
