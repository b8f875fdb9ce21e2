// synctax: the desktop app. With --screenshot it renders its window offscreen after a run or a
// load and saves it, for tests and documentation.
#include "app/synctax/outputchecks.h"
#include "core/config/experimentconfig.h"
#include "core/probe/probefolder.h"
#include "core/trace/tracewhatif.h"
#include "synctax_version.h"
#include "ui/charts/phasestepchart.h"
#include "ui/configpanel.h"
#include "ui/follow/followcalibrator.h"
#include "ui/follow/followcontroller.h"
#include "ui/follow/followview.h"
#include "ui/mainwindow.h"
#include "ui/results/diffdialog.h"
#include "ui/teach/teachview.h"
#include "ui/trace/tracefiles.h"
#include "ui/trace/traceloader.h"
#include "ui/trace/traceview.h"
#include "ui/trace/tracewhatifpanel.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QFileInfo>
#include <QIcon>
#include <QImageWriter>
#include <QLineEdit>
#include <QTimer>

#include <clocale>
#include <cstdio>
#include <memory>
#include <optional>

using namespace synctax;

namespace {

int fail(const QString& message)
{
    std::fprintf(stderr, "synctax: %s\n", qPrintable(message));
    return 2;
}

// The modes that open no window (help, version, exports, screenshots) render offscreen, so they
// run where there is no display at all: over ssh, in CI, in a container. Decided from argv
// because the platform plugin is chosen when QApplication is constructed, before any parsing.
bool opensNoWindow(int argc, char** argv)
{
    static const char* const headlessOptions[]
        = { "-h", "-?", "--help", "--help-all", "-v", "--version", "--export-charts", "--screenshot" };
    for (int i = 1; i < argc; ++i) {
        const QByteArray arg(argv[i]);
        if (arg == "--")
            break;
        const qsizetype equals = arg.indexOf('=');
        const QByteArray name = equals < 0 ? arg : arg.first(equals);
        for (const char* option : headlessOptions) {
            if (name == option)
                return true;
        }
    }
    return false;
}

bool hasDisplay()
{
    return !qEnvironmentVariableIsEmpty("DISPLAY") || !qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY")
        || !qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM");
}

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

// The window size and every output of the command line, before anything is loaded or drawn.
std::optional<QSize> checkedOutputs(const QCommandLineParser& parser, const QCommandLineOption& size,
    const QCommandLineOption& screenshot, const QCommandLineOption& resultsOut, const QCommandLineOption& exportCharts,
    QString* problem)
{
    std::optional<QSize> windowSize = parseWindowSize(parser.value(size), problem);
    if (!windowSize)
        return std::nullopt;
    if (parser.isSet(screenshot) && !parser.value(screenshot).isEmpty())
        *problem = screenshotProblem(parser.value(screenshot));
    if (problem->isEmpty() && parser.isSet(resultsOut))
        *problem = outputFileProblem(parser.value(resultsOut));
    if (problem->isEmpty() && parser.isSet(exportCharts))
        *problem = exportFolderProblem(parser.value(exportCharts));
    return problem->isEmpty() ? windowSize : std::nullopt;
}

} // namespace

int main(int argc, char** argv)
{
    if (opensNoWindow(argc, argv)) {
        qputenv("QT_QPA_PLATFORM", "offscreen");
    } else if (!hasDisplay()) {
        // Without this, Qt's platform plugin aborts the process with a page of advice.
        std::fprintf(stderr,
            "synctax: no display (DISPLAY and WAYLAND_DISPLAY are unset); for charts without a window use "
            "--export-charts DIR or --screenshot FILE.png, for a headless run synctax-run\n");
        return 2;
    }
    QApplication app(argc, argv);
    // QApplication sets the C library's locale from the environment (setlocale(LC_ALL, "")); the
    // core formats numbers with printf for files (summary.csv, tables), which must keep a decimal
    // point in every locale. Qt's own number formatting follows QLocale, not this.
    std::setlocale(LC_NUMERIC, "C");
    synctax::setApplicationIdentity();
    QApplication::setApplicationVersion(QStringLiteral(SYNCTAX_VERSION));
    // Wayland matches the window to its menu entry and icon by this name.
    QGuiApplication::setDesktopFileName(QStringLiteral("io.github.synctax.SyncTax"));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/io.github.synctax.SyncTax.svg")));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("What does per-step logging cost in a training loop, and why?"));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("file"),
        QStringLiteral("A results.json to open, an experiment YAML, PyTorch-profiler traces (.json, .json.gz; "
                       "several: the ranks of one job), or a probe's run folder (followed while its job writes it)"),
        QStringLiteral("[file...]"));
    const QCommandLineOption screenshot(QStringLiteral("screenshot"),
        QStringLiteral("Render the window after the run or load completes, save it as FILE.png and quit"),
        QStringLiteral("FILE.png"));
    const QCommandLineOption preset(
        QStringLiteral("preset"), QStringLiteral("Load a built-in preset"), QStringLiteral("NAME"));
    const QCommandLineOption run(QStringLiteral("run"), QStringLiteral("Run the experiment at start"));
    const QCommandLineOption quick(
        QStringLiteral("quick"), QStringLiteral("Shrink every cell to a few steps (smoke test)"));
    const QCommandLineOption size(QStringLiteral("size"),
        QStringLiteral("Window size for --screenshot, from 200x200 to 16384x16384"), QStringLiteral("WxH"),
        QStringLiteral("1600x1000"));
    const QCommandLineOption cell(QStringLiteral("cell"),
        QStringLiteral("After the run or load, show this cell's queue and its model's charts"),
        QStringLiteral("MODEL/MODE/STYLE"));
    const QCommandLineOption resultsOut(QStringLiteral("results-out"),
        QStringLiteral("With --screenshot: also save the results shown to FILE.json"), QStringLiteral("FILE.json"));
    const QCommandLineOption exportCharts(QStringLiteral("export-charts"),
        QStringLiteral("Export every chart (PNG, SVG, PDF), the report and the data of RESULTS.json (or of --run) "
                       "into DIR, offscreen, and quit"),
        QStringLiteral("DIR"));
    const QCommandLineOption teach(QStringLiteral("teach"),
        QStringLiteral("Open the Teach window (the queue simulator); with a trace or a results file, it replays that "
                       "recorded step; with --screenshot, that window is saved"));
    const QCommandLineOption compare(QStringLiteral("compare"),
        QStringLiteral("Compare what is shown with another results file, cell by cell; with --screenshot, the "
                       "comparison is saved"),
        QStringLiteral("B.json"));
    const QCommandLineOption phasesMs(QStringLiteral("phases-ms"),
        QStringLiteral("With traces: the loop's forward, backward and optimizer step timed without the profiler "
                       "(ms, each from an idle GPU), the what-if's Phases field, as synctax-run trace --phases-ms"),
        QStringLiteral("F,B,O"));
    const QCommandLineOption phasesFile(QStringLiteral("phases-file"),
        QStringLiteral("With traces: the same phases timed many times, one F,B,O per line (say one per block of "
                       "steps), as synctax-run trace --phases-file: the what-if replays the host's spread over them"),
        QStringLiteral("FILE"));
    const QCommandLineOption follow(QStringLiteral("follow"),
        QStringLiteral("Follow the probe run folder given as its job writes it (the default for a folder without "
                       "end.json; a finished one is read through the same view, a missing one waited for)"));
    const QCommandLineOption followSteps(QStringLiteral("follow-steps"),
        QStringLiteral("With a followed folder and --screenshot or --export-charts: take them once N steps are "
                       "drawn (else when the job ends, crashes or its folder goes)"),
        QStringLiteral("N"));
    const QCommandLineOption followSeconds(QStringLiteral("follow-seconds"),
        QStringLiteral("With a followed folder and --screenshot or --export-charts: take them after S seconds at "
                       "the latest"),
        QStringLiteral("S"));
    parser.addOptions({ screenshot, preset, run, quick, size, cell, resultsOut, exportCharts, teach, compare, phasesMs,
        phasesFile, follow, followSteps, followSeconds });
    parser.process(app);

    const bool headless = parser.isSet(screenshot) || parser.isSet(exportCharts);
    QSize windowSize;
    if (headless) {
        QString problem;
        const std::optional<QSize> checked
            = checkedOutputs(parser, size, screenshot, resultsOut, exportCharts, &problem);
        if (!checked)
            return fail(problem);
        windowSize = *checked;
    }
    // A screenshot shows the default layout, whatever an interactive session left in the settings.
    MainWindow window(nullptr, !headless);
    window.setQuiet(headless);
    if (parser.isSet(preset) && !window.loadPreset(parser.value(preset)))
        return fail(QStringLiteral("unknown preset '%1'").arg(parser.value(preset)));
    const QStringList files = parser.positionalArguments();
    // A probe's run folder still being written (or any folder with --follow) is followed live.
    const QString followed = files.size() == 1
            && (parser.isSet(follow) ? !QFileInfo(files.first()).isFile()
                                     : MainWindow::isLiveProbeFolder(files.first()))
        ? files.first()
        : QString();
    if (parser.isSet(follow) && followed.isEmpty()) {
        if (files.size() == 1)
            return fail(QStringLiteral("--follow: %1 is a file; expected a probe run folder (python3 -m "
                                       "synctax_probe --out DIR writes one)")
                            .arg(files.first()));
        return fail(QStringLiteral("--follow: expected one probe run folder, got %1").arg(files.size()));
    }
    bool stepsOk = true;
    const qint64 stopAtSteps = parser.isSet(followSteps) ? parser.value(followSteps).toLongLong(&stepsOk) : -1;
    bool secondsOk = true;
    const double stopAtSeconds = parser.isSet(followSeconds) ? parser.value(followSeconds).toDouble(&secondsOk) : -1;
    // A timer's interval is an int of milliseconds: at most a week, well inside it.
    constexpr double kMostFollowSeconds = 7 * 24 * 3600;
    if (!stepsOk || (parser.isSet(followSteps) && stopAtSteps < 1))
        return fail(QStringLiteral("--follow-steps: expected a whole number of steps above 0, got '%1'")
                        .arg(parser.value(followSteps)));
    if (!secondsOk || (parser.isSet(followSeconds) && !(stopAtSeconds > 0 && stopAtSeconds <= kMostFollowSeconds)))
        return fail(QStringLiteral("--follow-seconds: expected a number of seconds above 0 and at most %1 (a week), "
                                   "got '%2'")
                        .arg(kMostFollowSeconds, 0, 'f', 0)
                        .arg(parser.value(followSeconds)));
    if ((parser.isSet(followSteps) || parser.isSet(followSeconds)) && followed.isEmpty())
        return fail(QStringLiteral("--follow-steps, --follow-seconds: only with a followed probe run folder"));
    // A folder is a probe run folder or nothing the app opens: said as such, not as a bad config.
    for (const QString& f : files) {
        if (const std::string why = notARunFolder(f.toStdString()); !why.empty() && followed.isEmpty())
            return fail(QString::fromStdString(why));
    }
    // Traces are told from results as a drop tells them (gzip, or Kineto's keys in the first MiB).
    QStringList traces;
    for (const QString& f : files) {
        if (followed.isEmpty()
            && (looksLikeKinetoTrace(f) || isProbeFolder(f.toStdString()))) // a probe's run folder opens as its trace
            traces << f;
    }
    if (parser.isSet(phasesMs)) {
        if (traces.isEmpty())
            return fail(QStringLiteral("--phases-ms: only with PyTorch-profiler traces (.json, .json.gz)"));
        // As typed into the field: refused text shows its reason under it, and a headless run stops.
        const QString text = parser.value(phasesMs);
        TraceWhatIfPanel* panel = window.traceView()->whatIfPanel();
        panel->phasesEdit()->setText(text);
        if (!panel->setPhasesText(text) && headless)
            return fail(QStringLiteral("--phases-ms: ")
                + QString::fromStdString(readPhasesMs(text.trimmed().toStdString()).problem));
    }
    if (parser.isSet(phasesFile)) {
        if (traces.isEmpty())
            return fail(QStringLiteral("--phases-file: only with PyTorch-profiler traces (.json, .json.gz)"));
        const PhasesFileRead read = loadPhasesFile(parser.value(phasesFile).toStdString());
        if (!read.errors.empty())
            return fail(QString::fromStdString(formatErrors(read.errors)).trimmed());
        QStringList timings;
        for (const std::array<double, 3>& ms : read.rows)
            timings << QStringLiteral("%1,%2,%3")
                           .arg(QString::number(ms[0], 'g', 12), QString::number(ms[1], 'g', 12),
                               QString::number(ms[2], 'g', 12));
        window.traceView()->whatIfPanel()->setPhasesText(timings.join(QStringLiteral("; ")));
    }
    // --teach with a trace or a results file: the Teach window replays its recorded step (a trace's,
    // or a run's captured one) in place of the sliders' uniform loop, and the main window opens nothing.
    const bool teachFile = followed.isEmpty() && parser.isSet(teach) && !files.isEmpty()
        && (!traces.isEmpty() || hasJsonSuffix(files.first()));
    if (!followed.isEmpty()) {
        window.followRun(followed);
    } else if (teachFile) {
        if (!headless)
            window.teachView()->loadLaunchSequence(files.first());
    } else if (!traces.isEmpty()) {
        window.openTraces(traces);
    } else if (!files.isEmpty()) {
        QString error;
        const QString& path = files.first();
        const bool ok = opensAsResults(path) ? window.openResults(path, &error) : window.openConfig(path, &error);
        if (!ok && headless)
            return fail(error);
    }
    if (parser.isSet(quick)) {
        ExperimentConfig config = window.configPanel()->config();
        applyQuick(config);
        window.configPanel()->setConfig(config);
    }
    if (headless)
        window.resize(windowSize);
    window.show();
    if (parser.isSet(teach))
        window.teachView()->show();

    if (headless) {
        const QString path = parser.value(screenshot);
        const QString exportDir = parser.value(exportCharts);
        int exitCode = 0;
        DiffDialog* diff = nullptr;
        auto shoot = [&] {
            if (parser.isSet(cell)) {
                const QStringList parts = parser.value(cell).split(QLatin1Char('/'));
                if (parts.size() != 3 || !window.showCell(parts[0], parts[1], parts[2]))
                    std::fprintf(
                        stderr, "synctax: --cell %s: no such cell in this run\n", qPrintable(parser.value(cell)));
            }
            QString saveError;
            if (parser.isSet(resultsOut) && !window.saveResults(parser.value(resultsOut), &saveError))
                exitCode = fail(saveError);
            if (parser.isSet(compare)) {
                QString error;
                diff = window.compareWith(parser.value(compare), &error);
                if (!diff)
                    exitCode = fail(error);
            }
            // Let the charts lay out and paint once more before grabbing.
            QTimer::singleShot(300, &window, [&] {
                QWidget& shown = diff     ? static_cast<QWidget&>(*diff)
                    : parser.isSet(teach) ? static_cast<QWidget&>(*window.teachView())
                                          : window;
                if (parser.isSet(teach))
                    window.teachView()->flush();
                if (!path.isEmpty() && !saveScreenshot(shown, path))
                    exitCode = 2;
                QStringList written;
                QString error;
                if (!exportDir.isEmpty()) {
                    if (window.exportAll(exportDir, &written, &error))
                        std::printf("synctax: exported %lld files to %s\n", static_cast<long long>(written.size()),
                            qPrintable(exportDir));
                    else
                        exitCode = fail(error);
                }
                window.close();
                app.exit(exitCode);
            });
        };
        if (teachFile) {
            TeachView* teachView = window.teachView();
            QObject::connect(teachView, &TeachView::launchSequenceLoaded, &window, [&] {
                std::printf("synctax: Teach: %s\n", qPrintable(teachView->modelLabel()));
                shoot();
            });
            QObject::connect(teachView, &TeachView::launchSequenceFailed, &window,
                [&](const QString& message) { app.exit(fail(message)); });
            // Once the event loop runs: a results file's step is read at once, and its end must reach it.
            QTimer::singleShot(0, teachView, [&] { teachView->loadLaunchSequence(files.first()); });
        } else if (parser.isSet(run)) {
            QObject::connect(&window, &MainWindow::runFinished, &window, [&](bool) {
                exitCode = window.shownResult().cells.empty() ? 1 : 0;
                shoot();
            });
            if (!window.run())
                return fail(QStringLiteral("the experiment cannot run (see the messages above)"));
        } else if (!followed.isEmpty()) {
            // The picture waits for the steps asked for, the job's end or the time given, and for
            // the what-if's calibration in progress, so that what it shows belongs together.
            FollowView* view = window.followView();
            auto shot = std::make_shared<bool>(false);
            auto ready = [&, view, shot](bool timeUp) {
                if (*shot)
                    return;
                const FollowState state = view->controller()->run().state();
                const bool over = isOver(state);
                const bool enough = stopAtSteps > 0 && qint64(view->controller()->run().stepCount()) >= stopAtSteps;
                // A crashed job's folder is followed on (a job may start in it again): its state is
                // its end for the picture.
                const bool done = over && (state == FollowState::Crashed || !view->controller()->isFollowing());
                if (!timeUp && !(done || enough))
                    return;
                if (!timeUp && !view->calibrator()->isIdle())
                    return;
                *shot = true;
                view->stepChart()->refresh();
                if (parser.isSet(teach) && !view->replayLoop())
                    std::fprintf(stderr, "synctax: --teach: no loop to replay yet (the profiled capture)\n");
                std::printf("synctax: following %s: %s, %zu steps\n", qPrintable(followed), toString(state),
                    view->controller()->run().stepCount());
                shoot();
            };
            QObject::connect(
                view->controller(), &FollowController::updatesAvailable, &window, [ready] { ready(false); });
            QObject::connect(view->controller(), &FollowController::followFinished, &window, [ready] { ready(false); });
            QObject::connect(view->calibrator(), &FollowCalibrator::loopAvailable, &window, [ready] { ready(false); });
            QObject::connect(
                view->calibrator(), &FollowCalibrator::calibrationFailed, &window, [ready] { ready(false); });
            if (stopAtSeconds > 0)
                QTimer::singleShot(int(stopAtSeconds * 1000), &window, [ready] { ready(true); });
        } else if (!traces.isEmpty()) {
            // The load runs on a worker thread: the picture waits for its end.
            TraceLoader* loader = window.traceLoader();
            QObject::connect(loader, &TraceLoader::traceAvailable, &window, [&] { shoot(); });
            QObject::connect(loader, &TraceLoader::loadFailed, &window,
                [&](int, const QString& message) { app.exit(fail(message)); });
            QObject::connect(loader, &TraceLoader::loadCancelled, &window,
                [&] { app.exit(fail(QStringLiteral("the trace load was cancelled"))); });
        } else {
            shoot();
        }
        return app.exec();
    }
    if (parser.isSet(compare))
        window.compareWith(parser.value(compare));
    if (parser.isSet(run))
        QTimer::singleShot(0, &window, &MainWindow::run);
    return app.exec();
}
