#pragma once

// The bytes of a trace file in chunks: read as is, or inflated with zlib when the file starts
// with gzip's magic bytes. Nothing here holds more than one chunk.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <zlib.h>

namespace tracebench {

class ChunkSource {
public:
    static constexpr std::size_t kChunk = 1 << 16;

    explicit ChunkSource(const std::string& path);
    ~ChunkSource();
    ChunkSource(const ChunkSource&) = delete;
    ChunkSource& operator=(const ChunkSource&) = delete;

    bool ok() const { return m_file != nullptr; }
    bool gzip() const { return m_gzip; }
    // Fills out (kChunk bytes) and returns how many it wrote; 0 at the end or on an error.
    std::size_t read(char* out);
    std::uint64_t textBytes() const { return m_textBytes; } // JSON bytes handed out so far

private:
    std::FILE* m_file = nullptr;
    bool m_gzip = false;
    bool m_streamEnd = false;
    std::uint64_t m_textBytes = 0;
    z_stream m_z {};
    unsigned char m_in[kChunk];
};

} // namespace tracebench
