#pragma once

#include <QList>
#include <QString>
#include <QUrl>

namespace synctax {

// A name a trace or a results file may have: .json or .json.gz (profilers name theirs
// *.pt.trace.json[.gz]).
bool hasJsonSuffix(const QString& path);
// What opens as results: a results file (.json, .json.gz), a run's journal (.jsonl), or a run's folder
// (its results.json, else the journal a killed run left) that is not a probe's run folder.
bool opensAsResults(const QString& path);
// A folder `python3 -m synctax_probe` wrote: it opens as its trace.
bool isProbeRunFolder(const QString& path);
// The folder a results path's files lie in: the path itself where it is a folder.
QString resultsFolderOf(const QString& path);
// Named *.pt.trace.json[.gz], or JSON (inflated where gzip) whose first MiB names Kineto's keys: told
// apart from a SyncTax results file, written or compressed.
bool looksLikeKinetoTrace(const QString& path);

} // namespace synctax
