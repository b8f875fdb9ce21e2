#pragma once

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace synctax {

// The JSON text of a trace, a chunk at a time, from a file or from memory, inflated on the way when
// it starts with gzip's magic bytes. It is a RapidJSON input stream (Peek, Take, Tell); at the end,
// on a gzip error or on a cancel it yields '\0', which ends the parse, and says why afterwards.
class ByteStream {
public:
    using Ch = char;

    explicit ByteStream(std::FILE* file); // does not take ownership
    explicit ByteStream(const std::string& bytes); // must outlive the stream
    ~ByteStream();
    ByteStream(const ByteStream&) = delete;
    ByteStream& operator=(const ByteStream&) = delete;

    // Polled before each chunk of text (64 KiB); `progress` gets the file bytes read about every MiB.
    void setCancel(const std::atomic<bool>* cancel) { m_cancel = cancel; }
    void setProgress(std::function<void(std::uint64_t fileBytesRead)> progress) { m_progress = std::move(progress); }

    Ch Peek()
    {
        if (m_cur == m_end && !refill())
            return '\0';
        return *m_cur;
    }
    Ch Take()
    {
        if (m_cur == m_end && !refill())
            return '\0';
        ++m_offset;
        return *m_cur++;
    }
    std::size_t Tell() const { return static_cast<std::size_t>(m_offset); }

    // Never called by a non-insitu parse; RapidJSON's stream concept names them.
    Ch* PutBegin() { return nullptr; }
    void Put(Ch) { }
    void Flush() { }
    std::size_t PutEnd(Ch*) { return 0; }

    bool gzip() const { return m_gzip; }
    bool atEnd() const { return m_finished && m_cur == m_end; } // the text ended (not a cancel)
    bool cancelled() const { return m_cancelled; }
    const std::string& gzipError() const { return m_gzipError; } // empty when the inflate went well
    std::uint64_t fileBytesRead() const { return m_fileBytesRead; }

private:
    bool refill();
    bool readRaw(); // the next chunk of the file or memory into m_raw; false at its end
    bool inflateChunk();

    std::FILE* m_file = nullptr;
    const std::string* m_memory = nullptr;
    std::size_t m_memoryPos = 0;

    std::vector<char> m_raw; // file bytes (compressed when gzip)
    std::size_t m_rawLen = 0;
    std::vector<char> m_text; // inflated text when gzip
    const char* m_cur = nullptr;
    const char* m_end = nullptr;
    std::uint64_t m_offset = 0; // in the text
    std::uint64_t m_fileBytesRead = 0;
    std::uint64_t m_nextProgress = 0;

    bool m_started = false;
    bool m_gzip = false;
    bool m_rawEnded = false;
    bool m_finished = false;
    bool m_cancelled = false;
    std::string m_gzipError;

    struct Inflater;
    std::unique_ptr<Inflater> m_inflater;

    const std::atomic<bool>* m_cancel = nullptr;
    std::function<void(std::uint64_t)> m_progress;
};

} // namespace synctax
