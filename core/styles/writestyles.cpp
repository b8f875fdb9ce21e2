// Styles that write every step's loss somewhere: a print, or a scalar log flushed to disk.
#include "core/styles/loggingstyle.h"
#include "core/styles/sink.h"

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

class PrintEveryStep : public LoggingStyle {
public:
    explicit PrintEveryStep(Sink& sink)
        : m_sink(sink)
    {
    }
    void afterStep(const StepOutput& out, int64_t step) override
    {
        m_lastValue = out.loss.item<float>();
        char line[64];
        const int n
            = std::snprintf(line, sizeof line, "step %lld loss %.6f\n", static_cast<long long>(step), m_lastValue);
        m_sink.write(std::string_view(line, size_t(n)));
    }

private:
    Sink& m_sink;
};

// Like a TensorBoard SummaryWriter flushed every iteration: one line per scalar in a real file,
// pushed to the kernel at every step. The file is scratch and removed afterwards.
class WriterFlushEveryStep : public LoggingStyle {
public:
    WriterFlushEveryStep()
    {
        static std::atomic<int> counter { 0 };
        m_path = (std::filesystem::temp_directory_path()
            / ("synctax-scalars-" + std::to_string(getpid()) + "-" + std::to_string(counter++) + ".log"))
                     .string();
        m_file = std::fopen(m_path.c_str(), "w");
        if (!m_file)
            throw std::runtime_error("cannot create scalar log '" + m_path + "': " + std::strerror(errno));
    }
    ~WriterFlushEveryStep() override
    {
        std::fclose(m_file);
        std::remove(m_path.c_str());
    }
    WriterFlushEveryStep(const WriterFlushEveryStep&) = delete;
    WriterFlushEveryStep& operator=(const WriterFlushEveryStep&) = delete;

    void afterStep(const StepOutput& out, int64_t) override
    {
        m_lastValue = out.loss.item<float>();
        std::fprintf(m_file, "train/loss,%lld,%.6f\n", static_cast<long long>(m_globalStep++), m_lastValue);
        std::fflush(m_file);
    }

private:
    std::string m_path;
    std::FILE* m_file = nullptr;
    int64_t m_globalStep = 0;
};

} // namespace

std::unique_ptr<LoggingStyle> makeWriteStyle(const StyleSpec& spec, const StyleContext& context)
{
    if (spec.name == "print_every_step")
        return std::make_unique<PrintEveryStep>(context.sink);
    if (spec.name == "writer_flush_every_step")
        return std::make_unique<WriterFlushEveryStep>();
    return nullptr;
}

} // namespace synctax
