// bench/follow-drain: the app follows a probe run folder that another process writes at a fixed
// rate (scripts/replay-probe-run.py, synthetic steps), offscreen, and reports what reached the
// charts: steps dropped, how far the step chart's last step was behind the writer's, and the
// longest time the window's thread was held by one drain. A benchmark: it prints, it judges nothing.
#include "core/statistics/statistics.h"
#include "ui/charts/phasestepchart.h"
#include "ui/follow/followcontroller.h"
#include "ui/follow/followview.h"
#include "ui/mainwindow.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTimer>

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
    parser.addOptions({ rate, seconds, writer });
    parser.process(app);
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

    QProcess process;
    process.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    process.start(QStringLiteral("python3"),
        { parser.value(writer), QStringLiteral("--synthetic-steps"), QString::number(steps),
            QStringLiteral("--steps-per-s"), QString::number(stepsPerS), dir });
    if (!process.waitForStarted())
        return std::fprintf(stderr, "follow-drain: cannot start python3 %s\n", qPrintable(parser.value(writer))), 2;

    std::vector<double> lags; // in steps, sampled every 100 ms while the writer writes
    QTimer sampler;
    QObject::connect(&sampler, &QTimer::timeout, [&] {
        const qint64 written = writersLastStep(dir);
        if (written >= 0 && process.state() != QProcess::NotRunning)
            lags.push_back(double(written) - std::max(-1.0, view->stepChart()->lastDrawnStep()));
    });
    sampler.start(100);
    QObject::connect(&process, &QProcess::finished, &app, [&] {
        sampler.stop();
        // The rest reaches the charts, then the numbers.
        QObject::connect(view->controller(), &FollowController::followFinished, &app, [&] { app.quit(); });
        QTimer::singleShot(30000, &app, [&] { app.quit(); });
    });
    app.exec();

    const FollowController::DrainStats stats = view->controller()->drainStats();
    const FollowRun& run = view->controller()->run();
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
    return 0;
}
