#include "ui/trace/tracefolderwatcher.h"

#include <QFileInfo>

namespace synctax {

TraceFolderWatcher::TraceFolderWatcher(QObject* parent)
    : QObject(parent)
{
    m_poll.setInterval(1000);
    connect(&m_poll, &QTimer::timeout, this, &TraceFolderWatcher::scan);
    connect(&m_watcher, &QFileSystemWatcher::directoryChanged, this, &TraceFolderWatcher::scan);
}

bool TraceFolderWatcher::watch(const QString& folder, bool includeExisting)
{
    stop();
    if (!QFileInfo(folder).isDir())
        return false;
    m_folder = folder;
    m_files.emplace(QFileInfo(folder).absoluteFilePath().toStdString());
    if (!includeExisting)
        m_files->skipPresent();
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
    m_files.reset();
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
    if (!m_files)
        return;
    for (const std::string& path : m_files->poll()) {
        m_files->finished(path);
        Q_EMIT fileAvailable(QString::fromStdString(path));
    }
}

} // namespace synctax
