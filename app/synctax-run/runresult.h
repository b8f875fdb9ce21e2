#pragma once

#include "core/analysis/experimentresult.h"

#include <string>

namespace synctax {

// A finished run on the terminal: its table on stdout under one line naming the run (`more` ends
// that line), and on stderr a word when it was too noisy to tell styles apart.
void printRunTable(const std::string& name, const ExperimentResult& result, const std::string& more = "");

// runCommand's exit code for a run that measured: 130 stopped, 1 a cell failed, else 0.
int runExitCode(const ExperimentResult& result);

} // namespace synctax
