// Internal to src/capture: the parts of the HTTP text reader (http_text.cpp) that are not the
// reader itself: lines and request lines, header blocks (RFC 9112 §5), and the body helpers.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "mcptriage/exchange.hpp"

namespace mcptriage::capture::http_text_parts {

constexpr std::size_t npos = std::string_view::npos;

/// One line at `begin`: content without the line end (LF, CRLF, or CR CR LF as in terminal
/// recordings), and where the next line starts. `terminated` is false when EOF came first.
struct Line {
  std::size_t begin = 0;
  std::string_view content;
  std::size_t next = 0;
  bool terminated = false;
};

struct RequestLine {
  std::string method;
  std::string target;
  std::string version;
};

enum class BlockEnd {
  blank,      ///< ended by an empty line: the normal case
  eof,        ///< the capture ends inside the block
  non_field,  ///< a line that is neither a field nor empty: the body starts there
};

struct Block {
  Headers headers;
  std::size_t body_start = 0;
  BlockEnd end = BlockEnd::blank;
  bool partial_line_dropped = false;  ///< an unterminated last line was not kept (EOF case)
};

Line line_at(std::string_view s, std::size_t begin);

/// A character of a method token as this reader takes them: upper-case letters, '-' and '_'.
bool is_method_char(char c);

/// RFC 9112 §3: method SP request-target SP HTTP-version. Methods are upper-case tokens here.
std::optional<RequestLine> parse_request_line(std::string_view line);

std::string status_text(int status, std::string_view reason);

/// True when `bytes` is exactly one JSON value (surrounding whitespace allowed).
bool holds_one_json_value(std::string_view bytes);

/// Reads the field lines after a start line (RFC 9112 §5). obs-fold continuation lines are
/// joined to the previous value with one space (§5.2).
Block read_header_block(std::string_view text, std::size_t pos);

/// Removes trailer fields that curl prints straight after the body (`...}}X-Checksum: x\r\n`)
/// when a `Trailer` header announced them (RFC 9110 §6.6.2). Returns the body without them.
std::string_view strip_trailers(std::string_view body, std::string_view announced,
                                std::vector<std::string>& warnings);

/// Statuses whose responses never have content (RFC 9110 §6.4.1).
bool status_has_no_body(int status);

/// True when a response with nothing after its header block and no framing header (neither
/// `Content-Length` nor `Transfer-Encoding`) shows no body at all rather than an empty one: a
/// `curl -D` header file alone (docs/classification.md `body_absent`). A 2xx but 202 carries
/// content (RFC 9110 §15.3); a 202 with nothing after it is the empty reply to a notification,
/// and an event stream ended by closing the connection (RFC 9112 §6.3) may have sent nothing
/// (`empty_stream`). Other statuses are judged by their status alone, so they are left as they are.
bool unframed_body_absent(const Response& response, std::string_view body);

}  // namespace mcptriage::capture::http_text_parts
