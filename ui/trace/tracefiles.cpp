#include "ui/trace/tracefiles.h"

#include "core/probe/probefolder.h"

#include "core/results/resultsloader.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <cctype>

namespace synctax {

bool hasJsonSuffix(const QString& path)
{
    return path.endsWith(QLatin1String(".json"), Qt::CaseInsensitive)
        || path.endsWith(QLatin1String(".json.gz"), Qt::CaseInsensitive);
}

bool isProbeRunFolder(const QString& path) { return isProbeFolder(path.toStdString()); }

bool opensAsResults(const QString& path)
{
    if (hasJsonSuffix(path) || path.endsWith(QLatin1String(".jsonl"), Qt::CaseInsensitive))
        return true;
    const QDir dir(path);
    return QFileInfo(path).isDir() && !isProbeRunFolder(path)
        && (dir.exists(QStringLiteral("results.json")) || dir.exists(QStringLiteral("journal.jsonl")));
}

QString resultsFolderOf(const QString& path)
{
    const QFileInfo info(path);
    return info.isDir() ? info.absoluteFilePath() : info.absolutePath();
}

namespace {

// SyncTax writes a results file's keys in order, `cells` first.
bool readsLikeResults(const std::string& head)
{
    std::string start;
    for (const char c : head) {
        if (!std::isspace(static_cast<unsigned char>(c)))
            start.push_back(c);
        if (start.size() == 9)
            break;
    }
    return start == "{\"cells\":";
}

} // namespace

bool looksLikeKinetoTrace(const QString& path)
{
    if (path.endsWith(QLatin1String(".pt.trace.json"), Qt::CaseInsensitive)
        || path.endsWith(QLatin1String(".pt.trace.json.gz"), Qt::CaseInsensitive))
        return true;
    const auto [head, gzip] = textHead(QFile::encodeName(path).toStdString(), std::size_t(1) << 20);
    // Kineto writes schemaVersion and deviceProperties first; other Chrome traces start with traceEvents.
    if (head.find("\"traceEvents\"") != std::string::npos || head.find("\"deviceProperties\"") != std::string::npos
        || head.find("\"schemaVersion\"") != std::string::npos)
        return true;
    // Compressed and not a results file (a damaged .gz too): the trace loader says what it found.
    return gzip && !readsLikeResults(head);
}

} // namespace synctax
