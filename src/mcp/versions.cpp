// The version table (versions.hpp) and the protocol-version checks of classify.hpp.
#include "mcp/versions.hpp"

#include <array>

#include "verdict/spec_links.hpp"
#include "mcptriage/classify.hpp"

namespace mcptriage {
namespace mcp {
namespace {

using namespace spec;

constexpr std::array<VersionRule, 10> kTable{{
    {Rule::batching, "batching", "2025-03-26", "2025-03-26", kMcpBatchingRemoved,
     "a body may be a JSON-RPC batch; 2025-06-18 removed batching"},
    {Rule::session_404, "session_404", "", "2025-11-25", kMcpSessionManagement,
     "a 404 to a request that carried Mcp-Session-Id means the session ended; from 2026-07-28 it means not found"},
    {Rule::stream_resumption, "stream_resumption", "", "2025-11-25", kMcpListening,
     "an event stream that set event ids can be resumed with GET and Last-Event-ID"},
    {Rule::server_requests_on_stream, "server_requests_on_stream", "", "2025-11-25", kMcp26Mrtr,
     "the server may send requests (elicitation/create, sampling/createMessage, roots/list) on the POST's stream; "
     "2026-07-28 forbids it (multi-round-trip requests instead)"},
    {Rule::resource_link, "resource_link", "2025-06-18", "", kMcpToolResult,
     "tool results may hold resource_link content blocks (uri, name)"},
    {Rule::structured_content_object, "structured_content_object", "2025-06-18", "2025-11-25",
     kMcpStructuredContent, "structuredContent must be a JSON object; 2026-07-28 allows any JSON value"},
    {Rule::result_type, "result_type", "2026-07-28", "", kMcp26ResultType,
     "results carry resultType: complete, input_required or task; absent means complete"},
    {Rule::nested_task, "nested_task", "2025-11-25", "2025-11-25", kMcpCreatingTasks,
     "a task-augmented tools/call answers result.task {taskId, status}; 2026-07-28's tasks extension answers "
     "resultType task with a flat taskId"},
    {Rule::error_id_omitted, "error_id_omitted", "2025-11-25", "", kMcpErrorResponses,
     "an error whose request id could not be read leaves id out (JSON-RPC 2.0 sends null); both are read alike"},
    {Rule::status_error_pairs, "status_error_pairs", "2026-07-28", "", kMcp26ErrorCodes,
     "a 400 with -32700, -32600, -32602, -32020, -32021 or -32022, or a 404 with -32601, whose well-formed error "
     "answers the request is JSONRPC_ERROR; before, the status decides"},
}};

static_assert([] {
  for (std::size_t i = 0; i < kTable.size(); ++i) {
    if (static_cast<std::size_t>(kTable[i].rule) != i) return false;
  }
  return true;
}(), "the version table is in Rule order");

/// The published version after `v`, "" when `v` is the newest (or not published).
constexpr std::string_view published_after(std::string_view v) {
  for (std::size_t i = 0; i + 1 < std::size(kPublishedVersions); ++i) {
    if (kPublishedVersions[i] == v) return kPublishedVersions[i + 1];
  }
  return "";
}

}  // namespace

std::span<const VersionRule> version_table() { return kTable; }

const VersionRule& version_rule(Rule rule) { return kTable[static_cast<std::size_t>(rule)]; }

bool in_force(Rule rule, std::string_view version) {
  const VersionRule& r = version_rule(rule);
  if (!r.first.empty() && version < r.first) return false;  // dates compare as text
  if (r.last.empty()) return true;
  const std::string_view until = published_after(r.last);
  return until.empty() || version < until;
}

std::optional<std::string_view> inferred_version(json::View message) {
  auto result = message.get("result");
  if (!result) return std::nullopt;
  if (result->get("resultType")) return version_rule(Rule::result_type).first;
  if (auto task = result->get("task"); task && task->is_object()) return version_rule(Rule::nested_task).first;
  if (auto pv = result->string_at("protocolVersion"); pv && result->get("serverInfo")) return *pv;
  return std::nullopt;
}

void read_supported_versions(json::View error_data, std::vector<std::string>& out) {
  auto supported = error_data.get("supported");
  if (!supported || !supported->is_array()) return;
  for (json::View v : supported->items()) {
    if (auto s = v.string()) out.emplace_back(*s);
  }
}

}  // namespace mcp

bool is_protocol_version(std::string_view v) {
  if (v.size() != 10 || v[4] != '-' || v[7] != '-') return false;
  for (std::size_t k : {0, 1, 2, 3, 5, 6, 8, 9}) {
    if (v[k] < '0' || v[k] > '9') return false;
  }
  const int year = (v[0] - '0') * 1000 + (v[1] - '0') * 100 + (v[2] - '0') * 10 + (v[3] - '0');
  const int month = (v[5] - '0') * 10 + (v[6] - '0');
  const int day = (v[8] - '0') * 10 + (v[9] - '0');
  if (month < 1 || month > 12 || day < 1) return false;
  const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;  // Gregorian
  constexpr int kDays[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return day <= kDays[month - 1] + (month == 2 && leap ? 1 : 0);
}

bool is_known_protocol_version(std::string_view v) {
  for (std::string_view known : mcp::kPublishedVersions) {
    if (v == known) return true;
  }
  return false;
}

}  // namespace mcptriage
