#pragma once

#include "core/results/outputlock.h"
#include "core/results/resultsloader.h"

#include <string>

namespace synctax {

// Whether `text` starts with a journal's first line (Journal: {"type": "start", "schema": "synctax.journal/1"}).
bool startsAJournal(const std::string& text);

// A run's journal.jsonl read back as its results, for a run that wrote no results.json (killed,
// crashed, or still going): the config and machine from its first line, each group that finished
// whole as the runner analysed it, and each group cut short analysed from its blocks alone, as the
// app does while a run goes (no queue, regime or prediction). The result is marked stopped, its
// notes say what it was rebuilt from and, from `lock`, whether the run still holds its folder.
// A last line cut off mid-write is left out with a note; any other bad line is located by its line
// and column. Never throws on bad input.
ResultsLoadResult loadJournalText(
    const std::string& text, const std::string& sourceName, const OutputLock::State& lock = {});
// The file, with the lock of the folder it is in.
ResultsLoadResult loadJournalFile(const std::string& path);

} // namespace synctax
