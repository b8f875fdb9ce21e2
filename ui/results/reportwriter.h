#pragma once

#include "core/analysis/experimentresult.h"

#include <QImage>
#include <QString>

#include <utility>
#include <vector>

namespace synctax {

// The handout for a class: one page (A4, PDF) with the environment, the comparison table, the
// overhead chart and each model's explanation.
bool writeReportPdf(const QString& path, const ExperimentResult& result, const QImage& overheadChart, QString* error);

// An HTML page printed to an A4 PDF (7 pt text, 12 mm margins, 300 dpi), each image referenced in
// the page as "chart://NAME". False, with *error, where nothing was written.
bool writeHtmlPdf(const QString& path, const QString& title, const QString& html,
    const std::vector<std::pair<QString, QImage>>& images, QString* error);

// The report's content as HTML (the chart referenced as "chart://overhead"), for tests and previews.
QString reportHtml(const ExperimentResult& result);

} // namespace synctax
