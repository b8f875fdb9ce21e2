#pragma once

#include "core/statistics/statistics.h"
#include "ui/charts/chartpanel.h"

#include <optional>
#include <vector>

class QAreaSeries;
class QLineSeries;
class QScatterSeries;
class QValueAxis;

namespace synctax {

class FittedLegend;

// The tax an A/B measures in the user's own loop as its rounds complete: the estimate and its 95%
// interval after each round (the band narrows as rounds come in), the A/A control's interval in
// grey behind it (the noise floor), zero marked.
class AbTaxChart : public ChartPanel {
    Q_OBJECT
public:
    struct Point {
        int rounds = 0;
        std::optional<Interval> treated; // percent
        std::optional<Interval> control;
    };

    explicit AbTaxChart(QWidget* parent = nullptr);

    // `what` names the treatment ("an added loss.item()"); whyNone is shown while there is no point.
    void setPoints(const std::vector<Point>& points, const QString& what, const QString& whyNone);
    int drawnRounds() const; // the last point's rounds; 0: none
    std::optional<Interval> lastInterval() const { return m_last; }

protected:
    void adaptToPlotArea() override;

private:
    QLineSeries* m_low = nullptr;
    QLineSeries* m_high = nullptr;
    QAreaSeries* m_band = nullptr;
    QLineSeries* m_controlLow = nullptr;
    QLineSeries* m_controlHigh = nullptr;
    QAreaSeries* m_controlBand = nullptr;
    QLineSeries* m_estimate = nullptr;
    QLineSeries* m_zero = nullptr;
    QValueAxis* m_axisX = nullptr;
    QValueAxis* m_axisY = nullptr;
    FittedLegend* m_legend = nullptr;
    std::optional<Interval> m_last;
};

} // namespace synctax
