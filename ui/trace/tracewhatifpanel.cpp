#include "ui/trace/tracewhatifpanel.h"

#include "core/probe/traceopen.h"

#include "core/text/format.h"
#include "core/trace/tracewhatiftable.h"
#include "ui/trace/tracewhatifmodel.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QGridLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QSignalBlocker>
#include <QSlider>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace synctax {

namespace {

constexpr int stepsPerMs = 2; // the slider's 0.5 ms steps
constexpr int maxMs = 50;

} // namespace

TraceWhatIfPanel::TraceWhatIfPanel(QWidget* parent)
    : QWidget(parent)
    , m_model(new TraceWhatIfModel(this))
    , m_fileBox(new QComboBox(this))
    , m_fileLabel(new QLabel(tr("&File:"), this))
    , m_slider(new QSlider(Qt::Horizontal, this))
    , m_spin(new QDoubleSpinBox(this))
    , m_hostLabel(new QLabel(this))
    , m_table(new QTableView(this))
    , m_note(new QLabel(this))
    , m_phases(new QLineEdit(this))
    , m_phasesError(new QLabel(this))
{
    setObjectName(QStringLiteral("traceWhatIf"));
    m_fileBox->setObjectName(QStringLiteral("whatIfFile"));
    m_fileLabel->setBuddy(m_fileBox);
    m_slider->setObjectName(QStringLiteral("whatIfHostWork"));
    m_slider->setRange(0, maxMs * stepsPerMs);
    m_slider->setSingleStep(1);
    m_slider->setPageStep(10 * stepsPerMs);
    m_slider->setTickInterval(10 * stepsPerMs);
    m_slider->setTickPosition(QSlider::TicksBelow);
    m_slider->setToolTip(tr("Host work added to every step, as slower data loading would add it (Ctrl+Shift+H)"));
    m_spin->setObjectName(QStringLiteral("whatIfHostWorkMs"));
    m_spin->setRange(0, maxMs);
    m_spin->setSingleStep(1.0 / stepsPerMs);
    m_spin->setDecimals(1);
    m_spin->setSuffix(tr(" ms"));
    m_spin->setKeyboardTracking(false); // a value typed is taken at Enter, not at each digit
    m_hostLabel->setObjectName(QStringLiteral("whatIfHostWorkLabel"));
    m_table->setObjectName(QStringLiteral("whatIfTable"));
    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 6);
    // The style names take what the numbers leave.
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(TraceWhatIfModel::Style, QHeaderView::Stretch);
    m_phases->setObjectName(QStringLiteral("whatIfPhases"));
    m_phases->setPlaceholderText(tr("forward, backward, optimizer (ms, from an idle GPU); several: ; between"));
    m_phases->setToolTip(tr("The loop's phases timed without the profiler, each from an idle GPU: the forward from "
                            "the step's start (zero_grad, data and loss in it), loss.backward() and "
                            "optimizer.step(), in ms. The trace's phases are mapped onto them, which brings "
                            "its host closer to the unprofiled loop than the profiler's cost per event. Several "
                            "timings, one per block of steps with ; between (as synctax-run trace --phases-file "
                            "reads them a line each), replay the host's spread from block to block. Empty: the "
                            "trace alone."));
    m_phases->setClearButtonEnabled(true);
    m_phasesError->setObjectName(QStringLiteral("whatIfPhasesError"));
    m_phasesError->setStyleSheet(QStringLiteral("color: #b00020"));
    m_phasesError->setWordWrap(true);
    m_phasesError->hide();
    m_note->setObjectName(QStringLiteral("whatIfNote"));
    m_note->setWordWrap(true);
    m_note->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* title = new QLabel(tr("<b>What if you logged differently</b>"), this);
    title->setToolTip(tr("Each logging style replayed on this trace's median step, brought to unprofiled timing: "
                         "its step time and its tax against the same loop with no per-step sync"));
    auto* hostTitle = new QLabel(tr("&Host work:"), this);
    hostTitle->setBuddy(m_slider);
    auto* controls = new QGridLayout;
    controls->addWidget(m_fileLabel, 0, 0);
    controls->addWidget(m_fileBox, 0, 1, 1, 2);
    controls->addWidget(hostTitle, 1, 0);
    controls->addWidget(m_slider, 1, 1);
    controls->addWidget(m_spin, 1, 2);
    controls->addWidget(m_hostLabel, 2, 1, 1, 2);
    m_phasesTitle = new QLabel(tr("Ph&ases:"), this);
    m_phasesTitle->setBuddy(m_phases);
    controls->addWidget(m_phasesTitle, 3, 0);
    controls->addWidget(m_phases, 3, 1, 1, 2);
    controls->addWidget(m_phasesError, 4, 1, 1, 2);
    controls->setColumnStretch(1, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(title);
    layout->addLayout(controls);
    layout->addWidget(m_table, 1);
    layout->addWidget(m_note);
    // Takes the table's room while it is hidden (no replay), so the controls stay packed at the top.
    layout->addStretch(0);

    connect(m_slider, &QSlider::valueChanged, this, [this](int value) {
        const QSignalBlocker block(m_spin);
        m_spin->setValue(double(value) / stepsPerMs);
        recompute();
    });
    // A value between steps goes to the nearest step, and the box shows the value replayed.
    connect(m_spin, &QDoubleSpinBox::valueChanged, this, [this](double ms) {
        setHostWorkMs(ms);
        const QSignalBlocker block(m_spin);
        m_spin->setValue(hostWorkMs());
    });
    connect(m_fileBox, &QComboBox::currentIndexChanged, this, &TraceWhatIfPanel::setCurrentSource);
    connect(m_phases, &QLineEdit::editingFinished, this, [this] { setPhasesText(m_phases->text()); });
    setSources({});
}

void TraceWhatIfPanel::setSources(std::vector<Source> sources)
{
    const QString picked = m_current >= 0 && m_current < sourceCount() ? m_sources[size_t(m_current)].label : QString();
    m_sources = std::move(sources);
    m_phased.reset(); // made from a loop that may be gone
    m_phasedFrom = nullptr;
    int current = m_sources.empty() ? -1 : 0;
    for (int i = 0; i < sourceCount(); ++i) {
        if (!picked.isEmpty() && m_sources[size_t(i)].label == picked)
            current = i;
    }
    {
        const QSignalBlocker block(m_fileBox);
        m_fileBox->clear();
        for (const Source& s : m_sources)
            m_fileBox->addItem(s.label);
        m_fileBox->setCurrentIndex(current);
    }
    m_fileBox->setVisible(sourceCount() > 1);
    m_fileLabel->setVisible(sourceCount() > 1);
    m_current = current;
    recompute();
}

void TraceWhatIfPanel::setCurrentSource(int index)
{
    if (index < 0 || index >= sourceCount() || index == m_current)
        return;
    m_current = index;
    {
        const QSignalBlocker block(m_fileBox);
        m_fileBox->setCurrentIndex(index);
    }
    recompute();
}

const ImportedLoop* TraceWhatIfPanel::sourceLoop() const
{
    return m_current >= 0 && m_current < sourceCount() ? m_sources[size_t(m_current)].loop.get() : nullptr;
}

const ImportedLoop* TraceWhatIfPanel::currentLoop() const
{
    const ImportedLoop* loop = sourceLoop();
    return loop && m_phased && m_phasedFrom == loop ? m_phased.get() : loop;
}

ImportedLoop TraceWhatIfPanel::calibrated(const ImportedLoop& loop) const
{
    if (m_phaseTimings.empty() || !loop.available)
        return loop;
    if (&loop == m_phasedFrom && m_phased)
        return *m_phased;
    ImportedLoopOptions options = phasesOptions(m_phaseTimings);
    options.withoutLine = loop.options.withoutLine; // a probe folder's deferred line keeps its row
    return recalibrated(loop, options);
}

WhatIf TraceWhatIfPanel::whatIfOf(const ImportedLoop& loop) const
{
    return synctax::whatIf(loop, 1000.0 * hostWorkMs());
}

bool TraceWhatIfPanel::setPhasesText(const QString& text)
{
    const PhasesListRead read = readPhasesList(text.trimmed().toStdString());
    if (!read.problem.empty()) {
        m_phasesError->setText(tr("Phases: %1.").arg(QString::fromStdString(read.problem)));
        m_phasesError->show();
        return false;
    }
    m_phasesError->clear();
    m_phasesError->hide();
    if (m_phases->text() != text)
        m_phases->setText(text);
    if (read.rows != m_phaseTimings) {
        m_phaseTimings = read.rows;
        m_phased.reset();
        m_phasedFrom = nullptr;
        recompute();
    }
    return true;
}

std::optional<std::array<double, 3>> TraceWhatIfPanel::phasesMs() const
{
    if (m_phaseTimings.empty())
        return std::nullopt;
    return m_phaseTimings.size() == 1 ? m_phaseTimings.front() : medianPhases(m_phaseTimings);
}

QString TraceWhatIfPanel::phasesError() const { return m_phasesError->text(); }

double TraceWhatIfPanel::hostWorkMs() const { return double(m_slider->value()) / stepsPerMs; }

void TraceWhatIfPanel::setHostWorkMs(double ms)
{
    m_slider->setValue(int(std::lround(std::clamp(ms, 0.0, double(maxMs)) * stepsPerMs)));
}

const WhatIf& TraceWhatIfPanel::whatIf() const { return m_model->whatIf(); }

void TraceWhatIfPanel::focusHostWork() { m_slider->setFocus(Qt::ShortcutFocusReason); }

QString TraceWhatIfPanel::hostWorkLabel() const { return m_hostLabel->text(); }

QString TraceWhatIfPanel::note() const { return m_note->text(); }

void TraceWhatIfPanel::recompute()
{
    m_hostLabel->setText(tr("if your data loading took %1 ms more per step")
                             .arg(QString::fromStdString(formatNumber("%.1f", hostWorkMs()))));
    // The file's loop, calibrated to the phases given (once per file and phases: the slider only replays).
    const ImportedLoop* source = sourceLoop();
    if (!m_phaseTimings.empty() && source && source->available && m_phasedFrom != source) {
        m_phased = std::make_shared<const ImportedLoop>(calibrated(*source));
        m_phasedFrom = source;
    }
    const ImportedLoop* loop = currentLoop();
    const bool available = loop && loop->available;
    m_slider->setEnabled(available);
    m_slider->setTracking(!available || loop->spreadBase.empty()); // a spread's replay is too dear to drag
    m_spin->setEnabled(available);
    m_table->setVisible(available);
    // Phases calibrate a replay: with none to calibrate, there is nothing to type (the file's own
    // loop decides, so that phases which spoil the replay can still be corrected).
    const bool replayable = source && source->available;
    m_phases->setEnabled(replayable);
    m_phasesTitle->setEnabled(replayable);
    if (!available) {
        m_model->setWhatIf({});
        // A probe's folder keeps what it measured (its A/B, the capture check, its own time) when
        // there is nothing to replay: a CPU run's, say.
        m_note->setText(withProbeAnswer(!loop
                ? (m_sources.empty() ? tr("No trace open.") : tr("Not available: no replay prepared."))
                : tr("Not available: %1.").arg(QString::fromStdString(loop->reason)),
            nullptr));
        Q_EMIT whatIfChanged();
        return;
    }
    m_model->setWhatIf(whatIfOf(*loop));
    const WhatIf& w = m_model->whatIf();
    m_note->setText(
        withProbeAnswer(tr("Model: %1.\nUncertainty: %2.")
                            .arg(QString::fromStdString(w.model), QString::fromStdString(uncertaintyText(w))),
            &w));
    Q_EMIT whatIfChanged();
}

QString TraceWhatIfPanel::withProbeAnswer(const QString& note, const WhatIf* whatIf) const
{
    if (m_current < 0 || m_current >= sourceCount() || !m_sources[size_t(m_current)].probe)
        return note;
    return note + QStringLiteral("\n")
        + QString::fromStdString(formatProbeAnswer(*m_sources[size_t(m_current)].probe, whatIf, 0)).trimmed();
}

} // namespace synctax
