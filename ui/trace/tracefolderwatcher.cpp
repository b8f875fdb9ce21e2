#include "ui/trace/tracefolderwatcher.h"

#include <QDir>
#include <QFileInfo>

namespace synctax {

TraceFolderWatcher::TraceFolderWatcher(QObject* parent)
    : QObject(parent)
{
    m_poll.setInterval(1000);
    connect(&m_poll, &QTimer::timeout, this, &TraceFolderWatcher::scan);
    connect(&m_watcher, &QFileSystemWatcher::directoryChanged, this, &TraceFolderWatcher::scan);
}

bool TraceFolderWatcher::isTraceFileName(const QString& name)
{
    return name.endsWith(QLatin1String(".pt.trace.json"), Qt::CaseInsensitive)
        || name.endsWith(QLatin1String(".pt.trace.json.gz"), Qt::CaseInsensitive);
}

bool TraceFolderWatcher::watch(const QString& folder, bool includeExisting)
{
    stop();
    if (!QFileInfo(folder).isDir())
        return false;
    m_folder = folder;
    if (!includeExisting) {
        for (const QFileInfo& f : QDir(folder).entryInfoList(QDir::Files)) {
            if (isTraceFileName(f.fileName()))
                m_seen.insert(f.absoluteFilePath(), Seen { f.size(), f.lastModified(), true });
        }
    }
    m_watcher.addPath(folder);
    if (m_poll.interval() > 0)
        m_poll.start();
    scan();
    return true;
}

void TraceFolderWatcher::stop()
{
    if (!m_watcher.directories().isEmpty())
        m_watcher.removePaths(m_watcher.directories());
    m_poll.stop();
    m_folder.clear();
    m_seen.clear();
}

void TraceFolderWatcher::setPollInterval(int ms)
{
    m_poll.setInterval(std::max(0, ms));
    if (ms <= 0)
        m_poll.stop();
    else if (isWatching())
        m_poll.start();
}

void TraceFolderWatcher::scan()
{
    if (m_folder.isEmpty())
        return;
    const QFileInfoList files = QDir(m_folder).entryInfoList(QDir::Files, QDir::Name);
    for (const QFileInfo& f : files) {
        if (!isTraceFileName(f.fileName()))
            continue;
        Seen& seen = m_seen[f.absoluteFilePath()];
        if (seen.reported)
            continue;
        // An empty file is one the profiler has only just opened.
        const bool settled = f.size() > 0 && f.size() == seen.size && f.lastModified() == seen.modified;
        seen.size = f.size();
        seen.modified = f.lastModified();
        if (settled) {
            seen.reported = true;
            Q_EMIT fileAvailable(f.absoluteFilePath());
        }
    }
}

} // namespace synctax
