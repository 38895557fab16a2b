// Retry advice: a pure decision from a Classification and the response headers.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "mcptriage/classify.hpp"

namespace mcptriage {

/// Whether repeating a call is safe, and what says so: the one rule shared by the records'
/// `retry.safe` and the session's replay safety (docs/output.md "Retry safety").
///
/// From the method's own semantics (list, get and read requests only read; `initialize` only
/// opens a session), or for a `tools/call` from the tool's `ToolAnnotations` in a `tools/list`
/// result (MCP 2025-11-25 schema `ToolAnnotations`, server/tools §Tool annotations: readOnlyHint
/// default false, destructiveHint default true, idempotentHint default false). Annotations are
/// hints that a client must not trust from an untrusted server: the safety says what the server
/// claims, not what the tool does.
struct RetrySafety {
  std::optional<bool> safe;  ///< nullopt: unknown
  std::string source;        ///< what decided, or why it is unknown: "readOnlyHint: true (list.har#2)"
  std::string claim;         ///< for the advice text ("`echo` is read-only"); "" when unknown
};

/// The safety of repeating `method` by its own semantics. A `tools/call` is unknown here (its
/// tool's annotations decide: tool_retry_safety), naming `tool` when it is known ("" when not).
RetrySafety method_retry_safety(std::string_view method, std::string_view tool);

/// The safety of sending again the client's JSON-RPC response to the server's request
/// `server_request_id` (its id as JSON text): safe, a response is not a call (JSON-RPC 2.0 §5).
RetrySafety client_response_retry_safety(std::string_view server_request_id);

/// The safety of repeating a call of tool `name` whose definition (in `defined_in`, a record's
/// source such as "list.har#2") has these annotation hints (nullopt: absent, the default applies).
RetrySafety tool_retry_safety(std::string_view name, std::optional<bool> read_only_hint,
                              std::optional<bool> destructive_hint, std::optional<bool> idempotent_hint,
                              std::string_view defined_in);

/// Sets `a.safe` and `a.safe_source` from `s`; when the advice is conditional on the call being
/// read-only or idempotent (`retry_if_idempotent`, `retry_once_if_idempotent`,
/// `resend_if_idempotent`) and `s` knows, the text says what it knows instead of the condition
/// ("`echo` is read-only: safe to retry once after backoff"; "`delete_file` is destructive: do
/// not retry automatically"). Other advice keeps its text.
void apply_retry_safety(RetryAdvice& a, const RetrySafety& s);

/// The retry advice for a classified exchange (classification.md §Retry advice).
/// Reads `Retry-After` (RFC 9110 §10.2.3; delta-seconds, or an HTTP-date measured from the
/// response's `Date` header (§6.6.1), else from `now_unix_seconds`) and `WWW-Authenticate` (RFC 6750 §3, MCP authorization) from
/// `response_headers`. The advice text always states its condition. Its safety is the method's
/// (method_retry_safety of `c.method` and `c.tool`; client_response_retry_safety for the client's
/// JSON-RPC response); the run sets a tool's from its definition.
RetryAdvice advise(const Classification& c, const Headers& response_headers,
                   long long now_unix_seconds);

}  // namespace mcptriage
