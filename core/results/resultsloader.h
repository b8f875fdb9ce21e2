#pragma once

#include "core/analysis/experimentresult.h"
#include "core/config/configerror.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace synctax {

struct ResultsLoadResult {
    std::optional<ExperimentResult> result; // set only when there are no errors
    std::vector<ConfigError> errors;
};

// Reads a synctax-run results.json strictly: malformed JSON is located by line and column; a
// wrong schema, a wrong type, a number that is not finite or out of range, or an inconsistent
// cell is named by its JSON pointer (/cells/3/overhead_pct/ci_low). Keys this version does not
// know are ignored, so newer files still open. Never throws on bad input.
ResultsLoadResult loadResultsText(const std::string& text, const std::string& sourceName);
// The same checks on a document already parsed (a journal's lines hold parts of one).
ResultsLoadResult loadResultsJson(const nlohmann::json& root, const std::string& sourceName);
// A file, as written or compressed with gzip (results.json.gz, as tests/data/results/h200 keeps one): told by
// gzip's magic bytes, not by the name. A damaged .gz is an error at the offset of the text it reached.
// A run's folder reads as its results.json, or, where a run was killed before it wrote one, as its
// journal.jsonl; a journal.jsonl (told by its first line) reads as the results it holds (journalreader.h).
ResultsLoadResult loadResultsFile(const std::string& path);

// The first `maxBytes` of a file's text, inflated where it starts with gzip's magic bytes (`gzip`);
// empty where it cannot be read.
struct TextHead {
    std::string text;
    bool gzip = false;
};
TextHead textHead(const std::string& path, std::size_t maxBytes);

} // namespace synctax
