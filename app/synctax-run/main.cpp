#include "runcommand.h"

#include "synctax_version.h"

#include <CLI/CLI.hpp>

#include <iostream>

int main(int argc, char** argv)
{
    CLI::App app { "synctax-run: measure what per-step logging (loss.item(), progress bars, prints) costs a "
                   "training loop" };
    app.set_version_flag("--version", std::string("synctax-run ") + SYNCTAX_VERSION);
    app.require_subcommand(1);

    synctax::RunOptions run;
    uint64_t seed = 0;
    auto* runCmd = app.add_subcommand("run", "Run an experiment (a YAML file or a preset name) and print the table");
    runCmd->add_option("config", run.config, "Config file or preset; default: seed with CUDA, cpu-quick without");
    runCmd->add_option("--device", run.device, "auto, cpu, cuda or cuda:N (overrides the config)");
    runCmd->add_option("--out", run.outDir, "Output directory (default: results/<name>-<time>)");
    runCmd->add_flag("--quick", run.quick, "Shrink every cell to a few steps of a tiny batch (smoke test)");
    auto* seedOption = runCmd->add_option("--seed", seed, "Seed for data, weights and the order of blocks");

    std::string config;
    auto* validateCmd = app.add_subcommand("validate", "Check a config file or preset; print every error found");
    validateCmd->add_option("config", config, "Config file or preset")->required();

    auto* presetsCmd = app.add_subcommand("presets", "List the built-in presets");

    std::string preset;
    auto* printCmd = app.add_subcommand("print-config", "Print a preset's YAML (a starting point for your own)");
    printCmd->add_option("preset", preset, "Preset name")->required();

    std::string diffA, diffB;
    auto* diffCmd = app.add_subcommand("diff", "Compare two results files cell by cell, with their intervals");
    diffCmd->add_option("a", diffA, "results.json of run A")->required();
    diffCmd->add_option("b", diffB, "results.json of run B")->required();

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        const int code = app.exit(e);
        return code == 0 ? 0 : 2;
    }

    if (*runCmd) {
        if (*seedOption)
            run.seed = seed;
        return synctax::runCommand(run);
    }
    if (*validateCmd)
        return synctax::validateCommand(config);
    if (*presetsCmd)
        return synctax::presetsCommand();
    if (*printCmd)
        return synctax::printConfigCommand(preset);
    if (*diffCmd)
        return synctax::diffCommand(diffA, diffB);
    return 2;
}
