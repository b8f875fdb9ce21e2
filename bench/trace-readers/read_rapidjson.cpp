// RapidJSON SAX over a chunked stream; numbers arrive as their text (kParseNumbersAsStringsFlag).
#include "readers.h"
#include "source.h"
#include "walker.h"

#include <rapidjson/error/en.h>
#include <rapidjson/reader.h>

namespace tracebench {
namespace {

// RapidJSON's input stream concept (Peek/Take/Tell) over ChunkSource; a NUL after the last
// chunk tells the parser the text has ended, as FileReadStream does.
class ChunkStream {
public:
    using Ch = char;
    explicit ChunkStream(ChunkSource& source)
        : m_source(source)
    {
        refill();
    }

    Ch Peek() const { return *m_cur; }
    Ch Take()
    {
        const Ch c = *m_cur;
        if (m_cur + 1 < m_end)
            ++m_cur;
        else
            refill();
        return c;
    }
    std::size_t Tell() const { return m_consumed + static_cast<std::size_t>(m_cur - m_buf); }
    Ch* PutBegin() { return nullptr; }
    void Put(Ch) { }
    void Flush() { }
    std::size_t PutEnd(Ch*) { return 0; }

private:
    void refill()
    {
        if (m_eof) {
            m_cur = m_buf;
            *m_cur = '\0';
            return;
        }
        m_consumed += static_cast<std::size_t>(m_end - m_buf);
        const std::size_t got = m_source.read(m_buf);
        m_cur = m_buf;
        m_end = m_buf + got;
        if (got == 0) {
            m_eof = true;
            m_buf[0] = '\0';
            m_end = m_buf + 1;
        }
    }

    ChunkSource& m_source;
    char m_buf[ChunkSource::kChunk + 1];
    char* m_cur = m_buf;
    char* m_end = m_buf;
    std::size_t m_consumed = 0;
    bool m_eof = false;
};

struct Handler : rapidjson::BaseReaderHandler<rapidjson::UTF8<>, Handler> {
    EventWalker walker;
    bool Null() { return true; }
    bool Bool(bool) { return true; }
    bool RawNumber(const char* s, rapidjson::SizeType n, bool) { return walker.number({ s, n }), true; }
    bool String(const char* s, rapidjson::SizeType n, bool) { return walker.string({ s, n }), true; }
    bool Key(const char* s, rapidjson::SizeType n, bool) { return walker.key({ s, n }), true; }
    bool StartObject() { return walker.startObject(), true; }
    bool EndObject(rapidjson::SizeType) { return walker.endObject(), true; }
    bool StartArray() { return walker.startArray(), true; }
    bool EndArray(rapidjson::SizeType) { return walker.endArray(), true; }
};

} // namespace

ReadOutcome readWithRapidJson(ChunkSource& source)
{
    ReadOutcome out;
    auto stream = std::make_unique<ChunkStream>(source); // 64 KiB: not on the stack
    Handler handler;
    rapidjson::Reader reader;
    const auto result = reader.Parse<rapidjson::kParseNumbersAsStringsFlag>(*stream, handler);
    if (result.IsError())
        out.error
            = std::string(rapidjson::GetParseError_En(result.Code())) + " at byte " + std::to_string(result.Offset());
    out.tally = handler.walker.tally;
    out.textBytes = source.textBytes();
    return out;
}

} // namespace tracebench
