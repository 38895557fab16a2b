// The JSON-RPC 2.0 response envelope (JSON-RPC 2.0 §5, §5.1; MCP basic §Responses) and the
// pairing of response ids with request ids (§5, §6 batches). Not public API.
#pragma once

#include <cstdint>
#include <expected>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "json/dom.hpp"
#include "mcptriage/jsonrpc.hpp"
#include "mcptriage/verdict.hpp"

namespace mcptriage::jsonrpc {

/// A response that passed the envelope checks: `jsonrpc` "2.0", no `method`, exactly one of
/// `result` and `error`, an `id` that is a string, an integer or null (or absent, for an error);
/// an error's `code` an integer and its `message` a string. A result's id is present and not
/// null; its pairing with the request and the type of `result` are checked after.
struct Envelope {
  std::optional<json::View> id;      ///< the `id` member (absent only on an error)
  std::optional<json::View> result;  ///< a success response's `result` (any JSON type)
  std::optional<json::View> error;   ///< an error response's `error` (an object)
  std::int64_t error_code = 0;       ///< `error.code`
  std::string_view error_message;    ///< `error.message` (a view into the document)
  std::optional<json::View> error_data;  ///< `error.data` when present
};

/// Why a message is not a valid response envelope: the verdict to set (set_verdict).
struct Finding {
  Reason reason = Reason::not_an_object;
  std::string detail;
  std::string pointer;  ///< under the message's prefix
};

/// Checks `message` (a JSON value; `prefix` is its JSON Pointer, "" for the body, "/3" for a batch
/// element) as a JSON-RPC 2.0 response, in this order: a JSON object; no repeated member name
/// anywhere in it (RFC 8259 §4; under `/result/` the finding is duplicate_member_result, which the
/// caller refines to duplicate_member_tool_result for a tool method); `jsonrpc` "2.0"; no `method`
/// (a request or notification is no response); not both and not neither of `result` and `error`;
/// an `id` of a valid type; then an error's object, code and message, or a result's id (present,
/// not null).
std::expected<Envelope, Finding> check_envelope(json::View message, const std::string& prefix);

/// The reason of a JSON-RPC error code: the JSON-RPC 2.0 §5.1 codes, MCP's (-32002 resource not
/// found, -32042 URL elicitation required, -32001 session not found, 2026-07-28's -32020..-32022),
/// else server_defined_error (-32099..-32000), reserved_error_code (-32768..-32000) or
/// application_error.
Reason error_reason(std::int64_t code);
/// error_reason(code), refined by the error's message and the request's method ("" when
/// unknown): server_not_initialized when the message says the server is not initialized
/// (error_text_hint), or for -32002 answering a known method outside resources/ whose message
/// names no resource (servers that follow LSP's ServerNotInitialized -32002; MCP's -32002 is
/// Resource not found, which only a resources/ request can get); server_defined_error for -32001
/// whose message does not name the session (a gateway's or the TypeScript SDK's "Request timed
/// out": -32001 has no fixed meaning in MCP).
Reason error_reason(std::int64_t code, std::string_view message, std::string_view method);

/// What an error text (a JSON-RPC error's message, or a non-JSON error body) says about the
/// session, matched case-insensitively: not_initialized when it says the server is not initialized
/// ("Server not initialized", "not yet initialized", "uninitialized"); session_gone when it names
/// the session together with missing, unknown, invalid, expired or ended ("Session not found",
/// "No valid session ID provided", "Mcp-Session-Id header is required", "session expired");
/// none otherwise. Only the first kHintTextMax bytes are read.
BodyHint error_text_hint(std::string_view text);
inline constexpr std::size_t kHintTextMax = 4096;

/// Compares a response's `id` with the request's (type and value, MCP basic §Responses); `what`
/// names the response in the detail ("response", "error response"). Without a request id but
/// with a batch request's `batch_ids`, the response must answer one of them, which becomes its
/// request id (JSON-RPC 2.0 §6). With neither, warns that the id was not checked and passes.
/// False, with INVALID_ENVELOPE id_mismatch set, when they differ; sets c.id_checked when equal.
bool pair_id(Classification& c, json::View id, std::span<const JsonRpcId> batch_ids, const std::string& prefix,
             std::string_view what);

/// Whether the batch element `item` carries the id `request_id` (JSON-RPC 2.0 §6).
bool answers(json::View item, const JsonRpcId& request_id);

/// A batch request: each of its requests expects a response with its id (JSON-RPC 2.0 §6); the
/// ids that no record from `out[first]` on answered are named in a warning on `out[first]`.
void note_unanswered(std::vector<Classification>& out, std::size_t first, std::span<const JsonRpcId> batch_ids);

}  // namespace mcptriage::jsonrpc
