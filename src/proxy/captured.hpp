// One exchange as the proxy saw it, handed from the network thread to the triage thread, and
// its two written forms: the JSON Lines exchange-log line (docs/formats.md shape 1, plus
// `timing` and `proxy`; docs/proxy.md "Record format") that is both recorded and classified,
// and the HAR 1.2 entry of a `.har` recording.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "mcptriage/exchange.hpp"
#include "mcptriage/render.hpp"

namespace mcptriage::proxy {

using Clock = std::chrono::steady_clock;

/// How the response body the client got ended, and so what the record keeps of it.
enum class BodyEnd {
  complete,      ///< all of it was forwarded and kept
  cut_limit,     ///< forwarded whole; the record keeps its first --max-body bytes (or the memory budget's)
  cut_upstream,  ///< the upstream connection ended (closed, reset) before the body was complete
  cut_client,    ///< the client closed its connection before the body was complete
  cut_shutdown,  ///< the proxy stopped (SIGINT, SIGTERM) while the body was still coming
  cut_rule,      ///< a cut-after-events rule closed the stream
};

/// Milliseconds from the request's first byte (`Captured::t0`) to each point, when it happened.
struct Timing {
  std::optional<double> request_ms;      ///< the whole request was read from the client
  std::optional<double> forward_ms;      ///< forwarding began (after an injected delay)
  std::optional<double> connected_ms;    ///< a new upstream connection was open (TCP, and TLS), or failed to open
  std::optional<double> sent_ms;         ///< the request was written to the upstream
  std::optional<double> response_ms;     ///< the response's first byte (from the upstream, or made by the proxy)
  std::optional<double> first_event_ms;  ///< the first event block of an event stream was forwarded
  std::optional<double> final_ms;        ///< the JSON-RPC response was forwarded (an event, or a JSON body's end)
  std::optional<double> end_ms;          ///< the response's last byte was forwarded (or the exchange ended)
};

struct Captured {
  std::uint64_t seq = 0;            ///< the request's number in arrival order, from 1
  std::string client;               ///< the client's address, "127.0.0.1:54321"
  // The request, as forwarded (Host rewritten to the upstream).
  std::string method;               ///< "POST"
  std::string target;               ///< path and query as the client sent them
  std::string url;                  ///< the upstream URL it went to: scheme://host[:port]target
  Headers request_headers;
  std::string request_body;         ///< at most --max-body bytes
  bool request_body_cut = false;
  // The response, as the client got it.
  int status = 0;                   ///< 0: no response reached the client
  std::string reason;
  Headers response_headers;
  std::string body;                 ///< as received (content coding still applied), at most the bound
  std::uint64_t body_bytes = 0;     ///< body bytes forwarded to the client, all of them
  BodyEnd end = BodyEnd::complete;
  std::string end_detail;           ///< why it ended early ("Connection reset by peer")
  std::size_t events = 0;           ///< event blocks forwarded (keep-alive comments not counted)
  std::size_t record_bound = 0;     ///< the most body bytes a record keeps (also once decoded)
  // What the proxy did.
  std::string injected;             ///< the --inject rule applied, "" for none
  bool made_by_proxy = false;       ///< the proxy answered itself (upstream unreachable, request too large)
  std::string made_why;             ///< why it did
  std::vector<std::string> notes;   ///< more lines for the record's warnings
  bool retry_origin_client = false; ///< (set by triage) a resend the client made itself
  std::size_t budget_bytes = 0;     ///< record memory taken from the RecordBudget (given back after triage)
  // When.
  std::chrono::system_clock::time_point started;  ///< wall clock at the request's first byte
  Clock::time_point t0{};           ///< the request's first byte
  Timing timing;
};

/// Whether the proxy made the response the client got: an injected reply (every action but
/// `delay` and `cut-after-events`, which forward the server's), or one the proxy made because it
/// could not forward (a 502, a 413). The record's `proxy.made_by` (`"proxy"`), and what the
/// `proxy_summary` counts as `made_by_proxy`.
bool response_made_by_proxy(const Captured& c);

/// The JSON Lines line of `c` (no newline): `{"request":{...},"response":{...},"timing":{...},
/// "proxy":{...}}`. Headers and the URL are redacted (redact_header, redact_url) and credentials
/// in the bodies (redact_body) unless redaction is off (`--no-redact`). A body that is not UTF-8
/// is written in base64 (`proxy.body_encoding`); a gzip or deflate body is decoded (the record
/// keeps what the client's HTTP library reads); a body in another coding is not kept
/// (`proxy.body: "not_captured"`). The read side is src/capture/jsonl_log.cpp (`proxy` member).
/// `skipped`: the entry is not an MCP exchange (skip_of), written as `proxy.skipped`.
std::string exchange_line(const Captured& c, const std::optional<Skip>& skipped);

/// A HAR entry's `timings`, in microseconds, from the exchange's checkpoints (HAR 1.2 §timings):
/// `send` reading the request from the client plus writing it to the upstream; `blocked` the
/// request held before forwarding (an injected delay); `connect` opening a new upstream
/// connection, TCP and TLS (`connect_measured` false: a kept-alive one was reused, written -1);
/// `wait` from the request sent to the response's first byte (made by the proxy: at once);
/// `receive` from there to the last byte. They add up to the entry's `time` exactly.
struct HarTimings {
  long long blocked = 0, connect = 0, send = 0, wait = 0, receive = 0;
  bool connect_measured = false;
};
HarTimings har_timings(const Timing& t);

/// The HAR 1.2 entry of `c` (a JSON object), redacted like exchange_line(), with the proxy's
/// facts in `_mcptriage` (HAR 1.2 §Custom Fields). Its `time` is the sum of its `timings`.
std::string har_entry(const Captured& c);

/// The members a live record gets besides those of the record read back from the line:
/// `"timing":{...},"proxy":{"exchange","client","injected","made_by"[,"retry_origin":"client"]}`
/// (no surrounding braces). `resend`: the session analysis found this request to repeat an
/// earlier failed one; through the proxy, only the client can have sent it.
std::string live_members(const Captured& c, bool resend);

/// Whether an exchange is one to skip (not MCP, a DELETE, a standalone GET stream), by the HAR
/// reader's rule applied to its entry `har_entry_text` (har_entry()): the same skips for a
/// `.jsonl` and a `.har` recording.
std::optional<Skip> skip_of(std::string_view har_entry_text);

/// redact_body (render.hpp), which the proxy's records and HAR entries write bodies through.
using mcptriage::redact_body;

}  // namespace mcptriage::proxy
