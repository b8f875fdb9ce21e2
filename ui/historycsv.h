#pragma once

#include "ui/runhistory.h"

#include <QString>

namespace synctax {

// Every measured step the window holds, one row each, in the C locale with units in column names.
bool writeHistoryCsv(const QString& path, const RunHistory& history, QString* error);

} // namespace synctax
