#pragma once

#include <c10/util/Exception.h>

#include <exception>
#include <string>

namespace synctax {

// An exception's message for a cell or a note: LibTorch's without its C++ backtrace.
inline std::string errorText(const std::exception& e)
{
    if (const auto* c10Error = dynamic_cast<const c10::Error*>(&e))
        return c10Error->what_without_backtrace();
    return e.what();
}

} // namespace synctax
