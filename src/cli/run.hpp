// A triage run: inputs -> pipeline -> sessions -> output, and its exit code.
#pragma once

#include "cli/config.hpp"
#include "cli/exit_code.hpp"

namespace mcptriage::cli {

/// The entry point of a command: argc/argv from the command's name on (argv[0]).
using Main = int (*)(int argc, char** argv);

/// Runs `command` with the one catch-all of the process: an exception that escapes it is
/// printed as "mcptriage: error: WHAT" and exits 3 (an internal error is no success).
int guarded(Main command, int argc, char** argv);

/// `mcptriage [OPTIONS] [PATH ...]`: parse the options, resolve them against this process's
/// environment, run.
int triage_main(int argc, char** argv);

/// Runs the triage `config` describes. Errors about inputs and broken expectations go to
/// standard error as they are found; records to standard output.
ExitCode run(const Config& config, const Env& env);

}  // namespace mcptriage::cli
