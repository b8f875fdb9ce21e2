#include "ui/trace/tracewhatifmodel.h"

#include "core/config/stylecatalog.h"
#include "core/trace/tracewhatiftable.h"

namespace synctax {

namespace {

constexpr const char* asRecorded = "as_recorded";

} // namespace

TraceWhatIfModel::TraceWhatIfModel(QObject* parent)
    : TraceTableModel(
        {
            { "style", "The logging style replayed on this loop", nullptr, true },
            { "every n steps", "The style's interval, for the *_every_n styles", nullptr, false, "every" },
            { "step ms", "Predicted step time in a long loop (steady state)", "%.2f" },
            { "tax % vs none", "Step time over that of the same loop with no per-step sync, minus 1", "%+.1f", false,
                "tax %" },
            { "range", "The tax replayed with the loop's host faster and slower by its uncertainty (below the table)",
                nullptr, true },
        },
        parent)
{
}

void TraceWhatIfModel::setWhatIf(WhatIf whatIf)
{
    // The rows keep their order and number for one loop: a slider's move only changes their values.
    if (whatIf.rows.size() == m_whatIf.rows.size() && !whatIf.rows.empty()) {
        m_whatIf = std::move(whatIf);
        Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
        return;
    }
    beginResetModel();
    m_whatIf = std::move(whatIf);
    endResetModel();
}

int TraceWhatIfModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_whatIf.rows.size());
}

QVariant TraceWhatIfModel::raw(int row, int column) const
{
    const WhatIfRow& r = m_whatIf.rows[size_t(row)];
    switch (column) {
    case Style:
        return QString::fromStdString(r.style);
    case Every:
        return r.n > 0 ? QVariant(qlonglong(r.n)) : QVariant();
    case StepMs:
        return r.stepMs;
    case TaxPct:
        return r.taxPct;
    case TaxRange:
        return QString::fromStdString(taxRangeText(r)).trimmed();
    }
    return {};
}

QVariant TraceWhatIfModel::display(int row, int column) const
{
    if (column == Style && m_whatIf.rows[size_t(row)].style == asRecorded)
        return tr("as recorded");
    if (column == Every)
        return raw(row, column).isNull() ? QString() : raw(row, column).toString();
    return TraceTableModel::display(row, column);
}

QVariant TraceWhatIfModel::toolTip(int row, int) const
{
    const std::string& style = m_whatIf.rows[size_t(row)].style;
    if (style == asRecorded)
        return tr("The loop as the trace recorded it, with its own syncs");
    const StyleInfo* info = findStyle(style);
    return info ? QVariant(QString::fromStdString(info->summary)) : QVariant();
}

bool TraceWhatIfModel::highlighted(int row) const { return m_whatIf.rows[size_t(row)].style == asRecorded; }

} // namespace synctax
