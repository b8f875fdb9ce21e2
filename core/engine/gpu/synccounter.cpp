#include "core/engine/gpu/synccounter.h"

#ifdef SYNCTAX_HAVE_CUDA
#include <c10/core/Device.h>
#include <c10/cuda/CUDAFunctions.h>
#include <c10/util/Exception.h>
#include <torch/version.h>

#include <string_view>
#endif

namespace synctax {

#ifdef SYNCTAX_HAVE_CUDA

namespace {

bool isSyncWarning(std::string_view message)
{
    return message.find("synchronizing CUDA operation") != std::string_view::npos;
}

class CudaSyncCounter : public SyncCounter, public c10::WarningHandler {
public:
    void start() override
    {
#if TORCH_VERSION_MAJOR >= 2
        m_previous = c10::WarningUtils::get_warning_handler();
        c10::WarningUtils::set_warning_handler(this);
#else
        m_previous = c10::Warning::get_warning_handler();
        c10::Warning::set_warning_handler(this);
#endif
        c10::cuda::warning_state().set_sync_debug_mode(c10::cuda::SyncDebugMode::L_WARN);
    }

    void stop() override
    {
        c10::cuda::warning_state().set_sync_debug_mode(c10::cuda::SyncDebugMode::L_DISABLED);
#if TORCH_VERSION_MAJOR >= 2
        c10::WarningUtils::set_warning_handler(m_previous);
#else
        c10::Warning::set_warning_handler(m_previous);
#endif
    }

    int64_t count() const override { return m_count; }
    void reset() override { m_count = 0; }

#if TORCH_VERSION_MAJOR >= 2
    void process(const c10::Warning& warning) override
    {
        if (isSyncWarning(warning.msg()))
            ++m_count;
        else if (m_previous)
            m_previous->process(warning);
    }
#else
    void process(const c10::SourceLocation& location, const std::string& message, const bool verbatim) override
    {
        if (isSyncWarning(message))
            ++m_count;
        else if (m_previous)
            m_previous->process(location, message, verbatim);
    }
#endif

private:
    c10::WarningHandler* m_previous = nullptr;
    int64_t m_count = 0;
};

} // namespace

std::unique_ptr<SyncCounter> SyncCounter::make(const std::string& device)
{
    if (!c10::Device(device).is_cuda())
        return nullptr;
    return std::make_unique<CudaSyncCounter>();
}

#else

std::unique_ptr<SyncCounter> SyncCounter::make(const std::string&) { return nullptr; }

#endif

} // namespace synctax
