#pragma once

#include <QList>
#include <QString>
#include <QUrl>

namespace synctax {

// A name a trace may have: .json or .json.gz (profilers name theirs *.pt.trace.json[.gz]).
bool hasTraceSuffix(const QString& path);
// A gzip file, or JSON whose first MiB names Kineto's keys: told apart from a SyncTax results file.
bool looksLikeKinetoTrace(const QString& path);

} // namespace synctax
