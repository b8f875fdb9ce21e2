#include "ui/trace/traceexplanation.h"

#include "core/trace/traceexplanation.h"

namespace synctax {

namespace {

QString html(const std::string& s) { return QString::fromStdString(s).toHtmlEscaped(); }

} // namespace

QString traceExplanation(const TraceReport& report)
{
    const TraceExplanation e = explainTrace(report);
    const std::string lead = "What to try:";
    QString text;
    for (const std::string& p : e.paragraphs()) {
        if (p.rfind(lead, 0) == 0)
            text += QStringLiteral("<p><b>%1</b>%2</p>").arg(html(lead), html(p.substr(lead.size())));
        else
            text += QStringLiteral("<p>%1</p>").arg(html(p));
    }
    for (const std::string& note : e.notes)
        text += QStringLiteral("<p><i>%1</i></p>").arg(html(note));
    return text;
}

} // namespace synctax
