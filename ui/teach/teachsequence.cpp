// The Teach window's side of a recorded launch sequence: loading one (a Kineto trace through the
// Trace view's TraceLoader, on its worker), the sliders it fixes (D, G, K), and the replay that then
// makes every number and chart, its sweeps on ReplaySweeps' worker. The uniform model is teachview.cpp.
#include "ui/teach/teachview.h"

#include "core/analysis/replayfit.h"
#include "core/results/resultsloader.h"
#include "core/text/format.h"
#include "core/trace/tracewhatif.h"
#include "ui/charts/taxcurvechart.h"
#include "ui/teach/pipelinewidget.h"
#include "ui/teach/regimeheatmap.h"
#include "ui/teach/replaysweeps.h"
#include "ui/trace/tracefiles.h"
#include "ui/trace/traceloader.h"

#include <QAction>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QGridLayout>
#include <QGroupBox>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSlider>
#include <algorithm>

namespace synctax {

namespace {

ReplayKnobs knobsOf(const QueueModel& m, int64_t n) { return { m.hUs, m.lUs, m.queueCapacity, n }; }

} // namespace

QWidget* TeachView::createSequenceControls(QWidget* parent)
{
    auto* box = new QGroupBox(tr("Launch sequence (a recorded step)"), parent);
    auto* grid = new QGridLayout(box);
    m_loadButton = new QPushButton(tr("Load launch sequence…"), box);
    m_loadButton->setObjectName(QStringLiteral("loadLaunchSequence"));
    m_loadButton->setToolTip(tr("Replay a real step instead of K even launches: its launches, their host and GPU "
                                "times, from a PyTorch-profiler trace (.json, .json.gz). Ctrl+L"));
    auto* loadAction = new QAction(tr("Load launch sequence…"), this);
    loadAction->setShortcut(QKeySequence(tr("Ctrl+L")));
    loadAction->setShortcutContext(Qt::WindowShortcut);
    addAction(loadAction);
    m_backButton = new QPushButton(tr("Back to the sliders"), box);
    m_backButton->setObjectName(QStringLiteral("backToSliders"));
    m_backButton->setEnabled(false);
    m_loadProgress = new QProgressBar(box);
    m_loadProgress->setRange(0, 1000);
    m_loadProgress->setTextVisible(false);
    m_cancelLoad = new QPushButton(tr("Cancel"), box);
    m_loadStatus = new QLabel(box);
    m_loadStatus->setObjectName(QStringLiteral("launchSequenceStatus"));
    m_loadStatus->setWordWrap(true);
    grid->addWidget(m_loadButton, 0, 0);
    grid->addWidget(m_backButton, 0, 1);
    grid->addWidget(m_loadProgress, 1, 0);
    grid->addWidget(m_cancelLoad, 1, 1);
    grid->addWidget(m_loadStatus, 2, 0, 1, 2);
    setSequenceLoading(false);

    // The Trace view's loader, without the timeline's lanes this window never draws.
    m_loader = new TraceLoader(this);
    m_loader->setLoadFunction(readAndAnalyseTraceWithoutLanes);
    connect(m_loadButton, &QPushButton::clicked, this, &TeachView::chooseLaunchSequence);
    connect(loadAction, &QAction::triggered, this, &TeachView::chooseLaunchSequence);
    connect(m_backButton, &QPushButton::clicked, this, &TeachView::clearLaunchSequence);
    connect(m_cancelLoad, &QPushButton::clicked, m_loader, &TraceLoader::cancel);
    connect(m_loader, &TraceLoader::progress, this,
        [this](int, quint64 read, quint64 bytes, const QString& eta, int permille, bool analysing) {
            m_loadProgress->setValue(permille);
            m_loadStatus->setText(analysing ? tr("Analysing the trace's steps…") : traceReadingText(read, bytes, eta));
        });
    connect(m_loader, &TraceLoader::traceAvailable, this, [this](int, const TraceFilesPtr& files) {
        setSequenceLoading(false);
        const TraceFile& file = files->front();
        // The loop the load prepared (openTrace), as the Trace view replays it.
        ImportedLoop notPrepared;
        notPrepared.reason = "no replay prepared for this file";
        const ImportedLoop& loop = file.loop ? *file.loop : notPrepared;
        const QString name = QFileInfo(QString::fromStdString(file.path)).fileName();
        if (!loop.available) {
            sequenceFailed(tr("%1: %2").arg(name, QString::fromStdString(loop.reason)));
            return;
        }
        setLaunchSequence(loop.base, name, loop.costs.syncUs);
        const QString syncs = loop.recordedSyncsPerStep > 0
            ? tr("its %1 syncs taken out").arg(loop.recordedSyncsPerStep, 0, 'g', 3)
            : tr("no sync in it");
        m_loadStatus->setText(tr("The median of %1 steps, %2; %3. L starts at a Python .item() on the H200.")
                                  .arg(file.report.steps.size())
                                  .arg(syncs, QString::fromStdString(loop.calibration.how)));
    });
    connect(m_loader, &TraceLoader::loadFailed, this, [this](int, const QString& message) { sequenceFailed(message); });
    connect(m_loader, &TraceLoader::loadCancelled, this, [this] {
        setSequenceLoading(false);
        m_loadStatus->setText(tr("Load cancelled; the view is as it was."));
    });
    connect(m_sweeps, &ReplaySweeps::curveAvailable, this, &TeachView::showReplayCharts);
    connect(m_sweeps, &ReplaySweeps::gridAvailable, this, &TeachView::showReplayCharts);
    return box;
}

void TeachView::chooseLaunchSequence()
{
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Load launch sequence"), QString(), tr("PyTorch profiler traces (*.json *.json.gz);;All files (*)"));
    if (!path.isEmpty())
        loadLaunchSequence(path);
}

void TeachView::loadLaunchSequence(const QString& path)
{
    m_loader->cancel(); // a load still running was for another file
    m_sequencePath = path;
    if (!QFileInfo(path).isFile()) {
        sequenceFailed(tr("%1: no such file").arg(path));
        return;
    }
    if (!looksLikeKinetoTrace(path)) {
        loadSequenceFromResults(path);
        return;
    }
    m_loader->load({ path });
    setSequenceLoading(true);
}

void TeachView::loadSequenceFromResults(const QString& path)
{
    // A run's results JSON holds each model and mode's captured step (CUDA builds with Kineto),
    // already calibrated to the run's unprofiled timing: the first group that has one.
    const ResultsLoadResult loaded = loadResultsFile(path.toStdString());
    const QString name = QFileInfo(path).fileName();
    if (!loaded.result) {
        sequenceFailed(tr("%1: %2").arg(name, QString::fromStdString(formatErrors(loaded.errors)).trimmed()));
        return;
    }
    for (const GroupResult& group : loaded.result->groups) {
        if (group.replay) {
            // With the GPU's start on an idle queue the run fitted to its step from idle; a step
            // calibrated by a cost per event (older runs) stretched evenly, as the runner does now.
            StepSequence step = recalibratedCapture(*group.replay).step;
            step.idleStartUs = group.replay->idleStartUs;
            setLaunchSequence(step,
                tr("%1 (%2/%3)").arg(name, QString::fromStdString(group.model), QString::fromStdString(group.mode)),
                group.replay->costs.syncUs);
            return;
        }
    }
    sequenceFailed(tr("%1: no group of this run has a captured launch sequence (they come from CUDA builds "
                      "with the PyTorch profiler)")
                       .arg(name));
}

void TeachView::setLaunchSequence(const StepSequence& step, const QString& label, std::optional<double> syncUs)
{
    if (step.ops.empty()) {
        sequenceFailed(tr("%1: its step launches no GPU work").arg(label));
        return;
    }
    if (!m_sequence)
        m_slidersBefore = model();
    m_sequence = std::make_shared<const StepSequence>(step);
    m_sequenceLabel = label;
    m_sweeps->setSequence(m_sequence);
    m_applying = true;
    setValue(H, 0); // the recorded step holds its own host work; H is what a user adds to it
    if (syncUs)
        setValue(L, *syncUs);
    setFixedBySequence(true);
    m_applying = false;
    m_backButton->setEnabled(true);
    m_loadStatus->clear();
    modelEdited();
    Q_EMIT launchSequenceLoaded();
}

void TeachView::clearLaunchSequence()
{
    if (!m_sequence)
        return;
    m_applying = true;
    dropSequence();
    setValue(D, m_slidersBefore.dMs);
    setValue(G, m_slidersBefore.gMs);
    setValue(K, double(m_slidersBefore.k));
    setValue(H, m_slidersBefore.hUs * 1e-3);
    setValue(L, m_slidersBefore.lUs);
    m_applying = false;
    m_loadStatus->clear();
    modelEdited();
}

void TeachView::dropSequence()
{
    if (!m_sequence)
        return;
    m_sequence.reset();
    m_sequenceLabel.clear();
    m_sweeps->setSequence(nullptr);
    setFixedBySequence(false);
    m_backButton->setEnabled(false);
}

QString TeachView::modelLabel() const
{
    if (!m_sequence)
        return tr("uniform model");
    return tr("replay of %1, %2 launches").arg(m_sequenceLabel).arg(m_sequence->ops.size());
}

ReplayRegime TeachView::launchSequenceRegime() const
{
    return m_sequence ? replayRegime(*m_sequence, model().hUs) : ReplayRegime {};
}

void TeachView::setFixedBySequence(bool fixed)
{
    const ReplayRegime regime = fixed ? launchSequenceRegime() : ReplayRegime {};
    const std::pair<Parameter, double> values[]
        = { { D, regime.dMs }, { G, regime.gMs }, { K, fixed ? double(m_sequence->ops.size()) : 0.0 } };
    for (const auto& [parameter, value] : values) {
        Control& c = m_controls[size_t(parameter)];
        // A sequence's value may lie off the slider's scale: the box shows it all the same.
        c.box->setRange(fixed ? std::min(c.low, value) : c.low, fixed ? std::max(c.high, value) : c.high);
        if (fixed)
            c.box->setValue(value);
        c.box->setEnabled(!fixed);
        c.slider->setEnabled(!fixed);
    }
}

void TeachView::setSequenceLoading(bool loading)
{
    m_loadProgress->setVisible(loading);
    m_cancelLoad->setVisible(loading);
    if (loading) {
        m_loadProgress->setValue(0);
        m_loadStatus->setText(tr("Reading %1…").arg(QFileInfo(m_sequencePath).fileName()));
    }
}

void TeachView::sequenceFailed(const QString& message)
{
    setSequenceLoading(false);
    m_loadStatus->setText(tr("<span style='color:#c0392b'>%1</span>").arg(message.toHtmlEscaped()));
    Q_EMIT launchSequenceFailed(message);
}

QueueModel TeachView::sequenceModel() const
{
    const ReplayRegime regime = launchSequenceRegime();
    QueueModel m = model();
    m.dMs = regime.dMs;
    m.gMs = regime.gMs;
    m.k = int64_t(m_sequence->ops.size());
    return m;
}

void TeachView::showReplay(int64_t n)
{
    const QueueModel drawn = sequenceModel();
    const ReplayKnobs knobs = knobsOf(drawn, n);
    m_regime = QString::fromStdString(launchSequenceRegime().label);
    setHeadline(replayedSyncTax(*m_sequence, knobs), drawn.dMs, drawn.gMs, drawn.hUs, drawn.lUs, n);
    m_pipeline->setModel(drawn, n, [seq = m_sequence, knobs](const StyleSpec& style, int64_t steps) {
        std::vector<StepRecord> records;
        replayStyleBlock(*seq, style, steps, knobs.options(), knobs.costs(), &records);
        return records;
    });
    m_sweeps->request(knobs);
    showReplayCharts();
}

void TeachView::showReplayCharts()
{
    if (!m_sequence)
        return;
    const QueueModel drawn = sequenceModel();
    const std::vector<double>* grid = m_sweeps->grid(knobsOf(drawn, 1));
    m_heatmap->showGrid(drawn, grid ? *grid : std::vector<double> {},
        tr("replay: D = %1 ms, L = %2 µs, K = %3, Q = %4; G by scaling its GPU ops")
            .arg(drawn.dMs, 0, 'g', 3)
            .arg(drawn.lUs, 0, 'g', 3)
            .arg(drawn.k)
            .arg(drawn.queueCapacity));

    const ReplaySweeps::Curve& curve = m_sweeps->curve();
    const QString title = tr("Tax vs G: the recorded step, its GPU ops scaled");
    if (curve.points.empty()) {
        m_taxCurve->showCurve({},
            QPointF(std::clamp(drawn.gMs, TaxCurveChart::minGMs, TaxCurveChart::maxGMs), m_taxPct),
            tr("computing the replay…"), title);
        return;
    }
    m_taxCurve->showCurve(curve.points, curve.current,
        tr("tax of %1 (replay, H %2 ms, L %3 µs)")
            .arg(QString::fromStdString(syncEveryLabel(curve.knobs.syncEveryN)))
            .arg(curve.knobs.hUs * 1e-3, 0, 'g', 3)
            .arg(curve.knobs.lUs, 0, 'g', 3),
        title);
}

} // namespace synctax
