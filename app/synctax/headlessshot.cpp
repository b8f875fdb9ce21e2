#include "app/synctax/headlessshot.h"

#include "core/probe/probefollow.h"
#include "ui/charts/phasestepchart.h"
#include "ui/follow/followcalibrator.h"
#include "ui/follow/followcontroller.h"
#include "ui/follow/followview.h"
#include "ui/mainwindow.h"
#include "ui/results/diffdialog.h"
#include "ui/teach/teachview.h"
#include "ui/trace/traceloader.h"

#include <QApplication>
#include <QImageWriter>
#include <QTimer>

#include <cstdio>

namespace synctax {

namespace {

bool saveScreenshot(QWidget& window, const QString& path)
{
    QImageWriter writer(path);
    const bool ok = writer.write(window.grab().toImage());
    if (ok)
        std::printf("synctax: screenshot saved to %s\n", qPrintable(path));
    else
        fail(QStringLiteral("cannot write '%1': %2").arg(path, writer.errorString()));
    return ok;
}

} // namespace

HeadlessShot::HeadlessShot(MainWindow& window, const AppOptions& options, const AppInputs& inputs)
    : m_window(window)
    , m_options(options)
    , m_inputs(inputs)
{
}

bool HeadlessShot::start()
{
    if (m_inputs.teachFile)
        afterTeach();
    else if (m_options.run)
        return afterRun();
    else if (!m_inputs.followed.isEmpty())
        whenFollowed();
    else if (!m_inputs.traces.isEmpty())
        afterTraces();
    else
        shoot();
    return true;
}

void HeadlessShot::afterTeach()
{
    TeachView* teachView = m_window.teachView();
    QObject::connect(teachView, &TeachView::launchSequenceLoaded, &m_window, [this, teachView] {
        std::printf("synctax: Teach: %s\n", qPrintable(teachView->modelLabel()));
        shoot();
    });
    QObject::connect(teachView, &TeachView::launchSequenceFailed, &m_window,
        [](const QString& message) { QApplication::exit(fail(message)); });
    // Once the event loop runs: a results file's step is read at once, and its end must reach it.
    const QString file = m_options.files.first();
    QTimer::singleShot(0, teachView, [teachView, file] { teachView->loadLaunchSequence(file); });
}

bool HeadlessShot::afterRun()
{
    QObject::connect(&m_window, &MainWindow::runFinished, &m_window, [this](bool) {
        m_exitCode = m_window.shownResult().cells.empty() ? 1 : 0;
        shoot();
    });
    return m_window.run();
}

// The picture waits for the steps asked for, the job's end or the time given, and for the
// what-if's calibration in progress, so that what it shows belongs together.
void HeadlessShot::whenFollowed()
{
    FollowView* view = m_window.followView();
    const auto update = [this, view] { followUpdated(view, false); };
    QObject::connect(view->controller(), &FollowController::updatesAvailable, &m_window, update);
    QObject::connect(view->controller(), &FollowController::followFinished, &m_window, update);
    QObject::connect(view->calibrator(), &FollowCalibrator::loopAvailable, &m_window, update);
    QObject::connect(view->calibrator(), &FollowCalibrator::calibrationFailed, &m_window, update);
    if (m_inputs.stopAtSeconds > 0)
        QTimer::singleShot(int(m_inputs.stopAtSeconds * 1000), &m_window, [this, view] { followUpdated(view, true); });
}

void HeadlessShot::followUpdated(FollowView* view, bool timeUp)
{
    if (m_followShot)
        return;
    const FollowState state = view->controller()->run().state();
    const bool over = isOver(state);
    const bool enough
        = m_inputs.stopAtSteps > 0 && qint64(view->controller()->run().stepCount()) >= m_inputs.stopAtSteps;
    // A crashed job's folder is followed on (a job may start in it again): its state is its end
    // for the picture.
    const bool done = over && (state == FollowState::Crashed || !view->controller()->isFollowing());
    if (!timeUp && !(done || enough))
        return;
    if (!timeUp && !view->calibrator()->isIdle())
        return;
    m_followShot = true;
    view->stepChart()->refresh();
    if (m_options.teach && !view->replayLoop())
        std::fprintf(stderr, "synctax: --teach: no loop to replay yet (the profiled capture)\n");
    std::printf("synctax: following %s: %s, %zu steps\n", qPrintable(m_inputs.followed), toString(state),
        view->controller()->run().stepCount());
    shoot();
}

// The load runs on a worker thread: the picture waits for its end.
void HeadlessShot::afterTraces()
{
    TraceLoader* loader = m_window.traceLoader();
    QObject::connect(loader, &TraceLoader::traceAvailable, &m_window, [this] { shoot(); });
    QObject::connect(loader, &TraceLoader::loadFailed, &m_window,
        [](int, const QString& message) { QApplication::exit(fail(message)); });
    QObject::connect(loader, &TraceLoader::loadCancelled, &m_window,
        [] { QApplication::exit(fail(QStringLiteral("the trace load was cancelled"))); });
}

void HeadlessShot::shoot()
{
    if (m_options.cell) {
        const QStringList parts = m_options.cell->split(QLatin1Char('/'));
        if (parts.size() != 3 || !m_window.showCell(parts[0], parts[1], parts[2]))
            std::fprintf(stderr, "synctax: --cell %s: no such cell in this run\n", qPrintable(*m_options.cell));
    }
    QString saveError;
    if (m_options.resultsOut && !m_window.saveResults(*m_options.resultsOut, &saveError))
        m_exitCode = fail(saveError);
    if (m_options.compare) {
        QString error;
        m_diff = m_window.compareWith(*m_options.compare, &error);
        if (!m_diff)
            m_exitCode = fail(error);
    }
    // Let the charts lay out and paint once more before grabbing.
    QTimer::singleShot(300, &m_window, [this] { save(); });
}

void HeadlessShot::save()
{
    QWidget& shown = m_diff ? static_cast<QWidget&>(*m_diff)
        : m_options.teach   ? static_cast<QWidget&>(*m_window.teachView())
                            : m_window;
    if (m_options.teach)
        m_window.teachView()->flush();
    const QString path = m_options.screenshot.value_or(QString());
    if (!path.isEmpty() && !saveScreenshot(shown, path))
        m_exitCode = 2;
    const QString exportDir = m_options.exportCharts.value_or(QString());
    QStringList written;
    QString error;
    if (!exportDir.isEmpty()) {
        if (m_window.exportAll(exportDir, &written, &error))
            std::printf(
                "synctax: exported %lld files to %s\n", static_cast<long long>(written.size()), qPrintable(exportDir));
        else
            m_exitCode = fail(error);
    }
    m_window.close();
    QApplication::exit(m_exitCode);
}

} // namespace synctax
