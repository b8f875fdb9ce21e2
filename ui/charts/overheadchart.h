#pragma once

#include "core/statistics/statistics.h"
#include "ui/charts/chartpanel.h"

#include <QString>
#include <optional>
#include <vector>

class QBarCategoryAxis;
class QBarSet;
class QValueAxis;

namespace synctax {

struct ExperimentResult;

// What each logging style costs against the baseline, per model and mode: a bar at the overhead
// estimate with its 95% interval as a whisker, over the band of the A/A control's noise floor
// (the overhead that noise alone produces). The chart users put on a slide.
class OverheadChart : public ChartPanel {
    Q_OBJECT
public:
    explicit OverheadChart(QWidget* parent = nullptr);

    // A live partial snapshot, or a finished or loaded result.
    void setResult(const ExperimentResult& result);

    // One bar as drawn: x is its centre in category units (category i spans i - 0.5 .. i + 0.5).
    struct Bar {
        // the bar set: model, or "model (mode)" when the result has several modes; a swept run's
        // model with its point ("resnet50 h=15 ms")
        QString group;
        QString style;
        double x = 0;
        std::optional<Interval> overheadPct; // none: the cell failed or has too few rounds; no bar
    };
    const std::vector<Bar>& bars() const { return m_bars; }
    const QStringList& styles() const { return m_styles; }
    static constexpr double barWidth = 0.7; // of a category, shared by the groups side by side

protected:
    void adaptToPlotArea() override;

private:
    void showBarToolTip(bool entered, int index, QBarSet* set);

    QBarCategoryAxis* m_axisX = nullptr;
    QValueAxis* m_axisY = nullptr;
    QStringList m_styles;
    QFont m_baseLabelFont; // the axis font before any shrinking to fit
    QStringList m_groups;
    std::vector<Bar> m_bars;
};

} // namespace synctax
