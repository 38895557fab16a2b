// Capture readers: bytes of one input (file or stdin) in, HTTP exchanges out. No file I/O.
#pragma once

#include <expected>
#include <string>
#include <string_view>
#include <vector>

#include "mcptriage/exchange.hpp"

namespace mcptriage {

/// Why an input could not be turned into exchanges.
struct CaptureError {
  std::string message;  ///< one line, names what was seen, e.g. "mitmproxy flow file (tnetstring): unsupported"
};

/// Options that apply to bare bodies (captures without a status line).
struct CaptureOptions {
  int assumed_status = 200;  ///< status used when the transport was not captured (`--status`)
};

/// Detects the capture format of `bytes` and reads every exchange in it.
///
/// `name` is the input's display name; each Exchange::source becomes `name#N` (N from 1).
/// Formats (see docs/formats.md): curl `-i`/`-D -` output with any number of header blocks
/// and glued `--next` responses, raw HTTP/1.1 wire bytes (chunked framing removed when it is
/// really there), request-then-response text (HTTPie `-v`, a saved TCP conversation),
/// bare JSON / JSON batch / SSE bodies. A body starting with `1f 8b` is gunzipped (zlib).
/// Errors: empty input, binary or unknown formats, pcap and mitmproxy flow files.
std::expected<std::vector<Exchange>, CaptureError> read_capture(std::string_view bytes,
                                                                std::string_view name,
                                                                const CaptureOptions& options = {});

}  // namespace mcptriage
