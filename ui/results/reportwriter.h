#pragma once

#include "core/analysis/experimentresult.h"

#include <QImage>
#include <QString>

namespace synctax {

// The handout for a class: one page (A4, PDF) with the environment, the comparison table, the
// overhead chart and each model's explanation.
bool writeReportPdf(const QString& path, const ExperimentResult& result, const QImage& overheadChart, QString* error);

// The report's content as HTML (the chart referenced as "chart://overhead"), for tests and previews.
QString reportHtml(const ExperimentResult& result);

} // namespace synctax
