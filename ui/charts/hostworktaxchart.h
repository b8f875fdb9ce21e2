#pragma once

#include "core/analysis/sweepcurve.h"
#include "ui/charts/chartpanel.h"

#include <QPointF>
#include <QString>
#include <vector>

class QValueAxis;

namespace synctax {

struct ExperimentResult;

// The tax against host work per step of a run that swept it (sweepCurves): per logging style the
// measured overhead as points with their 95% intervals as whiskers, and the queue model's
// prediction as a line where the run has one (CUDA). The middle regime shows as the peak where the
// host's work per step meets the GPU's.
class HostWorkTaxChart : public ChartPanel {
    Q_OBJECT
public:
    explicit HostWorkTaxChart(QWidget* parent = nullptr);

    // Whether `result` has a curve to draw: some model swept host work.
    static bool hasCurves(const ExperimentResult& result);
    void setResult(const ExperimentResult& result);

    // One style's series pair as drawn: x host work (ms), y tax (%). With several styles each is
    // drawn a little beside the others (1/80 of the axis apart), x here included.
    struct Curve {
        QString name; // the legend's: the style, with model, mode and batch when the run has several
        std::vector<QPointF> measured; // the estimates, with an interval each
        std::vector<std::pair<double, double>> intervals; // per measured point: its 95% interval (low, high)
        std::vector<QPointF> predicted; // the points with a prediction
    };
    const std::vector<Curve>& curves() const { return m_curves; }

private:
    QValueAxis* m_axisX = nullptr;
    QValueAxis* m_axisY = nullptr;
    std::vector<Curve> m_curves;
};

} // namespace synctax
