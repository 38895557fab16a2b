// Internal helpers shared by the JSON-based capture readers (HAR, JSON Lines): JSON-RPC message
// kinds, owned copies out of parsed JSON, base64, and SSE text for messages logged one by one.
#pragma once

#include <cstddef>
#include <expected>
#include <optional>
#include <string>
#include <string_view>

#include "json/dom.hpp"
#include "mcptriage/exchange.hpp"

namespace mcptriage::capture {

/// What a JSON value is, read as a JSON-RPC 2.0 message (JSON-RPC 2.0 §4, §5; MCP BASE §Messages).
enum class MessageKind {
  request,       ///< `method` and `id`
  notification,  ///< `method`, no `id`
  response,      ///< no `method`; `result` or `error` (or at least an `id` and `jsonrpc`)
  batch,         ///< a non-empty array whose first element is a JSON-RPC message (2025-03-26)
  not_jsonrpc,   ///< anything else (`{"error":"no such path"}`, HTML, a number, ...)
};

/// The kind of a JSON-RPC message and the members that pair it.
struct MessageInfo {
  MessageKind kind = MessageKind::not_jsonrpc;
  std::string method;                 ///< `method` when it is a string
  std::optional<std::string> id_key;  ///< `id` as minified JSON text (`1`, `"1"`, `null`), absent when no `id`
  bool is_error = false;              ///< a response with an `error` member
};

/// Reads the kind of `value`. An object counts as JSON-RPC when it has `"jsonrpc"` or a
/// string `method`, or `id` together with `result` or `error`.
MessageInfo inspect_message(json::View value);

/// Parses `text` fully (DOM, validating UTF-8) and inspects it; not_jsonrpc when not JSON.
/// `parser` is reused across calls; nothing returned points into it.
MessageInfo inspect_message_text(json::Parser& parser, std::string_view text);

/// inspect_message_text() of a request body, and from the same parse what it says as a request
/// (jsonrpc::read_request) in `info`, which is left alone when `text` is empty.
MessageInfo inspect_request_text(json::Parser& parser, std::string_view text, std::optional<RequestInfo>& info);

/// Owned minified JSON text of `value` (member order and duplicate names kept).
std::string json_text(json::View value);

/// Owned copy of a string member, nullopt when absent or not a string.
std::optional<std::string> string_member(json::View object, std::string_view key);

/// Decodes standard base64 (RFC 4648 §4; `=` padding optional, ASCII white space ignored).
/// Error text names the first bad byte's offset.
std::expected<std::string, std::string> base64_decode(std::string_view text);

/// One server-sent event as text (WHATWG HTML "event stream interpretation"): `event:` and
/// `id:` lines when not empty, one `data:` line per line of `data`, then a blank line.
std::string sse_event_text(std::string_view event, std::string_view id, std::string_view data);

/// Case-insensitive ASCII equality.
bool ascii_iequals(std::string_view a, std::string_view b);

/// Appends `name: value` to `headers`.
void add_header(Headers& headers, std::string_view name, std::string_view value);

}  // namespace mcptriage::capture
