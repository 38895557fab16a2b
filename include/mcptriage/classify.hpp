// The layered classifier: an Exchange (plus request context) in, a Classification (verdict.hpp) out.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "mcptriage/exchange.hpp"
#include "mcptriage/verdict.hpp"

namespace mcptriage {

/// Parses the text given to `--id`: a JSON integer or a JSON string (`'"1"'`).
std::optional<JsonRpcId> parse_id_flag(std::string_view text);

/// Whether `v` has the form of an MCP protocol version: a calendar date, `YYYY-MM-DD` (MCP basic
/// §Versioning: "the version format is YYYY-MM-DD"). Rules are chosen by comparing versions as
/// text, so a value of another form (`2025-6-18`, `latest`) would pick rules at random.
bool is_protocol_version(std::string_view v);

/// Whether `v` is a published MCP protocol version (2024-11-05, 2025-03-26, 2025-06-18,
/// 2025-11-25, 2026-07-28). Another well-formed date gets the rules of the latest version before it.
bool is_known_protocol_version(std::string_view v);

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
