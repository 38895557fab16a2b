// Internal interface between format detection (capture.cpp) and the per-format readers.
#pragma once

// Adding a format: write src/capture/<format>.cpp with a sniff_xxx and a read_xxx, declare
// both here, and add one line to the format table in capture.cpp.

#include <cstddef>
#include <expected>
#include <string>
#include <string_view>
#include <vector>

#include "mcptriage/capture.hpp"
#include "mcptriage/exchange.hpp"

namespace mcptriage::capture {

/// Display name of the `index`-th exchange (1-based) of input `name`: "name#index".
std::string source_name(std::string_view name, std::size_t index);

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

/// One exchange, format "bare-sse": like read_bare_json, for an event-stream body.
std::expected<std::vector<Exchange>, CaptureError> read_bare_sse(std::string_view bytes,
                                                                 std::string_view name,
                                                                 const CaptureOptions& options);

}  // namespace mcptriage::capture
