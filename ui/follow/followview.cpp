#include "ui/follow/followview.h"

#include "core/text/format.h"
#include "ui/charts/abtaxchart.h"
#include "ui/charts/phasestepchart.h"
#include "ui/charts/sitewaitchart.h"
#include "ui/follow/followcalibrator.h"
#include "ui/follow/followcompare.h"
#include "ui/follow/followcontroller.h"
#include "ui/follow/followexport.h"
#include "ui/trace/tracewhatifpanel.h"

#include <QDir>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QTextDocument>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace synctax {

namespace {

// The folder as far as the what-if's note speaks of it: the A/B measured so far beside the prediction,
// as synctax-run trace DIR reads it: ab.json once written, else from the same blocks (abOfBlocks).
std::shared_ptr<const ProbeFolder> liveFolder(const FollowRun& run, const QString& dir)
{
    auto folder = std::make_shared<ProbeFolder>();
    folder->dir = dir.toStdString();
    folder->ended = run.end().has_value();
    folder->end = run.end();
    if (run.start())
        folder->cudaAvailable = run.start()->cudaAvailable;
    if (!run.blocks().empty())
        folder->blockSteps = run.blocks().back().steps;
    if (!run.hasAb())
        return folder;
    if (run.abWritten()) {
        static_cast<ProbeAb&>(*folder) = *run.abWritten();
        return folder;
    }
    ProbeLiveAb live;
    if (!run.ab().empty()) {
        const FollowAbPoint& last = run.ab().back();
        live = { last.rounds, last.item, last.control };
    }
    static_cast<ProbeAb&>(*folder) = abOfBlocks(run.blocks(), live, run.start() ? run.start()->ab : std::string());
    return folder;
}

// "1 step", "2 steps", or of another noun ("1 timed step", "2 step lines").
QString stepsText(int64_t n, const char* one = "step", const char* many = "steps")
{
    return QStringLiteral("%1 %2").arg(n).arg(FollowView::tr(n == 1 ? one : many));
}

QString siteLabel(const FollowSite& s)
{
    if (s.file.empty())
        return QStringLiteral("site %1 %2").arg(s.id).arg(QString::fromStdString(s.op));
    QString label = QStringLiteral("%1:%2 %3")
                        .arg(QFileInfo(QString::fromStdString(s.file)).fileName())
                        .arg(s.line)
                        .arg(QString::fromStdString(s.op));
    if (!s.userFile.empty() && (s.userFile != s.file || s.userLine != s.line))
        label
            += QStringLiteral(" (%1:%2)").arg(QFileInfo(QString::fromStdString(s.userFile)).fileName()).arg(s.userLine);
    return label;
}

} // namespace

FollowView::FollowView(QWidget* parent)
    : QWidget(parent)
    , m_controller(new FollowController(this))
    , m_calibrator(new FollowCalibrator(this))
    , m_banner(new QLabel(this))
    , m_stepChart(new PhaseStepChart(this))
    , m_siteChart(new SiteWaitChart(this))
    , m_taxChart(new AbTaxChart(this))
    , m_whatIf(new TraceWhatIfPanel(this))
    , m_whatIfStatus(new QLabel(this))
    , m_replay(new QPushButton(tr("&Replay This Loop"), this))
{
    setObjectName(QStringLiteral("followView"));
    m_banner->setObjectName(QStringLiteral("followBanner"));
    m_banner->setWordWrap(true);
    m_banner->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_banner->setMargin(6);
    m_stepChart->setObjectName(QStringLiteral("followStepChart"));
    m_stepChart->setMinimumHeight(260);
    m_siteChart->setObjectName(QStringLiteral("followSiteChart"));
    m_siteChart->setMinimumSize(460, 240);
    m_taxChart->setObjectName(QStringLiteral("followTaxChart"));
    m_taxChart->setMinimumSize(360, 240);
    m_whatIfStatus->setObjectName(QStringLiteral("followWhatIfStatus"));
    m_whatIfStatus->setWordWrap(true);
    m_replay->setObjectName(QStringLiteral("followReplay"));
    m_replay->setToolTip(tr("Open the Teach window on this loop's captured step, calibrated to the blocks timed "
                            "so far: its launches and the GPU's work, with the sliders for what you change"));
    m_replay->setEnabled(false);
    auto* compare = new QPushButton(tr("Co&mpare With Run…"), this);
    compare->setObjectName(QStringLiteral("followCompare"));
    compare->setToolTip(tr("This run beside another probe run folder: before and after moving a .item()"));
    auto* exportButton = new QPushButton(tr("E&xport…"), this);
    exportButton->setObjectName(QStringLiteral("followExport"));
    exportButton->setToolTip(tr("The charts (PNG, SVG, PDF), a report and the data (CSV), as read so far (Ctrl+E)"));

    auto* bottom = new QSplitter(Qt::Horizontal, this);
    bottom->addWidget(m_siteChart);
    bottom->addWidget(m_taxChart);
    bottom->setStretchFactor(0, 1);
    bottom->setStretchFactor(1, 1);
    auto* left = new QSplitter(Qt::Vertical, this);
    left->addWidget(m_stepChart);
    left->addWidget(bottom);
    left->setStretchFactor(0, 3);
    left->setStretchFactor(1, 2);
    auto* right = new QWidget(this);
    auto* rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    rightLayout->addWidget(m_whatIfStatus);
    rightLayout->addWidget(m_whatIf, 1);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_replay);
    buttons->addWidget(compare);
    buttons->addWidget(exportButton);
    rightLayout->addLayout(buttons);
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(left);
    split->addWidget(right);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_banner);
    layout->addWidget(split, 1);

    const FollowRun& run = m_controller->run();
    m_stepChart->setColumns({ &run.step(), &run.fMs(), &run.bMs(), &run.oMs(), &run.hostMs(), &run.gpuMs() });
    connect(m_controller, &FollowController::updatesAvailable, this, &FollowView::onUpdates);
    connect(m_controller, &FollowController::followFinished, this, [this] { updateBanner(); });
    connect(m_calibrator, &FollowCalibrator::loopAvailable, this, &FollowView::updateWhatIf);
    connect(m_calibrator, &FollowCalibrator::calibrationFailed, this, [this](const QString& message) {
        m_whatIfStatus->setText(tr("The what-if could not read the profiled capture: %1").arg(message));
        Q_EMIT noteAvailable(m_whatIfStatus->text());
    });
    connect(m_replay, &QPushButton::clicked, this, &FollowView::replayLoop);
    connect(compare, &QPushButton::clicked, this, &FollowView::compareRequested);
    connect(exportButton, &QPushButton::clicked, this, &FollowView::exportRequested);
    m_clock.setInterval(1000);
    connect(&m_clock, &QTimer::timeout, this, &FollowView::updateBanner);
    updateBanner();
    updateWhatIf();
}

FollowView::~FollowView() { m_controller->stop(); }

QString FollowView::dir() const { return m_controller->dir(); }

bool FollowView::follow(const QString& dir, const FollowOptions& options)
{
    m_calibrator->reset();
    m_arrivals.clear();
    m_notesTold = 0;
    if (!m_controller->start(dir, options))
        return false;
    m_sinceStep.start();
    m_followTime.start();
    m_stepChart->setColumns({ &m_controller->run().step(), &m_controller->run().fMs(), &m_controller->run().bMs(),
        &m_controller->run().oMs(), &m_controller->run().hostMs(), &m_controller->run().gpuMs() });
    m_stepChart->setSubtitle(QString());
    updateSites();
    updateTax();
    updateWhatIf();
    updateBanner();
    m_clock.start();
    return true;
}

void FollowView::stopFollowing()
{
    m_controller->stop();
    m_clock.stop();
    updateBanner();
}

void FollowView::onUpdates()
{
    // Once per drain: each chart redraws at most once here.
    const FollowRun& run = m_controller->run();
    const FollowRun::Changes& changes = m_controller->lastChanges();
    if (changes.steps) {
        m_sinceStep.start();
        m_arrivals.emplace_back(m_followTime.elapsed(), run.stepCount());
        while (m_arrivals.size() > 2 && m_arrivals.front().first < m_arrivals.back().first - 3000)
            m_arrivals.pop_front();
        m_stepChart->refresh();
    }
    // A state change ends "so far" in the texts that said it.
    if (changes.sites || changes.state)
        updateSites();
    if (changes.ab || changes.blocks)
        updateTax();
    if ((changes.trace || changes.phases) && !run.tracePath().empty())
        m_calibrator->request(QString::fromStdString(run.tracePath()), run.phasesMs(), run.blockFirstStepsMs());
    if (changes.ab || changes.end || changes.state)
        updateWhatIf();
    for (; m_notesTold < run.notes().size(); ++m_notesTold)
        Q_EMIT noteAvailable(QString::fromStdString(run.notes()[m_notesTold]));
    updateBanner();
    if (changes.state)
        Q_EMIT stateChanged(run.state());
}

double FollowView::stepsPerSecond() const
{
    if (m_arrivals.size() < 2 || m_arrivals.back().first <= m_arrivals.front().first)
        return 0;
    return 1000.0 * double(m_arrivals.back().second - m_arrivals.front().second)
        / double(m_arrivals.back().first - m_arrivals.front().first);
}

void FollowView::updateBanner()
{
    const FollowRun& run = m_controller->run();
    const QString dir = QDir::toNativeSeparators(m_controller->dir()).toHtmlEscaped();
    QString headline;
    QString detail;
    QString color = QStringLiteral("#e8f0fe");
    QString closing; // a sentence that ends the detail, after the figures joined with "; "
    const int64_t counted = run.countedSteps();
    const int64_t read = int64_t(run.stepCount());
    const QString steps = read == 0 ? tr("no step yet")
        : counted == 0              ? tr("%1 read, the last step %2").arg(stepsText(read)).arg(run.lastStep())
                                    : tr("%1 read and %2 counted in blocks, the last step %3")
                             .arg(stepsText(read, "timed step", "timed steps"))
                             .arg(counted)
                             .arg(run.lastStep());
    switch (run.state()) {
    case FollowState::Waiting:
        headline = m_controller->dir().isEmpty() ? tr("No run followed") : tr("Waiting for the job to start");
        detail = m_controller->dir().isEmpty()
            ? tr("File → Follow Training Run… (Ctrl+Shift+F) picks the folder python3 -m synctax_probe writes.")
            : tr("%1 holds no probe.json yet: start the job with python3 -m synctax_probe --out %1 train.py").arg(dir);
        break;
    case FollowState::Running: {
        headline = tr("Running");
        const double rate = stepsPerSecond();
        detail = rate > 0 ? tr("%1, about %2 steps/s").arg(steps).arg(rate, 0, 'f', 0) : steps;
        if (m_sinceStep.isValid() && run.stepCount() > 0 && m_sinceStep.elapsed() > 3000)
            detail += tr("; no new step for %1 s").arg(m_sinceStep.elapsed() / 1000);
        color = QStringLiteral("#e6f4ea");
        break;
    }
    case FollowState::Stalled:
        headline = tr("Stalled");
        detail = tr("%1; nothing new for %2 s and no end record: the job may be paused or hung, or its folder no "
                    "longer synced here")
                     .arg(steps)
                     .arg(m_sinceStep.isValid() ? m_sinceStep.elapsed() / 1000 : 0);
        color = QStringLiteral("#fef7e0");
        break;
    case FollowState::Ended: {
        const std::optional<ProbeEnd>& end = run.end();
        headline = tr("The job ended");
        if (end) {
            const QString how
                = end->outcome == "ok" ? tr("finished") : tr("ended: %1").arg(QString::fromStdString(end->outcome));
            // The run's totals as end.json gives them, which add up: timed + dropped + counted = steps.
            QString split;
            if (end->stepsUntimed > 0)
                split = tr("%1 timed step by step, %2 counted in blocks")
                            .arg(end->stepsWritten + end->stepsDropped)
                            .arg(end->stepsUntimed);
            if (end->stepsDropped > 0)
                split += (split.isEmpty() ? QString() : QStringLiteral(", "))
                    + tr("%1 step records dropped by the probe's writer").arg(end->stepsDropped);
            detail = tr("%1%2, %3%4")
                         .arg(how, end->exitCode ? tr(", exit code %1").arg(*end->exitCode) : QString(),
                             stepsText(end->steps), split.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(split));
            if (end->outcome != "ok")
                color = QStringLiteral("#fef7e0");
            if (const std::optional<ProbeEstimate>& after = end->captureAfterEffect)
                detail += tr("; the loop after the profiled capture against before it: %1%2")
                              .arg(QString::asprintf("%+.1f%% [%+.1f, %+.1f]", after->pct, after->ciLow, after->ciHigh),
                                  end->captureFlagged ? tr(", flagged: the capture left it changed") : QString());
            // What this window read of it: the timed steps' lines (the counted ones have none).
            detail += read == 0
                ? tr("; no step line read")
                : tr("; %1 read, the last step %2").arg(stepsText(read, "step line", "step lines")).arg(run.lastStep());
        } else
            detail += QStringLiteral("; ") + steps;
        break;
    }
    case FollowState::Crashed:
        headline = tr("The job crashed");
        detail = tr("no end record, and the job stopped writing (its last line cut off, or its process gone); %1")
                     .arg(steps);
        closing = tr("What was read stays shown.");
        color = QStringLiteral("#fce8e6");
        break;
    case FollowState::Deleted:
        headline = tr("The folder was deleted");
        detail = tr("%1 is gone while followed; %2").arg(dir, steps);
        closing = tr("What was read stays shown, and Export keeps it.");
        color = QStringLiteral("#fce8e6");
        break;
    }
    if (run.missingSteps() > 0)
        detail += tr("; %1 steps missing from steps.jsonl").arg(run.missingSteps());
    if (const std::optional<FollowRun::OwnTime> own = run.probeOwnTime())
        // Its own bookkeeping as it times it, not its cost to the loop (separate processes show that).
        detail += tr("; the probe's own time after each step: %1 µs").arg(own->us, 0, 'f', 1);
    if (run.end() && run.end()->writerUsPerStep)
        detail += tr("; its writer thread's CPU: %1 µs a step").arg(*run.end()->writerUsPerStep, 0, 'f', 1);
    if (!closing.isEmpty())
        detail += QStringLiteral(". ") + closing;
    const QString text = QStringLiteral("<b>%1</b> — %2<br><small>%3</small>").arg(headline, detail, dir);
    if (text != m_banner->text())
        m_banner->setText(text);
    // A style sheet re-polishes the label: set only when the state's colour changes, not per drain.
    if (color != m_bannerColor) {
        m_bannerColor = color;
        m_banner->setStyleSheet(QStringLiteral("QLabel { background: %1; border-radius: 4px; }").arg(color));
    }
    if (isOver(run.state()))
        m_clock.stop();
}

QString FollowView::bannerText() const
{
    QTextDocument doc;
    doc.setHtml(m_banner->text());
    return doc.toPlainText();
}

QString FollowView::whatIfStatus() const { return m_whatIfStatus->text(); }

void FollowView::updateSites()
{
    const FollowRun& run = m_controller->run();
    // A folder read without its steps.jsonl (left out of a copy) still counts its steps in end.json.
    const double steps = double(std::max<int64_t>({ 1, int64_t(run.stepCount()), run.end() ? run.end()->steps : 0 }));
    std::vector<SiteWaitChart::Site> bars;
    for (const FollowSite& s : run.sites()) {
        QString where = s.file.empty() ? tr("not yet named in sites.json")
                                       : QStringLiteral("%1:%2 in %3()")
                                             .arg(QString::fromStdString(s.file))
                                             .arg(s.line)
                                             .arg(QString::fromStdString(s.function));
        if (!s.userFile.empty() && (s.userFile != s.file || s.userLine != s.line))
            where += tr("\ncalled from your line %1:%2").arg(QString::fromStdString(s.userFile)).arg(s.userLine);
        bars.push_back({ siteLabel(s),
            tr("%1\n%2: %3 syncs, %4 ms waited in all")
                .arg(where, QString::fromStdString(s.op))
                .arg(s.count)
                .arg(s.waitMs, 0, 'f', 2),
            s.waitMs / steps });
    }
    const QString noSync
        = !isOver(run.state()) ? tr("No sync in the steps so far.") : tr("No sync in the run's steps.");
    m_siteChart->setSites(bars, run.stepCount() == 0 ? tr("Waiting for the job's first step…") : noSync);
}

void FollowView::updateTax()
{
    const FollowRun& run = m_controller->run();
    std::vector<AbTaxChart::Point> points;
    for (const FollowAbPoint& p : run.ab())
        points.push_back({ p.rounds, p.item, p.control });
    const QString none = run.hasAb() ? tr("The A/B's first two rounds are not complete yet…")
                                     : tr("No A/B in this run: python3 -m synctax_probe --ab item measures what an "
                                          "added loss.item() costs, paired, in your own loop.");
    m_taxChart->setPoints(points, QString::fromStdString(run.abTreatmentText()), none);
}

void FollowView::updateWhatIf()
{
    const FollowRun& run = m_controller->run();
    const std::shared_ptr<const ImportedLoop> loop = m_calibrator->loop();
    m_replay->setEnabled(loop && loop->available);
    if (!loop) {
        m_whatIf->setSources({});
        m_whatIfStatus->setText(run.tracePath().empty()
                ? tr("The what-if waits for the profiled capture (taken after the first measured blocks).")
                : tr("Reading the profiled capture…"));
        return;
    }
    const QString trace = QFileInfo(QString::fromStdString(run.tracePath())).fileName();
    // --ab defer's line: the what-if also replays the capture without that line's syncs, as
    // openTrace asks for a run folder's.
    std::shared_ptr<const ImportedLoop> shown = loop;
    if (const std::string site = run.deferredSite(); loop->available && !site.empty()) {
        auto withLine = std::make_shared<ImportedLoop>(*loop);
        withLine->options.withoutLine = site;
        shown = std::move(withLine);
    }
    m_whatIf->setSources({ { trace, shown, liveFolder(run, m_controller->dir()) } });
    const int rows = m_calibrator->phaseRows();
    QString status;
    if (!loop->available)
        status = tr("No what-if from %1: %2.").arg(trace, QString::fromStdString(loop->reason));
    else if (rows == 0)
        status = tr("What-if of %1, before any calibration block: the profiler's cost per event taken out.").arg(trace);
    else if (!isOver(run.state()))
        status = tr("What-if of %1, calibrated to the %n calibration block(s) timed so far; recalibrated as blocks "
                    "complete.",
            nullptr, rows)
                     .arg(trace);
    else
        status = tr("What-if of %1, calibrated to the run's %n calibration block(s).", nullptr, rows).arg(trace);
    m_whatIfStatus->setText(status);
}

bool FollowView::replayLoop()
{
    const std::shared_ptr<const ImportedLoop> loop = m_calibrator->loop();
    if (!loop || !loop->available)
        return false;
    const QString name = QFileInfo(m_controller->dir()).fileName();
    Q_EMIT replayRequested(loop->base, tr("%1 (%n calibration block(s))", nullptr, m_calibrator->phaseRows()).arg(name),
        loop->costs.syncUs);
    return true;
}

bool FollowView::exportAll(const QString& dir, QStringList* written, QString* error)
{
    return exportFollowedRun(*this, dir, written, error);
}

FollowCompareDialog* FollowView::compareWith(const QString& otherDir)
{
    auto* dialog = new FollowCompareDialog(m_controller->run(), m_controller->dir(), otherDir, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->show();
    return dialog;
}

} // namespace synctax
