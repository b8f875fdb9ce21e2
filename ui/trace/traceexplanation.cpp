#include "ui/trace/traceexplanation.h"

#include "core/analysis/format.h"

#include <QObject>

namespace synctax {

namespace {

QString ms(double v) { return QString::fromStdString(formatNumber("%.2f", v)) + QStringLiteral(" ms"); }
QString pct(double v) { return QString::fromStdString(formatNumber("%.1f", v)) + QStringLiteral("%"); }
QString html(const std::string& s) { return QString::fromStdString(s).toHtmlEscaped(); }

QString regimeParagraph(const TraceRegime& r)
{
    QString words;
    if (r.label == "dispatch_bound")
        words = QObject::tr("<b>dispatch-bound</b>: the host (%1 launching, %2 of other work per step) is slower than "
                            "the GPU (%3 busy), so the GPU already waits for the host and the queue stays short. "
                            "A sync here costs little more than its own wait.");
    else if (r.label == "gpu_bound")
        words = QObject::tr("<b>GPU-bound</b>: the GPU (%3 busy per step) is slower than the host (%1 launching, %2 "
                            "of other work), so the host runs ahead and the queue fills. Each sync drains that queue "
                            "and the GPU then idles while the host refills it: here syncs cost the most.");
    else if (r.label == "balanced")
        words = QObject::tr("<b>balanced</b>: the host (%1 launching, %2 of other work per step) and the GPU (%3 "
                            "busy) take about as long, so each catches up with the other and a sync leaves a "
                            "bubble about as long as the host's next launches.");
    else
        words = QObject::tr("of no regime SyncTax can name: the host launches for %1 and does %2 of other work per "
                            "step, the GPU is busy for %3.");
    QString text = QObject::tr("This loop is %1").arg(words.arg(ms(r.dMs), ms(r.hMs), ms(r.gMs)));
    if (!r.sentence.empty())
        text += QStringLiteral(" ") + html(r.sentence);
    return QStringLiteral("<p>") + text + QStringLiteral("</p>");
}

} // namespace

QString syncRemedy(const std::string& op, const std::string& api)
{
    if (op == "aten::item" || op == "aten::_local_scalar_dense")
        return QObject::tr("Keep the value on the GPU (accumulate the loss into a tensor) and call <tt>.item()</tt> "
                           "every N steps, or only when it is logged.");
    if (op == "aten::nonzero" || op == "aten::masked_select" || op == "aten::unique" || op == "aten::repeat_interleave")
        return QObject::tr("This op's output size depends on the data, so the host must wait to learn it: pass a "
                           "known size (<tt>nonzero_static</tt>, <tt>output_size=</tt>) or use a mask with "
                           "<tt>torch.where</tt> instead.");
    if (op.find("synchronize") != std::string::npos)
        return QObject::tr("An explicit synchronize: keep it only around timing you need, and time with CUDA events "
                           "instead.");
    if (op == "aten::to" || op == "aten::_to_copy" || op == "aten::copy_" || op == "aten::cpu"
        || api.find("DtoH") != std::string::npos)
        return QObject::tr("A copy to the host: copy with <tt>non_blocking=True</tt> into pinned memory and read it "
                           "a step later, or keep the value on the GPU.");
    if (op == "aten::is_nonzero" || op == "aten::equal")
        return QObject::tr("A tensor used as a Python bool (<tt>if t:</tt>, <tt>assert</tt>): compare on the GPU "
                           "with <tt>torch.where</tt>, or check every N steps.");
    return QObject::tr("Find what reads this value on the host, and read it less often or later.");
}

QString traceExplanation(const TraceReport& report)
{
    QString text;
    if (report.steps.empty()) {
        text += QObject::tr("<p>The trace has no step to explain.</p>");
    } else {
        text += regimeParagraph(report.regime);
        if (report.sites.empty() || report.regime.syncsPerStep <= 0) {
            text += QObject::tr("<p>No sync inside the steps: over %1 steps of %2 on average, the host never waited "
                                "for the GPU. There is no tax to remove.</p>")
                        .arg(report.steps.size())
                        .arg(ms(report.meanStepMs));
        } else {
            text += QObject::tr("<p>Its syncs cost <b>%1</b> of the step time: %2 syncs per step leave the GPU idle, "
                                "in steps of %3 on average.</p>")
                        .arg(pct(report.taxPct),
                            QString::fromStdString(formatNumber("%.2f", report.regime.syncsPerStep)),
                            ms(report.meanStepMs));
            const TraceSyncSite& worst = report.sites.front();
            std::string api;
            for (const TraceSync& s : report.syncs) {
                if (s.site == 0) {
                    api = s.api;
                    break;
                }
            }
            const QString where = worst.python ? QObject::tr(" at <tt>%1</tt>").arg(html(*worst.python))
                                               : QObject::tr(" (the trace has no Python stacks: record with "
                                                             "<tt>with_stack=True</tt> to see the line)");
            text += QObject::tr("<p>The worst site is <b>%1</b>%2: %3 per step, the host waits %4 and the GPU then "
                                "idles %5 per step, <b>%6</b> of the step.</p>")
                        .arg(html(worst.op), where, QString::fromStdString(formatNumber("%.2f", worst.perStep)),
                            ms(worst.waitMs), ms(worst.bubbleMs), pct(worst.sharePct));
            text += QObject::tr("<p><b>What to try:</b> %1</p>").arg(syncRemedy(worst.op, api));
            if (report.sites.size() > 1)
                text += QObject::tr(
                    "<p>%n other site(s) cost less; the table lists each.</p>", nullptr, int(report.sites.size() - 1));
        }
    }
    if (!report.stepsMarked)
        text += QObject::tr("<p>The trace marks no steps (no <tt>ProfilerStep#N</tt>): the whole trace counts as one "
                            "window. Record with <tt>prof.step()</tt> in the loop for per-step numbers.</p>");
    for (const std::string& note : report.notes)
        text += QStringLiteral("<p><i>%1</i></p>").arg(html(note));
    return text;
}

} // namespace synctax
