#pragma once

#include "core/trace/kinetotrace.h"
#include "core/trace/tracereport.h"

#include <functional>

namespace synctax {

// Per step and per sync site, what the syncs in a Kineto trace cost: launches joined to GPU work
// by args.correlation, steps from the ProfilerStep#N annotations, each sync's causing op from the
// enclosing cpu_op chain and its Python line from the enclosing python_function events.
TraceReport analyseTrace(const KinetoTrace& trace);
// The same, telling `progress` the share done (0..1) after each pass over the events.
TraceReport analyseTrace(const KinetoTrace& trace, const std::function<void(double)>& progress);

} // namespace synctax
