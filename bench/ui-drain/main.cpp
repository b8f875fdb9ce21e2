// bench/ui-drain: feeds the app's window synthetic step records at a fixed rate, offscreen, and
// reports how busy the UI thread was, the longest drain, records dropped and memory growth.
// A benchmark, not a test: it prints numbers and judges them against the goals, nothing more.
#include "core/config/experimentconfig.h"
#include "core/steps/stepring.h"
#include "ui/charts/queuechart.h"
#include "ui/charts/stepchart.h"
#include "ui/mainwindow.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QTimer>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <random>
#include <thread>
#include <unistd.h>

using namespace synctax;

namespace {

double rssMiB()
{
    std::ifstream statm("/proc/self/statm");
    long pages = 0, resident = 0;
    statm >> pages >> resident;
    return double(resident) * double(sysconf(_SC_PAGESIZE)) / (1024.0 * 1024.0);
}

double threadCpuS()
{
    timespec ts {};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

int64_t nowNs()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

// A loop of 1.3 ms steps whose queue fills and, every 10th step, collapses as under item_every_n.
StepRecord syntheticRecord(uint32_t runId, uint32_t cells, uint64_t i, std::mt19937& rng)
{
    std::uniform_real_distribution<float> noise(0.9f, 1.1f);
    StepRecord r;
    r.runId = runId;
    r.cell = uint32_t((i / 20) % cells);
    r.round = int32_t(i / (20 * cells));
    r.step = uint32_t(i % 20);
    r.startNs = int64_t(i) * 100'000;
    r.dispatchedNs = r.startNs + 60'000;
    r.loggedNs = r.startNs + int64_t(1.3e6 * noise(rng));
    r.gpuDoneNs = r.dispatchedNs + 2'000'000;
    r.queueSteps = int32_t(r.step % 10);
    r.lagMs = 0.2f * float(r.queueSteps) * noise(rng);
    return r;
}

} // namespace

int main(int argc, char** argv)
{
    qputenv("QT_QPA_PLATFORM", qgetenv("QT_QPA_PLATFORM").isEmpty() ? "offscreen" : qgetenv("QT_QPA_PLATFORM"));
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("SyncTax-bench"));
    QCommandLineParser parser;
    parser.addHelpOption();
    const QCommandLineOption seconds(
        QStringLiteral("seconds"), QStringLiteral("How long to feed"), QStringLiteral("S"), QStringLiteral("60"));
    const QCommandLineOption rate(
        QStringLiteral("rate"), QStringLiteral("Steps per second"), QStringLiteral("N"), QStringLiteral("10000"));
    const QCommandLineOption prefill(QStringLiteral("prefill"),
        QStringLiteral("Steps in the history before feeding starts"), QStringLiteral("N"), QStringLiteral("1000000"));
    const QCommandLineOption hz(
        QStringLiteral("hz"), QStringLiteral("Drains per second"), QStringLiteral("N"), QStringLiteral("40"));
    const QCommandLineOption noAa(
        QStringLiteral("no-antialiasing"), QStringLiteral("Draw the live charts without antialiasing"));
    const QCommandLineOption hide(
        QStringLiteral("hide"), QStringLiteral("Hide a view's dock: step or queue"), QStringLiteral("VIEW"));
    parser.addOptions({ seconds, rate, prefill, hz, noAa, hide });
    parser.process(app);
    const double durationS = parser.value(seconds).toDouble();
    const double stepsPerS = parser.value(rate).toDouble();
    const uint64_t prefillSteps = parser.value(prefill).toULongLong();

    MainWindow window;
    window.setQuiet(true);
    window.resize(1600, 1000);
    window.show();
    window.controller().setDrainIntervalMs(int(1000 / parser.value(hz).toDouble()));
    if (parser.value(hide) == QLatin1String("step"))
        window.stepChart()->parentWidget()->hide();
    if (parser.value(hide) == QLatin1String("queue"))
        window.queueChart()->parentWidget()->hide();
    if (parser.isSet(noAa)) {
        window.stepChart()->setRenderHint(QPainter::Antialiasing, false);
        window.queueChart()->setRenderHint(QPainter::Antialiasing, false);
    }

    ExperimentConfig config;
    config.device = "cpu";
    config.models = { { "tiny_mlp", 256, 512, 256, 10, 20, 0, -1 } };
    std::vector<CellPlan> cells;
    const std::vector<std::string> styles { "none", "aa_control", "item", "item_every_n", "gpu_accumulate",
        "progress_bar", "progress_bar_postfix", "progress_bar_postfix_every_n" };
    for (const auto& s : styles) {
        config.styles.push_back({ s, s.find("every_n") != std::string::npos ? 10 : 0 });
        cells.push_back(cellPlan(uint32_t(cells.size()), { { "tiny_mlp", "eager" }, s }));
    }
    config.styles.erase(config.styles.begin() + 1); // aa_control is added by the runner, not listed
    RunController& controller = window.controller();
    controller.beginExternalRun(cells, config);
    const uint32_t runId = controller.runId();
    StepRing* ring = controller.ring();

    std::mt19937 rng(1);
    uint64_t produced = 0;
    // The prefill goes through the same ring and drain, at the ring's pace.
    while (produced < prefillSteps) {
        while (produced < prefillSteps && ring->push(syntheticRecord(runId, uint32_t(cells.size()), produced, rng)))
            ++produced;
        app.processEvents();
    }
    while (controller.history().totalSteps() < prefillSteps)
        app.processEvents();
    const double rssAfterPrefill = rssMiB();
    const auto statsBefore = controller.drainStats();
    const uint64_t droppedBefore = ring->dropped();

    std::atomic<bool> done { false };
    std::atomic<uint64_t> fed { 0 };
    std::thread producer([&] {
        std::mt19937 prng(2);
        const int64_t start = nowNs();
        uint64_t i = 0;
        while (!done.load()) {
            const auto due = uint64_t(double(nowNs() - start) * 1e-9 * stepsPerS);
            for (; i < due; ++i)
                ring->push(syntheticRecord(runId, uint32_t(cells.size()), prefillSteps + i, prng));
            fed = i;
            std::this_thread::sleep_for(std::chrono::microseconds(500));
        }
    });

    const double cpuStart = threadCpuS();
    const int64_t wallStart = nowNs();
    double rssMax = rssAfterPrefill;
    QTimer sampler;
    QObject::connect(&sampler, &QTimer::timeout, [&] { rssMax = std::max(rssMax, rssMiB()); });
    sampler.start(1000);
    QTimer::singleShot(int(durationS * 1000), &app, [&] { app.quit(); });
    app.exec();
    done = true;
    producer.join();
    app.processEvents();
    const double wallS = double(nowNs() - wallStart) * 1e-9;
    const double cpuS = threadCpuS() - cpuStart;
    const auto stats = controller.drainStats();
    const uint64_t dropped = ring->dropped() - droppedBefore;
    const double drains = double(stats.drains - statsBefore.drains);
    const double busyPct = 100.0 * cpuS / wallS;

    std::printf("ui-drain: %.0f steps/s for %.1f s after a prefill of %llu steps (Qt platform %s)\n", stepsPerS, wallS,
        static_cast<unsigned long long>(prefillSteps), qPrintable(QGuiApplication::platformName()));
    std::printf("  records fed               %llu\n", static_cast<unsigned long long>(fed.load()));
    std::printf(
        "  history size              %llu steps\n", static_cast<unsigned long long>(controller.history().totalSteps()));
    std::printf("  drains                    %.0f (%.1f Hz)\n", drains, drains / wallS);
    std::printf("  UI thread busy (CPU time) %.1f %%   goal < 20 %%\n", busyPct);
    std::printf(
        "  time inside drains        %.1f %% of wall\n", 100.0 * (stats.busyMs - statsBefore.busyMs) * 1e-3 / wallS);
    std::printf("  longest drain             %.2f ms\n", stats.maxDrainMs);
    std::printf("  records dropped           %llu   goal 0\n", static_cast<unsigned long long>(dropped));
    std::printf("  RSS after prefill         %.1f MiB\n", rssAfterPrefill);
    std::printf("  RSS max while feeding     %.1f MiB (+%.1f MiB for %llu more steps)\n", rssMax,
        rssMax - rssAfterPrefill, static_cast<unsigned long long>(fed.load()));
    return 0;
}
