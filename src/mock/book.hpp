// `mcptriage mock` (issue 29; docs/mock.md): the recorded exchanges of Streamable HTTP captures,
// served again. A Book holds them by call (JSON-RPC method and canonical params) and answers a new
// request with the recorded answer of the same call: status, headers, body, the JSON-RPC id
// rewritten to the new request's, an event stream as its recorded events.
#pragma once

#include <cstddef>
#include <cstdint>
#include <expected>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "mcptriage/exchange.hpp"

namespace mcptriage::mock {

/// What the replay server sends back for one request.
struct Answer {
  int status = 200;
  Headers headers;                  ///< the recorded ones, less framing (length, coding, connection, date)
  std::vector<std::string> pieces;  ///< the body: one piece, or one per event of an event stream
  bool event_stream = false;        ///< `pieces` are SSE events, written one by one
  bool matched = true;              ///< false: no recorded call matched (the body is a JSON-RPC error)
  std::string served_from;          ///< the recorded exchange's source (`s.jsonl#4`), "" when made here
};

/// The recorded exchanges of one or more recordings, by call. Thread-safe.
class Book {
 public:
  /// Builds the book from exchanges read with read_capture, in recorded order. Kept: POSTs with a
  /// JSON-RPC request, notification or response body and a captured response; left out (counted):
  /// skipped entries (pages, assets, DELETE, GET), exchanges whose response was not captured.
  /// Errors: a message stream (stdio: `mcptriage wrap` recordings, logs of bare messages), and
  /// nothing left to serve.
  static std::expected<Book, std::string> build(std::vector<Exchange> exchanges);

  Book() = default;
  Book(Book&& other) noexcept;
  Book& operator=(Book&& other) noexcept;

  /// The answer to one HTTP request (docs/mock.md "Matching"). POST: the next recorded answer of
  /// the same call (the same JSON-RPC method, and the same params as canonical JSON without
  /// `_meta`: progress tokens and other metadata do not count), the last one again once they are
  /// used up; its JSON-RPC id (in the body, or in the stream's final response) rewritten to the
  /// request's. A notification or a client's response with no recorded match: 202. A request with
  /// no match: HTTP 200 and a JSON-RPC error -32603 whose message names the closest recorded call
  /// and where its params differ. Sessions: `initialize` gets the recorded Mcp-Session-Id; when the
  /// recorded requests after it carried one, a request without it gets 400, with one never issued
  /// 404 (MCP transports, Session Management). GET: 405 (no standalone stream is replayed); DELETE:
  /// 200 when the session was issued, else 404.
  Answer answer(std::string_view http_method, const Headers& headers, std::string_view body);

  std::size_t entries() const { return entries_; }
  std::size_t left_out() const { return left_out_; }
  /// Requests answered with no recorded match so far.
  std::size_t unmatched() const;
  /// The recordings were made with redaction (`[REDACTED]`, or a session id shortened to 8
  /// characters and an ellipsis): credentials are served as recorded; such a session id, which is
  /// not one a server may send (visible ASCII only), is served as `mock-` and a hash of it.
  bool redacted() const { return redacted_; }
  /// The request path of the recorded POSTs (the first one), for the URL the client is given.
  const std::string& path() const { return path_; }
  /// The same call answered differently in the recordings (two sessions that disagree): the
  /// answers are served in recorded order; one note per call.
  const std::vector<std::string>& notes() const { return notes_; }

 private:
  struct Entry {
    std::string source;
    std::string method;
    std::string tool;
    std::string params;       ///< minified, for the closest-call message
    bool params_known = true;  ///< false: the recording logged the body as JSON (only its hash is kept)
    std::string request_id;   ///< the recorded request's id as JSON ("" for a notification)
    int status = 200;
    Headers headers;
    std::string body;
    bool event_stream = false;
  };
  struct Call {
    std::vector<Entry> answers;
    std::size_t next = 0;
  };
  Answer error_answer(int status, std::string_view id_json, int code, std::string message);
  Answer unmatched_answer(std::string_view method, std::string_view tool, std::string_view params,
                          std::string_view id_json);

  std::unique_ptr<std::mutex> mu_ = std::make_unique<std::mutex>();
  std::map<std::pair<std::string, std::uint64_t>, Call> calls_;
  std::size_t entries_ = 0;
  std::size_t left_out_ = 0;
  std::size_t unmatched_ = 0;
  bool redacted_ = false;
  bool sessions_required_ = false;
  std::set<std::string> issued_;
  std::string path_ = "/mcp";
  std::vector<std::string> notes_;
};

/// `body` (one JSON-RPC message) with its top-level `id` replaced by `id_json`, every other byte
/// kept; unchanged when it has no id or is no JSON object.
std::string with_id(std::string_view body, std::string_view id_json);

/// Where two params (JSON texts) first differ, `_meta` aside: a JSON Pointer (RFC 6901) and the two
/// values, e.g. `/arguments/message: recorded "hi", sent "ho"`; "" when they are equal.
std::string first_difference(std::string_view recorded, std::string_view sent);

}  // namespace mcptriage::mock
