#include "core/engine/styles/loggingstyle.h"

#include <stdexcept>

namespace synctax {

namespace {

ReadEvery readEvery(const StyleInfo& style, int64_t n)
{
    switch (style.cadence) {
    case ReadCadence::EveryStep:
        return { 1 };
    case ReadCadence::EveryN:
        return { n > 0 ? n : style.defaultN };
    case ReadCadence::Never:
    case ReadCadence::BlockEnd:
        break;
    }
    return { 0 };
}

} // namespace

std::unique_ptr<LoggingStyle> makeLoggingStyle(const StyleSpec& spec, const StyleContext& context)
{
    const StyleInfo* style = findStyle(spec.name);
    if (!style)
        throw std::invalid_argument("unknown logging style '" + spec.name + "'");
    return makeLoggingStyle(*style, spec.n, context);
}

std::unique_ptr<LoggingStyle> makeLoggingStyle(const StyleInfo& style, int64_t n, const StyleContext& context)
{
    const ReadEvery every = readEvery(style, n);
    for (StyleMaker make : { makeSyncStyle, makeProgressStyle, makeWriteStyle, makeDeferredStyle }) {
        if (auto made = make(style.behaviour, style.cadence, every, context))
            return made;
    }
    throw std::invalid_argument(
        "logging style '" + style.name + "': the engine does not implement its behaviour at its cadence");
}

} // namespace synctax
