// The main window's side of recorded traces: opening, watching, progress and cancel, the Trace
// page, and its export. The trace itself is read, analysed and shown by ui/trace/.
#include "ui/mainwindow.h"

#include "ui/trace/tracefiles.h"
#include "ui/trace/tracefolderwatcher.h"
#include "ui/trace/traceloader.h"
#include "ui/trace/traceview.h"

#include <QDir>
#include <QDockWidget>
#include <QFileInfo>
#include <QLabel>
#include <QLocale>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTabWidget>
#include <QToolButton>
#include <QUrl>

namespace synctax {

void MainWindow::createTraceViews()
{
    m_traceView = new TraceView(this);
    m_traceView->hide(); // a page of m_pages from the first trace on
    m_traceLoader = new TraceLoader(this);
    m_watchLoader = new TraceLoader(this);
    m_traceWatcher = new TraceFolderWatcher(this);

    connect(m_traceLoader, &TraceLoader::progress, this,
        [this](int, quint64 read, quint64 bytes, const QString& eta, int permille, bool analysing) {
            m_traceProgress->setValue(permille);
            m_traceEta->setText(analysing ? tr("Analysing trace: steps, syncs and timeline lanes of %1…")
                                                .arg(QLocale().formattedDataSize(qint64(bytes)))
                                          : traceReadingText(read, bytes, eta));
        });
    connect(m_traceLoader, &TraceLoader::traceAvailable, this, [this](int, const TraceFilesPtr& files) {
        setTraceLoading(false);
        m_traceView->setFiles(files);
        showTracePage(true);
        const QString names = m_loadingTraces.size() == 1 ? QFileInfo(m_loadingTraces.first()).fileName()
                                                          : tr("%1 ranks").arg(m_loadingTraces.size());
        setWindowTitle(QStringLiteral("SyncTax — %1").arg(names));
        log(tr("Opened trace %1").arg(m_loadingTraces.join(QStringLiteral(", "))));
    });
    connect(m_traceLoader, &TraceLoader::loadFailed, this, [this](int, const QString& message) {
        setTraceLoading(false);
        fail(tr("Cannot open trace"), message, nullptr);
    });
    connect(m_traceLoader, &TraceLoader::loadCancelled, this, [this] {
        setTraceLoading(false);
        log(tr("Trace load cancelled: %1").arg(m_loadingTraces.join(QStringLiteral(", "))));
        statusBar()->showMessage(tr("Trace load cancelled; the view is as it was"), 10000);
    });

    connect(m_traceWatcher, &TraceFolderWatcher::fileAvailable, this, [this](const QString& path) {
        m_watchQueue << path;
        pumpWatchQueue();
    });
    connect(m_watchLoader, &TraceLoader::traceAvailable, this, [this](int, const TraceFilesPtr& files) {
        m_traceView->appendFiles(files);
        showTracePage(true);
        for (const TraceFile& f : *files)
            log(tr("Added %1 from the watched folder").arg(QString::fromStdString(f.path)));
        pumpWatchQueue();
    });
    connect(m_watchLoader, &TraceLoader::loadFailed, this, [this](int, const QString& message) {
        // No dialog: a folder being watched keeps going past a bad file.
        log(tr("Cannot read a watched trace: %1").arg(message));
        statusBar()->showMessage(message, 10000);
        pumpWatchQueue();
    });
}

void MainWindow::focusTraceWhatIf()
{
    if (!m_traceView->hasTrace())
        return;
    showTracePage(true);
    m_traceView->focusHostWork();
}

void MainWindow::setTraceLoading(bool loading)
{
    if (!m_traceProgress)
        return;
    m_traceProgress->setVisible(loading);
    m_traceEta->setVisible(loading);
    m_traceCancel->setVisible(loading);
    if (loading) {
        m_traceProgress->setValue(0);
        m_traceEta->setText(tr("Reading trace…"));
    }
}

bool MainWindow::openTraces(const QStringList& paths)
{
    if (paths.isEmpty())
        return false;
    if (m_traceWatcher->isWatching()) {
        log(tr("Stopped watching %1").arg(m_traceWatcher->folder()));
        m_traceWatcher->stop();
        m_watchQueue.clear();
    }
    m_loadingTraces = paths;
    // Connected once per load: the button cancels whichever load is current.
    m_traceCancel->disconnect();
    connect(m_traceCancel, &QToolButton::clicked, m_traceLoader, &TraceLoader::cancel);
    m_traceLoader->load(paths);
    setTraceLoading(true);
    return true;
}

bool MainWindow::watchTraceFolder(const QString& folder, QString* error)
{
    m_watchQueue.clear();
    if (!m_traceWatcher->watch(folder)) {
        fail(tr("Cannot watch folder"), tr("%1: not a folder").arg(folder), error);
        return false;
    }
    m_traceView->clear();
    showTracePage(true);
    log(tr("Watching %1 for *.pt.trace.json[.gz]").arg(folder));
    statusBar()->showMessage(tr("Watching %1: each trace is added as it is complete").arg(folder), 10000);
    return true;
}

void MainWindow::pumpWatchQueue()
{
    if (!m_watchLoader->isLoading() && !m_watchQueue.isEmpty())
        m_watchLoader->load({ m_watchQueue.takeFirst() });
}

bool MainWindow::exportTrace(const QString& dir, QStringList* written, QString* error)
{
    if (!m_traceView->hasTrace()) {
        fail(tr("Cannot export"), tr("No trace is open"), error);
        return false;
    }
    if (!QDir().mkpath(dir)) {
        fail(tr("Cannot export"), tr("%1: cannot create the folder").arg(dir), error);
        return false;
    }
    QString why;
    QStringList files;
    if (!m_traceView->exportTables(dir, &files, &why)) {
        fail(tr("Cannot export"), why, error);
        return false;
    }
    log(tr("Exported %1 files to %2").arg(files.size()).arg(dir));
    if (written)
        *written = files;
    return true;
}

bool MainWindow::acceptsDrop(const QList<QUrl>& urls)
{
    if (urls.isEmpty())
        return false;
    for (const QUrl& url : urls) {
        const QString path = url.toLocalFile();
        if (!url.isLocalFile()
            || !(opensAsResults(path) || isProbeRunFolder(path)
                || path.endsWith(QLatin1String(".yaml"), Qt::CaseInsensitive)
                || path.endsWith(QLatin1String(".yml"), Qt::CaseInsensitive)))
            return false;
    }
    return true;
}

void MainWindow::showTracePage(bool show)
{
    if (show && m_pages->indexOf(m_traceView) < 0)
        m_pages->addTab(m_traceView, tr("Trace"));
    m_pages->setCurrentWidget(show ? static_cast<QWidget*>(m_traceView) : static_cast<QWidget*>(m_central));
}

bool MainWindow::tracePageShown() const { return m_pages->currentWidget() == m_traceView; }

} // namespace synctax
