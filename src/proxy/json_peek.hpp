// A glance at a JSON-RPC message on the proxy's network thread: its kind, method, id, tool name
// and protocol version, read by skimming the text (no DOM, no allocation beyond the strings
// returned). What the proxy needs to match --inject rules and build injected replies; the
// verdict on an exchange is never made here (the run core, src/triage, reads the recorded line
// with the capture readers and classify(): src/proxy/source.cpp).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace mcptriage::proxy {

/// What a message is (JSON-RPC 2.0 §4, §5): decided by its top-level members only.
enum class MessageKind {
  request,       ///< `method` and `id`
  notification,  ///< `method`, no `id`
  response,      ///< `id` and `result` or `error`, no `method`
  batch,         ///< a JSON array (2025-03-26 batching)
  other,         ///< not a JSON object with those members, or not JSON at all
};

/// The members of one message that the proxy reads. Strings are unescaped (UTF-8); `id_json`
/// is the id's JSON text as sent (`1`, `"a"`).
struct Peek {
  MessageKind kind = MessageKind::other;
  std::string method;            ///< `method` when a string
  std::string id_json;           ///< `id` as JSON text, "" when absent
  std::string tool_name;         ///< `params.name` when a string (tools/call, prompts/get)
  /// `params.protocolVersion` (initialize) or
  /// `params._meta["io.modelcontextprotocol/protocolVersion"]` (2026-07-28), "" when neither.
  std::string protocol_version;
  /// `result.protocolVersion` of a response (the InitializeResult), "" when absent.
  std::string result_protocol_version;
  bool is_error = false;         ///< a response with `error`
};

/// Skims `text` (one JSON value). Tolerant: a value it cannot read gives MessageKind::other
/// and whatever members were read before it. Nesting is skipped without recursion, so any
/// depth costs constant stack. Linear in the text.
Peek peek_message(std::string_view text);

/// Whether two ids given as JSON text (Peek::id_json) are one id, compared by value as the
/// classifier compares them (jsonrpc::id_from_json: `1.0` and `1` are one id, `"1"` another).
/// Equal texts are one id without parsing.
bool same_id(std::string_view a_json, std::string_view b_json);

/// The value of the JSON string literal `literal` (with its quotes, RFC 8259 §7) as UTF-8, or
/// nullopt when it is not one string literal.
std::optional<std::string> json_string_value(std::string_view literal);

}  // namespace mcptriage::proxy
