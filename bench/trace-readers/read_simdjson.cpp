// simdjson On Demand: needs the whole text in one padded buffer, so it is not streaming; a
// .json.gz is inflated into memory first. The buffer is sized once, from the file or gzip's trailer.
#include "readers.h"
#include "source.h"

#include <cstdio>
#include <simdjson.h>

namespace tracebench {
namespace {

// The text's size, so that the buffer is allocated once: the file's size, or for gzip ISIZE, the
// last 4 bytes of the member (the uncompressed size mod 2^32).
std::size_t textSizeHint(const std::string& path, bool gzip)
{
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (!f)
        return 0;
    unsigned char b[4] = { 0, 0, 0, 0 };
    std::size_t size = 0;
    if (!gzip) {
        if (std::fseek(f, 0, SEEK_END) == 0)
            size = static_cast<std::size_t>(std::ftell(f));
    } else if (std::fseek(f, -4, SEEK_END) == 0 && std::fread(b, 1, 4, f) == 4)
        size = b[0] | (b[1] << 8) | (b[2] << 16) | (std::size_t(b[3]) << 24);
    std::fclose(f);
    return size;
}

void walk(simdjson::ondemand::document& doc, Tally& tally)
{
    for (auto top : doc.get_object()) {
        if (std::string_view(top.unescaped_key()) != "traceEvents")
            continue;
        for (auto value : top.value().get_array()) {
            ++tally.events;
            for (auto field : value.get_object()) {
                const std::string_view k = field.unescaped_key();
                if (k == "ph" || k == "cat" || k == "name")
                    tally.textBytes += std::string_view(field.value().get_string()).size();
                else if (k == "ts")
                    addNumber(tally.tsSum, tally.badNumbers, field.value().raw_json_token());
                else if (k == "dur")
                    addNumber(tally.durSum, tally.badNumbers, field.value().raw_json_token());
            }
        }
    }
}

} // namespace

ReadOutcome readWithSimdjson(ChunkSource& source, const std::string& path)
{
    ReadOutcome out;
    std::string text;
    text.reserve(textSizeHint(path, source.gzip()) + simdjson::SIMDJSON_PADDING);
    std::string chunk(ChunkSource::kChunk, '\0');
    while (const std::size_t got = source.read(chunk.data()))
        text.append(chunk.data(), got);
    text.reserve(text.size() + simdjson::SIMDJSON_PADDING); // no-op when the hint was right
    out.textBytes = text.size();
    try {
        simdjson::ondemand::parser parser;
        simdjson::padded_string_view view(text.data(), text.size(), text.capacity());
        auto doc = parser.iterate(view);
        walk(doc.value(), out.tally);
    } catch (const simdjson::simdjson_error& e) {
        out.error = e.what();
    }
    return out;
}

} // namespace tracebench
