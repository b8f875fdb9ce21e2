#pragma once

#include <QAbstractTableModel>

#include <vector>

namespace synctax {

// The role that gives a cell's value unrounded (CSV export, sorting); DisplayRole is rounded text.
// For a header, it gives the column's full title (CSV export) where DisplayRole may be shorter.
constexpr int TraceRawRole = Qt::UserRole + 1;

struct TraceColumn {
    const char* title;
    const char* tip;
    const char* pattern = nullptr; // printf pattern of a number shown rounded; null: shown as it is
    bool text = false; // left-aligned
    const char* shortTitle = nullptr; // the header shown, when the title is too wide for a column
};

// The part the trace tables share: columns described once, each cell given by its raw value, and
// shown through its column's pattern.
class TraceTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    TraceTableModel(std::vector<TraceColumn> columns, QObject* parent);

    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

protected:
    virtual QVariant raw(int row, int column) const = 0;
    virtual QVariant display(int row, int column) const; // the raw value through the column's pattern
    virtual QVariant toolTip(int, int) const { return {}; }
    virtual bool highlighted(int) const { return false; } // a row shown bold on a tinted background

private:
    std::vector<TraceColumn> m_columns;
};

} // namespace synctax
