#include "core/analysis/kinetotrace.h"

namespace synctax {

bool isGpuKind(TraceEventKind kind)
{
    return kind == TraceEventKind::Kernel || kind == TraceEventKind::Memcpy || kind == TraceEventKind::Memset
        || kind == TraceEventKind::CudaSync;
}

} // namespace synctax
