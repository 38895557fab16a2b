// `mcptriage proxy` (issue 17; docs/proxy.md): between a real MCP client and its server, forward
// every exchange, triage each as it completes, record it, inject faults, and report what the
// client did after each failure.
#pragma once

namespace mcptriage::proxy {

/// The subcommand's main: `argv[0]` is "proxy", the rest its options. Returns the exit status
/// (docs/proxy.md "Exit status": 0, 1 broken expectation, 2 usage, 3 cannot listen or record,
/// 130 after SIGINT, 143 after SIGTERM).
int proxy_main(int argc, char** argv);

}  // namespace mcptriage::proxy
