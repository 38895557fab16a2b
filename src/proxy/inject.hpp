// Fault injection (`--inject ACTION[@WHEN]`, docs/proxy.md "Fault injection", docs/wrap.md "Fault
// injection"): the rule grammar, which request a rule applies to, and the responses a rule makes,
// built to the spec of the session's negotiated MCP version. One grammar for `mcptriage proxy`
// (HTTP) and `mcptriage wrap` (stdio): parse_rule takes the transport and refuses what the other
// one alone has. Pure: no sockets, no clock.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <expected>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "mcptriage/exchange.hpp"
#include "proxy/json_peek.hpp"

namespace mcptriage::proxy {

/// What a rule does to the request it applies to.
enum class Action {
  status,            ///< `status=CODE[,retry-after=SECONDS][,body=FILE]`: answer with that status
  jsonrpc_error,     ///< `jsonrpc-error=CODE`: a JSON-RPC error response with that code
  tool_error,        ///< `tool-error`: a tools/call result with `isError: true`
  input_required,    ///< `input-required`: an MRTR `input_required` result (2026-07-28)
  cut_after_events,  ///< `cut-after-events=N`: forward N events, then close, never the final response
  delay,             ///< `delay=DURATION`: hold the request that long before forwarding it
  session_expired,   ///< `session-expired`: 404 for a request that carries `Mcp-Session-Id`
  unauthorized,      ///< `unauthorized`: 401 with `WWW-Authenticate`
  // stdio only (mcptriage wrap):
  drop,              ///< `drop`: the request is not passed to the server and never answered
  garbage_line,      ///< `garbage-line`: a line that is no JSON-RPC message goes to the host first
  exit,              ///< `exit=CODE`: the server is killed on this request; the wrapper exits with CODE
  slow_start,        ///< `slow-start=DURATION`: nothing reaches the server until DURATION after its start
};
std::string_view to_string(Action a);

/// Which requests a rule applies to.
enum class When {
  every,   ///< no WHEN: every request the action applies to
  post,    ///< `post=N[,M...]`: the Nth POST of the client's session (every POST counts)
  method,  ///< `method=NAME`: requests with that JSON-RPC method
  tool,    ///< `tool=NAME`: tools/call requests of that tool
  call,    ///< `call=N[,M...]` (stdio): the host's Nth JSON-RPC request (initialize is 1)
};

/// Where rules are applied: by `mcptriage proxy` to HTTP requests, or by `mcptriage wrap` to the
/// lines a host writes to a stdio server. Each refuses the other's actions and counts.
enum class Transport { http, stdio };

struct Rule {
  std::string text;  ///< the rule as given, quoted in records (`proxy.injected`)
  Action action = Action::status;
  int status = 0;                           ///< status
  std::optional<long long> retry_after_s;   ///< status: `retry-after=SECONDS`
  std::string body_file;                    ///< status: `body=FILE`
  std::string body;                         ///< status: the file's bytes (load_rule_bodies)
  std::int64_t code = 0;                    ///< jsonrpc-error
  std::size_t events = 0;                   ///< cut-after-events
  std::chrono::milliseconds delay{0};       ///< delay, slow-start
  int exit_code = 0;                        ///< exit (0 to 255)
  When when = When::every;
  std::vector<std::size_t> posts;           ///< post= (http), call= (stdio): the numbers, from 1
  std::string name;                         ///< method= / tool=
};

/// Parses one rule as `transport` applies it. Error: one line naming what is wrong (a usage
/// error): a bad value, a WHEN that can never match, an action or WHEN of the other transport
/// (`status=503` on stdio, `drop` or `call=2` over HTTP), slow-start with a WHEN.
std::expected<Rule, std::string> parse_rule(std::string_view text, Transport transport = Transport::http);


/// What the proxy knows of a request when it decides whether a rule applies.
struct RequestFacts {
  std::string http_method;       ///< "POST", "GET", ...
  std::string target;            ///< request target (path and query)
  bool session_id = false;       ///< carries `Mcp-Session-Id`
  bool authorization = false;    ///< carries `Authorization`
  std::size_t post_number = 0;   ///< its position among its session's POSTs, from 1 (0: no POST)
  /// stdio: its position among the host's JSON-RPC requests, from 1 (0: not a request). The
  /// wrapper gives every line of the host `http_method` "POST", so that the HTTP actions
  /// that apply to every POST apply to every message.
  std::size_t call_number = 0;
  Peek message;                  ///< the body read as a JSON-RPC message
  /// The session's negotiated version: the `MCP-Protocol-Version` header, else what initialize
  /// negotiated for its session, else "" (unknown: the 2025-03-26 forms are used, as a server
  /// without the header assumes, Streamable HTTP §Protocol Version Header).
  std::string protocol_version;
};

/// The first rule of `rules` whose WHEN matches `facts` and whose action applies to such a
/// request (docs/proxy.md: jsonrpc-error to requests, tool-error to tools/call, input-required to
/// tools/call, prompts/get and resources/read, session-expired to requests with a session id,
/// the rest to every POST; docs/wrap.md: drop, garbage-line and exit to requests, slow-start to
/// none, since the wrapper applies it at the start), or null.
const Rule* match_rule(const std::vector<Rule>& rules, const RequestFacts& facts);

/// A response the proxy sends instead of forwarding the request.
struct Injected {
  int status = 200;
  Headers headers;
  std::string body;
};

/// The response `rule` makes for the request `facts` (not for delay and cut-after-events, which
/// change how the upstream's response is forwarded). `origin` is the proxy's own origin
/// (`http://127.0.0.1:8931`), named in the `resource_metadata` of a 401. `notes` gets one line
/// for each way the reply departs from what the session's version defines (input-required
/// before 2026-07-28). `maker` names who injected it in the texts of the reply (a tool error's
/// text, the input request's message). The stdio-only actions make no reply (an empty body).
Injected build_injected(const Rule& rule, const RequestFacts& facts, std::string_view origin,
                        std::vector<std::string>& notes, std::string_view maker = "mcptriage proxy");

}  // namespace mcptriage::proxy
