// bench/follow-drain: the app follows a probe run folder that another process writes, offscreen,
// and reports what reached the charts: steps dropped, how far the step chart's last step was behind
// the writer's, the longest drain, and the longest time the window's thread was busy (the longest
// gap between the ticks of a 5 ms timer: drains, paints, everything). The writer is
// scripts/replay-probe-run.py (synthetic steps at a fixed rate), or with --probe a real CPU loop
// under the probe with every step timed, as fast as the probe writes. --open N instead shows a
// finished synthetic folder of N steps and reports the CPU time until every step is drawn. A
// benchmark: it prints, it judges nothing.
#include "core/statistics/statistics.h"
#include "ui/charts/phasestepchart.h"
#include "ui/follow/followcontroller.h"
#include "ui/follow/followview.h"
#include "ui/mainwindow.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTimer>

#include <sys/resource.h>

#include <algorithm>
#include <cstdio>
#include <vector>

using namespace synctax;

namespace {

// The last step the writer wrote whole (the tail of steps.jsonl); -1 when none yet.
qint64 writersLastStep(const QString& dir)
{
    QFile file(dir + QStringLiteral("/steps.jsonl"));
    if (!file.open(QIODevice::ReadOnly))
        return -1;
    file.seek(std::max<qint64>(0, file.size() - 8192));
    QByteArray tail = file.readAll();
    const qsizetype end = tail.lastIndexOf('\n');
    if (end < 0)
        return -1;
    tail.truncate(end);
    const QRegularExpressionMatch m = QRegularExpression(QStringLiteral("\"step\":\\s*(\\d+)"))
                                          .match(QString::fromUtf8(tail.mid(tail.lastIndexOf('\n') + 1)));
    return m.hasMatch() ? m.captured(1).toLongLong() : -1;
}

double cpuSeconds()
{
    rusage usage {};
    getrusage(RUSAGE_SELF, &usage);
    return double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
        + 1e-6 * double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec);
}

// The longest time the window's thread did not get back to its event loop: the longest gap
// between the ticks of a timer that asks for one every 5 ms, less those 5 ms.
class BusyWatch {
public:
    BusyWatch()
    {
        QObject::connect(&m_timer, &QTimer::timeout, [this] {
            const qint64 now = m_clock.nsecsElapsed();
            if (m_last >= 0 && (double(now - m_last) * 1e-6) - kTickMs > m_longestMs) {
                m_longestMs = (double(now - m_last) * 1e-6) - kTickMs;
                m_longestAtS = double(m_last) * 1e-9;
            }
            m_last = now;
        });
        m_timer.setTimerType(Qt::PreciseTimer);
        m_clock.start();
        m_timer.start(int(kTickMs));
    }
    double longestMs() const { return m_longestMs; }
    double longestAtS() const { return m_longestAtS; } // when it began, from the watch's start

private:
    static constexpr double kTickMs = 5;
    QTimer m_timer;
    QElapsedTimer m_clock;
    qint64 m_last = -1;
    double m_longestMs = 0;
    double m_longestAtS = 0;
};

// Writes a finished synthetic folder of `steps` steps at once; false when the writer failed.
bool writeFinished(const QString& writer, const QString& dir, int steps)
{
    QProcess process;
    process.setProcessChannelMode(QProcess::ForwardedChannels);
    process.start(QStringLiteral("python3"),
        { writer, QStringLiteral("--synthetic-steps"), QString::number(steps), QStringLiteral("--steps-per-s"),
            QStringLiteral("100000000"), dir });
    return process.waitForFinished(600000) && process.exitStatus() == QProcess::NormalExit && process.exitCode() == 0;
}

// --open: the CPU time from asking for the folder until its last step is drawn and the run read
// to its end.
int openFinished(QApplication& app, const QString& writer, int steps)
{
    QTemporaryDir tmp;
    const QString dir = tmp.filePath(QStringLiteral("run"));
    if (!writeFinished(writer, dir, steps))
        return std::fprintf(stderr, "follow-drain: the writer could not write %d steps\n", steps), 2;
    MainWindow window(nullptr, false);
    window.setQuiet(true);
    window.resize(1600, 1000);
    window.show();
    QApplication::processEvents();
    BusyWatch busy;
    const double cpu0 = cpuSeconds();
    QElapsedTimer wall;
    wall.start();
    window.followRun(dir);
    FollowView* view = window.followView();
    bool done = false;
    QObject::connect(view->controller(), &FollowController::followFinished, &app, [&] { done = true; });
    QTimer poll;
    QObject::connect(&poll, &QTimer::timeout, &app, [&] {
        if (done && view->stepChart()->lastDrawnStep() >= double(steps - 1))
            app.quit();
    });
    poll.start(1);
    QTimer::singleShot(120000, &app, [&] { app.quit(); });
    app.exec();
    window.grab(); // one whole paint of the window as it now is
    const double cpu = cpuSeconds() - cpu0;
    std::printf("follow-drain --open: a finished folder of %d steps (Qt platform %s)\n", steps,
        qPrintable(QGuiApplication::platformName()));
    std::printf("  steps read                    %zu   chart's last step %.0f\n", view->controller()->run().stepCount(),
        view->stepChart()->lastDrawnStep());
    std::printf(
        "  CPU time to show it           %.3f s (wall %.3f s)   goal < 1 s\n", cpu, double(wall.elapsed()) * 1e-3);
    std::printf("  window's thread busy at most  %.1f ms\n", busy.longestMs());
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    qputenv("QT_QPA_PLATFORM", qgetenv("QT_QPA_PLATFORM").isEmpty() ? "offscreen" : qgetenv("QT_QPA_PLATFORM"));
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("SyncTax-bench"));
    QCommandLineParser parser;
    parser.addHelpOption();
    const QCommandLineOption rate(QStringLiteral("rate"), QStringLiteral("Steps per second written"),
        QStringLiteral("N"), QStringLiteral("1000"));
    const QCommandLineOption seconds(QStringLiteral("seconds"), QStringLiteral("How long the writer writes"),
        QStringLiteral("S"), QStringLiteral("30"));
    const QCommandLineOption writer(QStringLiteral("writer"), QStringLiteral("The folder writer"),
        QStringLiteral("replay-probe-run.py"), QStringLiteral(SYNCTAX_SOURCE_DIR "/scripts/replay-probe-run.py"));
    const QCommandLineOption probe(QStringLiteral("probe"),
        QStringLiteral("Follow a real CPU loop under the probe (every step timed) instead, for --seconds"));
    const QCommandLineOption open(QStringLiteral("open"),
        QStringLiteral("Show a finished synthetic folder of N steps; report the CPU time to draw it"),
        QStringLiteral("N"));
    const QCommandLineOption python(QStringLiteral("python"),
        QStringLiteral("The interpreter with torch, for --probe (default: python3)"), QStringLiteral("PATH"),
        QStringLiteral("python3"));
    parser.addOptions({ rate, seconds, writer, probe, open, python });
    parser.process(app);
    if (parser.isSet(open))
        return openFinished(app, parser.value(writer), parser.value(open).toInt());
    const bool real = parser.isSet(probe);
    const int stepsPerS = parser.value(rate).toInt();
    const int steps = int(stepsPerS * parser.value(seconds).toDouble());

    QTemporaryDir tmp;
    const QString dir = tmp.filePath(QStringLiteral("run"));
    MainWindow window(nullptr, false);
    window.setQuiet(true);
    window.resize(1600, 1000);
    window.show();
    window.followRun(dir);
    FollowView* view = window.followView();

    BusyWatch busy;
    QProcess process;
    process.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    if (real) {
        QStringList env = QProcess::systemEnvironment();
        env << QStringLiteral("PYTHONPATH=" SYNCTAX_SOURCE_DIR "/probe");
        process.setEnvironment(env);
        process.start(parser.value(python),
            { QStringLiteral("-m"), QStringLiteral("synctax_probe"), QStringLiteral("--calib-every"),
                QStringLiteral("1"), QStringLiteral("--profile-steps"), QStringLiteral("0"), QStringLiteral("--out"),
                dir, QStringLiteral(SYNCTAX_SOURCE_DIR "/bench/follow-drain/fast_loop.py"), QStringLiteral("--seconds"),
                parser.value(seconds) });
    } else {
        process.start(QStringLiteral("python3"),
            { parser.value(writer), QStringLiteral("--synthetic-steps"), QString::number(steps),
                QStringLiteral("--steps-per-s"), QString::number(stepsPerS), dir });
    }
    if (!process.waitForStarted())
        return std::fprintf(stderr, "follow-drain: cannot start python3 %s\n", qPrintable(parser.value(writer))), 2;
    QElapsedTimer writing;
    writing.start();

    std::vector<double> lags; // in steps, sampled every 100 ms while the writer writes
    QTimer sampler;
    QObject::connect(&sampler, &QTimer::timeout, [&] {
        const qint64 written = writersLastStep(dir);
        if (written >= 0 && process.state() != QProcess::NotRunning)
            lags.push_back(double(written) - std::max(-1.0, view->stepChart()->lastDrawnStep()));
    });
    sampler.start(100);
    double writingSeconds = 0;
    QObject::connect(&process, &QProcess::finished, &app, [&] {
        writingSeconds = double(writing.elapsed()) * 1e-3;
        sampler.stop();
        // The rest reaches the charts, then the numbers.
        QObject::connect(view->controller(), &FollowController::followFinished, &app, [&] { app.quit(); });
        QTimer::singleShot(30000, &app, [&] { app.quit(); });
    });
    app.exec();

    const FollowController::DrainStats stats = view->controller()->drainStats();
    const FollowRun& run = view->controller()->run();
    if (real) {
        const auto endSteps = run.end() ? run.end()->steps : 0;
        std::printf("follow-drain --probe: a CPU loop under the probe, every step timed (Qt platform %s)\n",
            qPrintable(QGuiApplication::platformName()));
        std::printf("  job exit code                 %d\n", process.exitCode());
        std::printf("  steps read / the job's steps  %zu / %lld   (%.0f steps/s read while it ran %.1f s)\n",
            run.stepCount(), static_cast<long long>(endSteps), double(run.stepCount()) / std::max(1e-9, writingSeconds),
            writingSeconds);
        std::printf("  points drawn (step chart)     %d, the last step %.0f; steps missing %lld\n",
            view->stepChart()->drawnPoints(), view->stepChart()->lastDrawnStep(),
            static_cast<long long>(run.missingSteps()));
        std::printf("  lag behind the writer         median %.0f steps, max %.0f steps over %zu samples\n",
            quantile(lags, 0.5), quantile(lags, 1.0), lags.size());
        std::printf("  longest drain (window thread) %.2f ms\n", stats.maxDrainMs);
        std::printf("  window's thread busy at most  %.1f ms (from %.2f s on)   goal <= 50 ms\n", busy.longestMs(),
            busy.longestAtS());
        return 0;
    }
    const long long dropped = static_cast<long long>(steps) - static_cast<long long>(run.stepCount());
    std::printf("follow-drain: %d steps/s for %d steps, written by another process (Qt platform %s)\n", stepsPerS,
        steps, qPrintable(QGuiApplication::platformName()));
    std::printf("  writer exit code              %d\n", process.exitCode());
    std::printf("  steps read / written          %zu / %d\n", run.stepCount(), steps);
    std::printf("  steps dropped                 %lld (missing %lld, out of order %lld)   goal 0\n", dropped,
        static_cast<long long>(run.missingSteps()), static_cast<long long>(run.outOfOrderSteps()));
    std::printf(
        "  chart's last step             %.0f   state %s\n", view->stepChart()->lastDrawnStep(), toString(run.state()));
    std::printf("  lag behind the writer         median %.0f steps (%.3f s), max %.0f steps (%.3f s) over %zu "
                "samples   goal <= 1 s\n",
        quantile(lags, 0.5), quantile(lags, 0.5) / stepsPerS, quantile(lags, 1.0), quantile(lags, 1.0) / stepsPerS,
        lags.size());
    std::printf("  drains                        %llu (%llu updates, back-pressure waits %llu)\n",
        static_cast<unsigned long long>(stats.drains), static_cast<unsigned long long>(stats.updates),
        static_cast<unsigned long long>(stats.queueFullWaits));
    std::printf("  longest drain (window thread) %.2f ms   goal <= 50 ms\n", stats.maxDrainMs);
    std::printf("  time inside drains            %.2f s\n", stats.busyMs * 1e-3);
    std::printf("  window's thread busy at most  %.1f ms   goal <= 50 ms\n", busy.longestMs());
    return 0;
}
