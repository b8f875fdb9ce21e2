#include "ui/results/reportwriter.h"

#include "core/analysis/explanation.h"
#include "core/analysis/processmerge.h"
#include "core/text/format.h"
#include "ui/results/comparisonmodel.h"

#include <QBrush>
#include <QFile>
#include <QFont>
#include <QPageLayout>
#include <QPageSize>
#include <QPdfWriter>
#include <QTextDocument>
#include <QUrl>

namespace synctax {

namespace {

QString q(const std::string& s) { return QString::fromStdString(s).toHtmlEscaped(); }

QString environmentRows(const ExperimentResult& r)
{
    const Environment& e = r.environment;
    QString rows;
    auto row = [&rows](const QString& key, const QString& value) {
        if (!value.isEmpty())
            rows += QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>").arg(key, value);
    };
    row(QStringLiteral("Device"), q(e.deviceName.empty() ? e.device : e.deviceName + " (" + e.device + ")"));
    row(QStringLiteral("Driver"), q(e.driverVersion));
    row(QStringLiteral("LibTorch"), q(e.torchVersion));
    row(QStringLiteral("Host"), q(e.host + (e.cpu.empty() ? "" : ", " + e.cpu)));
    row(QStringLiteral("Started"), q(r.startedAt));
    row(QStringLiteral("Duration"),
        QStringLiteral("%1 s%2").arg(r.durationS, 0, 'f', 0).arg(r.stopped ? QStringLiteral(" (stopped)") : QString()));
    row(QStringLiteral("SyncTax"), q(e.synctaxVersion));
    return rows;
}

QString comparisonTable(const ExperimentResult& r)
{
    ComparisonModel model;
    model.setResult(r);
    QString html
        = QStringLiteral("<table border='1' cellspacing='0' cellpadding='3' style='border-collapse:collapse'><tr>");
    for (int c = 0; c < model.columnCount(); ++c)
        html += QStringLiteral("<th>%1</th>").arg(model.headerData(c, Qt::Horizontal).toString().toHtmlEscaped());
    html += QStringLiteral("</tr>");
    for (int row = 0; row < model.rowCount(); ++row) {
        html += QStringLiteral("<tr>");
        for (int c = 0; c < model.columnCount(); ++c) {
            const QModelIndex index = model.index(row, c);
            const QVariant background = model.data(index, Qt::BackgroundRole);
            const QString color
                = background.isValid() ? background.value<QBrush>().color().name() : QStringLiteral("#ffffff");
            const QVariant foreground = model.data(index, Qt::ForegroundRole);
            const QString text
                = foreground.isValid() ? foreground.value<QBrush>().color().name() : QStringLiteral("#000000");
            html += QStringLiteral("<td nowrap bgcolor='%1' style='color:%2'>%3</td>")
                        .arg(color, text, model.data(index).toString().toHtmlEscaped());
        }
        html += QStringLiteral("</tr>");
    }
    return html + QStringLiteral("</table>");
}

} // namespace

QString reportHtml(const ExperimentResult& r)
{
    QString html = QStringLiteral("<html><body style='font-size:7pt'>");
    html += QStringLiteral("<h3>SyncTax: what per-step logging costs — %1</h3>").arg(q(r.config.name));
    if (!r.config.description.empty())
        html += QStringLiteral("<p>%1</p>").arg(q(r.config.description));
    html += QStringLiteral("<table cellspacing='0' cellpadding='1'>%1</table>").arg(environmentRows(r));
    html += QStringLiteral("<h4>Overhead of each logging style against the same loop without it</h4>");
    html += comparisonTable(r);
    const bool processes = spreadOverProcesses(r);
    html += QStringLiteral(
        "<p><i>ms per step, then the overhead against <tt>none</tt> of the same model and mode: trimmed "
        "geometric mean of paired block ratios with %1. Grey: within noise "
        "(the interval holds zero or the estimate is under the A/A noise floor).</i></p>")
                .arg(processes ? QStringLiteral("a 95% interval across the run's processes (Student's t)")
                               : QStringLiteral("a 95% bootstrap interval"));
    html += QStringLiteral("<p align='center'><img src='chart://overhead' width='460'></p>");
    html += QStringLiteral("<h4>Why: each model's regime</h4>");
    for (const GroupResult& g : r.groups) {
        std::vector<CellResult> cells;
        for (const CellResult& c : r.cells)
            if (sameGroup(c, g))
                cells.push_back(c);
        // The explanation starts with the regime's name: the heading says the model instead.
        html += QStringLiteral("<p><b>%1 (%2).</b> %3 <br><small>%4</small></p>")
                    .arg(q(g.model + sweepPointSuffix(sweptKeys(r.config), g)), q(g.mode), q(explainGroup(g, cells)),
                        q(regimeNumbers(groupRegime(g))));
    }
    for (const std::string& note : r.notes)
        html += QStringLiteral("<p><small>Note: %1</small></p>").arg(q(note));
    return html + QStringLiteral("</body></html>");
}

bool writeHtmlPdf(const QString& path, const QString& title, const QString& html,
    const std::vector<std::pair<QString, QImage>>& images, QString* error)
{
    {
        QPdfWriter writer(path);
        writer.setPageSize(QPageSize(QPageSize::A4));
        writer.setPageMargins(QMarginsF(12, 12, 12, 12), QPageLayout::Millimeter);
        writer.setResolution(300);
        writer.setTitle(title);
        writer.setCreator(QStringLiteral("SyncTax"));
        QTextDocument document;
        QFont font = document.defaultFont();
        font.setPointSizeF(7);
        document.setDefaultFont(font);
        for (const auto& [name, image] : images)
            document.addResource(QTextDocument::ImageResource, QUrl(QStringLiteral("chart://") + name), image);
        document.setHtml(html);
        document.print(&writer);
    }
    // QPdfWriter reports no errors; a file that was not written is the sign.
    QFile written(path);
    if (!written.exists() || written.size() == 0) {
        if (error)
            *error = QStringLiteral("%1: could not write the report").arg(path);
        return false;
    }
    return true;
}

bool writeReportPdf(const QString& path, const ExperimentResult& result, const QImage& overheadChart, QString* error)
{
    return writeHtmlPdf(path, QStringLiteral("SyncTax report: %1").arg(QString::fromStdString(result.config.name)),
        reportHtml(result), { { QStringLiteral("overhead"), overheadChart } }, error);
}

} // namespace synctax
