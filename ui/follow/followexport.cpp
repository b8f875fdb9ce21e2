#include "ui/follow/followexport.h"

#include "core/files/atomicwrite.h"
#include "core/text/format.h"
#include "core/trace/tracewhatiftable.h"
#include "ui/charts/abtaxchart.h"
#include "ui/charts/phasestepchart.h"
#include "ui/charts/sitewaitchart.h"
#include "ui/follow/followcontroller.h"
#include "ui/follow/followview.h"
#include "ui/results/reportwriter.h"
#include "ui/trace/tracewhatifpanel.h"

#include <QDir>
#include <QFile>

#include <exception>
#include <functional>
#include <optional>
#include <ostream>
#include <utility>
#include <vector>

namespace synctax {

namespace {

QString q(const std::string& s) { return QString::fromStdString(s).toHtmlEscaped(); }

std::string optionalNumber(const std::optional<double>& v, const char* format)
{
    return v ? formatNumber(format, *v) : std::string();
}

void writeSteps(const FollowRun& run, std::ostream& o)
{
    o << "step,stage,block,style,forward_ms,backward_ms,optimizer_ms,sync_wait_ms,added_item_ms,host_ms,gpu_ms\n";
    for (size_t i = 0; i < run.stepCount(); ++i) {
        o << formatNumber("%.0f", run.step()[i]) << ',' << run.stageName(i) << ','
          << (run.block()[i] >= 0 ? std::to_string(run.block()[i]) : std::string()) << ',' << run.styleName(i) << ','
          << formatNumber("%.4f", run.fMs()[i]) << ',' << formatNumber("%.4f", run.bMs()[i]) << ','
          << formatNumber("%.4f", run.oMs()[i]) << ',' << formatNumber("%.4f", run.waitMs()[i]) << ','
          << formatNumber("%.4f", run.addedMs()[i]) << ',' << formatNumber("%.4f", run.hostMs()[i]) << ','
          << (run.gpuMs()[i] >= 0 ? formatNumber("%.4f", run.gpuMs()[i]) : std::string()) << '\n';
    }
}

void writeSites(const FollowRun& run, std::ostream& o)
{
    o << "id,op,file,line,function,count,total_wait_ms,wait_ms_per_step\n";
    const double steps = double(std::max<size_t>(1, run.stepCount()));
    for (const FollowSite& s : run.sites()) {
        o << s.id << ',' << csvField(s.op) << ',' << csvField(s.file) << ',' << s.line << ',' << csvField(s.function)
          << ',' << s.count << ',' << formatNumber("%.4f", s.waitMs) << ',' << formatNumber("%.6f", s.waitMs / steps)
          << '\n';
    }
}

void writeBlocks(const FollowRun& run, std::ostream& o)
{
    o << "block,round,style,t_ms,steps,ms_per_step,f_ms,b_ms,o_ms,gpu_ms_median\n";
    for (const ProbeBlock& b : run.blocks()) {
        o << b.block << ',' << (b.round ? std::to_string(*b.round) : std::string()) << ',' << csvField(b.style) << ','
          << formatNumber("%.3f", b.tMs) << ',' << b.steps << ',' << formatNumber("%.6f", b.msPerStep) << ','
          << formatNumber("%.6f", b.fMs) << ',' << formatNumber("%.6f", b.bMs) << ',' << formatNumber("%.6f", b.oMs)
          << ',' << optionalNumber(b.gpuMsMedian, "%.6f") << '\n';
    }
}

void writeTax(const FollowRun& run, std::ostream& o)
{
    o << "rounds,item_pct,item_ci_low,item_ci_high,control_pct,control_ci_low,control_ci_high\n";
    for (const FollowAbPoint& p : run.ab()) {
        o << p.rounds;
        for (const std::optional<Interval>& i : { p.item, p.control }) {
            if (i)
                o << ',' << formatNumber("%.4f", i->estimate) << ',' << formatNumber("%.4f", i->low) << ','
                  << formatNumber("%.4f", i->high);
            else
                o << ",,,";
        }
        o << '\n';
    }
}

void writeWhatIf(const WhatIf& w, std::ostream& o)
{
    o << "style,every,step_ms,tax_pct,tax_low_pct,tax_high_pct\n";
    for (const WhatIfRow& r : w.rows) {
        o << csvField(r.style) << ',' << r.n << ',' << formatNumber("%.4f", r.stepMs) << ','
          << formatNumber("%.3f", r.taxPct) << ',' << formatNumber("%.3f", r.taxLowPct) << ','
          << formatNumber("%.3f", r.taxHighPct) << '\n';
    }
}

} // namespace

QString followReportHtml(const FollowView& view)
{
    const FollowRun& run = view.controller()->run();
    const FollowRun::Summary s = run.summary();
    QString html = QStringLiteral("<html><body style='font-size:7pt'>");
    html += QStringLiteral("<h3>SyncTax: a training job followed — %1</h3>").arg(view.dir().toHtmlEscaped());
    html += QStringLiteral("<p>%1</p>").arg(view.bannerText().toHtmlEscaped().replace('\n', QStringLiteral("<br>")));
    html += QStringLiteral("<table cellspacing='0' cellpadding='1'>");
    const auto row = [&html](const QString& key, const QString& value) {
        html += QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>").arg(key, value.toHtmlEscaped());
    };
    row(QStringLiteral("Measured steps"), QString::number(s.steps));
    row(QStringLiteral("Host step (median)"),
        QString::asprintf("%.3f ms: F %.3f, B %.3f, O %.3f (their own work)", s.hostMs, s.fMs, s.bMs, s.oMs));
    if (s.gpuMs)
        row(QStringLiteral("GPU per step (median)"), QString::asprintf("%.3f ms", *s.gpuMs));
    row(QStringLiteral("Sync waits"),
        QString::asprintf("%.4f ms per step, %.2f syncs per step", s.waitMsPerStep, s.syncsPerStep));
    if (s.stepMs)
        row(QStringLiteral("Blocks' ms per step"),
            QString::asprintf("%.4f [%.4f, %.4f] (95%%)", s.stepMs->estimate, s.stepMs->low, s.stepMs->high));
    if (!run.ab().empty() && run.ab().back().item) {
        const Interval& i = *run.ab().back().item;
        row(QStringLiteral("Measured %1").arg(QString::fromStdString(run.abMeasureText())),
            QString::asprintf("%+.1f%% [%+.1f, %+.1f] after ", i.estimate, i.low, i.high)
                + QString::number(run.ab().back().rounds) + QStringLiteral(" rounds"));
    }
    html += QStringLiteral("</table>");
    html += QStringLiteral("<p align='center'><img src='chart://step-time' width='520'></p>");
    html += QStringLiteral("<h4>Where the loop waits</h4><table border='1' cellspacing='0' cellpadding='2'>"
                           "<tr><th>site</th><th>function</th><th>syncs</th><th>ms waited</th></tr>");
    for (const FollowSite& site : run.sites())
        html += QStringLiteral("<tr><td>%1:%2 %3</td><td>%4</td><td>%5</td><td>%6</td></tr>")
                    .arg(q(site.file))
                    .arg(site.line)
                    .arg(q(site.op), q(site.function))
                    .arg(site.count)
                    .arg(site.waitMs, 0, 'f', 2);
    html += QStringLiteral("</table>");
    if (run.hasAb())
        html += QStringLiteral("<p align='center'><img src='chart://measured-tax' width='360'></p>");
    html += QStringLiteral("<h4>What if you logged differently</h4><p>%1</p>").arg(view.whatIfStatus().toHtmlEscaped());
    html += QStringLiteral("<pre>%1</pre>").arg(view.whatIfPanel()->note().toHtmlEscaped());
    for (const std::string& note : run.notes())
        html += QStringLiteral("<p><small>Note: %1</small></p>").arg(q(note));
    return html + QStringLiteral("</body></html>");
}

bool exportFollowedRun(const FollowView& view, const QString& dir, QStringList* written, QString* error)
{
    const auto failed = [error](const QString& why) {
        if (error)
            *error = why;
        return false;
    };
    if (!QDir().mkpath(dir))
        return failed(QStringLiteral("%1: cannot create the folder").arg(dir));
    const QDir out(dir);
    QStringList files;
    std::vector<std::pair<QString, ChartPanel*>> charts { { QStringLiteral("step-time"), view.stepChart() },
        { QStringLiteral("sync-wait"), view.siteChart() } };
    const FollowRun& run = view.controller()->run();
    if (run.hasAb())
        charts.emplace_back(QStringLiteral("measured-tax"), view.taxChart());
    for (const auto& [name, chart] : charts) {
        const QString base = out.filePath(name);
        if (!chart->exportPng(base + QStringLiteral(".png")) || !chart->exportSvg(base + QStringLiteral(".svg"))
            || !chart->exportPdf(base + QStringLiteral(".pdf")))
            return failed(QStringLiteral("%1: could not write the %2 chart").arg(dir, name));
        files << base + QStringLiteral(".png") << base + QStringLiteral(".svg") << base + QStringLiteral(".pdf");
    }

    const QString report = out.filePath(QStringLiteral("report.pdf"));
    std::vector<std::pair<QString, QImage>> images;
    images.reserve(charts.size());
    for (const auto& [name, chart] : charts)
        images.emplace_back(name, chart->renderImage(QSize(900, 480), 2.0));
    QString problem;
    if (!writeHtmlPdf(report, QStringLiteral("SyncTax: %1").arg(view.dir()), followReportHtml(view), images, &problem))
        return failed(problem);
    files << report;

    const WhatIf& whatIf = view.whatIfPanel()->whatIf();
    std::vector<std::pair<QString, std::function<void(std::ostream&)>>> tables {
        { QStringLiteral("steps.csv"), [&run](std::ostream& o) { writeSteps(run, o); } },
        { QStringLiteral("sites.csv"), [&run](std::ostream& o) { writeSites(run, o); } },
        { QStringLiteral("blocks.csv"), [&run](std::ostream& o) { writeBlocks(run, o); } },
    };
    if (run.hasAb())
        tables.emplace_back(QStringLiteral("tax.csv"), [&run](std::ostream& o) { writeTax(run, o); });
    if (!whatIf.rows.empty())
        tables.emplace_back(QStringLiteral("whatif.csv"), [&whatIf](std::ostream& o) { writeWhatIf(whatIf, o); });
    for (const auto& [name, write] : tables) {
        const QString path = out.filePath(name);
        try {
            writeFileAtomically(path.toStdString(), write);
        } catch (const std::exception& e) {
            return failed(QString::fromStdString(e.what()));
        }
        files << path;
    }
    if (written)
        *written = files;
    return true;
}

} // namespace synctax
