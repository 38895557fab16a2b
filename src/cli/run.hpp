// A triage run: inputs -> pipeline -> sessions -> output, and its exit code.
#pragma once

#include <functional>
#include <memory>
#include <span>

#include "cli/command.hpp"
#include "cli/config.hpp"
#include "cli/exit_code.hpp"
#include "cli/options.hpp"

namespace mcptriage::cli {

/// Runs `command` with the one catch-all of the process: an exception that escapes it is
/// printed as "mcptriage: error: WHAT" and exits 3 (an internal error is no success).
int guarded(Main command, int argc, char** argv);

/// The end of a command line that never got past its options (`--help`, `--version`, a usage
/// error): its text said, on standard error and standard output (checked). Returns the exit code:
/// OptionsExit::code, or 4 when standard output could not be written (a closed pipe is no error).
int said(const OptionsExit& exit);

/// `mcptriage [OPTIONS] [PATH ...]`: parse the options, resolve them against this process's
/// environment, run. `commands` are listed in --help (main passes its table).
int triage_main(int argc, char** argv, std::span<const Command> commands = {});

/// What a subcommand that runs the triage core changes in a run (mcptriage stats).
struct RunOutput {
  /// Makes the sink of standard output in place of the records' table or JSON Lines; null: those.
  std::function<std::unique_ptr<RecordSink>(Output&)> make_sink;
  /// Row mode (`stats --rows`, docs/scale.md): a log is read eagerly (io::FileSource::Sizes::eager),
  /// never live; a damaged line is a row, no input error; no summary line on standard error.
  bool rows = false;
};

/// Runs the triage `config` describes. Errors about inputs and broken expectations go to
/// standard error as they are found; records to standard output (or to `output`'s sink).
ExitCode run(const Config& config, const Env& env, const RunOutput& output = {});

}  // namespace mcptriage::cli
