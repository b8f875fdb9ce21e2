#include "commandline.h"
#ifdef SYNCTAX_RUN_ENGINE
#include "core/engine/run/modelcheck.h"
#endif

#include "synctax_version.h"

#include <CLI/CLI.hpp>

#include <cstdio>
#include <iostream>
#include <optional>

namespace {

// Every command's options, filled as CLI11 parses the line; the command given says which to read.
struct Commands {
    synctax::RunOptions run;
    synctax::ValidateOptions validate;
    synctax::PrintConfigOptions printConfig;
    synctax::DiffOptions diff;
    synctax::ShowOptions show;
    synctax::SimulateOptions simulate;
    synctax::SweepOptions sweep;
    synctax::TraceCommandLine trace;
};

int run([[maybe_unused]] const synctax::RunOptions& options, [[maybe_unused]] char** argv)
{
#ifdef SYNCTAX_RUN_ENGINE
    return synctax::runCommand(options);
#else
    return synctax::execEngine(argv); // the arguments were checked here; the engine reads them again
#endif
}

int validate(const synctax::ValidateOptions& options, [[maybe_unused]] char** argv)
{
#ifdef SYNCTAX_RUN_ENGINE
    return synctax::validateCommand(options, synctax::checkModelFiles);
#else
    bool needsEngine = false;
    const int code = synctax::validateCommand(options, nullptr, &needsEngine);
    return needsEngine ? synctax::execEngine(argv) : code; // a torchscript model is loaded by LibTorch
#endif
}

int printConfig(const synctax::PrintConfigOptions& options)
{
    if (synctax::printConfigFindsSimulation(options.name))
        return synctax::printSimulationCommand(options.name);
    return synctax::printConfigCommand(options);
}

int trace(const CLI::App& command, const synctax::TraceCommandLine& line)
{
    const std::optional<synctax::TraceOptions> options = synctax::finishTraceOptions(command, line);
    return options ? synctax::traceCommand(*options) : 2;
}

int runMain(int argc, char** argv)
{
    CLI::App app { "synctax-run: measure what per-step logging (loss.item(), progress bars, prints) costs a "
                   "training loop" };
    app.set_version_flag("--version", std::string("synctax-run ") + SYNCTAX_VERSION);
    app.require_subcommand(1);
    Commands c;
    const CLI::App* runCmd = synctax::addRunCommand(app, c.run);
    const CLI::App* validateCmd = synctax::addValidateCommand(app, c.validate);
    const CLI::App* presetsCmd = synctax::addPresetsCommand(app);
    const CLI::App* printCmd = synctax::addPrintConfigCommand(app, c.printConfig);
    const CLI::App* diffCmd = synctax::addDiffCommand(app, c.diff);
    const CLI::App* showCmd = synctax::addShowCommand(app, c.show);
    const CLI::App* simulateCmd = synctax::addSimulateCommand(app, c.simulate);
    const CLI::App* sweepCmd = synctax::addSweepCommand(app, c.sweep);
    const CLI::App* traceCmd = synctax::addTraceCommand(app, c.trace);
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        const int code = app.exit(e);
        return code == 0 ? 0 : 2;
    }
    if (*runCmd)
        return run(c.run, argv);
    if (*validateCmd)
        return validate(c.validate, argv);
    if (*presetsCmd)
        return synctax::presetsCommand();
    if (*printCmd)
        return printConfig(c.printConfig);
    if (*diffCmd)
        return synctax::diffCommand(c.diff);
    if (*showCmd)
        return synctax::showCommand(c.show);
    if (*simulateCmd)
        return synctax::simulateCommand(c.simulate);
    if (*sweepCmd)
        return synctax::sweepCommand(c.sweep);
    if (*traceCmd)
        return trace(*traceCmd, c.trace);
    return 2;
}

} // namespace

int main(int argc, char** argv)
{
    // A data-parallel run's launcher and its ranks share this stderr: each line leaves in one write,
    // so that their lines never split into each other (std::cerr, unit-buffered, wrote each `<<`).
    // The progress line, redrawn in place on a terminal, is flushed where it is drawn.
    std::setvbuf(stderr, nullptr, _IOLBF, BUFSIZ);
    std::cerr.unsetf(std::ios::unitbuf);
    // Every bad input is reported where it is found; what reaches here is a defect, said in one line.
    try {
        return runMain(argc, argv);
    } catch (const std::exception& e) {
        std::cerr << "synctax-run: unexpected error: " << e.what() << "\n";
    } catch (...) {
        std::cerr << "synctax-run: unexpected error\n";
    }
    return 1;
}
