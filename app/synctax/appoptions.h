#pragma once

#include <QSize>
#include <QString>
#include <QStringList>

#include <optional>

class QCoreApplication;

namespace synctax {

// The app's command line. An option that takes a value is unset when not given; given empty, it
// is set and empty.
struct AppOptions {
    QStringList files; // results, a config, traces or a probe's run folder
    std::optional<QString> preset;
    bool run = false;
    bool quick = false;
    bool teach = false;
    std::optional<QString> compare;
    std::optional<QString> phasesMs; // the what-if's Phases field, as typed
    std::optional<QString> phasesFile;
    bool follow = false;
    std::optional<QString> followSteps; // as given: checked against the folder followed (sortInputs)
    std::optional<QString> followSeconds;
    // Headless: the window renders offscreen, is saved or exported, and the app quits.
    std::optional<QString> screenshot;
    std::optional<QString> exportCharts;
    std::optional<QString> resultsOut;
    std::optional<QString> cell; // MODEL/MODE/STYLE
    QString size; // WxH, for a headless window

    bool headless() const { return screenshot || exportCharts; }
};

// The modes that open no window (help, version, exports, screenshots) render offscreen, so they
// run where there is no display at all: over ssh, in CI, in a container. Decided from argv
// because the platform plugin is chosen when QApplication is constructed, before any parsing.
bool opensNoWindow(int argc, char** argv);

// The command line of `app` read; --help, --version and an unknown option print and exit here.
AppOptions parseAppOptions(const QCoreApplication& app);

// The window size and every output of a headless run, before anything is loaded or drawn; nothing
// when one is refused, and `problem` says why.
std::optional<QSize> checkedOutputs(const AppOptions& options, QString* problem);

// The files told apart as the app opens them.
struct AppInputs {
    QString followed; // a probe's run folder still being written (or any folder with --follow)
    QStringList traces; // told from results as a drop tells them; a probe's run folder opens as its trace
    bool teachFile = false; // --teach with a trace or a results file: the Teach window replays its step
    qint64 stopAtSteps = -1; // --follow-steps; -1: not given
    double stopAtSeconds = -1; // --follow-seconds; -1: not given
};

// The inputs of `options`; false when they cannot be opened as asked, and `problem` says why.
bool sortInputs(const AppOptions& options, AppInputs* inputs, QString* problem);

// A problem said on stderr ("synctax: ..."); returns the exit code of a run that stops for it, 2.
int fail(const QString& message);

} // namespace synctax
