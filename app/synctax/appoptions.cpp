#include "app/synctax/appoptions.h"

#include "app/synctax/outputchecks.h"
#include "core/probe/probefolder.h"
#include "ui/mainwindow.h"
#include "ui/trace/tracefiles.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFileInfo>

#include <cstdio>

namespace synctax {

namespace {

struct OptionText {
    const char* name;
    const char* description;
    const char* valueName; // none: a flag
    const char* defaultValue;
};

// The options in the order --help lists them.
constexpr OptionText optionTexts[] = {
    { "screenshot", "Render the window after the run or load completes, save it as FILE.png and quit", "FILE.png",
        nullptr },
    { "preset", "Load a built-in preset", "NAME", nullptr },
    { "run", "Run the experiment at start", nullptr, nullptr },
    { "quick", "Shrink every cell to a few steps (smoke test)", nullptr, nullptr },
    { "size", "Window size for --screenshot, from 200x200 to 16384x16384", "WxH", "1600x1000" },
    { "cell", "After the run or load, show this cell's queue and its model's charts", "MODEL/MODE/STYLE", nullptr },
    { "results-out", "With --screenshot: also save the results shown to FILE.json", "FILE.json", nullptr },
    { "export-charts",
        "Export every chart (PNG, SVG, PDF), the report and the data of RESULTS.json (or of --run) into DIR, "
        "offscreen, and quit",
        "DIR", nullptr },
    { "teach",
        "Open the Teach window (the queue simulator); with a trace or a results file, it replays that recorded step; "
        "with --screenshot, that window is saved",
        nullptr, nullptr },
    { "compare",
        "Compare what is shown with another results file, cell by cell; with --screenshot, the comparison is saved",
        "B.json", nullptr },
    { "phases-ms",
        "With traces: the loop's forward, backward and optimizer step timed without the profiler (ms, each from an "
        "idle GPU), the what-if's Phases field, as synctax-run trace --phases-ms",
        "F,B,O", nullptr },
    { "phases-file",
        "With traces: the same phases timed many times, one F,B,O per line (say one per block of steps), as "
        "synctax-run trace --phases-file: the what-if replays the host's spread over them",
        "FILE", nullptr },
    { "follow",
        "Follow the probe run folder given as its job writes it (the default for a folder without end.json; a "
        "finished one is read through the same view, a missing one waited for)",
        nullptr, nullptr },
    { "follow-steps",
        "With a followed folder and --screenshot or --export-charts: take them once N steps are drawn (else when the "
        "job ends, crashes or its folder goes)",
        "N", nullptr },
    { "follow-seconds",
        "With a followed folder and --screenshot or --export-charts: take them after S seconds at the latest", "S",
        nullptr },
};

QString text(const char* s) { return s ? QString::fromUtf8(s) : QString(); }

std::optional<QString> valueIfSet(const QCommandLineParser& parser, const QString& name)
{
    return parser.isSet(name) ? std::optional<QString>(parser.value(name)) : std::nullopt;
}

AppOptions readOptions(const QCommandLineParser& parser)
{
    AppOptions o;
    o.files = parser.positionalArguments();
    o.preset = valueIfSet(parser, QStringLiteral("preset"));
    o.run = parser.isSet(QStringLiteral("run"));
    o.quick = parser.isSet(QStringLiteral("quick"));
    o.teach = parser.isSet(QStringLiteral("teach"));
    o.compare = valueIfSet(parser, QStringLiteral("compare"));
    o.phasesMs = valueIfSet(parser, QStringLiteral("phases-ms"));
    o.phasesFile = valueIfSet(parser, QStringLiteral("phases-file"));
    o.follow = parser.isSet(QStringLiteral("follow"));
    o.followSteps = valueIfSet(parser, QStringLiteral("follow-steps"));
    o.followSeconds = valueIfSet(parser, QStringLiteral("follow-seconds"));
    o.screenshot = valueIfSet(parser, QStringLiteral("screenshot"));
    o.exportCharts = valueIfSet(parser, QStringLiteral("export-charts"));
    o.resultsOut = valueIfSet(parser, QStringLiteral("results-out"));
    o.cell = valueIfSet(parser, QStringLiteral("cell"));
    o.size = parser.value(QStringLiteral("size"));
    return o;
}

// --follow-steps and --follow-seconds read; false when one is refused, and `problem` says why.
bool readFollowLimits(const AppOptions& options, AppInputs* inputs, QString* problem)
{
    bool stepsOk = true;
    inputs->stopAtSteps = options.followSteps ? options.followSteps->toLongLong(&stepsOk) : -1;
    bool secondsOk = true;
    inputs->stopAtSeconds = options.followSeconds ? options.followSeconds->toDouble(&secondsOk) : -1;
    // A timer's interval is an int of milliseconds: at most a week, well inside it.
    constexpr double kMostFollowSeconds = 7 * 24 * 3600;
    if (!stepsOk || (options.followSteps && inputs->stopAtSteps < 1)) {
        *problem = QStringLiteral("--follow-steps: expected a whole number of steps above 0, got '%1'")
                       .arg(options.followSteps.value_or(QString()));
        return false;
    }
    if (!secondsOk
        || (options.followSeconds && !(inputs->stopAtSeconds > 0 && inputs->stopAtSeconds <= kMostFollowSeconds))) {
        *problem = QStringLiteral("--follow-seconds: expected a number of seconds above 0 and at most %1 (a week), "
                                  "got '%2'")
                       .arg(kMostFollowSeconds, 0, 'f', 0)
                       .arg(options.followSeconds.value_or(QString()));
        return false;
    }
    if ((options.followSteps || options.followSeconds) && inputs->followed.isEmpty()) {
        *problem = QStringLiteral("--follow-steps, --follow-seconds: only with a followed probe run folder");
        return false;
    }
    return true;
}

} // namespace

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

AppOptions parseAppOptions(const QCoreApplication& app)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("What does per-step logging cost in a training loop, and why?"));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("file"),
        QStringLiteral("A results.json to open, an experiment YAML, PyTorch-profiler traces (.json, .json.gz; "
                       "several: the ranks of one job), or a probe's run folder (followed while its job writes it)"),
        QStringLiteral("[file...]"));
    for (const OptionText& o : optionTexts)
        parser.addOption(
            QCommandLineOption(text(o.name), text(o.description), text(o.valueName), text(o.defaultValue)));
    parser.process(app);
    return readOptions(parser);
}

std::optional<QSize> checkedOutputs(const AppOptions& options, QString* problem)
{
    std::optional<QSize> windowSize = parseWindowSize(options.size, problem);
    if (!windowSize)
        return std::nullopt;
    if (options.screenshot && !options.screenshot->isEmpty())
        *problem = screenshotProblem(*options.screenshot);
    if (problem->isEmpty() && options.resultsOut)
        *problem = outputFileProblem(*options.resultsOut);
    if (problem->isEmpty() && options.exportCharts)
        *problem = exportFolderProblem(*options.exportCharts);
    return problem->isEmpty() ? windowSize : std::nullopt;
}

bool sortInputs(const AppOptions& options, AppInputs* inputs, QString* problem)
{
    const QStringList& files = options.files;
    // A probe's run folder still being written (or any folder with --follow) is followed live.
    inputs->followed = files.size() == 1
            && (options.follow ? !QFileInfo(files.first()).isFile() : MainWindow::isLiveProbeFolder(files.first()))
        ? files.first()
        : QString();
    if (options.follow && inputs->followed.isEmpty()) {
        *problem = files.size() == 1
            ? QStringLiteral("--follow: %1 is a file; expected a probe run folder (python3 -m synctax_probe --out DIR "
                             "writes one)")
                  .arg(files.first())
            : QStringLiteral("--follow: expected one probe run folder, got %1").arg(files.size());
        return false;
    }
    if (!readFollowLimits(options, inputs, problem))
        return false;
    // A folder is a probe run folder or nothing the app opens: said as such, not as a bad config.
    for (const QString& f : files) {
        if (const std::string why = notARunFolder(f.toStdString()); !why.empty() && inputs->followed.isEmpty()) {
            *problem = QString::fromStdString(why);
            return false;
        }
    }
    // Traces are told from results as a drop tells them (gzip, or Kineto's keys in the first MiB).
    for (const QString& f : files) {
        if (inputs->followed.isEmpty() && (looksLikeKinetoTrace(f) || isProbeFolder(f.toStdString())))
            inputs->traces << f;
    }
    // --teach with a trace or a results file: the Teach window replays its recorded step (a trace's,
    // or a run's captured one) in place of the sliders' uniform loop, and the main window opens nothing.
    inputs->teachFile = inputs->followed.isEmpty() && options.teach && !files.isEmpty()
        && (!inputs->traces.isEmpty() || hasJsonSuffix(files.first()));
    return true;
}

int fail(const QString& message)
{
    std::fprintf(stderr, "synctax: %s\n", qPrintable(message));
    return 2;
}

} // namespace synctax
