#pragma once

#include "core/analysis/experimentresult.h"

#include <stdexcept>
#include <string>

namespace synctax {

// A device that was asked for and cannot be had: bad input, not a runtime failure.
class DeviceError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

bool cudaAvailable();

// "auto" becomes "cuda:0" where CUDA is available, else "cpu"; "cuda" becomes "cuda:0".
// Throws DeviceError when CUDA is asked for and absent, or the index is out of range.
std::string resolveDevice(const std::string& requested);

Environment describeEnvironment(const std::string& resolvedDevice);

} // namespace synctax
