// The one body step of every capture reader (docs/formats.md "Content codings"): removing a
// Content-Encoding the captured bytes still carry, bounded by `--max-body`, and the `--max-body`
// cut itself. Readers find where a body starts and ends; what its bytes mean is decided here.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "mcptriage/exchange.hpp"

namespace mcptriage::capture {

/// The reader whose wording the step uses for gzip bytes (being unified: docs/formats.md).
enum class BodySource { http_text, curl_verbose, har };

/// Decodes the body of `response` in place when its bytes still carry a content coding: bytes
/// starting `1f 8b` are gunzipped whatever the header says (RFC 1952; curl without --compressed
/// writes them as received, RFC 9110 §8.4.1.3); a `deflate` body that is not text is inflated,
/// zlib-wrapped or raw (RFC 9110 §8.4.1.2). The output is bounded by `max_body`: a body that
/// reaches it is cut there, marked truncated and `cut_at_max_body`, with a warning naming the
/// flag. A body that reads as text under its header was decoded by the capture tool (curl
/// --compressed, HAR exporters) and is left as it is. Any other coding, or a deflate body that
/// does not inflate, is kept as captured, named in `undecoded_coding` and in a warning.
void decode_body(Response& response, std::vector<std::string>& warnings, std::size_t max_body, BodySource source);

/// The first bytes of `body` a reader keeps: all of it, or `max_body` + 1 bytes when it is longer
/// (one byte past the limit is enough for limit_body to cut it and say so).
std::string keep_for_limit(std::string_view body, std::size_t max_body);

/// `--max-body` for every reader: a body longer than `max_body` is cut to it and marked truncated
/// and `cut_at_max_body` (so that it is never a success and the classifier names the flag:
/// `cut_at_limit`), with a warning in `warnings`.
void limit_body(Response& response, std::vector<std::string>& warnings, std::size_t max_body);

}  // namespace mcptriage::capture
