#pragma once

#include "core/config/experimentconfig.h"

#include <QObject>
#include <QProcess>
#include <QString>
#include <QStringList>

namespace synctax {

// One line of the launcher's progress on a pipe ("progress:  40%, 00:12 elapsed, ETA 00:18, CELL").
struct LauncherProgress {
    double fraction = 0;
    QString cell;
    double elapsedS = 0;
    double remainingS = -1; // -1: no estimate yet ("ETA --:--")
};

// Parses one such line; false for any other line.
bool parseLauncherProgress(const QString& line, LauncherProgress* progress);

// A data-parallel run (`distributed:`) through `synctax-run run CONFIG --out FOLDER`: only the
// launcher starts the rank processes and keeps them in lockstep, so the window runs it and reads
// what it writes. Its progress lines become `progress`, its other stderr lines `lineAvailable`.
class LauncherRun : public QObject {
    Q_OBJECT
public:
    explicit LauncherRun(QObject* parent = nullptr);
    ~LauncherRun() override; // a run still going is stopped, and kept as the launcher keeps it

    // synctax-run beside this program's binary; tests point it elsewhere.
    static QString defaultProgram();
    void setProgram(const QString& path) { m_program = path; }
    QString program() const { return m_program; }

    // Makes a new folder under `root` (NAME-yyyyMMdd-hhmmss), writes the config into it as
    // config-to-run.yaml and starts the launcher there. False with `error` when nothing started.
    bool start(const ExperimentConfig& config, const QString& root, QString* error);
    // SIGTERM: the launcher passes it to the ranks, which end together and keep what they measured.
    void stop();
    // stop(), then waits up to `ms` for the launcher to end (closing the window).
    void stopAndWait(int ms = 30000);
    bool isRunning() const { return m_process.state() != QProcess::NotRunning; }
    bool stopRequested() const { return m_stopRequested; }
    QString folder() const { return m_folder; }
    QString resultsPath() const;

Q_SIGNALS:
    void progress(double fraction, const QString& cell, double elapsedS, double remainingS);
    void lineAvailable(const QString& line);
    // The launcher ended and left results.json: exit 0, 130 (stopped) or 1 (a rank failed).
    void resultsAvailable(const QString& resultsPath, int exitCode);
    // It ended without results (or crashed): what it said last is in `message`.
    void runFailed(const QString& message);

private:
    void readStderr();
    void handleLine(const QString& line);
    void onFinished(int exitCode, QProcess::ExitStatus status);

    QProcess m_process;
    QString m_program;
    QString m_folder;
    QByteArray m_pending; // stderr after its last line break
    QStringList m_lastLines; // the last few non-progress lines, for a failure message
    bool m_stopRequested = false;
};

} // namespace synctax
