#pragma once

#include <QString>
#include <QStringList>

namespace synctax {

class FollowRun;
class FollowView;

// A followed run as far as it was read, as a finished run's exports write it: each chart as PNG,
// SVG and PDF (step-time, sync-wait, measured-tax), report.pdf, and the data as CSV (steps.csv,
// sites.csv, blocks.csv, tax.csv, whatif.csv). False, with the reason in `error`, when a file
// could not be written.
bool exportFollowedRun(const FollowView& view, const QString& dir, QStringList* written, QString* error);

// The report's content as HTML, the charts referenced as chart://step-time, chart://sync-wait and
// chart://measured-tax.
QString followReportHtml(const FollowView& view);

} // namespace synctax
