// The classifier's inside, shared by its files: the request context of an exchange, and the
// Judgement that walks the layers (classify.cpp: the order; http_status.cpp: non-2xx statuses;
// sse_body.cpp: event streams). Not public API.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "json/dom.hpp"
#include "mcptriage/classify.hpp"

namespace mcptriage::classify_detail {

/// What the classifier knows of the request (classification.md §Request context): the captured
/// request, else the flags' (`--request`, `--id`, `--method`), merged into one RequestInfo, and
/// where its method and version came from.
struct RequestContext {
  /// Shape::message when the kind (request or notification) is known; a batch request's ids.
  RequestInfo request;
  MethodSource method_source = MethodSource::inferred;
  std::string version;         ///< the protocol version the request says ("" when none)
  std::string version_source;  ///< "request", "flag", or ""
  bool session_id_sent = false;  ///< the request carried a non-empty Mcp-Session-Id
  /// The request was the client's JSON-RPC response to a server request: the id it answers.
  std::optional<JsonRpcId> client_response_id;
  bool kind_known() const { return request.shape == RequestInfo::Shape::message; }
  /// No result is due: a notification, or a client's response (client_response()).
  bool notification() const { return kind_known() && request.notification; }
  bool client_response() const { return kind_known() && client_response_id.has_value(); }
  /// A batch request's ids (RequestInfo::batch_ids); empty otherwise.
  const std::vector<JsonRpcId>& batch_ids() const { return request.batch_ids; }
};

/// Builds the context of `ex` (context.cpp). Warnings about it (a request header or body that
/// cannot be used, the flags' own) go to `warnings`; `along`, when given, gets the captured
/// request when it is a JSON-RPC message.
RequestContext build_context(const Exchange& ex, const ContextFlags& flags, std::vector<std::string>& warnings,
                             ReadAlong* along);

/// A full parse of one JSON text (a body, an event's data), with the MALFORMED_JSON reason when
/// it is not one JSON value (RFC 8259): empty_json, invalid_utf8, too_deep, too_large,
/// trailing_data (a complete value and more text), invalid_json.
struct Parsed {
  bool ok = false;
  json::View root;
  Reason reason = Reason::invalid_json;  ///< when !ok
  std::string detail;                    ///< when !ok
  /// When ok: what the text holds that RFC 8259 allows and clients read differently (an
  /// integer beyond 64 bits, a number beyond the double range, a lone surrogate); else empty.
  std::string leniency;
};
Parsed parse_json(json::Parser& parser, std::string_view text, bool padded = false);
/// parse_json() of a string, read in place when it has room for the parser's padding (a body the
/// JSON Lines reader copied with json::padded_copy).
Parsed parse_json(json::Parser& parser, const std::string& text);

/// One parser per thread for response bodies and their events, reused for every exchange
/// (docs/performance.md). A View of it lasts until the next parse: nothing keeps one across steps.
json::Parser& body_parser();

/// The judging of one exchange: its base record (transport facts and request context), and the
/// steps of the layer order. The classify() of classify.cpp, and SseJudge, drive it.
class Judgement {
 public:
  Judgement(const Exchange& ex, const ContextFlags& flags, long long now, ReadAlong* along);

  const Exchange& exchange() const { return ex_; }
  const RequestContext& context() const { return ctx_; }
  const Classification& base() const { return base_; }

  /// How the body is to be judged once the transport layer has not decided.
  enum class Framing { decided, json, sse };
  /// The transport layer (classify.cpp): NOT_CAPTURED, a non-2xx status (http_status.cpp), an
  /// absent body, the replies to notifications, 202/204, a coding that was not removed, the media
  /// type. Appends the records it decides to `out` (then Framing::decided), else says the framing.
  Framing transport(Classification& c, std::vector<Classification>& out);

  /// A non-2xx status (http_status.cpp): HTTP_ERROR by status, or, for the pairs the spec makes
  /// (400 with -32700/-32600/-32602/-32020/-32021/-32022, 404 with -32601), the JSON-RPC error body.
  void judge_non_2xx(Classification& c, bool json_media, const std::string& status_text,
                     std::vector<Classification>& out);

  /// A JSON body (classify.cpp): cut short, not JSON, one message or a batch.
  void judge_json_body(Classification& c, std::vector<Classification>& out);
  /// An event-stream body (sse_body.cpp): every event of `body` fed to an SseBody.
  void judge_sse_body(Classification c, std::string_view body, std::vector<Classification>& out);
  /// A batch array (2025-03-26): a record per element, or only the element answering the request id.
  void judge_batch(Classification& c, json::View root, std::vector<Classification>& out);
  /// One message: the envelope (jsonrpc/envelope), the id pairing, then the result (mcp/).
  void judge_message(Classification& c, json::View msg, const std::string& prefix);

  /// The version whose rules apply to `c`; when nothing said, inferred from the deciding message
  /// (mcp::inferred_version; a batch: 2025-03-26) or assumed (2025-11-25), and recorded in `c`.
  const std::string& version_for(Classification& c, std::optional<json::View> message, bool batch);

  /// The last steps for every record: the version when none was set, the retry advice; hands the
  /// tools/call result to `along`.
  void finish(std::vector<Classification>& out);

 private:
  std::string hypothetical();
  /// "the client's JSON-RPC response to the server's request id N" (context().client_response() only).
  std::string client_response_text() const;

  const Exchange& ex_;
  long long now_;
  ReadAlong* along_ = nullptr;
  RequestContext ctx_;
  Classification base_;
  /// The structuredContent of the last top-level message judged a tools/call success (a
  /// hypothetical verdict too: finish() hands it out only when the one record is that success).
  std::optional<std::optional<std::string>> tool_result_;
};

/// A live reader's cut (Exchange::live_end, SseStreamEnd::live_end): the STREAM_INCOMPLETE
/// records (and bodies cut short or absent) of `out` get its reason (interrupted, idle_timeout,
/// timeout) and say so in their detail. Before Judgement::finish (the retry advice follows it).
void apply_live_end(LiveEnd live_end, std::vector<Classification>& out);

}  // namespace mcptriage::classify_detail
