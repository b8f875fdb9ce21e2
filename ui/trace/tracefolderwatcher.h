#pragma once

#include "core/trace/tracewatch.h"

#include <QFileSystemWatcher>
#include <QObject>
#include <QTimer>

#include <optional>

namespace synctax {

// Notices new *.pt.trace.json[.gz] files in a folder (a profiler's on_trace_ready writing one file
// per cycle) and reports each once it is complete, by the rule `synctax-run trace --watch` follows
// (TraceWatch: the same size over one scan). The file system watcher scans on a change; the poll
// scans too, where that watcher sees nothing (network file systems) and because a file still
// being written settles without a new event.
class TraceFolderWatcher : public QObject {
    Q_OBJECT
public:
    explicit TraceFolderWatcher(QObject* parent = nullptr);

    // Files already there are reported too (once complete) when `includeExisting`.
    bool watch(const QString& folder, bool includeExisting = true);
    void stop();
    QString folder() const { return m_folder; }
    bool isWatching() const { return !m_folder.isEmpty(); }
    // 0 turns the poll off (tests scan by hand).
    void setPollInterval(int ms);
    static bool isTraceFileName(const QString& name) { return TraceWatch::isTraceName(name.toStdString()); }

public Q_SLOTS:
    void scan();

Q_SIGNALS:
    void fileAvailable(const QString& path);

private:
    QFileSystemWatcher m_watcher;
    QTimer m_poll;
    QString m_folder;
    std::optional<TraceWatch> m_files;
};

} // namespace synctax
