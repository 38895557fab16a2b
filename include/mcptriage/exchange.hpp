// Owned, library-free data types that flow between modules: a captured HTTP exchange.
#pragma once

#include <charconv>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "mcptriage/jsonrpc.hpp"

namespace mcptriage {

/// One header field as captured: name spelled as on the wire, value with surrounding
/// whitespace trimmed. Order and duplicates are kept (RFC 9110 §5.3).
struct Header {
  std::string name;
  std::string value;
};

using Headers = std::vector<Header>;

/// First value of header `name` (case-insensitive, RFC 9110 §5.1), or nullopt.
std::optional<std::string_view> find_header(const Headers& headers, std::string_view name);

/// What the capture says about the response body.
enum class BodyState {
  complete,      ///< the body as captured is all there is (or all we can know of)
  truncated,     ///< fewer bytes than `Content-Length` announced
  absent,        ///< the capture shows the headers but printed no body (curl `--fail`)
  not_captured,  ///< the capture tool says it did not record the body (HAR, status 0)
};

/// The JSON-RPC request context of an exchange: what the client sent. Every field is optional
/// because captures often hold only the response.
struct Request {
  std::string method_line;                ///< HTTP method, e.g. "POST" (empty when unknown)
  std::string target;                     ///< request target or URL (empty when unknown)
  Headers headers;                        ///< HTTP request headers, if captured
  std::optional<std::string> body;        ///< raw request body bytes, if captured
  /// The body read as a JSON-RPC request (jsonrpc::read_request), filled by the reader that has it;
  /// a body logged as a JSON value is kept only so (no `body`). When only `body` is set, the
  /// classifier reads it.
  std::optional<RequestInfo> info;
};

/// One captured HTTP response.
struct Response {
  std::string http_version;   ///< "HTTP/1.1", "HTTP/2", ... ("" for a bare body)
  int status = 200;           ///< status code; assumed 200 for bare bodies unless `--status`
  std::string reason;         ///< reason phrase, may be empty
  Headers headers;            ///< the final header block (interim 1xx, CONNECT and redirect
                              ///< blocks are dropped and noted in Exchange::warnings)
  std::string body;           ///< body bytes, de-chunked and decompressed where needed
  BodyState body_state = BodyState::complete;
  bool cut_at_max_body = false;    ///< the readers cut the body at `--max-body` (body_state is truncated)
  /// The `Content-Encoding` still applied to `body` because the readers could not remove it
  /// ("br", "zstd", a "deflate" that does not inflate); empty when the body is decoded.
  std::string undecoded_coding;
  /// The body is labelled with a `Content-Encoding` but its captured bytes are plain text, exactly
  /// `Content-Length` of them: the bytes the server sent, which no client can decode (issue 14;
  /// docs/formats.md "Content codings"). The body is kept as it is, with a warning; the
  /// classifier's reason is `content_encoding_mismatch`.
  bool plain_under_coding = false;
  bool transport_captured = true;  ///< false for bare bodies (no status line or headers)
};

/// The capture format an exchange was read from (docs/formats.md, the `format` column); its
/// name (to_string) is the record's `format` member (docs/output.md).
enum class CaptureFormat {
  curl_i,             ///< "curl-i": response-first HTTP text (curl -i, -D -, HTTPie hb)
  raw_http,           ///< "raw-http": HTTP text whose chunk framing was removed (wire bytes, curl --raw)
  http_conversation,  ///< "http-conversation": request then response (HTTPie -v, a TCP stream)
  har,                ///< "har": a HAR 1.2 entry
  exchange_log,       ///< "exchange-log": a JSON Lines log whose lines wrap messages with HTTP facts
  jsonrpc_messages,   ///< "jsonrpc-messages": a JSON Lines log of bare JSON-RPC messages (stdio framing)
  curl_v,             ///< "curl-v": curl -v stderr (with its stdout)
  bare_json,          ///< "bare-json": a JSON body without status line or headers
  bare_sse,           ///< "bare-sse": an event-stream body without status line or headers
  access_log,         ///< "access-log": a server access log, Common or Combined Log Format (no bodies)
};

/// The format's name as printed: "curl-i", "raw-http", "http-conversation", "har",
/// "exchange-log", "jsonrpc-messages", "curl-v", "bare-json", "bare-sse", "access-log".
std::string_view to_string(CaptureFormat format);

/// Why a reader kept an entry out of classification (docs/output.md "Skipped records").
enum class SkipReason {
  not_mcp,            ///< no JSON-RPC message and no MCP header (a page, an asset, a CORS preflight)
  session_end,        ///< a DELETE that ends the MCP session
  standalone_stream,  ///< a GET that opened the standalone server stream
  invalid_entry,      ///< a HAR entry that is not an object or has no `request`
  notification,       ///< a client notification in a message stream (no reply is due)
  server_message,     ///< a server notification or request logged on its own line
  client_response,    ///< the client's answer to a server request in a message stream
  invalid_line,       ///< a JSON Lines line that is not JSON, not an object, or no message nor exchange
};

/// The reason's stable snake_case name as printed: "not_mcp", "session_end", ...
std::string_view to_string(SkipReason reason);

/// Why a reader kept an entry of a capture out of classification (a HAR entry for a web page,
/// a client notification in a message stream). Skipped entries are reported, never dropped.
struct Skip {
  SkipReason reason = SkipReason::not_mcp;
  std::string detail;  ///< one human line: what the entry was
  /// The entry's bytes are not JSON at all (a JSON Lines line that does not parse): the input is
  /// damaged (cut short, corrupted), which the CLI reports as an input error (exit 3,
  /// docs/exit-codes.md), where a line that is JSON but no message is only skipped.
  bool not_json = false;
};

struct Judged;  // classify.hpp: a verdict made as an event stream arrived

/// How a live read (standard input from a pipe or a terminal, issue 16) ended an exchange
/// before its end: the classifier then names the cause of a STREAM_INCOMPLETE (or of a body cut
/// short) instead of the stream's end.
enum class LiveEnd {
  none,          ///< read to its end (or offline)
  interrupted,   ///< SIGINT, SIGTERM or SIGHUP ended the wait
  idle_timeout,  ///< no byte for --idle-timeout
  timeout,       ///< the input took longer than --timeout
};

/// What the stdio wrapper (`mcptriage wrap`, docs/wrap.md) saw of an exchange that no message
/// says: set by the JSON Lines reader on the entries of a wrap recording (docs/formats.md
/// "Recordings of mcptriage wrap"), and `broken_message` on those of any message stream. The
/// classifier then names it (docs/classification.md).
enum class StdioEnd {
  none,
  /// A line the server wrote on its standard output that is no JSON-RPC message (a log line):
  /// the entry's response body is that line. MCP 2025-11-25 transports, stdio: the server MUST
  /// NOT write anything to its stdout that is not a valid MCP message.
  not_jsonrpc_line,
  /// The server exited (or was killed) with the request unanswered, while the host's input was
  /// still open.
  server_exited,
  /// The host closed the server's standard input (the stdio shutdown, MCP lifecycle) with the
  /// request unanswered, and the server exited without answering it.
  shutdown_in_flight,
  /// A JSON-RPC message that answers nothing (a notification, a server request, the client's
  /// answer to one) came broken over several lines (docs/formats.md "A message broken over
  /// lines"): the entry is that message, `stdio_detail` says how. MCP 2025-11-25 transports, stdio:
  /// messages MUST NOT contain embedded newlines.
  broken_message,
};

/// When the parts of an exchange read live arrived: milliseconds from its first byte
/// (docs/output.md, `timing`). Absent offline.
struct LiveTiming {
  double first_byte_ms = 0;                   ///< always 0: the origin
  std::optional<double> first_event_ms;       ///< the first event block of an event stream
  std::optional<double> final_ms;             ///< the final response (event, or the whole body)
};

/// When an exchange happened, as the capture tells it (HAR 1.2 `startedDateTime` and `time`).
struct CaptureTime {
  std::optional<std::int64_t> started_unix_ns;  ///< the request's start, nanoseconds since the Unix epoch (UTC)
  std::optional<double> duration_ms;            ///< the whole exchange, milliseconds
};

/// One HTTP exchange as read from a capture.
struct Exchange {
  std::string source;     ///< input name and exchange index, e.g. "reply.txt#1"
  CaptureFormat format = CaptureFormat::curl_i;  ///< detected capture format (set by every reader)
  std::optional<Request> request;
  Response response;
  std::vector<std::string> warnings;  ///< reader notes (dropped blocks, stale length, ...)
  /// Set when the entry is not an MCP exchange to classify; `response` is then meaningless
  /// and the entry is printed as a skipped record instead of being classified.
  std::optional<Skip> skipped = std::nullopt;
  LiveEnd live_end = LiveEnd::none;          ///< set by the live reader only
  std::optional<LiveTiming> timing = std::nullopt;  ///< set by the live reader only
  /// Set by the live reader only, for an event stream it judged event by event and did not keep
  /// (memory stays flat on endless streams, docs/output.md "Live"): classify() returns its
  /// records, and `response.body` holds only the block of the deciding event (or nothing).
  std::shared_ptr<const Judged> judged = nullptr;
  CaptureTime time;  ///< set by the readers whose format records it (HAR)
  /// A JSON Lines log: the line the exchange starts on (from 1, counted over the whole log); 0
  /// for other formats.
  std::size_t line = 0;
  /// A JSON Lines log read with CaptureOptions::key_field: that member of its first line, a
  /// string as it is, any other JSON value as minified text; nullopt when the line has none.
  std::optional<std::string> key = std::nullopt;
  /// A leg of MCP authorization (an OAuth or discovery request, or a bare response shaped like a
  /// metadata document, a registration or a token response; capture/legs.hpp mark_oauth_legs): no
  /// JSON-RPC exchange, classified AUTH_LEG and judged by the authorization triage (src/auth). Set
  /// only with CaptureOptions::auth.
  bool oauth_leg = false;
  StdioEnd stdio = StdioEnd::none;  ///< a wrap recording's entry: what the wrapper saw (StdioEnd)
  /// With `stdio`: what the classifier puts in the verdict's detail (the line's first bytes; the
  /// server's exit status and the last lines of its standard error).
  std::string stdio_detail = {};
  /// A message stream (stdio framing): the request or the reply of this exchange came broken over
  /// this many lines (2 or more), which the JSON Lines reader joined back (docs/formats.md "A
  /// message broken over lines"); 0: each came on one line. The classifier judges the joined
  /// message, then gives MALFORMED_JSON `message_over_lines` (what a host could parse decides).
  std::size_t broken_lines = 0;
  /// With `broken_lines`: which message, its lines, and what a strict host does with it (the
  /// start of the verdict's detail).
  std::string broken_detail = {};
};

/// Where a record comes from, as integers: the input of the run, the exchange in it, and the
/// element of a batch reply that gave several records. Only renderers turn it into text
/// (append_source_text: "name#N", "name#N[k]"), so that the readers, the pipeline and the
/// session analysis pass numbers, and a log read in blocks is renumbered by adding.
struct SourceRef {
  std::size_t input = 0;                ///< index of the input in the run, from 0
  std::size_t exchange = 0;             ///< exchange in the input, from 1 (`#N`); 0: the input as a whole
  std::optional<std::size_t> element = std::nullopt;  ///< `[k]` (from 0) when the exchange gave several records
  bool operator==(const SourceRef&) const = default;
};

/// Appends what follows "name#" in the text of `ref`: "N", or "N[k]" for a batch element.
inline void append_source_number(std::string& out, const SourceRef& ref) {
  char digits[24];
  out.append(digits, static_cast<std::size_t>(std::to_chars(digits, digits + sizeof digits, ref.exchange).ptr - digits));
  if (ref.element) {
    out += '[';
    out.append(digits, static_cast<std::size_t>(std::to_chars(digits, digits + sizeof digits, *ref.element).ptr - digits));
    out += ']';
  }
}

/// Appends the text of `ref` in the input named `input_name`: "name#N", "name#N[k]", or the
/// name alone for exchange 0.
inline void append_source_text(std::string& out, std::string_view input_name, const SourceRef& ref) {
  out += input_name;
  if (ref.exchange == 0) return;
  out += '#';
  append_source_number(out, ref);
}

/// append_source_text into a new string.
inline std::string source_text(std::string_view input_name, const SourceRef& ref) {
  std::string out;
  out.reserve(input_name.size() + 16);
  append_source_text(out, input_name, ref);
  return out;
}

}  // namespace mcptriage
