// The subcommands of mcptriage as one table (name, one-line summary, entry function): main()
// dispatches on it and the triage --help lists it, so a new subcommand is one row in
// src/cli/main.cpp plus the file of its entry function.
#pragma once

#include <span>
#include <string>
#include <string_view>

namespace mcptriage::cli {

/// The entry point of a command: argc/argv from the command's name on (argv[0]).
using Main = int (*)(int argc, char** argv);

/// One subcommand: `mcptriage NAME ...` runs `entry` with argv from NAME on.
struct Command {
  std::string_view name;     ///< the first argument that selects it, e.g. "proxy"
  std::string_view summary;  ///< one line for the triage --help, lower case, no final full stop
  Main entry;                ///< never null
};

/// The row named `name` in `commands`, or null (then argv[1] is a triage argument, e.g. a capture).
const Command* find_command(std::span<const Command> commands, std::string_view name);

/// The "Subcommands" block of the triage --help: a heading, then one line per row
/// ("  NAME  SUMMARY", names padded to one column), each line ending in '\n'; "" for no rows.
std::string commands_help(std::span<const Command> commands);

}  // namespace mcptriage::cli
