#pragma once

#include <QString>

class QAbstractItemModel;

namespace synctax {

// A table model as CSV: the header row, then each row's TraceRawRole values (numbers unrounded,
// text quoted when it holds a comma, a quote or a line break). Decimal points in every locale.
QString modelToCsv(const QAbstractItemModel& model);

} // namespace synctax
