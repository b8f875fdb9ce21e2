#pragma once

#include "ui/trace/tracefile.h"

#include <QObject>
#include <QStringList>

#include <atomic>
#include <memory>
#include <vector>

class QThread;

namespace synctax {

// The line beside a load's progress bar while it reads: "Reading trace: 12 MB of 80 MB, about 3 s left".
QString traceReadingText(quint64 bytesRead, quint64 bytes, const QString& eta);

// Loads trace files on a worker thread, one load at a time: a new load or a cancel supersedes the
// one in progress, whose late result is dropped by its id (hotspot's jobtracker). The worker stops
// at the reader's next poll of the cancel flag; the window never waits for it.
class TraceLoader : public QObject {
    Q_OBJECT
public:
    explicit TraceLoader(QObject* parent = nullptr);
    ~TraceLoader() override; // cancels, then waits for the workers: a reader stops within 64 KiB

    // The default reads with readKinetoTrace and analyses with analyseTrace.
    void setLoadFunction(TraceLoadFunction load) { m_load = std::move(load); }
    // Starts loading `paths` (the ranks of one job, read one after the other); returns the load's id.
    int load(const QStringList& paths);
    // Cancels the load in progress: loadCancelled now, and nothing of it afterwards.
    void cancel();
    bool isLoading() const { return m_current != 0; }
    int currentId() const { return m_current; }
    int droppedResults() const { return m_dropped; } // results that arrived for a superseded load

Q_SIGNALS:
    // Bytes of all the load's files together; `eta` says how long is left, in words. `permille`
    // is the whole load, each file's analysis included (its last tenth of the file's share), so the
    // bar moves to the end; `analysing` says that phase has begun for the file being loaded.
    void progress(int id, quint64 bytesRead, quint64 bytes, const QString& eta, int permille, bool analysing);
    void traceAvailable(int id, const synctax::TraceFilesPtr& files);
    void loadFailed(int id, const QString& message);
    void loadCancelled(int id);

private:
    struct Job;
    void run(const std::shared_ptr<Job>& job);
    void deliver(int id, const TraceFilesPtr& files, const QString& error, bool cancelled);
    void deliverProgress(int id, quint64 read, quint64 bytes, const QString& eta, int permille, bool analysing);

    TraceLoadFunction m_load;
    int m_nextId = 1;
    int m_current = 0;
    int m_dropped = 0;
    std::shared_ptr<std::atomic<bool>> m_cancel;
    std::vector<QThread*> m_threads;
    std::vector<std::shared_ptr<std::atomic<bool>>> m_cancels; // every worker's flag, for the destructor
};

} // namespace synctax
