#pragma once

#include <QList>
#include <QString>
#include <QUrl>

namespace synctax {

// A name a trace or a results file may have: .json or .json.gz (profilers name theirs
// *.pt.trace.json[.gz]).
bool hasJsonSuffix(const QString& path);
// Named *.pt.trace.json[.gz], or JSON (inflated where gzip) whose first MiB names Kineto's keys: told
// apart from a SyncTax results file, written or compressed.
bool looksLikeKinetoTrace(const QString& path);

} // namespace synctax
