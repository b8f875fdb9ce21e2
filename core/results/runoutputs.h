#pragma once

#include "core/analysis/experimentresult.h"
#include "core/steps/cellplan.h"
#include "core/steps/steprecord.h"

#include <chrono>
#include <string>
#include <vector>

namespace synctax {

// The files of a run in its folder (docs/results-schema.md), as synctax-run and the app's export name them.
inline constexpr const char* resultsFileName = "results.json";
inline constexpr const char* summaryFileName = "summary.csv";
inline constexpr const char* stepsFileName = "steps.csv";
inline constexpr const char* journalFileName = "journal.jsonl";
inline constexpr const char* traceFileName = "trace.json";

// A run's own folder, as synctax-run names it under results/ and the app's data-parallel launcher
// under its runs folder: "NAME-YYYYMMDD-HHMMSS-mmm", the time the run starts in local time.
std::string runFolderName(const std::string& configName, std::chrono::system_clock::time_point start);

// A data-parallel rank's outputs, beside the launcher's results.json: "rank-K".
std::string rankFolderName(int rank);
// Where a rank's steps.csv is for the launcher's results.json in `resultsDir`: in the folder the
// results recorded, or in rank-K/ for files written before the folder was recorded.
std::string rankStepsPath(const std::string& resultsDir, const RankOutcome& rank);

// What a finished run leaves. steps.csv and journal.jsonl are streamed while synctax-run runs
// (StepCsvWriter, Journal); steps kept elsewhere (the app's history) are written here instead.
struct RunOutputs {
    const ExperimentResult& result;
    const std::vector<StepRecord>* steps = nullptr; // for steps.csv and the trace; null: none kept
    const std::vector<CellPlan>* cells = nullptr; // the cells the records index
    bool writeSteps = false; // steps.csv from `steps`
    std::string tracePath; // the Chrome trace of `steps`; empty: none
};

// Writes results.json and summary.csv into `dir`, then steps.csv and the trace where asked, each
// through a temporary file and a rename. Returns the paths written, in that order; throws
// std::runtime_error naming the file that could not be written.
std::vector<std::string> writeRunOutputs(const std::string& dir, const RunOutputs& outputs);

} // namespace synctax
