// The layered classifier: an Exchange (plus request context) in, a Classification (verdict.hpp)
// out; and its event-stream step on its own (SseJudge), for a reader that sees events as they come.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "mcptriage/exchange.hpp"
#include "mcptriage/jsonrpc.hpp"
#include "mcptriage/sse.hpp"
#include "mcptriage/verdict.hpp"

namespace mcptriage {

/// Whether `v` has the form of an MCP protocol version: a calendar date, `YYYY-MM-DD` (MCP basic
/// §Versioning: "the version format is YYYY-MM-DD"). Rules are chosen by comparing versions as
/// text, so a value of another form (`2025-6-18`, `latest`) would pick rules at random.
bool is_protocol_version(std::string_view v);

/// Whether `v` is a published MCP protocol version (2024-11-05, 2025-03-26, 2025-06-18,
/// 2025-11-25, 2026-07-28). Another well-formed date gets the rules of the latest version before it
/// (the version table, src/mcp/versions.hpp).
bool is_known_protocol_version(std::string_view v);

/// Request context given by flags; applies to exchanges whose capture carries no request.
struct ContextFlags {
  std::optional<JsonRpcId> id;               ///< `--id` (jsonrpc::parse_id)
  std::optional<std::string> method;         ///< `--method`
  /// `--request FILE` (or a request sidecar) read once: jsonrpc::read_request of its contents.
  std::optional<RequestInfo> request;
  /// What messages call `request`: "" for "--request file", else e.g. "request sidecar X.request.json".
  std::string request_origin = {};
  std::optional<std::string> protocol_version;  ///< `--protocol-version`
  /// About the context itself, added to the warnings of every record it applies to (a request
  /// sidecar that could not be read, so the exchange is judged without its request).
  std::vector<std::string> warnings = {};
};

/// What classify() read on its way that the session analysis needs (src/session), handed out
/// so that no body is parsed twice (docs/performance.md). Pure data.
struct ReadAlong {
  /// The request body when it is a JSON-RPC message object (RequestInfo::Shape::message): the
  /// captured one (Exchange::request: the reader's RequestInfo, or the classifier's reading),
  /// else the one given beside the capture (`--request FILE` or a request sidecar).
  std::optional<RequestInfo> request;
  // The deciding result of a tools/call TOOL_SUCCESS (a single record, not a batch element).
  bool tool_result_found = false;
  std::optional<std::string> structured_content;  ///< `result.structuredContent` as minified JSON
};

/// Classifies one exchange. Pure; never fails: every input gets an outcome.
/// Returns one Classification, or one per element for a JSON-RPC batch array body
/// (2025-03-26 batching). `now_unix_seconds` is used for HTTP-date `Retry-After` values.
/// When `along` is given, it is filled with what the session analysis needs.
std::vector<Classification> classify(const Exchange& exchange, const ContextFlags& flags,
                                     long long now_unix_seconds, ReadAlong* along = nullptr);

/// What an event stream showed by its end besides its events (sse::Stream without `events`),
/// and how it ended.
struct SseStreamEnd {
  std::size_t empty_data_events = 0;  ///< blocks with empty data (2025-11-25 priming events)
  std::optional<long long> retry_ms;  ///< the last valid `retry` field, milliseconds
  std::string last_event_id;          ///< the stream's last event id
  bool any_id = false;                ///< some block set a non-empty `id`
  bool unterminated_tail = false;     ///< it ended inside an event (dropped, WHATWG rule)
  bool cut_short = false;             ///< the body ended before its announced length (BodyState::truncated)
  bool cut_at_limit = false;          ///< ... because mcptriage cut it at --max-body (Response::cut_at_max_body)
  /// A live reader ended the wait before the stream's end (a signal, a timeout): a
  /// STREAM_INCOMPLETE verdict then names that cause, as classify() does for Exchange::live_end.
  LiveEnd live_end = LiveEnd::none;
  /// The facts of a stream parsed whole (sse::parse); `cut_short` from the response's body state.
  static SseStreamEnd of(const sse::Stream& stream, bool cut_short);
};

/// The verdict of an event stream judged as it arrived (SseJudge::finish) and what the session
/// analysis needs of it (the judge's ReadAlong), carried by Exchange::judged.
struct Judged {
  std::vector<Classification> records;
  ReadAlong along;
};

/// Judges a text/event-stream response body one event at a time, as classify() does with a whole
/// body (classification.md "SSE"; it is the same code): the first response whose id matches the
/// request's (any response when the request id is unknown; an id-less error when nothing else
/// answers) decides; a stream that ends without it is STREAM_INCOMPLETE, or INPUT_REQUIRED when it
/// ends with a server's input request before 2026-07-28. State is O(1) in the number of events:
/// counts, the deciding verdict (judged when its event arrives), the last server request, the
/// first event that is not JSON, and the warnings of the few events that raise one; events are
/// never kept, so a reader can feed an endless stream from a pipe.
///
/// Use: `auto judge = SseJudge::start(head, flags, now)` with the exchange's request and response
/// head (status, headers; the body is not read): nullopt when classify() would not judge the
/// response as an event stream (a non-2xx, a reply to a notification, 202/204, another media
/// type), and the reader collects the body for classify() instead. Then `judge->feed(event)` for
/// each dispatched sse::Event in order; it returns decided() (the final response has arrived, and
/// later events only add counts and warnings); at the end of the stream (or at once when decided,
/// for a record written early) `judge->finish(end)` gives the records: one, or one per element of
/// a batch response, with retry advice. `head` and `flags` are copied; `along` (optional) must
/// outlive the judge.
class SseJudge {
 public:
  static std::optional<SseJudge> start(const Exchange& head, const ContextFlags& flags, long long now_unix_seconds,
                                       ReadAlong* along = nullptr);
  ~SseJudge();
  SseJudge(SseJudge&&) noexcept;
  SseJudge& operator=(SseJudge&&) noexcept;

  /// One dispatched event (empty-data blocks are not events: count them in SseStreamEnd).
  bool feed(const sse::Event& event);
  /// The final response (or the batch) has been judged.
  bool decided() const;
  /// Events fed so far.
  std::size_t events() const;
  /// The verdict; the judge is spent after it.
  std::vector<Classification> finish(const SseStreamEnd& end);

 private:
  struct State;
  explicit SseJudge(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

}  // namespace mcptriage
