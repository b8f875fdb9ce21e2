#include "ui/launcherrun.h"

#include "core/config/configwriter.h"
#include "core/results/runoutputs.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>

#include <chrono>

namespace synctax {

namespace {

constexpr int keptLines = 8;

// "MM:SS" or "H:MM:SS" (core/text/format.h formatClock); -1 for "--:--" or anything else.
double clockSeconds(const QString& text)
{
    double seconds = 0;
    const QStringList parts = text.split(QLatin1Char(':'));
    if (parts.size() < 2 || parts.size() > 3)
        return -1;
    for (const QString& part : parts) {
        bool ok = false;
        const int value = part.toInt(&ok);
        if (!ok)
            return -1;
        seconds = seconds * 60 + value;
    }
    return seconds;
}

} // namespace

bool parseLauncherProgress(const QString& line, LauncherProgress* progress)
{
    // app/synctax-run/progressprinter.cpp writes this form when stderr is not a terminal.
    static const QRegularExpression form(
        QStringLiteral(R"(^progress:\s*(\d+)%, ([0-9:]+) elapsed, ETA ([0-9:-]+), (.*)$)"));
    const QRegularExpressionMatch m = form.match(line.trimmed());
    if (!m.hasMatch())
        return false;
    progress->fraction = std::clamp(m.captured(1).toInt() / 100.0, 0.0, 1.0);
    progress->elapsedS = std::max(clockSeconds(m.captured(2)), 0.0);
    progress->remainingS = clockSeconds(m.captured(3));
    progress->cell = m.captured(4);
    return true;
}

LauncherRun::LauncherRun(QObject* parent)
    : QObject(parent)
    , m_program(defaultProgram())
{
    connect(&m_process, &QProcess::readyReadStandardError, this, &LauncherRun::readStderr);
    connect(&m_process, &QProcess::finished, this, &LauncherRun::onFinished);
}

LauncherRun::~LauncherRun()
{
    // The outcome is the launcher's files; nobody is left to be told of it.
    disconnect(&m_process, nullptr, this, nullptr);
    stopAndWait();
}

QString LauncherRun::defaultProgram()
{
    return QCoreApplication::applicationDirPath() + QStringLiteral("/synctax-run");
}

QString LauncherRun::resultsPath() const { return m_folder + QLatin1Char('/') + QLatin1String(resultsFileName); }

bool LauncherRun::start(const ExperimentConfig& config, const QString& root, QString* error)
{
    const auto failWith = [error](const QString& message) {
        if (error)
            *error = message;
        return false;
    };
    if (isRunning())
        return failWith(tr("a data-parallel run is already in progress"));
    if (!QFileInfo(m_program).isExecutable())
        return failWith(tr("%1: no synctax-run there to start the ranks").arg(m_program));

    // The folder named as synctax-run names its own; two runs within a millisecond get one each.
    const QString base = root + QLatin1Char('/')
        + QString::fromStdString(runFolderName(config.name, std::chrono::system_clock::now()));
    QString folder = base;
    for (int n = 2; QFileInfo::exists(folder); ++n)
        folder = base + QLatin1Char('-') + QString::number(n);
    if (!QDir().mkpath(folder))
        return failWith(tr("%1: cannot create the folder").arg(folder));
    const QString configPath = folder + QStringLiteral("/config-to-run.yaml");
    QFile file(configPath);
    const QByteArray yaml = QByteArray::fromStdString(toYaml(config));
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(yaml) != yaml.size())
        return failWith(tr("%1: %2").arg(configPath, file.errorString()));
    file.close();

    m_folder = folder;
    m_pending.clear();
    m_lastLines.clear();
    m_stopRequested = false;
    // The table it prints is kept beside its results, as `synctax-run ... > table.txt` would.
    m_process.setStandardOutputFile(folder + QStringLiteral("/table.txt"));
    m_process.start(m_program, { QStringLiteral("run"), configPath, QStringLiteral("--out"), folder });
    if (!m_process.waitForStarted(10000))
        return failWith(tr("%1: cannot start: %2").arg(m_program, m_process.errorString()));
    return true;
}

void LauncherRun::stop()
{
    if (!isRunning())
        return;
    m_stopRequested = true;
    m_process.terminate();
}

void LauncherRun::stopAndWait(int ms)
{
    stop();
    if (isRunning() && !m_process.waitForFinished(ms)) {
        m_process.kill();
        m_process.waitForFinished(5000);
    }
}

void LauncherRun::readStderr()
{
    m_pending += m_process.readAllStandardError();
    // A terminal's redrawn line ends in \r; a pipe's in \n. Either ends a line here.
    for (;;) {
        const qsizetype end = [&] {
            const qsizetype n = m_pending.indexOf('\n');
            const qsizetype r = m_pending.indexOf('\r');
            return n < 0 ? r : (r < 0 ? n : std::min(n, r));
        }();
        if (end < 0)
            break;
        const QString line = QString::fromUtf8(m_pending.left(end)).trimmed();
        m_pending.remove(0, end + 1);
        if (!line.isEmpty())
            handleLine(line);
    }
}

void LauncherRun::handleLine(const QString& line)
{
    LauncherProgress p;
    if (parseLauncherProgress(line, &p)) {
        Q_EMIT progress(p.fraction, p.cell, p.elapsedS, p.remainingS);
        return;
    }
    m_lastLines << line;
    while (m_lastLines.size() > keptLines)
        m_lastLines.removeFirst();
    Q_EMIT lineAvailable(line);
}

void LauncherRun::onFinished(int exitCode, QProcess::ExitStatus status)
{
    readStderr();
    if (!m_pending.isEmpty()) {
        handleLine(QString::fromUtf8(m_pending).trimmed());
        m_pending.clear();
    }
    if (status == QProcess::NormalExit && QFileInfo::exists(resultsPath())) {
        Q_EMIT resultsAvailable(resultsPath(), exitCode);
        return;
    }
    QString what;
    if (m_stopRequested)
        what = tr("stopped before any rank wrote results (%1 exited with code %2)").arg(m_program).arg(exitCode);
    else if (status == QProcess::CrashExit)
        what = tr("%1 crashed").arg(m_program);
    else
        what = tr("%1 exited with code %2 and wrote no results").arg(m_program).arg(exitCode);
    if (!m_lastLines.isEmpty())
        what += tr("; its last lines:\n%1").arg(m_lastLines.join(QLatin1Char('\n')));
    Q_EMIT runFailed(what);
}

} // namespace synctax
