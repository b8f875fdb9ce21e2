#include "ui/historycsv.h"

#include <QSaveFile>
#include <QTextStream>

namespace synctax {

bool writeHistoryCsv(const QString& path, const RunHistory& history, QString* error)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Text)) {
        if (error)
            *error = QStringLiteral("%1: %2").arg(path, file.errorString());
        return false;
    }
    // QTextStream formats numbers in the C locale unless told otherwise, whatever the user's locale.
    QTextStream out(&file);
    out << "cell,model,mode,style,round,step,host_step_ms,lag_ms,queue_steps\n";
    for (const CellPlan& plan : history.cells()) {
        const CellHistory& h = history.cell(plan.index);
        const QString prefix = QStringLiteral("%1,%2,%3,%4,")
                                   .arg(plan.index)
                                   .arg(QString::fromStdString(plan.model), QString::fromStdString(plan.mode),
                                       QString::fromStdString(plan.style));
        for (size_t i = 0; i < h.size(); ++i)
            out << prefix << h.round[i] << ',' << h.stepInBlock[i] << ',' << h.stepMs[i] << ',' << h.lagMs[i] << ','
                << h.queueSteps[i] << '\n';
    }
    out.flush();
    if (!file.commit()) {
        if (error)
            *error = QStringLiteral("%1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

} // namespace synctax
