#pragma once

#include "core/queuemodel/sequencetax.h"

#include <QMap>
#include <QObject>
#include <QPointF>
#include <QString>
#include <QTimer>

#include <atomic>
#include <functional>
#include <memory>
#include <vector>

class QThread;

namespace synctax {

// The sliders that stay live with a launch sequence loaded: H, L, Q and the sync interval n.
struct ReplayKnobs {
    double hUs = 0;
    double lUs = 8;
    int64_t queueCapacity = 1021;
    int64_t syncEveryN = 1;

    ReplayOptions options() const; // H, Q, and L as the price of a recorded sync
    ReplayCosts costs() const; // L as the price of the style's read, the other costs the defaults
};

// The tax of syncing every n steps for a recorded step in steady state (estimateSequenceSyncTax).
SyncTaxEstimate replayedSyncTax(const StepSequence& seq, const ReplayKnobs& knobs);

// What the Teach window's charts sweep over a loaded launch sequence, where the sequence fixes D, G
// and K: the tax curve over G and the regime map over G / (D + H) and H, each G reached by scaling
// the recorded step's GPU ops (withGpuTimeMs), its host as recorded. A curve is ~30 replays and a
// map ~190, more than a redraw may take on the window's thread, so they run on one worker thread,
// the latest request winning: a superseded one skips its remaining points and is dropped by id.
// The map does not depend on H or n (its rows are H, its cells sync every step): it is computed
// once per L and Q and kept.
class ReplaySweeps : public QObject {
    Q_OBJECT
public:
    explicit ReplaySweeps(QObject* parent = nullptr);
    ~ReplaySweeps() override; // stops the worker after the point it is on

    // A new sequence: the kept maps are dropped.
    void setSequence(std::shared_ptr<const StepSequence> seq);
    // Recomputes for these knobs 50 ms after the last call (a slider being dragged costs one job).
    void request(const ReplayKnobs& knobs);
    // What request() left to do, done now on the calling thread (tests, screenshots).
    void flush();

    // The curve of the last request delivered, and the map for these knobs' L and Q once
    // computed (nullptr before).
    struct Curve {
        std::vector<QPointF> points; // x: G (ms), y: tax (%)
        QPointF current; // at the recorded step's own G
        ReplayKnobs knobs; // what it was computed for
    };
    const Curve& curve() const { return m_curve; }
    const std::vector<double>* grid(const ReplayKnobs& knobs) const;

    double lastCurveMs() const { return m_lastCurveMs; }
    double lastGridMs() const { return m_lastGridMs; }

    // Pure, for the worker and flush(): the curve's G as TaxCurveChart sweeps it, the map's cells as
    // RegimeHeatmap lays them out. What is left of either reads NaN once `stale` says so.
    static Curve computeCurve(const StepSequence& seq, const ReplayKnobs& knobs, const std::function<bool()>& stale);
    static std::vector<double> computeGrid(
        const StepSequence& seq, const ReplayKnobs& knobs, const std::function<bool()>& stale);

Q_SIGNALS:
    void curveAvailable();
    void gridAvailable();

private:
    void start();
    void startGrid();
    void deliverCurve(int id, const Curve& curve, double ms);
    void deliverGrid(int id, const QString& key, const std::vector<double>& grid, double ms);
    static QString gridKey(const ReplayKnobs& knobs);

    std::shared_ptr<const StepSequence> m_seq;
    ReplayKnobs m_knobs;
    QTimer m_debounce;
    QThread* m_thread = nullptr;
    QObject* m_worker = nullptr; // lives on m_thread; runs the posted jobs in order
    // The ids of the curve job and of the map job that count; the worker drops the others. A map
    // job is superseded only by a map of another L, Q or sequence, not by each move of H.
    std::shared_ptr<std::atomic<int>> m_latestCurve;
    std::shared_ptr<std::atomic<int>> m_latestGrid;
    int m_curveDone = 0; // the last curve job delivered
    QString m_gridInFlight; // the key of the map being computed
    Curve m_curve;
    QMap<QString, std::vector<double>> m_grids;
    double m_lastCurveMs = 0;
    double m_lastGridMs = 0;
};

} // namespace synctax
