#include "ui/teach/replaysweeps.h"

#include "ui/charts/taxcurvechart.h"
#include "ui/teach/regimeheatmap.h"

#include <QElapsedTimer>
#include <QThread>
#include <algorithm>
#include <limits>

namespace synctax {

namespace {

constexpr double notComputed = std::numeric_limits<double>::quiet_NaN();
constexpr int gridLimit = 16; // maps kept per sequence: one per L and Q tried

double elapsedMs(const QElapsedTimer& clock) { return double(clock.nsecsElapsed()) * 1e-6; }

} // namespace

ReplayOptions ReplayKnobs::options() const
{
    ReplayOptions o;
    o.hostWorkUs = hUs;
    o.syncUs = lUs;
    o.queueCapacity = queueCapacity;
    return o;
}

ReplayCosts ReplayKnobs::costs() const
{
    ReplayCosts c;
    c.syncUs = lUs;
    c.source = "the Teach window's sliders";
    return c;
}

SyncTaxEstimate replayedSyncTax(const StepSequence& seq, const ReplayKnobs& knobs)
{
    return estimateSequenceSyncTax(seq, knobs.syncEveryN, knobs.options(), knobs.costs());
}

ReplaySweeps::ReplaySweeps(QObject* parent)
    : QObject(parent)
    , m_thread(new QThread(this))
    , m_worker(new QObject)
    , m_latestCurve(std::make_shared<std::atomic<int>>(0))
    , m_latestGrid(std::make_shared<std::atomic<int>>(0))
{
    m_debounce.setSingleShot(true);
    m_debounce.setInterval(50);
    connect(&m_debounce, &QTimer::timeout, this, &ReplaySweeps::start);
    m_thread->setObjectName(QStringLiteral("replay sweeps"));
    m_worker->moveToThread(m_thread);
    m_thread->start();
}

ReplaySweeps::~ReplaySweeps()
{
    m_latestCurve->store(-1);
    m_latestGrid->store(-1);
    m_thread->quit();
    m_thread->wait();
    delete m_worker;
}

QString ReplaySweeps::gridKey(const ReplayKnobs& knobs)
{
    return QStringLiteral("%1/%2").arg(knobs.lUs).arg(knobs.queueCapacity);
}

void ReplaySweeps::setSequence(std::shared_ptr<const StepSequence> seq)
{
    m_seq = std::move(seq);
    m_grids.clear();
    m_gridInFlight.clear();
    m_curve = {};
    m_debounce.stop();
    m_latestCurve->fetch_add(1);
    m_latestGrid->fetch_add(1);
}

void ReplaySweeps::request(const ReplayKnobs& knobs)
{
    m_knobs = knobs;
    m_debounce.start();
}

const std::vector<double>* ReplaySweeps::grid(const ReplayKnobs& knobs) const
{
    const auto it = m_grids.constFind(gridKey(knobs));
    return it == m_grids.constEnd() ? nullptr : &*it;
}

ReplaySweeps::Curve ReplaySweeps::computeCurve(
    const StepSequence& seq, const ReplayKnobs& knobs, const std::function<bool()>& stale)
{
    const auto taxAt
        = [&](const StepSequence& step) { return stale() ? notComputed : replayedSyncTax(step, knobs).taxPct; };
    Curve curve;
    curve.knobs = knobs;
    curve.points = TaxCurveChart::sweep([&](double gMs) { return taxAt(withGpuTimeMs(seq, gMs)); });
    const double ownG = gpuTimeUs(seq) * 1e-3;
    curve.current = QPointF(std::clamp(ownG, TaxCurveChart::minGMs, TaxCurveChart::maxGMs), taxAt(seq));
    return curve;
}

std::vector<double> ReplaySweeps::computeGrid(
    const StepSequence& seq, const ReplayKnobs& knobs, const std::function<bool()>& stale)
{
    const double dMs = replayRegime(seq, 0).dMs;
    return RegimeHeatmap::computeGrid([&](double ratio, double hostWorkMs) {
        if (stale())
            return notComputed;
        ReplayKnobs cell = knobs;
        cell.hUs = hostWorkMs * 1e3;
        cell.syncEveryN = 1; // the map is item's
        return replayedSyncTax(withGpuTimeMs(seq, ratio * (dMs + hostWorkMs)), cell).taxPct;
    });
}

void ReplaySweeps::start()
{
    if (!m_seq)
        return;
    const int id = m_latestCurve->fetch_add(1) + 1;
    QMetaObject::invokeMethod(
        m_worker,
        [this, id, seq = m_seq, knobs = m_knobs, latest = m_latestCurve] {
            const auto stale = [&] { return latest->load() != id; };
            if (stale())
                return;
            QElapsedTimer clock;
            clock.start();
            const Curve curve = computeCurve(*seq, knobs, stale);
            if (stale())
                return;
            QMetaObject::invokeMethod(
                this, [this, id, curve, ms = elapsedMs(clock)] { deliverCurve(id, curve, ms); }, Qt::QueuedConnection);
        },
        Qt::QueuedConnection);
    startGrid();
}

void ReplaySweeps::startGrid()
{
    const QString key = gridKey(m_knobs);
    if (m_grids.contains(key) || m_gridInFlight == key)
        return;
    m_gridInFlight = key;
    const int id = m_latestGrid->fetch_add(1) + 1;
    QMetaObject::invokeMethod(
        m_worker,
        [this, id, key, seq = m_seq, knobs = m_knobs, latest = m_latestGrid] {
            const auto stale = [&] { return latest->load() != id; };
            if (stale())
                return;
            QElapsedTimer clock;
            clock.start();
            const std::vector<double> grid = computeGrid(*seq, knobs, stale);
            if (stale())
                return;
            QMetaObject::invokeMethod(
                this, [this, id, key, grid, ms = elapsedMs(clock)] { deliverGrid(id, key, grid, ms); },
                Qt::QueuedConnection);
        },
        Qt::QueuedConnection);
}

void ReplaySweeps::flush()
{
    if (!m_seq)
        return;
    const bool pending = m_debounce.isActive();
    m_debounce.stop();
    const auto never = [] { return false; };
    QElapsedTimer clock;
    if (pending || m_curveDone != m_latestCurve->load()) {
        const int id = m_latestCurve->fetch_add(1) + 1; // the worker's job, if any, is dropped
        clock.start();
        const Curve curve = computeCurve(*m_seq, m_knobs, never);
        deliverCurve(id, curve, elapsedMs(clock));
    }
    const QString key = gridKey(m_knobs);
    if (!m_grids.contains(key)) {
        const int id = m_latestGrid->fetch_add(1) + 1;
        m_gridInFlight = key;
        clock.start();
        const std::vector<double> grid = computeGrid(*m_seq, m_knobs, never);
        deliverGrid(id, key, grid, elapsedMs(clock));
    }
}

void ReplaySweeps::deliverCurve(int id, const Curve& curve, double ms)
{
    if (id != m_latestCurve->load())
        return;
    m_curveDone = id;
    m_curve = curve;
    m_lastCurveMs = ms;
    Q_EMIT curveAvailable();
}

void ReplaySweeps::deliverGrid(int id, const QString& key, const std::vector<double>& grid, double ms)
{
    if (id != m_latestGrid->load())
        return;
    if (m_gridInFlight == key)
        m_gridInFlight.clear();
    if (m_grids.size() >= gridLimit)
        m_grids.clear();
    m_grids.insert(key, grid);
    m_lastGridMs = ms;
    Q_EMIT gridAvailable();
}

} // namespace synctax
