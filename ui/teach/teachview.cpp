#include "ui/teach/teachview.h"

#include "core/queuemodel/regime.h"
#include "core/queuemodel/taxestimate.h"
#include "core/text/format.h"
#include "ui/charts/taxcurvechart.h"
#include "ui/teach/pipelinewidget.h"
#include "ui/teach/regimeheatmap.h"
#include "ui/teach/replaysweeps.h"

#include <QDoubleSpinBox>
#include <QGridLayout>
#include <QGroupBox>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSlider>
#include <QVBoxLayout>
#include <cmath>

namespace synctax {

namespace {

constexpr int sliderSteps = 1000;
// The sync interval's slider: log-spaced 1…100, and one more position for "no sync".
constexpr int intervalPositions = 100;

QString regimeExplanation(const QString& regime)
{
    if (regime == QLatin1String("dispatch_bound"))
        return TeachView::tr("the GPU keeps up with the host, so the queue is nearly empty anyway and a sync costs "
                             "about one round trip L.");
    if (regime == QLatin1String("gpu_bound"))
        return TeachView::tr("the GPU is the bottleneck: a sync waits for work that had to run anyway and loses "
                             "only the bubble while the host refills the queue.");
    return TeachView::tr("host and GPU take turns instead of overlapping, so the tax approaches min(D + H, G) per "
                         "step: the middle regime.");
}

} // namespace

TeachView::TeachView(QWidget* parent)
    : QWidget(parent)
    , m_headline(new QLabel(this))
    , m_pipeline(new PipelineWidget(this))
    , m_taxCurve(new TaxCurveChart(this))
    , m_heatmap(new RegimeHeatmap(this))
    , m_modelLabel(new QLabel(this))
    , m_sweeps(new ReplaySweeps(this))
{
    m_modelLabel->setObjectName(QStringLiteral("teachModelLabel"));
    m_modelLabel->setWordWrap(true);
    m_headline->setWordWrap(true);
    m_headline->setTextFormat(Qt::RichText);
    m_headline->setObjectName(QStringLiteral("teachHeadline"));
    QFont headlineFont = m_headline->font();
    headlineFont.setPointSizeF(headlineFont.pointSizeF() * 1.15);
    m_headline->setFont(headlineFont);
    m_headline->setMinimumHeight(QFontMetrics(headlineFont).height() * 3);

    auto* charts = new QHBoxLayout;
    charts->addWidget(m_taxCurve, 1);
    charts->addWidget(m_heatmap, 1);
    auto* right = new QVBoxLayout;
    right->addWidget(m_modelLabel);
    right->addWidget(m_headline);
    // The pipeline's lanes have a natural height; the charts take what is left.
    m_pipeline->setMaximumHeight(410);
    right->addWidget(m_pipeline, 0);
    right->addLayout(charts, 1);

    auto* root = new QHBoxLayout(this);
    root->addWidget(createControls());
    root->addLayout(right, 1);

    applyPreset(Preset::SlowInputPipeline);
}

QWidget* TeachView::createControls()
{
    auto* column = new QWidget(this);
    column->setMaximumWidth(380);
    auto* layout = new QVBoxLayout(column);
    layout->setContentsMargins(0, 0, 0, 0);

    auto* modelBox = new QGroupBox(tr("Training loop (per step)"), column);
    auto* grid = new QGridLayout(modelBox);
    addControl(
        grid, D, tr("D dispatch"), tr("Host time to dispatch one step's K launches"), 0.05, 50, true, 2, tr(" ms"));
    addControl(grid, G, tr("G GPU"), tr("GPU time of one step"), 0.05, 100, true, 2, tr(" ms"));
    addControl(grid, H, tr("H host work"),
        tr("Other host work per step before its launches: data loading, Python logic"), 0, 50, false, 2, tr(" ms"));
    addControl(
        grid, L, tr("L round trip"), tr("Round trip of one sync once the GPU is idle"), 1, 100, true, 1, tr(" µs"));
    addControl(grid, K, tr("K launches"), tr("Kernel launches per step"), 1, 2000, true, 0, QString());
    addControl(grid, Q, tr("Q queue"),
        tr("Launches the queue holds before a launch blocks the host (1021 measured on the H200)"), 8, 4096, true, 0,
        QString());
    addControl(grid, N, tr("sync every"),
        tr("A loss.item() every n steps; at the right end no sync at all (the baseline only)"), 1, 100, true, 0,
        tr(" steps"));
    layout->addWidget(modelBox);
    layout->addWidget(createSequenceControls(column));

    auto* presets = new QGroupBox(tr("Presets (measured on an H200)"), column);
    auto* presetLayout = new QVBoxLayout(presets);
    const std::pair<QString, Preset> buttons[] = {
        { tr("tiny MLP (dispatch-bound)"), Preset::TinyMlp },
        { tr("ResNet50 (GPU-bound, K > Q)"), Preset::ResNet50 },
        { tr("slow input pipeline (middle regime)"), Preset::SlowInputPipeline },
    };
    for (const auto& [text, preset] : buttons) {
        auto* button = new QPushButton(text, presets);
        connect(button, &QPushButton::clicked, this, [this, preset = preset] { applyPreset(preset); });
        presetLayout->addWidget(button);
    }
    layout->addWidget(presets);

    auto* animation = new QGroupBox(tr("Animation"), column);
    auto* animationLayout = new QGridLayout(animation);
    m_speed = new QSlider(Qt::Horizontal, animation);
    m_speed->setObjectName(QStringLiteral("speedSlider"));
    m_speed->setRange(0, 100); // 0.1× … 10×, log
    m_speed->setValue(50);
    m_speedLabel = new QLabel(animation);
    m_speedLabel->setWordWrap(true);
    m_pause = new QPushButton(tr("Pause"), animation);
    m_pause->setCheckable(true);
    animationLayout->addWidget(new QLabel(tr("speed"), animation), 0, 0);
    animationLayout->addWidget(m_speed, 0, 1);
    animationLayout->addWidget(m_pause, 0, 2);
    animationLayout->addWidget(m_speedLabel, 1, 0, 1, 3);
    connect(m_speed, &QSlider::valueChanged, this, &TeachView::updateSpeed);
    connect(m_pause, &QPushButton::toggled, this, [this](bool paused) {
        m_pipeline->setPaused(paused);
        m_pause->setText(paused ? tr("Play") : tr("Pause"));
    });
    layout->addWidget(animation);
    layout->addStretch(1);
    return column;
}

void TeachView::addControl(QGridLayout* grid, Parameter parameter, const QString& name, const QString& tip, double low,
    double high, bool logScale, int decimals, const QString& suffix)
{
    Control& c = m_controls[size_t(parameter)];
    c.low = low;
    c.high = high;
    c.logScale = logScale;
    c.slider = new QSlider(Qt::Horizontal, grid->parentWidget());
    c.slider->setRange(0, parameter == N ? intervalPositions : sliderSteps);
    c.box = new QDoubleSpinBox(grid->parentWidget());
    c.box->setDecimals(decimals);
    c.box->setRange(parameter == N ? 0 : low, high);
    c.box->setSuffix(suffix);
    c.box->setStepType(QAbstractSpinBox::AdaptiveDecimalStepType);
    if (parameter == N)
        c.box->setSpecialValueText(tr("no sync"));
    c.box->setMinimumWidth(96);
    c.slider->setObjectName(QStringLiteral("slider_") + name.section(QLatin1Char(' '), 0, 0));
    c.box->setObjectName(QStringLiteral("box_") + name.section(QLatin1Char(' '), 0, 0));
    auto* label = new QLabel(name, grid->parentWidget());
    for (QWidget* w : { static_cast<QWidget*>(label), static_cast<QWidget*>(c.slider), static_cast<QWidget*>(c.box) })
        w->setToolTip(tip);
    const int row = grid->rowCount();
    grid->addWidget(label, row, 0);
    grid->addWidget(c.slider, row, 1);
    grid->addWidget(c.box, row, 2);

    connect(c.slider, &QSlider::valueChanged, this, [this, parameter](int position) {
        Control& control = m_controls[size_t(parameter)];
        const QSignalBlocker blocker(control.box);
        control.box->setValue(fromSlider(parameter, position));
        modelEdited();
    });
    connect(c.box, &QDoubleSpinBox::valueChanged, this, [this, parameter](double value) {
        Control& control = m_controls[size_t(parameter)];
        const QSignalBlocker blocker(control.slider);
        control.slider->setValue(toSlider(parameter, value));
        if (parameter == N)
            control.box->setSuffix(value == 1 ? tr(" step") : tr(" steps"));
        modelEdited();
    });
}

double TeachView::fromSlider(Parameter parameter, int position) const
{
    const Control& c = m_controls[size_t(parameter)];
    if (parameter == N) {
        if (position >= intervalPositions)
            return 0;
        return std::round(std::pow(10.0, 2.0 * position / (intervalPositions - 1)));
    }
    const double f = double(position) / sliderSteps;
    const double value = c.logScale ? c.low * std::pow(c.high / c.low, f) : c.low + (c.high - c.low) * f;
    return c.box->decimals() == 0 ? std::round(value) : value;
}

int TeachView::toSlider(Parameter parameter, double value) const
{
    const Control& c = m_controls[size_t(parameter)];
    if (parameter == N) {
        if (value < 1)
            return intervalPositions;
        return int(std::lround((intervalPositions - 1) * std::log10(value) / 2.0));
    }
    const double v = std::clamp(value, c.low, c.high);
    const double f = c.logScale ? std::log(v / c.low) / std::log(c.high / c.low) : (v - c.low) / (c.high - c.low);
    return int(std::lround(f * sliderSteps));
}

void TeachView::setValue(Parameter parameter, double value) { m_controls[size_t(parameter)].box->setValue(value); }

QueueModel TeachView::presetModel(Preset preset)
{
    QueueModel m;
    m.queueCapacity = 1021;
    switch (preset) {
    case Preset::TinyMlp:
        m.dMs = 1.0, m.gMs = 0.23, m.hUs = 0, m.lUs = 8, m.k = 59;
        break;
    case Preset::ResNet50:
        m.dMs = 2.9, m.gMs = 33, m.hUs = 0, m.lUs = 9, m.k = 1265;
        break;
    case Preset::SlowInputPipeline:
        m.dMs = 1, m.gMs = 5, m.hUs = 4000, m.lUs = 8, m.k = 100;
        break;
    }
    return m;
}

void TeachView::applyPreset(Preset preset)
{
    // The preset keeps the sync interval the user chose; the first one syncs every step.
    const int64_t n = m_regime.isEmpty() ? 1 : syncEveryN();
    setModel(presetModel(preset), n);
}

void TeachView::setModel(const QueueModel& model, int64_t syncEveryN)
{
    m_applying = true;
    dropSequence();
    setValue(D, model.dMs);
    setValue(G, model.gMs);
    setValue(H, model.hUs * 1e-3);
    setValue(L, model.lUs);
    setValue(K, double(model.k));
    setValue(Q, double(model.queueCapacity));
    setValue(N, double(std::max<int64_t>(0, syncEveryN)));
    m_applying = false;
    modelEdited();
}

QueueModel TeachView::model() const
{
    QueueModel m;
    m.dMs = m_controls[D].box->value();
    m.gMs = m_controls[G].box->value();
    m.hUs = m_controls[H].box->value() * 1e3;
    m.lUs = m_controls[L].box->value();
    m.k = int64_t(std::llround(m_controls[K].box->value()));
    m.queueCapacity = int64_t(std::llround(m_controls[Q].box->value()));
    return m;
}

int64_t TeachView::syncEveryN() const { return int64_t(std::llround(m_controls[N].box->value())); }

QString TeachView::headline() const { return m_headline->text(); }

void TeachView::flush()
{
    if (m_sequence) {
        m_sweeps->flush();
        showReplayCharts();
        return;
    }
    m_taxCurve->flush();
    m_heatmap->flush();
}

void TeachView::modelEdited()
{
    if (m_applying)
        return;
    const int64_t n = syncEveryN();
    if (m_sequence)
        showReplay(n);
    else
        showUniform(model(), n);
    m_modelLabel->setText(tr("Model: %1").arg(modelLabel()));
    updateSpeed();
    Q_EMIT modelChanged();
}

void TeachView::showUniform(const QueueModel& m, int64_t n)
{
    const SyncTaxEstimate estimate = estimateSyncTax(m, n);
    m_regime = QString::fromStdString(classifyRegime(m.dMs, m.gMs, m.hUs));
    setHeadline(estimate, m.dMs, m.gMs, m.hUs, m.lUs, n);
    m_pipeline->setModel(m, n);
    m_taxCurve->setModel(m, n);
    m_heatmap->setModel(m);
}

void TeachView::setHeadline(const SyncTaxEstimate& estimate, double dMs, double gMs, double hUs, double lUs, int64_t n)
{
    m_taxPct = estimate.taxPct;
    QString first;
    if (n <= 0) {
        first = tr("<b>No sync:</b> the loop runs at %1 ms per step, the host running ahead of the GPU as far as the "
                   "queue lets it.")
                    .arg(estimate.msPerStepWithout, 0, 'f', 2);
    } else {
        first = tr("<b>%1 costs %2%3% here</b>: %4 ms per step instead of %5 ms; in each sync the host waits "
                   "%6 ms for the GPU (L = %7 µs of it).")
                    .arg(QString::fromStdString(syncEveryLabel(n)))
                    .arg(m_taxPct >= 0 ? QStringLiteral("+") : QString())
                    .arg(m_taxPct, 0, 'f', std::abs(m_taxPct) < 1 ? 2 : 1)
                    .arg(estimate.msPerStepWith, 0, 'f', 2)
                    .arg(estimate.msPerStepWithout, 0, 'f', 2)
                    .arg(estimate.waitMsPerSync, 0, 'f', 2)
                    .arg(lUs, 0, 'g', 3);
    }
    const QString second = tr("Regime: <b>%1</b> (D + H = %2 ms, G = %3 ms): %4")
                               .arg(m_regime)
                               .arg(dMs + hUs * 1e-3, 0, 'f', 2)
                               .arg(gMs, 0, 'f', 2)
                               .arg(regimeExplanation(m_regime));
    m_headline->setText(first + QStringLiteral("<br>") + second);
}

void TeachView::updateSpeed()
{
    const double speed = std::pow(10.0, (m_speed->value() - 50) / 50.0);
    m_pipeline->setSpeed(speed);
    const double simulatedMsPerSecond = m_pipeline->windowMs() / PipelineWidget::baseSeconds() * speed;
    m_speedLabel->setText(
        tr("%1× — 1 s on screen = %2 ms of the loop").arg(speed, 0, 'g', 2).arg(simulatedMsPerSecond, 0, 'g', 3));
}

} // namespace synctax
