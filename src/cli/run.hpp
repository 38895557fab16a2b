// A triage run: inputs -> pipeline -> sessions -> output, and its exit code.
#pragma once

#include <span>

#include "cli/command.hpp"
#include "cli/config.hpp"
#include "cli/exit_code.hpp"

namespace mcptriage::cli {

/// Runs `command` with the one catch-all of the process: an exception that escapes it is
/// printed as "mcptriage: error: WHAT" and exits 3 (an internal error is no success).
int guarded(Main command, int argc, char** argv);

/// `mcptriage [OPTIONS] [PATH ...]`: parse the options, resolve them against this process's
/// environment, run. `commands` are listed in --help (main passes its table).
int triage_main(int argc, char** argv, std::span<const Command> commands = {});

/// Runs the triage `config` describes. Errors about inputs and broken expectations go to
/// standard error as they are found; records to standard output.
ExitCode run(const Config& config, const Env& env);

}  // namespace mcptriage::cli
