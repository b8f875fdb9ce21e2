#pragma once

#include "core/trace/kinetotrace.h"

#include <optional>
#include <string_view>

namespace synctax {

struct EventClass {
    TraceEventKind kind = TraceEventKind::CpuOp;
    bool legacyCategory = false; // a 2021 category name (Operator, Runtime, Kernel, Memcpy, Memset)
};

// What a complete (ph "X") event of category `cat` named `name` is to SyncTax, per the comments of
// TraceEventKind; nullopt for the categories the analysis does not use (ac2g, fwdbwd, Trace,
// gpu_user_annotation, cuda_profiler_range, ...).
std::optional<EventClass> classifyEvent(std::string_view cat, std::string_view name);

} // namespace synctax
