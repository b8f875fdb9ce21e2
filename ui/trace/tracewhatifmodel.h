#pragma once

#include "core/trace/tracewhatif.h"
#include "ui/trace/tracetablemodel.h"

namespace synctax {

// One row per whatIf row: the loop as recorded first (highlighted), then each logging style.
class TraceWhatIfModel : public TraceTableModel {
    Q_OBJECT
public:
    enum Column { Style, Every, StepMs, TaxPct, TaxRange, ColumnCount };

    explicit TraceWhatIfModel(QObject* parent = nullptr);

    void setWhatIf(WhatIf whatIf);
    const WhatIf& whatIf() const { return m_whatIf; }

    int rowCount(const QModelIndex& parent = {}) const override;

protected:
    QVariant raw(int row, int column) const override;
    QVariant display(int row, int column) const override;
    QVariant toolTip(int row, int column) const override;
    bool highlighted(int row) const override;

private:
    WhatIf m_whatIf;
};

} // namespace synctax
