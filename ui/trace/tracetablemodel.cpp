#include "ui/trace/tracetablemodel.h"

#include "core/text/format.h"

#include <QColor>
#include <QFont>

namespace synctax {

TraceTableModel::TraceTableModel(std::vector<TraceColumn> columns, QObject* parent)
    : QAbstractTableModel(parent)
    , m_columns(std::move(columns))
{
}

int TraceTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_columns.size());
}

QVariant TraceTableModel::display(int row, int column) const
{
    const QVariant value = raw(row, column);
    const char* pattern = m_columns[size_t(column)].pattern;
    return pattern ? QVariant(QString::fromStdString(formatNumber(pattern, value.toDouble()))) : value;
}

QVariant TraceTableModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    switch (role) {
    case Qt::DisplayRole:
        return display(index.row(), index.column());
    case TraceRawRole:
        return raw(index.row(), index.column());
    case Qt::ToolTipRole:
        return toolTip(index.row(), index.column());
    case Qt::FontRole: {
        if (!highlighted(index.row()))
            return {};
        QFont bold;
        bold.setBold(true);
        return bold;
    }
    case Qt::BackgroundRole:
        // Translucent amber: readable over a light or a dark palette.
        return highlighted(index.row()) ? QVariant(QColor(255, 190, 0, 70)) : QVariant();
    case Qt::TextAlignmentRole:
        return m_columns[size_t(index.column())].text ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                                      : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    default:
        return {};
    }
}

QVariant TraceTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= int(m_columns.size()))
        return QAbstractTableModel::headerData(section, orientation, role);
    const TraceColumn& c = m_columns[size_t(section)];
    if (role == TraceRawRole)
        return QString::fromLatin1(c.title);
    if (role == Qt::DisplayRole)
        return tr(c.shortTitle ? c.shortTitle : c.title);
    if (role == Qt::ToolTipRole)
        return c.shortTitle ? tr("%1: %2").arg(tr(c.title), tr(c.tip)) : tr(c.tip);
    return {};
}

} // namespace synctax
