// `mcptriage proxy` (issue 17; docs/proxy.md): between a real MCP client and its server, forward
// every exchange, triage each as it completes, record it, inject faults, and report what the
// client did after each failure.
#pragma once

#include <CLI/CLI.hpp>

#include <cstddef>
#include <expected>
#include <functional>
#include <string>

namespace mcptriage::proxy {

/// The subcommand's main: `argv[0]` is "proxy", the rest its options. Returns the exit status
/// (docs/proxy.md "Exit status": 0, 1 broken expectation, 2 usage, 3 cannot listen or record,
/// 130 after SIGINT, 143 after SIGTERM).
int proxy_main(int argc, char** argv);

/// Another command that is the proxy in front of an upstream of its own (`mcptriage mock`: the
/// recording served by a replay server on 127.0.0.1): its name, its options beside the proxy's,
/// and its upstream, started once the options are read. The proxy's records, recording, faults,
/// signals and summary are then the command's, unchanged.
struct Front {
  std::string program;      ///< "mcptriage mock", in messages and --help
  std::string description;  ///< --help's first lines
  std::string footer;       ///< --help's last lines
  /// Adds the command's own options (no --upstream: the front gives it).
  std::function<void(CLI::App&)> add_options;
  /// After the options are read, before anything listens: starts the upstream and gives its URL and
  /// what it serves for the start-up line ("serving 12 recorded exchanges of s.jsonl"); an error
  /// (one line) is exit 3.
  std::function<std::expected<std::pair<std::string, std::string>, std::string>()> start;
  /// When the proxy has stopped: stops the upstream; a line to say on standard error (empty:
  /// none) and whether the run failed (exit 1, as a broken --expect).
  std::function<std::pair<std::string, bool>()> finish;
};

/// proxy_main with a Front (nullptr: the proxy itself).
int run_proxy(int argc, char** argv, const Front* front);

}  // namespace mcptriage::proxy
