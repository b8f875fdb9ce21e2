#include "ui/trace/tablecsv.h"

#include "core/text/format.h"
#include "ui/trace/tracetablemodel.h"

#include <QAbstractItemModel>
#include <QStringList>

namespace synctax {

namespace {

QString csvField(const QVariant& value)
{
    if (value.typeId() == QMetaType::Double)
        return QString::fromStdString(formatNumber("%.9g", value.toDouble()));
    QString text = value.toString();
    if (text.contains(QLatin1Char(',')) || text.contains(QLatin1Char('"')) || text.contains(QLatin1Char('\n'))) {
        text.replace(QLatin1String("\""), QLatin1String("\"\""));
        text = QLatin1Char('"') + text + QLatin1Char('"');
    }
    return text;
}

} // namespace

QString modelToCsv(const QAbstractItemModel& model)
{
    QString out;
    QStringList fields;
    for (int c = 0; c < model.columnCount(); ++c)
        fields << csvField(model.headerData(c, Qt::Horizontal, TraceRawRole).isValid()
                ? model.headerData(c, Qt::Horizontal, TraceRawRole)
                : model.headerData(c, Qt::Horizontal, Qt::DisplayRole));
    out += fields.join(QLatin1Char(',')) + QLatin1Char('\n');
    for (int r = 0; r < model.rowCount(); ++r) {
        fields.clear();
        for (int c = 0; c < model.columnCount(); ++c)
            fields << csvField(model.data(model.index(r, c), TraceRawRole));
        out += fields.join(QLatin1Char(',')) + QLatin1Char('\n');
    }
    return out;
}

} // namespace synctax
