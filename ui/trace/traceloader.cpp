#include "ui/trace/traceloader.h"

#include "core/text/format.h"

#include <QElapsedTimer>
#include <QFileInfo>
#include <QLocale>
#include <QThread>

namespace synctax {

struct TraceLoader::Job {
    int id = 0;
    std::vector<std::string> paths;
    std::shared_ptr<std::atomic<bool>> cancel;
    TraceLoadFunction load;
};

namespace {

QString etaText(qint64 elapsedMs, quint64 read, quint64 bytes)
{
    // Before a few percent the pace says little; the reader's first MiB includes opening the file.
    if (bytes == 0 || read == 0 || read * 50 < bytes || elapsedMs < 200)
        return QObject::tr("estimating time left…");
    const double elapsed = double(elapsedMs) / 1000.0;
    const double left = elapsed * double(bytes - std::min(read, bytes)) / double(read);
    return QObject::tr("about %1 left").arg(QString::fromStdString(formatDuration(left)));
}

} // namespace

QString traceReadingText(quint64 bytesRead, quint64 bytes, const QString& eta)
{
    const QLocale locale;
    return QObject::tr("Reading trace: %1 of %2, %3")
        .arg(locale.formattedDataSize(qint64(bytesRead)), locale.formattedDataSize(qint64(bytes)), eta);
}

TraceLoader::TraceLoader(QObject* parent)
    : QObject(parent)
    , m_load(readAndAnalyseTrace)
{
    qRegisterMetaType<TraceFilesPtr>();
}

TraceLoader::~TraceLoader()
{
    for (const auto& flag : m_cancels)
        flag->store(true);
    for (QThread* thread : m_threads) {
        thread->wait();
        delete thread;
    }
}

int TraceLoader::load(const QStringList& paths)
{
    if (m_current != 0)
        m_cancel->store(true); // superseded: its result, if any, is dropped by id
    auto job = std::make_shared<Job>();
    job->id = m_nextId++;
    for (const QString& p : paths)
        job->paths.push_back(p.toStdString());
    job->cancel = std::make_shared<std::atomic<bool>>(false);
    job->load = m_load;
    m_current = job->id;
    m_cancel = job->cancel;
    m_cancels.push_back(job->cancel);

    QThread* thread = QThread::create([this, job] { run(job); });
    thread->setObjectName(QStringLiteral("trace loader"));
    connect(thread, &QThread::finished, this, [this, thread, flag = job->cancel] {
        m_threads.erase(std::remove(m_threads.begin(), m_threads.end(), thread), m_threads.end());
        m_cancels.erase(std::remove(m_cancels.begin(), m_cancels.end(), flag), m_cancels.end());
        thread->deleteLater();
    });
    m_threads.push_back(thread);
    thread->start();
    return job->id;
}

void TraceLoader::cancel()
{
    if (m_current == 0)
        return;
    const int id = m_current;
    m_cancel->store(true);
    m_current = 0;
    Q_EMIT loadCancelled(id);
}

// On the worker: everything it hands back is posted to the loader's thread as values.
void TraceLoader::run(const std::shared_ptr<Job>& job)
{
    std::vector<quint64> sizes;
    for (const std::string& p : job->paths)
        sizes.push_back(quint64(std::max<qint64>(0, QFileInfo(QString::fromStdString(p)).size())));
    QElapsedTimer clock;
    clock.start();
    auto files = std::make_shared<TraceFiles>();
    quint64 done = 0;
    for (size_t i = 0; i < job->paths.size(); ++i) {
        auto report = [&](const TraceLoadProgress& p) {
            // A fake load, or a file that grew since: the reader's size wins over the one seen before.
            sizes[i] = std::max<quint64>(sizes[i], p.bytes);
            quint64 all = 0;
            for (quint64 size : sizes)
                all += size;
            const bool analysing = p.analysed >= 0;
            const quint64 fileRead = analysing ? sizes[i] : std::min<quint64>(p.bytesRead, sizes[i]);
            const quint64 read = done + fileRead;
            // Reading is nine tenths of a file's share of the bar, its analysis the last tenth.
            const double share = analysing ? 0.9 + 0.1 * std::clamp(p.analysed, 0.0, 1.0)
                                           : (sizes[i] > 0 ? 0.9 * double(fileRead) / double(sizes[i]) : 0.0);
            const int permille = all > 0 ? int(1000.0 * (double(done) + share * double(sizes[i])) / double(all)) : 0;
            const QString eta = analysing ? tr("analysing…") : etaText(clock.elapsed(), read, all);
            QMetaObject::invokeMethod(
                this,
                [this, id = job->id, read, all, eta, permille, analysing] {
                    deliverProgress(id, read, all, eta, permille, analysing);
                },
                Qt::QueuedConnection);
        };
        TraceLoadOutcome outcome = job->load(job->paths[i], report, *job->cancel);
        if (outcome.cancelled || job->cancel->load()) {
            QMetaObject::invokeMethod(
                this, [this, id = job->id] { deliver(id, nullptr, QString(), true); }, Qt::QueuedConnection);
            return;
        }
        if (!outcome.file) {
            const QString error
                = QString::fromStdString(outcome.error.empty() ? job->paths[i] + ": cannot be read" : outcome.error);
            QMetaObject::invokeMethod(
                this, [this, id = job->id, error] { deliver(id, nullptr, error, false); }, Qt::QueuedConnection);
            return;
        }
        // A load that left the lanes or the loop out (a fake) still never makes the window build them.
        if (!outcome.file->timeline)
            outcome.file->timeline = std::make_shared<const TimelineLanes>(buildTimelineLanes(outcome.file->trace));
        if (!outcome.file->loop)
            outcome.file->loop
                = std::make_shared<const ImportedLoop>(importedLoop(outcome.file->trace, outcome.file->report, {}));
        files->push_back(std::move(*outcome.file));
        done += sizes[i];
    }
    TraceFilesPtr result = std::move(files);
    QMetaObject::invokeMethod(
        this, [this, id = job->id, result] { deliver(id, result, QString(), false); }, Qt::QueuedConnection);
}

void TraceLoader::deliverProgress(int id, quint64 read, quint64 bytes, const QString& eta, int permille, bool analysing)
{
    if (id == m_current)
        Q_EMIT progress(id, read, bytes, eta, permille, analysing);
}

void TraceLoader::deliver(int id, const TraceFilesPtr& files, const QString& error, bool cancelled)
{
    if (id != m_current) {
        ++m_dropped;
        return;
    }
    m_current = 0;
    if (cancelled)
        Q_EMIT loadCancelled(id);
    else if (!error.isEmpty())
        Q_EMIT loadFailed(id, error);
    else
        Q_EMIT traceAvailable(id, files);
}

} // namespace synctax
