#pragma once

#include "ui/charts/chartpanel.h"

#include <QString>
#include <QStringList>

#include <vector>

class QBarCategoryAxis;
class QBarSet;
class QHorizontalBarSeries;
class QValueAxis;

namespace synctax {

// Where the loop waits: one bar per sync site (an op at a line of the user's Python), its wait per
// step so far, most first; the label names the file and line, the tooltip the function and counts.
class SiteWaitChart : public ChartPanel {
    Q_OBJECT
public:
    struct Site {
        QString label; // "train.py:41 item"
        QString detail; // the tooltip: path, function, count
        double waitMsPerStep = 0;
    };
    static constexpr int maxSites = 8;

    explicit SiteWaitChart(QWidget* parent = nullptr);

    // Most wait first; the first maxSites are drawn, the rest summed into one bar.
    void setSites(const std::vector<Site>& sites, const QString& whyNone);
    QStringList labels() const { return m_labels; }
    std::vector<double> values() const;

private:
    QHorizontalBarSeries* m_series = nullptr;
    QBarSet* m_set = nullptr;
    QBarCategoryAxis* m_axisY = nullptr;
    QValueAxis* m_axisX = nullptr;
    QStringList m_labels;
    QStringList m_details;
    double m_scale = 1.0; // bar values are ms per step times this (ms, µs or ns shown)
};

} // namespace synctax
