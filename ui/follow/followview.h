#pragma once

#include "core/probe/probefollow.h"
#include "core/queuemodel/stylereplay.h"

#include <QElapsedTimer>
#include <QString>
#include <QStringList>
#include <QTimer>
#include <QWidget>

#include <deque>
#include <optional>
#include <utility>

class QLabel;
class QPushButton;

namespace synctax {

class AbTaxChart;
class FollowCalibrator;
class FollowCompareDialog;
class FollowController;
class PhaseStepChart;
class SiteWaitChart;
class TraceWhatIfPanel;

// The page of a followed training job: a banner that says how the job is doing (running, stalled,
// ended, crashed, its folder gone), its step times as they come, where it waits for syncs, the
// tax its A/B measures as rounds complete, and the what-if of its profiled capture recalibrated as
// its calibration blocks complete. Every chart is updated once per drain of the controller.
class FollowView : public QWidget {
    Q_OBJECT
public:
    explicit FollowView(QWidget* parent = nullptr);
    ~FollowView() override;

    bool follow(const QString& dir, const FollowOptions& options = {});
    void stopFollowing();
    QString dir() const;

    FollowController* controller() const { return m_controller; }
    FollowCalibrator* calibrator() const { return m_calibrator; }
    PhaseStepChart* stepChart() const { return m_stepChart; }
    SiteWaitChart* siteChart() const { return m_siteChart; }
    AbTaxChart* taxChart() const { return m_taxChart; }
    TraceWhatIfPanel* whatIfPanel() const { return m_whatIf; }
    QPushButton* replayButton() const { return m_replay; }
    QLabel* banner() const { return m_banner; }
    QString bannerText() const; // plain text
    QString whatIfStatus() const;

    // Every chart as PNG, SVG and PDF, the report (PDF) and the data as CSV, into `dir`.
    bool exportAll(const QString& dir, QStringList* written, QString* error);
    // This run beside another probe run folder (read on a worker), in a dialog.
    FollowCompareDialog* compareWith(const QString& otherDir);
    // The loop's step, calibrated, as the Teach window replays it; false while there is none.
    bool replayLoop();

Q_SIGNALS:
    void stateChanged(synctax::FollowState state);
    void noteAvailable(const QString& note);
    // "Replay this loop": the step of the run's capture, calibrated to its blocks, without its syncs.
    void replayRequested(const synctax::StepSequence& step, const QString& label, double syncUs);
    void exportRequested();
    void compareRequested();

private:
    void onUpdates();
    void updateBanner();
    void updateSites();
    void updateTax();
    void updateWhatIf();
    double stepsPerSecond() const;

    FollowController* m_controller = nullptr;
    FollowCalibrator* m_calibrator = nullptr;
    QLabel* m_banner = nullptr;
    PhaseStepChart* m_stepChart = nullptr;
    SiteWaitChart* m_siteChart = nullptr;
    AbTaxChart* m_taxChart = nullptr;
    TraceWhatIfPanel* m_whatIf = nullptr;
    QLabel* m_whatIfStatus = nullptr;
    QPushButton* m_replay = nullptr;
    QTimer m_clock; // the banner's "no new step for N s" between drains
    QElapsedTimer m_sinceStep;
    std::deque<std::pair<qint64, size_t>> m_arrivals; // (ms, steps read) over the last seconds
    QElapsedTimer m_followTime;
    size_t m_notesTold = 0;
    QString m_bannerColor;
};

} // namespace synctax
