#include "core/trace/kinetoreader.h"

#include "core/config/configerror.h"

#include "core/files/bytestream.h"
#include "core/trace/kinetohandler.h"
#include "core/trace/tracefinisher.h"

#include <rapidjson/error/error.h>
#include <rapidjson/reader.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

namespace synctax {

namespace {

// Numbers as text so that timestamps become int64 ns exactly; NaN and Infinity reach the handler,
// which says where they are; iterative so that deep nesting cannot exhaust the stack.
constexpr unsigned kParseFlags
    = rapidjson::kParseNumbersAsStringsFlag | rapidjson::kParseNanAndInfFlag | rapidjson::kParseIterativeFlag;

std::string found(ByteStream& stream)
{
    if (stream.atEnd())
        return "the end of the text (truncated JSON)";
    const auto c = static_cast<unsigned char>(stream.Peek());
    if (c >= 0x20 && c < 0x7f)
        return std::string("'") + static_cast<char>(c) + "'";
    char hex[8];
    std::snprintf(hex, sizeof hex, "0x%02x", c);
    return std::string("the byte ") + hex;
}

// RapidJSON's error codes as what was expected at that place.
std::string expectation(rapidjson::ParseErrorCode code, bool atStart)
{
    switch (code) {
    case rapidjson::kParseErrorDocumentEmpty:
        return "expected a JSON object (a Kineto trace)";
    case rapidjson::kParseErrorDocumentRootNotSingular:
        return "expected nothing after the top-level object";
    case rapidjson::kParseErrorValueInvalid:
        return atStart ? "expected a JSON object (a Kineto trace): this is not JSON" : "expected a JSON value";
    case rapidjson::kParseErrorObjectMissName:
        return "expected a quoted key";
    case rapidjson::kParseErrorObjectMissColon:
        return "expected ':' after a key";
    case rapidjson::kParseErrorObjectMissCommaOrCurlyBracket:
        return "expected ',' or '}' in an object";
    case rapidjson::kParseErrorArrayMissCommaOrSquareBracket:
        return "expected ',' or ']' in an array";
    case rapidjson::kParseErrorStringUnicodeEscapeInvalidHex:
    case rapidjson::kParseErrorStringUnicodeSurrogateInvalid:
    case rapidjson::kParseErrorStringEscapeInvalid:
        return "expected a valid escape in a string";
    case rapidjson::kParseErrorStringMissQuotationMark:
        return "expected the closing quote of a string";
    case rapidjson::kParseErrorStringInvalidEncoding:
        return "expected UTF-8 text in a string";
    case rapidjson::kParseErrorNumberTooBig:
        return "expected a number that fits in int64 nanoseconds (it is too large even for a double)";
    case rapidjson::kParseErrorNumberMissFraction:
        return "expected digits after the decimal point";
    case rapidjson::kParseErrorNumberMissExponent:
        return "expected digits in the exponent";
    default:
        return "expected valid JSON";
    }
}

// Room for as many events as the file can hold, so that the vector never grows by copying (a copy
// holds the old and the new array at once: 1.5 to 3 times the events). Pages never written are
// never resident, so an over-estimate costs address space, not memory. A Kineto event is at least
// ~64 bytes of JSON; gzip shrinks trace JSON about 12 times (20 assumed).
void reserveEvents(std::vector<TraceEvent>& events, ByteStream& stream, std::uint64_t fileBytes)
{
    constexpr std::uint64_t minEventBytes = 64;
    constexpr std::uint64_t gzipRatio = 20;
    constexpr std::uint64_t maxReserved = std::uint64_t(1) << 26; // 64 Mi events, 2.5 GiB of address space
    stream.Peek(); // reads the first chunk: whether it is gzip
    const std::uint64_t textBytes = stream.gzip() ? fileBytes * gzipRatio : fileBytes;
    events.reserve(std::size_t(std::min(textBytes / minEventBytes, maxReserved)));
}

TraceReadResult parse(
    ByteStream& stream, const std::string& sourceName, const TraceReadOptions& options, std::uint64_t fileBytes)
{
    TraceReadResult result;
    KinetoHandler handler(stream);
    stream.setCancel(options.cancel);
    TraceReadProgress progress;
    progress.fileBytes = fileBytes;
    if (options.progress) {
        // The stream knows the bytes, the handler the events: the callback joins them at each MiB.
        stream.setProgress([&](std::uint64_t bytes) {
            progress.fileBytesRead = bytes;
            progress.eventsRead = handler.eventsInFile();
            options.progress(progress);
        });
    }
    reserveEvents(handler.trace().events, stream, fileBytes);
    rapidjson::Reader reader;
    const rapidjson::ParseResult parsed = reader.Parse<kParseFlags>(stream, handler);
    if (stream.cancelled()) {
        result.cancelled = true;
        return result;
    }
    TraceReadError error;
    error.file = sourceName;
    if (!stream.gzipError().empty()) {
        error.byteOffset = stream.Tell();
        error.eventIndex = handler.insideEvents() ? handler.eventIndex() : -1;
        error.message = "expected gzip data: " + stream.gzipError();
        result.error = error;
        return result;
    }
    if (parsed.IsError()) {
        if (const auto& e = handler.error()) {
            error.byteOffset = e->offset;
            error.eventIndex = e->eventIndex;
            error.message = e->message;
        } else {
            error.byteOffset = parsed.Offset();
            error.eventIndex = handler.insideEvents() ? handler.eventIndex() : -1;
            error.message = expectation(parsed.Code(), parsed.Offset() == 0);
            // The stream's '\0' is its end, or a NUL byte of the file: a binary file is said to be one.
            if (parsed.Code() == rapidjson::kParseErrorDocumentEmpty && !stream.atEnd())
                error.message += ", found a NUL byte (binary data, not JSON text)";
            else if (parsed.Code() == rapidjson::kParseErrorDocumentEmpty)
                error.message += ", found no value (the file is empty or blank)";
            else if (parsed.Code() < rapidjson::kParseErrorNumberTooBig
                || parsed.Code() > rapidjson::kParseErrorNumberMissExponent)
                error.message += ", found " + found(stream);
        }
        // Damaged compressed data can inflate to text for a while before zlib notices (at the latest
        // at the trailer's checksum): where the JSON breaks, read on to learn whether the gzip did.
        if (stream.gzip()) {
            while (stream.Take() != '\0' || !stream.atEnd()) { }
            if (stream.cancelled()) {
                result.cancelled = true;
                return result;
            }
            if (!stream.gzipError().empty()) {
                error.message = "expected gzip data: " + stream.gzipError() + "; the text it inflated to stops being "
                    + "JSON at byte " + std::to_string(error.byteOffset) + ": the damage, not the trace";
                error.byteOffset = stream.Tell();
                error.eventIndex = -1;
            }
        }
        result.error = error;
        return result;
    }
    KinetoTrace& trace = handler.trace();
    if (handler.counts().traceEventsKeys == 0) {
        error.byteOffset = stream.Tell();
        error.message = "expected a \"traceEvents\" array in the top-level object, found none";
        result.error = error;
        return result;
    }
    trace.info.file = sourceName;
    trace.eventsInFile = handler.eventsInFile();
    if (const auto message = finishTrace(trace, handler.counts(), handler.threadNames())) {
        error.byteOffset = handler.counts().baseTimeOffset;
        error.message = *message;
        result.error = error;
        return result;
    }
    if (options.progress) {
        progress.fileBytesRead = stream.fileBytesRead();
        progress.eventsRead = trace.eventsInFile;
        options.progress(progress);
    }
    result.trace = std::move(trace);
    return result;
}

std::string fileKind(const std::filesystem::file_status& status)
{
    switch (status.type()) {
    case std::filesystem::file_type::fifo:
        return "a FIFO";
    case std::filesystem::file_type::socket:
        return "a socket";
    case std::filesystem::file_type::character:
        return "a character device";
    case std::filesystem::file_type::block:
        return "a block device";
    default:
        return "a special file";
    }
}

TraceReadResult fileError(const std::string& path, std::string message)
{
    TraceReadResult result;
    TraceReadError error;
    error.file = path;
    error.positioned = false;
    error.message = std::move(message);
    result.error = error;
    return result;
}

} // namespace

std::string TraceReadError::format() const
{
    if (!positioned)
        return printable(file) + ": " + printable(message);
    std::string text = printable(file) + ": byte " + std::to_string(byteOffset);
    if (eventIndex >= 0)
        text += ", event " + std::to_string(eventIndex);
    return text + ": " + printable(message);
}

TraceReadResult readKinetoTrace(const std::string& path, const TraceReadOptions& options)
{
    std::error_code ec;
    const std::filesystem::file_status status = std::filesystem::status(path, ec);
    if (std::filesystem::is_directory(status))
        return fileError(path, "is a directory; expected a Kineto trace file (.json or .json.gz)");
    // Opening a FIFO waits for a writer, and a device may never end: neither can be stopped.
    if (std::filesystem::exists(status) && !std::filesystem::is_regular_file(status))
        return fileError(
            path, "is " + fileKind(status) + ", not a regular file; expected a Kineto trace file (.json or .json.gz)");
    std::FILE* file = std::fopen(path.c_str(), "rb");
    if (!file)
        return fileError(path, std::string("cannot open the file for reading (") + std::strerror(errno) + ")");
    std::uint64_t fileBytes = std::filesystem::file_size(path, ec);
    if (ec)
        fileBytes = 0;
    ByteStream stream(file);
    TraceReadResult result = parse(stream, path, options, fileBytes);
    std::fclose(file);
    return result;
}

TraceReadResult readKinetoTraceText(const std::string& json, const std::string& sourceName)
{
    ByteStream stream(json);
    return parse(stream, sourceName, TraceReadOptions {}, json.size());
}

} // namespace synctax
