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

/// Decodes the body of `response` in place while its bytes still carry a content coding (RFC
/// 9110 §8.4), the coding applied last first: `gzip`/`x-gzip` (RFC 1952; bytes starting `1f 8b`
/// are gzip whatever the header says: curl without --compressed writes them as received),
/// `deflate` (RFC 9110 §8.4.1.2: zlib-wrapped, or raw as some servers send it), `br` (RFC 7932)
/// and `zstd` (RFC 8878). Bytes that read as
/// text (UTF-8 without C0 controls) were decoded by the capture tool (curl --compressed, HAR
/// exporters) and are left as they are. One policy for every reader (docs/formats.md "Content
/// codings"), each outcome with a warning:
/// - decoded: the body is the decoded bytes;
/// - output past `max_body`: cut there, BodyState::truncated and `cut_at_max_body`;
/// - the input ends inside the coded stream: the bytes decoded so far, BodyState::truncated;
/// - bytes not in their coding, or a coding not decoded here: kept as captured, the codings left
///   in `undecoded_coding` (the classifier's NOT_CAPTURED `body_not_decoded`: nothing can be
///   judged, and it is not the server's JSON that failed).
///
/// A body the header labels with a coding whose captured bytes are plain text (issue 14): with
/// `bytes_as_captured`, when it has exactly its Content-Length those were the bytes on the wire,
/// which no client can decode (Response::plain_under_coding, with a warning); otherwise it is read
/// as decoded by the capture tool, with a warning that says both readings. A HAR's content.text is
/// decoded by the exporter by definition (HAR 1.2): `decoded_by_format` reads it as it is.
enum class CodingEvidence {
  bytes_as_captured,  ///< curl -i/-v, raw HTTP, JSON Lines: the bytes may be as sent or decoded by the tool
  decoded_by_format,  ///< HAR content.text: decoded by the exporter, whatever the headers say
};
void decode_body(Response& response, std::vector<std::string>& warnings, std::size_t max_body,
                 CodingEvidence evidence = CodingEvidence::bytes_as_captured);

/// The bytes of `body` a reader keeps: all of them, or `max_body` + 1 bytes when it is longer (one
/// byte past the limit is enough for limit_body to cut it and say so). A body still in a content
/// coding (`headers` name one, or it starts with the gzip magic) is kept whole: `--max-body`
/// bounds what it decodes to (decode_body), and a coded body cut first would read as cut short.
std::string keep_for_limit(std::string_view body, const Headers& headers, std::size_t max_body);

/// `--max-body` for every reader: a body longer than `max_body` is cut to it and marked truncated
/// and `cut_at_max_body` (so that it is never a success and the classifier names the flag:
/// `cut_at_limit`), with a warning in `warnings`.
void limit_body(Response& response, std::vector<std::string>& warnings, std::size_t max_body);

}  // namespace mcptriage::capture
