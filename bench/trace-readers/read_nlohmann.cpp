// nlohmann-json SAX (json::sax_parse) over an istream whose buffer is the chunked source. In 3.11
// number_float's string is the lexer's token buffer: the number's own text, so ns digits survive.
#include "readers.h"
#include "source.h"
#include "walker.h"

#include <istream>
#include <nlohmann/json.hpp>

namespace tracebench {
namespace {

class ChunkStreambuf : public std::streambuf {
public:
    explicit ChunkStreambuf(ChunkSource& source)
        : m_source(source)
    {
    }

protected:
    int_type underflow() override
    {
        const std::size_t got = m_source.read(m_buf);
        if (got == 0)
            return traits_type::eof();
        setg(m_buf, m_buf, m_buf + got);
        return traits_type::to_int_type(m_buf[0]);
    }

private:
    ChunkSource& m_source;
    char m_buf[ChunkSource::kChunk];
};

using json = nlohmann::json;

struct Sax : nlohmann::json_sax<json> {
    EventWalker walker;
    std::string error;

    bool null() override { return true; }
    bool boolean(bool) override { return true; }
    bool number_integer(number_integer_t v) override { return walker.integerMicros(v), true; }
    bool number_unsigned(number_unsigned_t v) override { return walker.integerMicros(static_cast<long long>(v)), true; }
    bool number_float(number_float_t, const string_t& text) override { return walker.number(text), true; }
    bool string(string_t& s) override { return walker.string(s), true; }
    bool binary(binary_t&) override { return true; }
    bool start_object(std::size_t) override { return walker.startObject(), true; }
    bool key(string_t& k) override { return walker.key(k), true; }
    bool end_object() override { return walker.endObject(), true; }
    bool start_array(std::size_t) override { return walker.startArray(), true; }
    bool end_array() override { return walker.endArray(), true; }
    bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception& ex) override
    {
        error = std::string(ex.what()) + " at byte " + std::to_string(position);
        return false;
    }
};

} // namespace

ReadOutcome readWithNlohmann(ChunkSource& source)
{
    ReadOutcome out;
    auto buf = std::make_unique<ChunkStreambuf>(source);
    std::istream in(buf.get());
    Sax sax;
    if (!json::sax_parse(in, &sax) && sax.error.empty())
        sax.error = "parse stopped";
    out.error = sax.error;
    out.tally = sax.walker.tally;
    out.textBytes = source.textBytes();
    return out;
}

} // namespace tracebench
