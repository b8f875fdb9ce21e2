#pragma once

#include "core/config/experimentconfig.h"
#include "core/config/stylecatalog.h"
#include "core/engine/training/trainingstate.h"

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

// The steps after which a style reads, from its catalog cadence and the config's n: every step
// (n = 1), every n-th step, or none (0) for the cadences that read in endBlock() or never.
struct ReadEvery {
    int64_t n = 0;
    // The every-step styles skip the division: their per-step host work is what is measured.
    bool after(int64_t step) const { return n == 1 || (n > 0 && (step + 1) % n == 0); }
};

// The style the catalog describes under spec.name, its behaviour run at its cadence. Throws
// std::invalid_argument for a name outside the catalog, or for a behaviour the engine does not
// implement at that cadence.
std::unique_ptr<LoggingStyle> makeLoggingStyle(const StyleSpec& spec, const StyleContext& context);
// The same for a description, which need not be in the catalog; n <= 0 takes its defaultN.
std::unique_ptr<LoggingStyle> makeLoggingStyle(const StyleInfo& style, int64_t n, const StyleContext& context);

// The behaviour families, each in its own file; each returns nullptr for behaviours it does not
// own and for cadences its behaviour does not support.
using StyleMaker = std::unique_ptr<LoggingStyle> (*)(
    StyleBehaviour behaviour, ReadCadence cadence, ReadEvery every, const StyleContext& context);
std::unique_ptr<LoggingStyle> makeSyncStyle(
    StyleBehaviour behaviour, ReadCadence cadence, ReadEvery every, const StyleContext& context);
std::unique_ptr<LoggingStyle> makeProgressStyle(
    StyleBehaviour behaviour, ReadCadence cadence, ReadEvery every, const StyleContext& context);
std::unique_ptr<LoggingStyle> makeWriteStyle(
    StyleBehaviour behaviour, ReadCadence cadence, ReadEvery every, const StyleContext& context);
std::unique_ptr<LoggingStyle> makeDeferredStyle(
    StyleBehaviour behaviour, ReadCadence cadence, ReadEvery every, const StyleContext& context);

} // namespace synctax
