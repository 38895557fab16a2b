// The reason codes (verdict.hpp Reason): each one's name and outcome, in enumerator order.
#include <algorithm>
#include <array>
#include <cctype>

#include "mcptriage/verdict.hpp"

namespace mcptriage {
namespace {

struct Row {
  Reason reason;
  std::string_view name;
  Outcome outcome;
};

using O = Outcome;
using R = Reason;

constexpr std::array<Row, kReasonCount> kRows{{
    {R::body_not_captured, "body_not_captured", O::NOT_CAPTURED},
    {R::body_absent, "body_absent", O::NOT_CAPTURED},
    {R::body_not_decoded, "body_not_decoded", O::NOT_CAPTURED},
    {R::session_invalid, "session_invalid", O::HTTP_ERROR},
    {R::bad_request, "bad_request", O::HTTP_ERROR},
    {R::unauthorized, "unauthorized", O::HTTP_ERROR},
    {R::insufficient_scope, "insufficient_scope", O::HTTP_ERROR},
    {R::forbidden, "forbidden", O::HTTP_ERROR},
    {R::session_expired, "session_expired", O::HTTP_ERROR},
    {R::not_found, "not_found", O::HTTP_ERROR},
    {R::method_not_allowed, "method_not_allowed", O::HTTP_ERROR},
    {R::not_acceptable, "not_acceptable", O::HTTP_ERROR},
    {R::request_timeout, "request_timeout", O::HTTP_ERROR},
    {R::conflict, "conflict", O::HTTP_ERROR},
    {R::payload_too_large, "payload_too_large", O::HTTP_ERROR},
    {R::unsupported_media_type, "unsupported_media_type", O::HTTP_ERROR},
    {R::rate_limited, "rate_limited", O::HTTP_ERROR},
    {R::internal_server_error, "internal_server_error", O::HTTP_ERROR},
    {R::bad_gateway, "bad_gateway", O::HTTP_ERROR},
    {R::service_unavailable, "service_unavailable", O::HTTP_ERROR},
    {R::gateway_timeout, "gateway_timeout", O::HTTP_ERROR},
    {R::client_error, "client_error", O::HTTP_ERROR},
    {R::server_error, "server_error", O::HTTP_ERROR},
    {R::redirect_not_followed, "redirect_not_followed", O::HTTP_ERROR},
    {R::no_final_response_interim, "no_final_response", O::HTTP_ERROR},
    {R::content_type_missing_http, "content_type_missing", O::INVALID_HTTP_RESPONSE},
    {R::unexpected_content_type, "unexpected_content_type", O::INVALID_HTTP_RESPONSE},
    {R::empty_body, "empty_body", O::INVALID_HTTP_RESPONSE},
    {R::accepted_for_request, "accepted_for_request", O::INVALID_HTTP_RESPONSE},
    {R::no_content, "no_content", O::INVALID_HTTP_RESPONSE},
    {R::body_on_202, "body_on_202", O::INVALID_HTTP_RESPONSE},
    {R::notification_not_202, "notification_not_202", O::INVALID_HTTP_RESPONSE},
    {R::empty_stream, "empty_stream", O::STREAM_INCOMPLETE},
    {R::no_final_response_stream, "no_final_response", O::STREAM_INCOMPLETE},
    {R::truncated, "truncated", O::MALFORMED_JSON},
    {R::cut_at_limit, "cut_at_limit", O::MALFORMED_JSON},
    {R::undecodable_gzip, "undecodable_gzip", O::MALFORMED_JSON},
    {R::trailing_data, "trailing_data", O::MALFORMED_JSON},
    {R::invalid_json, "invalid_json", O::MALFORMED_JSON},
    {R::invalid_utf8, "invalid_utf8", O::MALFORMED_JSON},
    {R::empty_json, "empty_json", O::MALFORMED_JSON},
    {R::too_deep, "too_deep", O::MALFORMED_JSON},
    {R::too_large, "too_large", O::MALFORMED_JSON},
    {R::not_an_object, "not_an_object", O::INVALID_ENVELOPE},
    {R::batch_not_allowed, "batch_not_allowed", O::INVALID_ENVELOPE},
    {R::empty_batch, "empty_batch", O::INVALID_ENVELOPE},
    {R::duplicate_member_envelope, "duplicate_member", O::INVALID_ENVELOPE},
    {R::jsonrpc_version, "jsonrpc_version", O::INVALID_ENVELOPE},
    {R::not_a_response, "not_a_response", O::INVALID_ENVELOPE},
    {R::result_and_error, "result_and_error", O::INVALID_ENVELOPE},
    {R::no_result_or_error, "no_result_or_error", O::INVALID_ENVELOPE},
    {R::id_invalid_type, "id_invalid_type", O::INVALID_ENVELOPE},
    {R::id_missing, "id_missing", O::INVALID_ENVELOPE},
    {R::id_null, "id_null", O::INVALID_ENVELOPE},
    {R::id_mismatch, "id_mismatch", O::INVALID_ENVELOPE},
    {R::result_not_object, "result_not_object", O::INVALID_ENVELOPE},
    {R::error_not_object, "error_not_object", O::INVALID_ENVELOPE},
    {R::error_code_not_integer, "error_code_not_integer", O::INVALID_ENVELOPE},
    {R::error_message_not_string, "error_message_not_string", O::INVALID_ENVELOPE},
    {R::parse_error, "parse_error", O::JSONRPC_ERROR},
    {R::invalid_request, "invalid_request", O::JSONRPC_ERROR},
    {R::method_not_found, "method_not_found", O::JSONRPC_ERROR},
    {R::invalid_params, "invalid_params", O::JSONRPC_ERROR},
    {R::internal_error, "internal_error", O::JSONRPC_ERROR},
    {R::resource_not_found, "resource_not_found", O::JSONRPC_ERROR},
    {R::session_not_found, "session_not_found", O::JSONRPC_ERROR},
    {R::url_elicitation_required, "url_elicitation_required", O::JSONRPC_ERROR},
    {R::header_mismatch, "header_mismatch", O::JSONRPC_ERROR},
    {R::missing_client_capability, "missing_client_capability", O::JSONRPC_ERROR},
    {R::unsupported_protocol_version, "unsupported_protocol_version", O::JSONRPC_ERROR},
    {R::server_defined_error, "server_defined_error", O::JSONRPC_ERROR},
    {R::reserved_error_code, "reserved_error_code", O::JSONRPC_ERROR},
    {R::application_error, "application_error", O::JSONRPC_ERROR},
    {R::content_missing, "content_missing", O::INVALID_TOOL_RESULT},
    {R::content_not_array, "content_not_array", O::INVALID_TOOL_RESULT},
    {R::content_item_not_object, "content_item_not_object", O::INVALID_TOOL_RESULT},
    {R::content_type_missing_item, "content_type_missing", O::INVALID_TOOL_RESULT},
    {R::content_type_unknown, "content_type_unknown", O::INVALID_TOOL_RESULT},
    {R::content_field_missing, "content_field_missing", O::INVALID_TOOL_RESULT},
    {R::is_error_not_boolean, "is_error_not_boolean", O::INVALID_TOOL_RESULT},
    {R::structured_content_not_object, "structured_content_not_object", O::INVALID_TOOL_RESULT},
    {R::structured_content_schema_mismatch, "structured_content_schema_mismatch", O::INVALID_TOOL_RESULT},
    {R::result_type_not_string_tool_result, "result_type_not_string", O::INVALID_TOOL_RESULT},
    {R::unknown_result_type_tool_result, "unknown_result_type", O::INVALID_TOOL_RESULT},
    {R::input_required_empty_tool_result, "input_required_empty", O::INVALID_TOOL_RESULT},
    {R::input_requests_not_object_tool_result, "input_requests_not_object", O::INVALID_TOOL_RESULT},
    {R::request_state_not_string_tool_result, "request_state_not_string", O::INVALID_TOOL_RESULT},
    {R::task_id_missing, "task_id_missing", O::INVALID_TOOL_RESULT},
    {R::task_status_missing, "task_status_missing", O::INVALID_TOOL_RESULT},
    {R::duplicate_member_tool_result, "duplicate_member", O::INVALID_TOOL_RESULT},
    {R::protocol_version_missing, "protocol_version_missing", O::INVALID_RESULT},
    {R::protocol_version_invalid, "protocol_version_invalid", O::INVALID_RESULT},
    {R::capabilities_missing, "capabilities_missing", O::INVALID_RESULT},
    {R::capabilities_invalid, "capabilities_invalid", O::INVALID_RESULT},
    {R::server_info_missing, "server_info_missing", O::INVALID_RESULT},
    {R::server_info_invalid, "server_info_invalid", O::INVALID_RESULT},
    {R::tools_missing, "tools_missing", O::INVALID_RESULT},
    {R::tools_invalid, "tools_invalid", O::INVALID_RESULT},
    {R::tool_name_missing, "tool_name_missing", O::INVALID_RESULT},
    {R::tool_input_schema_missing, "tool_input_schema_missing", O::INVALID_RESULT},
    {R::resources_missing, "resources_missing", O::INVALID_RESULT},
    {R::resources_invalid, "resources_invalid", O::INVALID_RESULT},
    {R::resource_templates_missing, "resource_templates_missing", O::INVALID_RESULT},
    {R::resource_templates_invalid, "resource_templates_invalid", O::INVALID_RESULT},
    {R::prompts_missing, "prompts_missing", O::INVALID_RESULT},
    {R::prompts_invalid, "prompts_invalid", O::INVALID_RESULT},
    {R::contents_missing, "contents_missing", O::INVALID_RESULT},
    {R::contents_invalid, "contents_invalid", O::INVALID_RESULT},
    {R::messages_missing, "messages_missing", O::INVALID_RESULT},
    {R::messages_invalid, "messages_invalid", O::INVALID_RESULT},
    {R::supported_versions_missing, "supported_versions_missing", O::INVALID_RESULT},
    {R::supported_versions_invalid, "supported_versions_invalid", O::INVALID_RESULT},
    {R::completion_missing, "completion_missing", O::INVALID_RESULT},
    {R::completion_invalid, "completion_invalid", O::INVALID_RESULT},
    {R::input_required_not_allowed, "input_required_not_allowed", O::INVALID_RESULT},
    {R::task_not_allowed, "task_not_allowed", O::INVALID_RESULT},
    {R::result_type_not_string_result, "result_type_not_string", O::INVALID_RESULT},
    {R::unknown_result_type_result, "unknown_result_type", O::INVALID_RESULT},
    {R::input_required_empty_result, "input_required_empty", O::INVALID_RESULT},
    {R::input_requests_not_object_result, "input_requests_not_object", O::INVALID_RESULT},
    {R::request_state_not_string_result, "request_state_not_string", O::INVALID_RESULT},
    {R::duplicate_member_result, "duplicate_member", O::INVALID_RESULT},
    {R::tool_success, "tool_success", O::TOOL_SUCCESS},
    {R::tool_error, "tool_error", O::TOOL_ERROR},
    {R::rpc_success, "rpc_success", O::RPC_SUCCESS},
    {R::accepted, "accepted", O::ACCEPTED},
    {R::input_required, "input_required", O::INPUT_REQUIRED},
    {R::server_request_pending, "server_request_pending", O::INPUT_REQUIRED},
    {R::task_created, "task_created", O::TASK_CREATED},
}};

constexpr bool in_enumerator_order() {
  for (std::size_t i = 0; i < kRows.size(); ++i) {
    if (kRows[i].reason != static_cast<Reason>(i)) return false;
  }
  return true;
}
static_assert(in_enumerator_order(), "kRows lists every Reason once, in enumerator order");

/// For each reason, the first reason with its code: reasons that share a code share this.
constexpr std::array<Reason, kReasonCount> kFirstOfCode = [] {
  std::array<Reason, kReasonCount> first{};
  for (std::size_t i = 0; i < kRows.size(); ++i) {
    std::size_t k = 0;
    while (kRows[k].name != kRows[i].name) ++k;
    first[i] = kRows[k].reason;
  }
  return first;
}();

/// Optimal string alignment distance between `a` and `b`, letters compared case-insensitively.
std::size_t edit_distance(std::string_view a, std::string_view b) {
  auto same = [](char x, char y) {
    return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
  };
  // Three rows of the (a.size()+1) x (b.size()+1) table: two back, one back, this one.
  std::vector<std::size_t> two(b.size() + 1), one(b.size() + 1), row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) one[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t cost = same(a[i - 1], b[j - 1]) ? 0 : 1;
      row[j] = std::min({one[j] + 1, row[j - 1] + 1, one[j - 1] + cost});
      if (i > 1 && j > 1 && same(a[i - 1], b[j - 2]) && same(a[i - 2], b[j - 1])) row[j] = std::min(row[j], two[j - 2] + 1);
    }
    std::swap(two, one);
    std::swap(one, row);
  }
  return one[b.size()];
}

}  // namespace

std::string_view to_string(Reason r) { return kRows[static_cast<std::size_t>(r)].name; }

Outcome outcome_of(Reason r) { return kRows[static_cast<std::size_t>(r)].outcome; }

std::vector<Reason> reasons_named(std::string_view name) {
  std::vector<Reason> out;
  for (const Row& row : kRows) {
    if (row.name == name) out.push_back(row.reason);
  }
  return out;
}

bool same_code(Reason a, Reason b) {
  return kFirstOfCode[static_cast<std::size_t>(a)] == kFirstOfCode[static_cast<std::size_t>(b)];
}

std::vector<std::string_view> reason_names() {
  std::vector<std::string_view> out;
  for (const Row& row : kRows) {
    if (kFirstOfCode[static_cast<std::size_t>(row.reason)] == row.reason) out.push_back(row.name);
  }
  return out;
}

std::vector<std::string_view> nearest_names(std::string_view word, const std::vector<std::string_view>& names,
                                            std::size_t max) {
  const std::size_t limit = std::max<std::size_t>(2, word.size() / 3);
  std::vector<std::pair<std::size_t, std::string_view>> near;
  for (std::string_view name : names) {
    const std::size_t d = edit_distance(word, name);
    if (d <= limit) near.emplace_back(d, name);
  }
  std::sort(near.begin(), near.end());
  near.erase(std::unique(near.begin(), near.end()), near.end());
  std::vector<std::string_view> out;
  for (std::size_t i = 0; i < near.size() && out.size() < max; ++i) out.push_back(near[i].second);
  return out;
}

}  // namespace mcptriage
