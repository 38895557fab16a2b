// The verdict on one exchange: outcome, layer, reason, retry advice (the Classification), the
// names of each, and the reason catalogue (what each reason and outcome means, and the spec
// section it comes from). Rules: shared/classification.md; every reason: docs/classification.md.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "mcptriage/jsonrpc.hpp"

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
  /// A leg of MCP authorization (an OAuth or discovery exchange, no JSON-RPC): judged by the
  /// authorization triage (shared/auth-triage.md §3, docs/auth.md); `failed` only when the leg failed.
  AUTH_LEG,
};
/// How many outcomes there are (the enumerators above count from 0).
inline constexpr std::size_t kOutcomeCount = static_cast<std::size_t>(Outcome::AUTH_LEG) + 1;

/// The layer that decided (classification.md §One exchange, four layers).
enum class Layer { transport, protocol, interaction, application, auth };

std::string_view to_string(Outcome o);
std::string_view to_string(Layer l);
/// Parses an outcome name (exact, upper case). nullopt when unknown.
std::optional<Outcome> parse_outcome(std::string_view name);
/// The layer each outcome belongs to.
Layer layer_of(Outcome o);
/// The success outcomes: TOOL_SUCCESS, RPC_SUCCESS and ACCEPTED. A record's `failed` member is
/// their negation (docs/output.md): INPUT_REQUIRED, TASK_CREATED and NOT_CAPTURED are not a
/// finished call either.
constexpr bool is_success(Outcome o) {
  return o == Outcome::TOOL_SUCCESS || o == Outcome::RPC_SUCCESS || o == Outcome::ACCEPTED;
}

/// The rule that decided an exchange's outcome: one enumerator per reason code the classifier
/// emits (docs/classification.md "Reasons"), grouped by outcome. Each belongs to exactly one
/// outcome (outcome_of). A few codes name the same rule under more than one outcome; those get
/// one enumerator per outcome, with a suffix saying which, and share their name (to_string):
/// `duplicate_member` (_envelope, _tool_result, _result), `content_type_missing` (_http: no
/// Content-Type header; _item: a content item without "type"), `no_final_response` (_interim:
/// only a 1xx was captured; _stream: an event stream without the response), and the resultType
/// and input_required shape reasons (_tool_result for tools/call and tasks/result, _result for
/// other methods).
enum class Reason : std::uint8_t {
  // NOT_CAPTURED
  body_not_captured,
  body_absent,
  body_not_decoded,
  // HTTP_ERROR, by status
  session_invalid,
  bad_request,
  response_rejected,
  legacy_server,
  unauthorized,
  insufficient_scope,
  forbidden,
  cdn_challenge,
  session_expired,
  not_found,
  method_not_allowed,
  not_acceptable,
  request_timeout,
  conflict,
  payload_too_large,
  unsupported_media_type,
  rate_limited,
  internal_server_error,
  bad_gateway,
  service_unavailable,
  gateway_timeout,
  cdn_origin_error,
  client_error,
  server_error,
  redirect_not_followed,
  no_final_response_interim,
  // INVALID_HTTP_RESPONSE
  content_type_missing_http,
  unexpected_content_type,
  content_encoding_mismatch,
  invalid_content_length,
  empty_body,
  accepted_for_request,
  no_content,
  body_on_202,
  notification_not_202,
  response_not_202,
  // STREAM_INCOMPLETE
  empty_stream,
  no_final_response_stream,
  event_type_not_message,
  interrupted,
  idle_timeout,
  timeout,
  server_exited,
  shutdown_in_flight,
  response_timeout,
  initialize_timeout,
  // MALFORMED_JSON
  truncated,
  cut_at_limit,
  undecodable_gzip,
  trailing_data,
  invalid_json,
  invalid_utf8,
  empty_json,
  too_deep,
  too_large,
  stdout_not_jsonrpc,
  message_over_lines,
  // INVALID_ENVELOPE
  not_an_object,
  batch_not_allowed,
  empty_batch,
  duplicate_member_envelope,
  jsonrpc_version,
  not_a_response,
  result_and_error,
  no_result_or_error,
  id_invalid_type,
  id_missing,
  id_null,
  id_mismatch,
  result_not_object,
  error_not_object,
  error_code_not_integer,
  error_message_not_string,
  // JSONRPC_ERROR, by error.code
  parse_error,
  invalid_request,
  method_not_found,
  invalid_params,
  internal_error,
  resource_not_found,
  session_not_found,
  server_not_initialized,
  url_elicitation_required,
  header_mismatch,
  missing_client_capability,
  unsupported_protocol_version,
  server_defined_error,
  reserved_error_code,
  application_error,
  // INVALID_TOOL_RESULT (tools/call and tasks/result)
  content_missing,
  content_not_array,
  content_item_not_object,
  content_type_missing_item,
  content_type_unknown,
  content_field_missing,
  is_error_not_boolean,
  structured_content_not_object,
  structured_content_schema_mismatch,
  result_type_not_string_tool_result,
  unknown_result_type_tool_result,
  input_required_empty_tool_result,
  input_requests_not_object_tool_result,
  request_state_not_string_tool_result,
  task_id_missing,
  task_status_missing,
  duplicate_member_tool_result,
  // INVALID_RESULT (other methods whose result shape is checked)
  protocol_version_missing,
  protocol_version_invalid,
  capabilities_missing,
  capabilities_invalid,
  server_info_missing,
  server_info_invalid,
  tools_missing,
  tools_invalid,
  tool_name_missing,
  tool_input_schema_missing,
  resources_missing,
  resources_invalid,
  resource_templates_missing,
  resource_templates_invalid,
  prompts_missing,
  prompts_invalid,
  contents_missing,
  contents_invalid,
  messages_missing,
  messages_invalid,
  supported_versions_missing,
  supported_versions_invalid,
  completion_missing,
  completion_invalid,
  input_required_not_allowed,
  task_not_allowed,
  result_type_not_string_result,
  unknown_result_type_result,
  input_required_empty_result,
  input_requests_not_object_result,
  request_state_not_string_result,
  duplicate_member_result,
  // Successes and interaction outcomes
  tool_success,
  tool_error,
  rpc_success,
  accepted,
  response_accepted,
  input_required,
  server_request_pending,
  task_created,
  // AUTH_LEG: the leg's own verdict; the rule that decided it is the record's `auth.reason`
  auth_leg_ok,
  auth_leg_failed,
  auth_probe_miss,
  auth_not_judged,
};
/// How many reasons there are (the enumerators above count from 0).
inline constexpr std::size_t kReasonCount = static_cast<std::size_t>(Reason::auth_not_judged) + 1;

/// The reason's stable snake_case code, as output and in docs/classification.md
/// (`duplicate_member` for each duplicate_member_* enumerator).
std::string_view to_string(Reason r);
/// The outcome the reason belongs to (its row of docs/classification.md).
Outcome outcome_of(Reason r);
/// Every reason whose code is `name` (exact), in enumerator order: one, several for a shared code
/// (`duplicate_member`: three), none when `name` is no reason code.
std::vector<Reason> reasons_named(std::string_view name);
/// True when `a` and `b` have the same code (to_string): the same reason, or two of one shared code.
bool same_code(Reason a, Reason b);
/// Every reason code, each once, in enumerator order of its first reason.
std::vector<std::string_view> reason_names();

/// The names in `names` nearest to `word`, for "did you mean" suggestions: by optimal string
/// alignment distance (insertions, deletions, substitutions and swaps of adjacent letters, letters
/// compared case-insensitively), nearest first and then in alphabetical order, at most `max`, none
/// more than max(2, size of word / 3) edits away. Empty when no name is that near.
std::vector<std::string_view> nearest_names(std::string_view word, const std::vector<std::string_view>& names,
                                            std::size_t max = 3);

/// Where the method came from (classification.md §Request context).
enum class MethodSource { request, flag, inferred };
std::string_view to_string(MethodSource s);

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
  fall_back_to_initialize,   ///< a server/discover probe refused by a server of an earlier version
  hand_error_to_model,       ///< TOOL_ERROR
  do_not_retry,              ///< malformed or invalid replies: keep the evidence
  resend_with_input,         ///< INPUT_REQUIRED (2026-07-28 input_required result)
  answer_server_request,     ///< INPUT_REQUIRED before 2026-07-28: a server request on the POST's stream
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
  /// Whether repeating the call is safe (advice.hpp `RetrySafety`): true, false, or nullopt when
  /// unknown. From the method's own semantics, or the tool's `tools/list` annotations.
  std::optional<bool> safe;
  std::string safe_source;               ///< what decided `safe`, or why it is unknown (one line)
};

/// What an error body (a JSON-RPC error's message, or a text body) says about the session, for
/// the advice (docs/classification.md "Status and body together"): nothing, that the session is
/// missing, unknown or expired, or that the server is not initialized.
enum class BodyHint : std::uint8_t { none, session_gone, not_initialized };

/// The full verdict on one exchange.
struct Classification {
  Outcome outcome = Outcome::NOT_CAPTURED;
  Layer layer = Layer::transport;
  Reason reason = Reason::body_not_captured;  ///< the rule that fired; outcome_of(reason) == outcome
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
  BodyHint body_hint = BodyHint::none;    ///< what the error body says of the session (advice)
  std::string method;                     ///< the request method ("" when unknown)
  std::string tool;                       ///< a tools/call request's `params.name` ("" when unknown)
  MethodSource method_source = MethodSource::inferred;
  bool notification = false;              ///< the request was a JSON-RPC notification
  /// The request was the client's JSON-RPC response to a server request (no `method`; an `id` and
  /// `result` or `error`): its id, the server request's. nullopt otherwise.
  std::optional<JsonRpcId> client_response_id;
  std::string result_type;                ///< resultType as sent, "" when absent
  std::string protocol_version;           ///< version whose rules were applied
  std::string protocol_version_source;    ///< "request", "flag", "inferred" or "assumed"
  bool session_id_sent = false;           ///< the request carried Mcp-Session-Id
  /// An event stream carried a second response for the request's id after the deciding one (its
  /// event number, from 1; JSON-RPC 2.0 §5: one response per request); nullopt when none.
  std::optional<std::size_t> second_response_event;
  RetryAdvice retry;
  std::vector<std::string> warnings;
};

/// Sets the verdict of `c` (for the classifier's rooms: src/classify, src/jsonrpc, src/mcp): the
/// reason, and from it the outcome (outcome_of) and the layer (layer_of); the one-line detail and
/// the JSON Pointer (RFC 6901) of the fault, "" when none.
void set_verdict(Classification& c, Reason reason, std::string detail, std::string pointer = {});

/// Bytes of untrusted text (a server's message, a member name) a detail quotes at the most.
inline constexpr std::size_t kDetailTextMax = 200;
/// Appends untrusted text shortened for a one-line detail: at most kDetailTextMax bytes (cut at a
/// UTF-8 boundary, then "..."), each run of white space (space, tab, CR, LF) folded to one space.
void append_clipped(std::string& out, std::string_view text);
/// append_clipped() to an empty string.
std::string clipped(std::string_view text);

/// One row of the reason catalogue (src/verdict/reasons.cpp): what a reason means and where its
/// rule comes from, for `mcptriage explain` and the `spec` member of JSON Lines records.
struct ReasonEntry {
  Reason reason;
  std::string_view name;         ///< the code (to_string)
  Outcome outcome;               ///< outcome_of; the layer is layer_of(outcome)
  Advice advice;                 ///< default retry advice; advise() refines some (the explanation says when)
  /// The section the rule comes from: a modelcontextprotocol.io specification URL with its version
  /// and the heading's anchor, an rfc-editor.org section, or the JSON-RPC 2.0 specification. Never
  /// empty; plain ASCII with no quote or backslash (written into JSON unescaped).
  std::string_view spec;
  std::string_view explanation;  ///< one paragraph for a person
  std::string_view next_step;    ///< what to do next, one or two sentences
};
/// The catalogue row of `r`.
const ReasonEntry& reason_entry(Reason r);
/// Every row, in enumerator order (index k is the Reason k).
std::span<const ReasonEntry> reason_catalogue();

/// The catalogue entry of an outcome (`mcptriage explain OUTCOME`); fields as in ReasonEntry.
struct OutcomeEntry {
  Outcome outcome;
  Advice advice;  ///< the usual advice; the reason's entry is the exact one
  std::string_view spec;
  std::string_view explanation;
  std::string_view next_step;
};
const OutcomeEntry& outcome_entry(Outcome o);
/// Every outcome's entry, in enumerator order.
std::span<const OutcomeEntry> outcome_catalogue();

/// A reason of a skipped record (docs/output.md "Skipped records"): a separate vocabulary, of
/// capture entries that are not classified (no outcome, no advice).
struct SkipReasonEntry {
  std::string_view name;
  std::string_view spec;  ///< as ReasonEntry::spec; empty when the fault is the capture file's own
  std::string_view explanation;
  std::string_view next_step;
};
/// Every skip reason, in docs/output.md's order.
std::span<const SkipReasonEntry> skip_reason_catalogue();

}  // namespace mcptriage
