#pragma once

#include "core/queuemodel/regime.h"

namespace synctax {

class StepExecutor;

// Measures D, G, L and K for the executor's model and mode on its device (see RegimeMeasurement);
// on the CPU returns a measurement that says there is no asynchronous queue.
RegimeMeasurement measureRegime(StepExecutor& executor, int64_t hostWorkUs);

} // namespace synctax
