#include "core/trace/kinetotrace.h"

namespace synctax {

bool isGpuWork(TraceEventKind kind)
{
    return kind == TraceEventKind::Kernel || kind == TraceEventKind::Memcpy || kind == TraceEventKind::Memset;
}

bool isGpuKind(TraceEventKind kind) { return isGpuWork(kind) || kind == TraceEventKind::CudaSync; }

} // namespace synctax
