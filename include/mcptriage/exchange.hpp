// Owned, library-free data types that flow between modules: a captured HTTP exchange.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

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
  bool transport_captured = true;  ///< false for bare bodies (no status line or headers)
};

/// Why a reader kept an entry of a capture out of classification (a HAR entry for a web page,
/// a client notification in a message stream). Skipped entries are reported, never dropped.
struct Skip {
  std::string reason;  ///< stable snake_case code (docs/output.md "Skipped records")
  std::string detail;  ///< one human line: what the entry was
};

/// One HTTP exchange as read from a capture.
struct Exchange {
  std::string source;     ///< input name and exchange index, e.g. "reply.txt#1"
  std::string format;     ///< detected capture format, e.g. "curl-i", "bare-json"
  std::optional<Request> request;
  Response response;
  std::vector<std::string> warnings;  ///< reader notes (dropped blocks, stale length, ...)
  /// Set when the entry is not an MCP exchange to classify; `response` is then meaningless
  /// and the entry is printed as a skipped record instead of being classified.
  std::optional<Skip> skipped = std::nullopt;
};

}  // namespace mcptriage
