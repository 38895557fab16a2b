// `mcptriage wrap [OPTIONS] -- COMMAND [ARGS...]`: a stdio MCP server run as a child process, its
// standard streams relayed between the host and it unchanged, every message judged by the run
// core as the JSON Lines reader judges a recording of them (docs/wrap.md).
#pragma once

namespace mcptriage::wrap {

/// The subcommand's entry point: argv[0] is "wrap". Returns the process's exit status: the
/// child's (its exit code, or 128 plus the signal that ended it), 2 for a usage error, 3 when the
/// child or a file cannot be started or created, 4 when the records cannot be written.
int wrap_main(int argc, char** argv);

}  // namespace mcptriage::wrap
