// `mcptriage mock RECORDING...` (issue 29; docs/mock.md): the recorded exchanges served again as a
// Streamable HTTP server, by the proxy in front of a replay server (book.hpp, replay_server.hpp).
#pragma once

namespace mcptriage::mock {

/// The subcommand's main: `argv[0]` is "mock", then the recordings and options. Exit status as the
/// proxy's (docs/proxy.md), and 1 with --strict when a request matched no recorded call; 3 when a
/// recording cannot be read or holds nothing to serve.
int mock_main(int argc, char** argv);

}  // namespace mcptriage::mock
