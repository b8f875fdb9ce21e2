#pragma once

#include "ui/trace/tracefile.h"

#include <QString>
#include <QWidget>

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <vector>

class QScrollBar;

namespace synctax {

// One rank as the timeline draws it: its files one after the other on the same lanes.
struct TimelineRank {
    QString label; // "rank 0"
    std::vector<const TraceFile*> files;
};

// Host activity per thread and GPU activity per stream of every rank, on one time axis so that a
// stall on one rank lines up with the wait it causes in the others. Syncs are red marks on the
// thread that waited; the GPU idle after each (its bubble) is shaded over the rank's streams.
// Wheel or +/- zooms around the cursor, drag or arrows pan, Home or F fits everything; the lanes
// scroll under the ruler (scroll bar, Shift + wheel, Page Up/Down) when they are taller than the view.
class TraceTimeline : public QWidget {
    Q_OBJECT
public:
    explicit TraceTimeline(QWidget* parent = nullptr);

    void setRanks(const std::vector<TimelineRank>& ranks);
    // Marks the syncs of `rank` at this site (op and Python line); rank -1 clears the mark.
    void highlightSite(int rank, const std::string& op, const std::optional<std::string>& python);
    int highlightedSyncCount() const { return m_highlighted; }
    int rowCount() const { return int(m_rows.size()); }

    void fitAll();
    void zoom(double factor, std::int64_t anchorNs);
    std::int64_t viewStartNs() const { return m_viewStart; }
    // The span of every rank's events; the ruler reads 0 ms at its first.
    std::int64_t firstNs() const { return m_first; }
    std::int64_t lastNs() const { return m_last; }
    std::int64_t viewEndNs() const { return m_viewEnd; }

    // The ruler, every rank's header and lanes: the height at which nothing scrolls.
    int contentHeight() const { return m_contentHeight; }
    int lanesScroll() const;
    int lanesScrollRange() const; // 0: every lane fits
    void scrollLanesTo(int y);

    QSize sizeHint() const override { return QSize(900, std::min(m_contentHeight, 480)); }
    QSize minimumSizeHint() const override { return QSize(300, 120); }

protected:
    void paintEvent(QPaintEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    struct Row {
        int rank = 0;
        bool gpu = false;
        QString label;
        std::vector<const LaneSummary*> parts; // one per file of the rank that has this lane
        int top = 0; // y of the row, under its rank's header
    };
    struct Sync {
        int rank = 0;
        int row = 0;
        std::int64_t start = 0;
        std::int64_t end = 0;
        std::int64_t bubbleEnd = 0;
        std::string op;
        std::string python;
        bool highlighted = false;
    };

    double xOf(std::int64_t ns) const;
    std::int64_t nsAt(double x) const;
    void paintRow(QPainter& p, const Row& row, int top) const;
    void paintSpans(QPainter& p, const LaneSummary& lane, const LanePaintPlan& plan, int top) const;
    void paintBuckets(QPainter& p, const LaneSummary& lane, const LaneLevel& level, int top) const;
    void paintRuler(QPainter& p) const;
    void pan(double fraction);
    int plotRight() const; // the plot's right edge: left of the lanes bar when it shows
    void updateLanesBar();

    std::vector<std::shared_ptr<const TimelineLanes>> m_lanes; // what the rows' parts point into
    std::vector<Row> m_rows;
    std::vector<std::pair<QString, int>> m_rankHeaders; // label, y
    std::vector<Sync> m_syncs;
    std::vector<std::int64_t> m_steps; // every rank's step starts, drawn as dotted lines
    std::int64_t m_first = 0;
    std::int64_t m_last = 1;
    std::int64_t m_viewStart = 0;
    std::int64_t m_viewEnd = 1;
    int m_highlighted = 0;
    int m_contentHeight = 320;
    QScrollBar* m_lanesBar = nullptr;
    double m_dragX = -1;
    std::int64_t m_dragStart = 0;
};

} // namespace synctax
