// MCP protocol versions and the rules that change between them: one table, each rule with the
// first and the last version it holds in (MCP basic §Versioning: versions are dates, YYYY-MM-DD,
// and compare as such). The classifier asks in_force(rule, version) instead of comparing dates.
// Not public API (is_protocol_version and is_known_protocol_version are, in classify.hpp).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "json/dom.hpp"

namespace mcptriage::mcp {

/// The published versions, oldest first.
inline constexpr std::string_view kPublishedVersions[] = {"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25",
                                                          "2026-07-28"};

/// The version whose rules apply when nothing says which (classification.md §Request context:
/// "apply the rules of 2025-11-25 and say that the version was assumed").
inline constexpr std::string_view kAssumedVersion = "2025-11-25";

/// A rule that holds in some versions only.
enum class Rule : std::uint8_t {
  batching,                   ///< a body may be a JSON-RPC batch (an array)
  session_404,                ///< a 404 to a request with Mcp-Session-Id says the session ended
  stream_resumption,          ///< an SSE stream with event ids can be resumed (GET + Last-Event-ID)
  server_requests_on_stream,  ///< the server may send requests (elicitation, sampling, roots) on the POST's stream
  resource_link,              ///< tool results may hold `resource_link` content blocks
  structured_content_object,  ///< `structuredContent` must be a JSON object
  result_type,                ///< results carry `resultType` (absent means "complete")
  nested_task,                ///< a task-augmented tools/call answers `result.task` {taskId, status}
  error_id_omitted,           ///< an error whose request id could not be read leaves `id` out (not null)
  status_error_pairs,         ///< a 400/404 carrying one of the spec's paired JSON-RPC errors is JSONRPC_ERROR
};

/// One row of the version table.
struct VersionRule {
  Rule rule;
  std::string_view name;   ///< snake_case, as in docs/classification.md
  /// The first version the rule holds in; "" when it holds from the start (older than the
  /// versions this tool knows, or applied whatever the version, a request's unknown version too).
  std::string_view first;
  /// The last published version it holds in; "" when it still holds. A date after `last` but
  /// before the next published version gets `last`'s rules, as every unpublished date gets the
  /// rules of the latest published version before it.
  std::string_view last;
  std::string_view spec;     ///< the section that makes the rule (URL)
  std::string_view summary;  ///< one line for a person
};

/// Every row, in Rule order.
std::span<const VersionRule> version_table();
/// The row of `rule`.
const VersionRule& version_rule(Rule rule);

/// Whether `rule` holds under `version` (a YYYY-MM-DD date, or "" when no version is known yet):
/// first <= version (or first is "") and version is before the published version after `last`
/// (or last is "").
bool in_force(Rule rule, std::string_view version);

/// The version a response message shows when nothing else says (classification.md §Request
/// context): a `result.resultType` (2026-07-28), a `result.task` object (2025-11-25), an
/// initialize result's `protocolVersion` (a view into the document). nullopt when it shows none.
std::optional<std::string_view> inferred_version(json::View message);

/// The string elements of an error's `data.supported` (-32022 unsupported protocol version, MCP
/// basic/lifecycle §Version negotiation), appended to `out`.
void read_supported_versions(json::View error_data, std::vector<std::string>& out);

}  // namespace mcptriage::mcp
