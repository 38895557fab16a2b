// The layered classifier: an Exchange (plus request context) in, a Classification out.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "mcptriage/exchange.hpp"

namespace mcptriage {

/// Outcome names from the product contract (shared/classification.md §Outcomes).
enum class Outcome {
  TOOL_SUCCESS,
  TOOL_ERROR,
  RPC_SUCCESS,
  INPUT_REQUIRED,
  TASK_CREATED,
  ACCEPTED,
  HTTP_ERROR,
  INVALID_HTTP_RESPONSE,
  STREAM_INCOMPLETE,
  MALFORMED_JSON,
  INVALID_ENVELOPE,
  JSONRPC_ERROR,
  INVALID_TOOL_RESULT,
  INVALID_RESULT,
  NOT_CAPTURED,
};
/// How many outcomes there are (the enumerators above count from 0).
inline constexpr std::size_t kOutcomeCount = static_cast<std::size_t>(Outcome::NOT_CAPTURED) + 1;

/// The layer that decided (classification.md §One exchange, four layers).
enum class Layer { transport, protocol, interaction, application };

std::string_view to_string(Outcome o);
std::string_view to_string(Layer l);
/// Parses an outcome name (exact, upper case). nullopt when unknown.
std::optional<Outcome> parse_outcome(std::string_view name);
/// The layer each outcome belongs to.
Layer layer_of(Outcome o);

/// Parses the text given to `--id`: a JSON integer or a JSON string (`'"1"'`).
std::optional<JsonRpcId> parse_id_flag(std::string_view text);

/// Whether `v` has the form of an MCP protocol version: a calendar date, `YYYY-MM-DD` (MCP basic
/// §Versioning: "the version format is YYYY-MM-DD"). Rules are chosen by comparing versions as
/// text, so a value of another form (`2025-6-18`, `latest`) would pick rules at random.
bool is_protocol_version(std::string_view v);

/// Whether `v` is a published MCP protocol version (2024-11-05, 2025-03-26, 2025-06-18,
/// 2025-11-25, 2026-07-28). Another well-formed date gets the rules of the latest version before it.
bool is_known_protocol_version(std::string_view v);

/// Where the method came from (classification.md §Request context).
enum class MethodSource { request, flag, inferred };
std::string_view to_string(MethodSource s);

/// Request context given by flags; applies to exchanges whose capture carries no request.
struct ContextFlags {
  std::optional<JsonRpcId> id;               ///< `--id`
  std::optional<std::string> method;         ///< `--method`
  std::optional<std::string> request_body;   ///< `--request FILE` contents (a JSON-RPC request)
  /// What messages call request_body: "" for "--request file", else e.g. "request sidecar X.request.json".
  std::string request_origin = {};
  std::optional<std::string> protocol_version;  ///< `--protocol-version`
  /// About the context itself, added to the warnings of every record it applies to (a request
  /// sidecar that could not be read, so the exchange is judged without its request).
  std::vector<std::string> warnings = {};
};

/// Retry advice codes (classification.md §Retry advice).
enum class Advice {
  none,                      ///< success or ACCEPTED
  retry_if_idempotent,       ///< 502/503/504/408: bounded backoff, only read-only/idempotent calls
  retry_once_if_idempotent,  ///< 500
  new_session,               ///< session unknown/expired: initialize again
  wait_retry_after,          ///< 429
  reauthorize,               ///< 401
  step_up_authorization,     ///< 403 insufficient_scope
  fix_request,               ///< -32602 and other request faults: do not resend as is
  retry_with_supported_version,  ///< -32022 / version errors
  hand_error_to_model,       ///< TOOL_ERROR
  do_not_retry,              ///< malformed or invalid replies: keep the evidence
  resend_with_input,         ///< INPUT_REQUIRED
  resume_stream,             ///< STREAM_INCOMPLETE, resumable
  resend_if_idempotent,      ///< STREAM_INCOMPLETE, not resumable
  poll_task,                 ///< TASK_CREATED
  investigate,               ///< anything else that is not retryable as is (other 4xx, NOT_CAPTURED)
};
std::string_view to_string(Advice a);

struct RetryAdvice {
  Advice advice = Advice::none;
  std::string text;                      ///< one line with its condition
  std::optional<long long> after_ms;     ///< from `Retry-After` or the SSE `retry` field
};

/// The full verdict on one exchange.
struct Classification {
  Outcome outcome = Outcome::NOT_CAPTURED;
  Layer layer = Layer::transport;
  std::string reason;                     ///< stable snake_case code (docs/classification.md)
  std::string detail;                     ///< one human line (untrusted text included, unescaped)
  std::string pointer;                    ///< JSON Pointer of the fault, "" when none
  // transport
  int http_status = 200;                  ///< the status (assumed for bare bodies)
  std::string content_type;               ///< raw Content-Type header value, "" when none
  bool transport_captured = true;
  std::optional<bool> resumable;          ///< STREAM_INCOMPLETE only
  std::size_t sse_events = 0;             ///< events dispatched, for SSE bodies
  std::optional<long long> stream_retry_ms;  ///< the SSE `retry` field, milliseconds
  // protocol
  std::optional<JsonRpcId> request_id;    ///< the id we expected, when known
  bool id_checked = false;                ///< the response id was compared with a known request id
  std::optional<JsonRpcId> response_id;   ///< the id in the deciding response
  std::optional<std::int64_t> error_code; ///< JSON-RPC error.code
  std::string error_message;              ///< JSON-RPC error.message
  std::vector<std::string> supported_versions;  ///< error.data.supported (-32022 and version errors)
  std::string method;                     ///< the request method ("" when unknown)
  MethodSource method_source = MethodSource::inferred;
  bool notification = false;              ///< the request was a JSON-RPC notification
  std::string result_type;                ///< resultType as sent, "" when absent
  std::string protocol_version;           ///< version whose rules were applied
  std::string protocol_version_source;    ///< "request", "flag", "inferred" or "assumed"
  bool session_id_sent = false;           ///< the request carried Mcp-Session-Id
  RetryAdvice retry;
  std::vector<std::string> warnings;
};

/// What classify() read on its way that the session analysis needs (src/session), handed out
/// so that no body is parsed twice (docs/performance.md). Pure data.
struct ReadAlong {
  // The captured request body (Exchange::request; not `--request`), when it is a JSON object.
  bool request_message = false;           ///< the captured request body is a JSON object
  std::optional<std::string> request_id;  ///< its `id` as minified JSON text (`1`, `"a"`)
  std::string request_method;             ///< its `method` when a string
  bool request_notification = false;      ///< it has no `id`, or no `method` (a client's response)
  std::uint64_t params_hash = 0;          ///< canonical hash of `params` without `_meta` (0: no params)
  std::string tool_name;                  ///< `params.name` of a tools/call
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

}  // namespace mcptriage
