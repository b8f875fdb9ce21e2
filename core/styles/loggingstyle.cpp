#include "core/styles/loggingstyle.h"

#include <stdexcept>

namespace synctax {

std::unique_ptr<LoggingStyle> makeLoggingStyle(const StyleSpec& spec, const StyleContext& context)
{
    for (auto make : { makeSyncStyle, makeProgressStyle, makeWriteStyle, makeDeferredStyle }) {
        if (auto style = make(spec, context))
            return style;
    }
    throw std::invalid_argument("unknown logging style '" + spec.name + "'");
}

} // namespace synctax
