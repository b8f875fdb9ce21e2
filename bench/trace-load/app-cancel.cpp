// bench/trace-load/app-cancel: opens a big trace in the app's real MainWindow and TraceLoader,
// offscreen, and reports how the progress moves, how long a cancel takes and how long the event
// loop went without running (a 10 ms QTimer ping: its largest gap is the window's frozen time).
// A benchmark, not a test: it prints numbers beside the goals, nothing more.
#include "ui/charts/tracequeuechart.h"
#include "ui/mainwindow.h"
#include "ui/trace/traceloader.h"
#include "ui/trace/tracetimeline.h"
#include "ui/trace/traceview.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <set>

using namespace synctax;

namespace {

struct Gaps {
    qint64 last = -1;
    qint64 largest = 0;
    qint64 at = 0; // when the largest gap ended, ms from the start
    void tick(qint64 now)
    {
        if (last >= 0 && now - last > largest) {
            largest = now - last;
            at = now;
        }
        last = now;
    }
};

} // namespace

int main(int argc, char** argv)
{
    if (argc < 2) {
        std::fprintf(stderr, "usage: synctax-app-cancel TRACE [CANCEL_AT (fraction of bytes, 0: no cancel)]\n");
        return 2;
    }
    QApplication app(argc, argv);
    const QString trace = QString::fromLocal8Bit(argv[1]);
    const double cancelAt = argc > 2 ? std::atof(argv[2]) : 0.5;

    auto* window = new MainWindow(nullptr, false);
    window->setQuiet(true);
    window->resize(1600, 1000);
    window->show();
    TraceLoader* loader = window->traceLoader();

    QElapsedTimer clock;
    Gaps ping, progress;
    std::set<int> permilles; // the progress bar's values (it counts in thousandths)
    int updates = 0;
    int analysingUpdates = 0;
    qint64 analysingFromMs = -1, lastReadingMs = -1;
    qint64 cancelledAtMs = -1, cancelSignalMs = -1, firstPingAfterCancelMs = -1, endMs = -1;
    double cancelledAtFraction = 0;
    QString outcome;

    QTimer pinger;
    pinger.setInterval(10);
    QObject::connect(&pinger, &QTimer::timeout, [&] {
        const qint64 now = clock.elapsed();
        ping.tick(now);
        if (cancelledAtMs >= 0 && firstPingAfterCancelMs < 0)
            firstPingAfterCancelMs = now;
        // After the end, a few pings more: the view's first paint of the trace is in the gap too.
        if (endMs >= 0 && now - endMs > 300)
            app.quit();
    });
    QObject::connect(loader, &TraceLoader::progress,
        [&](int, quint64 read, quint64 bytes, const QString&, int permille, bool analysing) {
            ++updates;
            progress.tick(clock.elapsed());
            permilles.insert(permille);
            if (analysing && analysingFromMs < 0)
                analysingFromMs = clock.elapsed();
            analysingUpdates += analysing ? 1 : 0;
            if (!analysing)
                lastReadingMs = clock.elapsed();
            if (cancelAt > 0 && cancelledAtMs < 0 && double(read) >= cancelAt * double(bytes)) {
                cancelledAtFraction = double(read) / double(bytes);
                cancelledAtMs = clock.elapsed();
                loader->cancel(); // what the Cancel button beside the progress bar calls
            }
        });
    QObject::connect(loader, &TraceLoader::loadCancelled, [&] {
        cancelSignalMs = clock.elapsed();
        outcome = QStringLiteral("cancelled");
        endMs = clock.elapsed();
    });
    TraceFilesPtr loaded;
    QObject::connect(loader, &TraceLoader::traceAvailable, [&](int, const TraceFilesPtr& files) {
        outcome = QStringLiteral("loaded");
        endMs = clock.elapsed();
        loaded = files;
    });
    QObject::connect(loader, &TraceLoader::loadFailed, [&](int, const QString& message) {
        outcome = QStringLiteral("failed: ") + message;
        endMs = clock.elapsed();
    });
    QTimer::singleShot(0, [&] {
        clock.start();
        pinger.start();
        window->openTraces({ trace });
    });
    app.exec();
    // Where the window's time went once the trace was in: the same work again, each part timed,
    // after the pings so that it is not in their gaps.
    qint64 setFilesMs = -1;
    if (loaded) {
        QElapsedTimer part;
        part.start();
        window->traceView()->setFiles(loaded);
        setFilesMs = part.elapsed();
        loaded.reset();
    }
    // The loader's destructor waits for its worker: the time the read took to stop after the cancel.
    QElapsedTimer closing;
    closing.start();
    delete window;
    const qint64 workerStopMs = closing.elapsed();

    std::printf("trace: %s\noutcome: %s after %.2f s\n", qPrintable(trace), qPrintable(outcome), double(endMs) / 1e3);
    std::printf(
        "progress: %d updates, %zu distinct bar values, largest gap between updates %lld ms (ending %.2f s in)\n",
        updates, permilles.size(), static_cast<long long>(progress.largest), double(progress.at) / 1e3);
    if (analysingFromMs >= 0)
        std::printf("analysing from %.2f s: %d of the updates, %lld ms after the last of reading\n",
            double(analysingFromMs) / 1e3, analysingUpdates, static_cast<long long>(analysingFromMs - lastReadingMs));
    if (cancelledAtMs >= 0) {
        const qint64 toSignal = cancelSignalMs - cancelledAtMs;
        std::printf("cancel at %.0f%% of the bytes: loadCancelled after %lld ms, next ping after %lld ms, worker "
                    "stopped (window closed) %lld ms later   goal cancel <= 500 ms: %s\n",
            100 * cancelledAtFraction, static_cast<long long>(toSignal),
            static_cast<long long>(firstPingAfterCancelMs - cancelledAtMs), static_cast<long long>(workerStopMs),
            toSignal <= 500 && firstPingAfterCancelMs - cancelledAtMs <= 500 ? "met" : "missed");
    }
    if (setFilesMs >= 0)
        std::printf("after the load, on the window's thread: TraceView::setFiles %lld ms (the rest of the gap: "
                    "painting)\n",
            static_cast<long long>(setFilesMs));
    std::printf("event loop: largest gap between 10 ms pings %lld ms (ending %.2f s in)   goal <= 100 ms: %s\n",
        static_cast<long long>(ping.largest), double(ping.at) / 1e3, ping.largest <= 100 ? "met" : "missed");
    return 0;
}
