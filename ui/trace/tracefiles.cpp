#include "ui/trace/tracefiles.h"

#include <QFile>

namespace synctax {

bool hasTraceSuffix(const QString& path)
{
    return path.endsWith(QLatin1String(".json"), Qt::CaseInsensitive)
        || path.endsWith(QLatin1String(".json.gz"), Qt::CaseInsensitive);
}

bool looksLikeKinetoTrace(const QString& path)
{
    if (path.endsWith(QLatin1String(".pt.trace.json"), Qt::CaseInsensitive)
        || path.endsWith(QLatin1String(".json.gz"), Qt::CaseInsensitive))
        return true;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return false;
    const QByteArray head = file.read(1 << 20);
    if (head.startsWith("\x1f\x8b"))
        return true;
    // Kineto writes schemaVersion and deviceProperties first; other Chrome traces start with traceEvents.
    return head.contains("\"traceEvents\"") || head.contains("\"deviceProperties\"")
        || head.contains("\"schemaVersion\"");
}

} // namespace synctax
