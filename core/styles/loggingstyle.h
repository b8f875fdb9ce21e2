#pragma once

#include "core/config/experimentconfig.h"
#include "core/training/trainingstate.h"

#include <memory>

namespace synctax {

class Sink;

struct StyleContext {
    Sink& sink;
    torch::Device device;
    int64_t stepsPerBlock;
};

// What a training loop does after queueing each step to log it. Each style is a small strategy
// whose per-step work is exactly what its name promises; see styleCatalog() for the summaries.
class LoggingStyle {
public:
    virtual ~LoggingStyle() = default;
    virtual void beginBlock() { }
    virtual void afterStep(const StepOutput& out, int64_t step) = 0;
    virtual void endBlock() { } // before the block's closing synchronize

    // The last value the style read back, so that no read can be optimised away.
    double lastValue() const { return m_lastValue; }

protected:
    double m_lastValue = 0;
};

// Throws std::invalid_argument for an unknown style name.
std::unique_ptr<LoggingStyle> makeLoggingStyle(const StyleSpec& spec, const StyleContext& context);

// The style families, each in its own file; each returns nullptr for names it does not own.
std::unique_ptr<LoggingStyle> makeSyncStyle(const StyleSpec& spec, const StyleContext& context);
std::unique_ptr<LoggingStyle> makeProgressStyle(const StyleSpec& spec, const StyleContext& context);
std::unique_ptr<LoggingStyle> makeWriteStyle(const StyleSpec& spec, const StyleContext& context);
std::unique_ptr<LoggingStyle> makeDeferredStyle(const StyleSpec& spec, const StyleContext& context);

} // namespace synctax
