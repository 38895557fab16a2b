// Internal interface between format detection (capture.cpp) and the per-format readers.
#pragma once

// Adding a format: write src/capture/<format>.cpp with a sniff_xxx and a read_xxx, declare
// both here, and add one line to the format table in capture.cpp.

#include <cstddef>
#include <cstdint>
#include <expected>
#include <optional>
#include <string>
#include <utility>
#include <span>
#include <string_view>
#include <vector>

#include "mcptriage/capture.hpp"
#include "mcptriage/exchange.hpp"

namespace mcptriage::capture {

/// The line of `text` that starts at `pos`, without its LF (a CR before it is kept), and `pos`
/// moved to where the next line starts (`text.size()` after the last line).
inline std::string_view take_line(std::string_view text, std::size_t& pos) {
  const std::size_t lf = text.find('\n', pos);
  const std::string_view line = text.substr(pos, lf == std::string_view::npos ? std::string_view::npos : lf - pos);
  pos = lf == std::string_view::npos ? text.size() : lf + 1;
  return line;
}

/// Display name of the `index`-th exchange (1-based) of input `name`: "name#index".
std::string source_name(std::string_view name, std::size_t index);

/// `ex` kept out of classification (Exchange::skipped): the skip and its detail, no request, and
/// an empty response (status 0, body not captured), as every reader writes its skipped entries.
inline Exchange skipped_exchange(Exchange ex, SkipReason reason, std::string detail) {
  ex.skipped = Skip{reason, std::move(detail)};
  ex.request.reset();
  ex.response = Response{};
  ex.response.status = 0;
  ex.response.body_state = BodyState::not_captured;
  return ex;
}

// Every sniff_xxx/read_xxx pair below receives the normalised input: one UTF-8 BOM removed,
// ANSI escapes removed (when the capture is a terminal recording), leading whitespace
// skipped, never empty. sniff_xxx looks at the first bytes only where it can; read_xxx
// returns at least one Exchange or a CaptureError with a one-line message.

/// Response-first or request-first HTTP/1.x-style text: curl `-i`, `-D -`, raw HTTP wire
/// bytes, HTTPie `-v`, a saved TCP conversation. True when the first line is a status line
/// (`HTTP/<v> <3 digits>[ reason]`, RFC 9112 §4) or a request line (`METHOD SP target SP
/// HTTP/<v>`, RFC 9112 §3).
bool sniff_http_text(std::string_view text);

/// Reads every exchange of an HTTP text capture. Exchange::format is "curl-i" (response
/// first), "raw-http" (response whose chunk framing was removed here) or
/// "http-conversation" (request then response).
std::expected<std::vector<Exchange>, CaptureError> read_http_text(std::string_view bytes,
                                                                  std::string_view name,
                                                                  const CaptureOptions& options);

/// A HAR 1.2 archive: a JSON object whose first member is `"log"` (HAR 1.2 "log").
bool sniff_har(std::string_view text);

/// ISO 8601 date-time as HAR and `mcptriage proxy` recordings write it
/// (`2009-07-24T19:20:30.45+01:00`, `...Z`): nanoseconds since the Unix epoch; nullopt for
/// anything else, and for instants before 1970 or past 2262-04-11 that 64-bit nanoseconds
/// cannot hold (a date-time is only informative).
std::optional<std::int64_t> iso8601_unix_ns(std::string_view s);

/// One exchange per HAR entry, format "har" (HAR 1.2 "entries"; exporter quirks in
/// shared/capture-formats.md §3). The request (`method`, `url`, `headers`, `postData.text`)
/// gives the context; `content.text` is the body (base64 decoded when `encoding` says so, the
/// text kept when that fails). Entries that are not MCP (pages, assets, non-JSON-RPC calls,
/// DELETE, standalone GET streams) come back with Exchange::skipped set. A missing `text`,
/// status 0 or an `_error` gives BodyState::not_captured. Errors: not JSON, no `log.entries`.
std::expected<std::vector<Exchange>, CaptureError> read_har(std::string_view bytes, std::string_view name,
                                                            const CaptureOptions& options);
/// read_har handing the entries to `batches` a few hundred at a time as they are read (the
/// returned vector is then empty): memory holds the file and one batch, not every exchange.
std::expected<std::vector<Exchange>, CaptureError> read_har_batches(std::string_view bytes, std::string_view name,
                                                                    const CaptureOptions& options,
                                                                    const ExchangeBatches& batches);

/// True when read_har_batches reads `bytes` entry by entry to the end and finds at least one
/// entry: the whole document is valid JSON (as Parser::parse reads it) with one `log` object
/// holding one `entries` array. One walk of the file (json::for_each_element_at) that parses
/// every value and keeps none. False for any fault, which read_har then reports.
bool har_entries_readable(std::string_view bytes, const CaptureOptions& options);

/// JSON Lines: the first line is a JSON object on its own, and either it looks like a logged
/// exchange (`status`, `http`, `response`, `dir`, ...) or another object follows on a later line.
bool sniff_json_lines(std::string_view text);

/// Reads a JSON Lines log (docs/formats.md): format "exchange-log" when lines wrap messages
/// with HTTP facts, "jsonrpc-messages" when every line is a bare JSON-RPC message (the stdio
/// framing). Requests and responses are paired by `id`; SSE events logged one per line are
/// joined into the stream of their response; lines that are no exchange (client and server
/// notifications of a message stream, invalid lines) come back skipped.
std::expected<std::vector<Exchange>, CaptureError> read_json_lines(std::string_view bytes, std::string_view name,
                                                                   const CaptureOptions& options);

/// Whole lines of a JSON Lines log read like read_json_lines, exchanges numbered from
/// `first_index + 1` (block-wise reading, capture.hpp read_lines_block).
/// `padded`: json::kPadding allocated bytes follow `lines` (read in place, no copy per line).
/// `more_follows`: the log goes on after `lines`; a text whose end leaves lines waiting is read
/// up to its last line after which nothing waited (`consumed`), when there is one.
struct JsonLinesBlock {
  std::vector<Exchange> exchanges;
  bool self_contained = true;  ///< no line waits for a later line when the text ends (or at `consumed`)
  bool wrapped = false;        ///< some line wraps a message with HTTP facts ("exchange-log")
  std::size_t consumed = 0;        ///< with `more_follows`: where the lines to read again start, 0: none
  std::size_t consumed_lines = 0;  ///< the lines before that point
  std::vector<std::size_t> carry_skip;  ///< line numbers among those to read as blank
};
std::expected<JsonLinesBlock, CaptureError> read_json_lines_block(std::string_view lines, std::string_view name,
                                                                  std::size_t first_index, const CaptureOptions& options,
                                                                  std::size_t first_line = 0, bool padded = false,
                                                                  bool more_follows = false,
                                                                  std::span<const std::size_t> skip_lines = {});

/// curl `-v` stderr, alone or with stdout appended (`2>&1`): the first line is a `* `, `> ` or
/// `< ` line, curl's progress meter header, or a `Note:`/`Warning:` line followed by those.
bool sniff_curl_verbose(std::string_view text);

/// One exchange per transfer, format "curl-v" (shared/capture-formats.md §2.2): the `> `
/// request line and headers (the request body is never shown), the last `< ` header block,
/// and the body from the same file (after the headers, or appended at the end) or from
/// CaptureOptions::separate_body. CONNECT tunnels and followed redirects are dropped with a
/// warning. A body that is in neither place is BodyState::absent.
std::expected<std::vector<Exchange>, CaptureError> read_curl_verbose(std::string_view bytes, std::string_view name,
                                                                     const CaptureOptions& options);

/// A bare JSON body: the first byte is `{` or `[`.
bool sniff_bare_json(std::string_view text);

/// One exchange, format "bare-json": the whole input is the body, the transport was not
/// captured (status CaptureOptions::assumed_status, no headers).
std::expected<std::vector<Exchange>, CaptureError> read_bare_json(std::string_view bytes,
                                                                  std::string_view name,
                                                                  const CaptureOptions& options);

/// A bare event-stream body: the first line starts with `data:`, `event:`, `id:`, `retry:`
/// or is a `:` comment (WHATWG HTML, "event stream interpretation").
bool sniff_bare_sse(std::string_view text);

/// A server access log in the Common or Combined Log Format (Apache `common`/`combined`, nginx's
/// default): true when the first line parses as one (`HOST IDENT USER [TIME] "METHOD TARGET
/// VERSION" STATUS BYTES`).
bool sniff_access_log(std::string_view text);
/// One exchange per line, format "access-log" (docs/formats.md "Server access logs"): the method,
/// target, status, time and user agent; no headers, no body (`body_state` not_captured). A POST
/// and an authorization leg (by its path) are exchanges; a GET that is no authorization leg, a
/// HEAD or other method is skipped `not_mcp`, a DELETE `session_end`; a line that does not parse
/// is skipped `invalid_line`.
std::expected<std::vector<Exchange>, CaptureError> read_access_log(std::string_view bytes, std::string_view name,
                                                                   const CaptureOptions& options);

/// One exchange, format "bare-sse": like read_bare_json, for an event-stream body.
std::expected<std::vector<Exchange>, CaptureError> read_bare_sse(std::string_view bytes,
                                                                 std::string_view name,
                                                                 const CaptureOptions& options);

}  // namespace mcptriage::capture
