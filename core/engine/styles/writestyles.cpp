// Styles that write every step's loss somewhere: a print, or a scalar log flushed to disk.
#include "core/engine/styles/loggingstyle.h"
#include "core/engine/styles/sink.h"

#include <torch/torch.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <unistd.h>

namespace synctax {

namespace {

class PrintLoss : public LoggingStyle {
public:
    PrintLoss(Sink& sink, ReadEvery every)
        : m_sink(sink)
        , m_every(every)
    {
    }
    void afterStep(const StepOutput& out, int64_t step) override
    {
        if (!m_every.after(step))
            return;
        m_lastValue = out.loss.item<float>();
        char line[64];
        const int n
            = std::snprintf(line, sizeof line, "step %lld loss %.6f\n", static_cast<long long>(step), m_lastValue);
        m_sink.write(std::string_view(line, size_t(n)));
    }

private:
    Sink& m_sink;
    ReadEvery m_every;
};

// Like a TensorBoard SummaryWriter flushed at every write: one line per scalar in a real file,
// pushed to the kernel at each read. The file is scratch and removed afterwards.
class WriterFlush : public LoggingStyle {
public:
    explicit WriterFlush(ReadEvery every)
        : m_every(every)
    {
        static std::atomic<int> counter { 0 };
        m_path = (std::filesystem::temp_directory_path()
            / ("synctax-scalars-" + std::to_string(getpid()) + "-" + std::to_string(counter++) + ".log"))
                     .string();
        m_file = std::fopen(m_path.c_str(), "w");
        if (!m_file)
            throw std::runtime_error("cannot create scalar log '" + m_path + "': " + std::strerror(errno));
    }
    ~WriterFlush() override
    {
        std::fclose(m_file);
        std::remove(m_path.c_str());
    }
    WriterFlush(const WriterFlush&) = delete;
    WriterFlush& operator=(const WriterFlush&) = delete;

    void afterStep(const StepOutput& out, int64_t step) override
    {
        if (!m_every.after(step))
            return;
        m_lastValue = out.loss.item<float>();
        std::fprintf(m_file, "train/loss,%lld,%.6f\n", static_cast<long long>(m_globalStep++), m_lastValue);
        std::fflush(m_file);
    }

private:
    ReadEvery m_every;
    std::string m_path;
    std::FILE* m_file = nullptr;
    int64_t m_globalStep = 0;
};

} // namespace

std::unique_ptr<LoggingStyle> makeWriteStyle(
    StyleBehaviour behaviour, ReadCadence, ReadEvery every, const StyleContext& context)
{
    if (every.n <= 0)
        return nullptr; // both write what they read, at each read
    if (behaviour == StyleBehaviour::PrintLoss)
        return std::make_unique<PrintLoss>(context.sink, every);
    if (behaviour == StyleBehaviour::WriteScalar)
        return std::make_unique<WriterFlush>(every);
    return nullptr;
}

} // namespace synctax
