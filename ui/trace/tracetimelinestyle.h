#pragma once

// The timeline's geometry and colours, shared by its layout (tracetimeline.cpp) and its lane painting
// (tracetimelinepaint.cpp).
#include "core/trace/kinetotrace.h"

#include <QColor>

namespace synctax::timelinestyle {

constexpr int labelWidth = 190;
constexpr int rulerHeight = 22;
constexpr int headerHeight = 18;
constexpr int rowHeight = 16;

inline QColor kindColor(TraceEventKind kind)
{
    switch (kind) {
    case TraceEventKind::Launch:
        return QColor(0x59a14f);
    case TraceEventKind::Sync:
        return QColor(0xe15759);
    case TraceEventKind::Runtime:
        return QColor(0x9c755f);
    case TraceEventKind::Kernel:
        return QColor(0x4e79a7);
    case TraceEventKind::Memcpy:
        return QColor(0xf28e2b);
    case TraceEventKind::Memset:
        return QColor(0xedc948);
    case TraceEventKind::CudaSync:
        return QColor(0xb07aa1);
    case TraceEventKind::PythonFunction:
        return QColor(0xd0d0d0);
    default:
        return QColor(0xbab0ac);
    }
}

} // namespace synctax::timelinestyle
