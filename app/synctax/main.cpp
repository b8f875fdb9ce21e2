// synctax: the desktop app. With --screenshot it renders its window offscreen after a run or a
// load and saves it, for tests and documentation.
#include "app/synctax/appoptions.h"
#include "app/synctax/headlessshot.h"
#include "core/config/experimentconfig.h"
#include "core/trace/tracewhatif.h"
#include "synctax_version.h"
#include "ui/configpanel.h"
#include "ui/mainwindow.h"
#include "ui/teach/teachview.h"
#include "ui/trace/tracefiles.h"
#include "ui/trace/traceview.h"
#include "ui/trace/tracewhatifpanel.h"

#include <QApplication>
#include <QIcon>
#include <QLineEdit>
#include <QTimer>

#include <clocale>
#include <cstdio>
#include <optional>

using namespace synctax;

namespace {

bool hasDisplay()
{
    return !qEnvironmentVariableIsEmpty("DISPLAY") || !qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY")
        || !qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM");
}

void setUpApplication()
{
    // QApplication sets the C library's locale from the environment (setlocale(LC_ALL, "")); the
    // core formats numbers with printf for files (summary.csv, tables), which must keep a decimal
    // point in every locale. Qt's own number formatting follows QLocale, not this.
    std::setlocale(LC_NUMERIC, "C");
    synctax::setApplicationIdentity();
    QApplication::setApplicationVersion(QStringLiteral(SYNCTAX_VERSION));
    // Wayland matches the window to its menu entry and icon by this name.
    QGuiApplication::setDesktopFileName(QStringLiteral("io.github.synctax.SyncTax"));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/io.github.synctax.SyncTax.svg")));
}

// --phases-ms and --phases-file into the what-if's Phases field; false when refused, and
// `problem` says why.
bool setPhases(MainWindow& window, const AppOptions& options, const AppInputs& inputs, QString* problem)
{
    if (options.phasesMs) {
        if (inputs.traces.isEmpty()) {
            *problem = QStringLiteral("--phases-ms: only with PyTorch-profiler traces (.json, .json.gz)");
            return false;
        }
        // As typed into the field: refused text shows its reason under it, and a headless run stops.
        const QString& text = *options.phasesMs;
        TraceWhatIfPanel* panel = window.traceView()->whatIfPanel();
        panel->phasesEdit()->setText(text);
        if (!panel->setPhasesText(text) && options.headless()) {
            *problem = QStringLiteral("--phases-ms: ")
                + QString::fromStdString(readPhasesMs(text.trimmed().toStdString()).problem);
            return false;
        }
    }
    if (options.phasesFile) {
        if (inputs.traces.isEmpty()) {
            *problem = QStringLiteral("--phases-file: only with PyTorch-profiler traces (.json, .json.gz)");
            return false;
        }
        const PhasesFileRead read = loadPhasesFile(options.phasesFile->toStdString());
        if (!read.errors.empty()) {
            *problem = QString::fromStdString(formatErrors(read.errors)).trimmed();
            return false;
        }
        QStringList timings;
        for (const std::array<double, 3>& ms : read.rows)
            timings << QStringLiteral("%1,%2,%3")
                           .arg(QString::number(ms[0], 'g', 12), QString::number(ms[1], 'g', 12),
                               QString::number(ms[2], 'g', 12));
        window.traceView()->whatIfPanel()->setPhasesText(timings.join(QStringLiteral("; ")));
    }
    return true;
}

// The inputs opened in the window; false when a headless run cannot show them, and `problem` says why.
bool openInputs(MainWindow& window, const AppOptions& options, const AppInputs& inputs, QString* problem)
{
    const QStringList& files = options.files;
    if (!inputs.followed.isEmpty()) {
        window.followRun(inputs.followed);
    } else if (inputs.teachFile) {
        if (!options.headless()) // a headless run loads it once the event loop runs (HeadlessShot)
            window.teachView()->loadLaunchSequence(files.first());
    } else if (!inputs.traces.isEmpty()) {
        window.openTraces(inputs.traces);
    } else if (!files.isEmpty()) {
        const QString& path = files.first();
        const bool ok = opensAsResults(path) ? window.openResults(path, problem) : window.openConfig(path, problem);
        if (!ok && options.headless())
            return false;
    }
    return true;
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
    setUpApplication();
    const AppOptions options = parseAppOptions(app);
    QString problem;
    std::optional<QSize> windowSize; // headless: checked with every output before anything is drawn
    if (options.headless()) {
        windowSize = checkedOutputs(options, &problem);
        if (!windowSize)
            return fail(problem);
    }
    // A screenshot shows the default layout, whatever an interactive session left in the settings.
    MainWindow window(nullptr, !options.headless());
    window.setQuiet(options.headless());
    if (options.preset && !window.loadPreset(*options.preset))
        return fail(QStringLiteral("unknown preset '%1'").arg(*options.preset));
    AppInputs inputs;
    if (!sortInputs(options, &inputs, &problem) || !setPhases(window, options, inputs, &problem)
        || !openInputs(window, options, inputs, &problem))
        return fail(problem);
    if (options.quick) {
        ExperimentConfig config = window.configPanel()->config();
        applyQuick(config);
        window.configPanel()->setConfig(config);
    }
    if (windowSize)
        window.resize(*windowSize);
    window.show();
    if (options.teach)
        window.teachView()->show();
    if (options.headless()) {
        HeadlessShot shot(window, options, inputs);
        if (!shot.start())
            return fail(QStringLiteral("the experiment cannot run (see the messages above)"));
        return app.exec();
    }
    if (options.compare)
        window.compareWith(*options.compare);
    if (options.run)
        QTimer::singleShot(0, &window, &MainWindow::run);
    return app.exec();
}
