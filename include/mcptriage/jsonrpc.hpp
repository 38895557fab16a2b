// JSON-RPC 2.0 as MCP uses it: the id (one type from `--id` to the envelope check) and what a
// request says (RequestInfo: the one request type from the capture readers to the session).
// Spec: JSON-RPC 2.0 §4 (requests), §4.1 (notifications), §5 (responses), §6 (batches); MCP
// basic §Messages.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mcptriage {

/// A JSON-RPC id, compared by type and value (MCP basic §Requests: a string or an integer;
/// JSON-RPC 2.0 §5: null when the server could not read it). Numbers compare by value, as
/// JavaScript and Python clients compare them: `1.0` and `1` are one id; strings never equal
/// numbers.
struct JsonRpcId {
  enum class Kind { integer, string, null, other } kind = Kind::null;
  /// integer: its decimal text (an integer-valued number written `1.0` or `1e2` as `1`, `100`);
  /// string: the unescaped string; other: a fractional number's exact value in canonical text,
  /// anything else its minified JSON
  std::string text;
  bool operator==(const JsonRpcId&) const = default;
  /// JSON text of the id: `1`, `"1"` (`"`, `\` and control characters escaped, the last as
  /// \u00XX), `null`; an `other` id (a fraction, an object) as its minified JSON.
  std::string to_json() const;
};

/// What a JSON-RPC request body says: the one request type, filled once (by the capture reader
/// that has the body, jsonrpc::read_request) and read by the classifier and the session analysis.
struct RequestInfo {
  enum class Shape : std::uint8_t {
    message,      ///< a JSON object: a request, a notification, or a client's response
    batch,        ///< a JSON array (a batch, JSON-RPC 2.0 §6; MCP 2025-03-26 only)
    not_jsonrpc,  ///< not JSON, or neither an object nor an array
  };
  Shape shape = Shape::not_jsonrpc;
  std::optional<std::string> method;  ///< `method` when a string
  std::optional<JsonRpcId> id;        ///< `id` when present (a message's)
  /// No result is due: a notification (a `method` and no `id`, JSON-RPC 2.0 §4.1), or a client's
  /// response to a server request (no `method`). A message's `!method || !id`; false otherwise.
  bool notification = false;
  /// A client's JSON-RPC response to a server request (MCP 2025 transports, Sending Messages): no
  /// `method`, an `id`, and `result` or `error`. Then `id` is the server request's id and
  /// `notification` is true too (no result is due).
  bool response = false;
  bool has_params = false;            ///< `params` is present
  /// 64-bit hash of `params` without `_meta`, read as canonical JSON (member order ignored;
  /// src/json canonical_hash); 0 when there are no params.
  std::uint64_t params_hash = 0;
  std::string tool_name;              ///< `params.name` of a tools/call ("" otherwise)
  /// `params._meta["io.modelcontextprotocol/protocolVersion"]` as sent (MCP 2026-07-28), not checked.
  std::optional<std::string> protocol_version;
  /// A batch: the ids of its requests (elements with a string `method` and an `id`), in order;
  /// its notifications have none and expect no response (JSON-RPC 2.0 §6).
  std::vector<JsonRpcId> batch_ids = {};
  bool operator==(const RequestInfo&) const = default;
};

namespace jsonrpc {

/// Parses an id given as text (`--id`): a JSON integer (no leading zero, 64-bit) or a JSON
/// string (`'"1"'`, escapes allowed and read as a response id's are). nullopt for anything else.
std::optional<JsonRpcId> parse_id(std::string_view text);

/// Reads a request body given as text. Members are looked up first-wins (a repeated name: the
/// first), as everywhere else. Text that is not JSON is Shape::not_jsonrpc. Never fails.
RequestInfo read_request(std::string_view body);

}  // namespace jsonrpc
}  // namespace mcptriage
