// MCP result rules but the tool result's (results.hpp): resultType and 2026-07-28 MRTR
// input_required (MCP basic §resultType, basic/patterns/mrtr), tasks (2025-11-25 basic/utilities/
// tasks; the 2026-07-28 tasks extension), initialize (basic/lifecycle §Initialization), tools/list
// (server/tools §Listing tools), the other list methods, resources/read, prompts/get,
// server/discover and completion/complete.
#include "mcp/results.hpp"

#include <fmt/format.h>

#include <cstdint>

#include "mcp/versions.hpp"

namespace mcptriage::mcp {

using json::View;

namespace {

/// A task handle (2025-11-25 `result.task`, `nested`; or the 2026-07-28 tasks extension's flat
/// `taskId`): TASK_CREATED with its poll interval as the stream's retry.
void judge_task(Classification& c, View task, const std::string& ptr, bool nested) {
  auto id = task.string_at("taskId");
  if (!id) {
    set_verdict(c, Reason::task_id_missing, "a task result without a string \"taskId\"", ptr + "/taskId");
    return;
  }
  auto status = task.string_at("status");
  if (!status) {
    set_verdict(c, Reason::task_status_missing, "a task result without a string \"status\"", ptr + "/status");
    return;
  }
  if (nested && c.protocol_version_source == "assumed")
    c.protocol_version = std::string(version_rule(Rule::nested_task).first);
  auto poll = task.get(nested ? "pollInterval" : "pollIntervalMs");
  std::int64_t poll_ms = 0;
  if (auto ms = poll ? poll->int64() : std::nullopt) {
    poll_ms = *ms;
    c.stream_retry_ms = poll_ms;
  }
  set_verdict(c, Reason::task_created,
              fmt::format("task {} created, status {}{}", clipped(*id), clipped(*status),
                          poll ? fmt::format(", poll every {} ms", poll_ms) : std::string()));
}

/// The result of a method other than tools/call whose shape is checked; RPC_SUCCESS for the others.
void judge_other_result(Classification& c, View result, const std::string& ptr) {
  const std::string& m = c.method;
  // A member the method's result requires, and the reasons for it missing or of another type.
  struct Required {
    std::string_view key;
    Reason missing;
    Reason invalid;
  };
  auto need = [&](const Required& r, json::Type t, std::string_view what) -> bool {
    auto f = result.get(r.key);
    bool ok = f.has_value() && f->type() == t;
    if (!ok) {
      set_verdict(c, f ? r.invalid : r.missing,
                  fmt::format("{} result: \"{}\" {}", m, r.key,
                              f ? fmt::format("is {}, not {}", json::type_phrase(*f), what) : "is missing"),
                  ptr + "/" + std::string(r.key));
    }
    return ok;
  };
  if (m == "initialize") {
    if (!need({"protocolVersion", Reason::protocol_version_missing, Reason::protocol_version_invalid},
              json::Type::string, "a string")) {
      return;
    }
    if (!need({"capabilities", Reason::capabilities_missing, Reason::capabilities_invalid}, json::Type::object,
              "an object")) {
      return;
    }
    if (!need({"serverInfo", Reason::server_info_missing, Reason::server_info_invalid}, json::Type::object,
              "an object")) {
      return;
    }
    auto info = *result.get("serverInfo");
    set_verdict(
        c, Reason::rpc_success,
        fmt::format("initialize: protocol {}, server {} {}", clipped(*result.string_at("protocolVersion")),
                    clipped(info.string_at("name").value_or("?")), clipped(info.string_at("version").value_or(""))));
    return;
  }
  if (m == "tools/list") {
    if (!need({"tools", Reason::tools_missing, Reason::tools_invalid}, json::Type::array, "an array")) return;
    std::size_t i = 0;
    for (View tool : result.get("tools")->items()) {
      if (!tool.is_object() || !tool.string_at("name")) {
        set_verdict(c, Reason::tool_name_missing, fmt::format("tools/list: tool {} has no string \"name\"", i),
                    fmt::format("{}/tools/{}/name", ptr, i));
        return;
      }
      auto schema = tool.get("inputSchema");
      if (!schema || !schema->is_object()) {
        set_verdict(
            c, Reason::tool_input_schema_missing,
            fmt::format("tools/list: tool \"{}\" has no \"inputSchema\" object", clipped(*tool.string_at("name"))),
            fmt::format("{}/tools/{}/inputSchema", ptr, i));
        return;
      }
      ++i;
    }
    set_verdict(c, Reason::rpc_success, fmt::format("tools/list: {} tool{}", i, i == 1 ? "" : "s"));
    return;
  }
  struct ListShape {
    std::string_view method;
    Required list;  ///< the array member
  };
  static constexpr ListShape kLists[] = {
      {"resources/list", {"resources", Reason::resources_missing, Reason::resources_invalid}},
      {"resources/templates/list",
       {"resourceTemplates", Reason::resource_templates_missing, Reason::resource_templates_invalid}},
      {"prompts/list", {"prompts", Reason::prompts_missing, Reason::prompts_invalid}},
      {"resources/read", {"contents", Reason::contents_missing, Reason::contents_invalid}},
      {"prompts/get", {"messages", Reason::messages_missing, Reason::messages_invalid}},
      {"server/discover",
       {"supportedVersions", Reason::supported_versions_missing, Reason::supported_versions_invalid}}};
  for (const auto& shape : kLists) {
    if (m == shape.method) {
      if (!need(shape.list, json::Type::array, "an array")) return;
      std::size_t n = result.get(shape.list.key)->size();
      set_verdict(c, Reason::rpc_success, fmt::format("{}: {} {}", m, n, shape.list.key));
      return;
    }
  }
  if (m == "completion/complete") {
    if (!need({"completion", Reason::completion_missing, Reason::completion_invalid}, json::Type::object,
              "an object")) {
      return;
    }
  }
  set_verdict(c, Reason::rpc_success,
              m.empty() ? std::string("an empty result (method unknown)") : fmt::format("{}: result received", m));
}

}  // namespace

bool is_tool_method(std::string_view m) { return m == "tools/call" || m == "tasks/result"; }

void infer_method(Classification& c, View result) {
  c.method_source = MethodSource::inferred;
  auto has = [&](std::string_view k) { return result.get(k).has_value(); };
  if (has("content") || has("isError") || has("structuredContent") || has("task") || has("inputRequests") ||
      has("requestState") || has("taskId"))
    c.method = "tools/call";
  else if (has("protocolVersion") && (has("serverInfo") || has("capabilities"))) c.method = "initialize";
  else if (has("supportedVersions")) c.method = "server/discover";
  else if (has("tools")) c.method = "tools/list";
  else if (has("resourceTemplates")) c.method = "resources/templates/list";
  else if (has("resources")) c.method = "resources/list";
  else if (has("prompts")) c.method = "prompts/list";
  else if (has("contents")) c.method = "resources/read";
  else if (has("messages")) c.method = "prompts/get";
  else if (has("completion")) c.method = "completion/complete";
  else {
    bool only_meta = true;
    for (auto [key, value] : result.members()) {
      (void)value;
      if (key != "_meta" && key != "resultType") only_meta = false;
    }
    if (only_meta) {
      c.method = "";
      if (c.warnings.empty() || !c.warnings.back().starts_with("method unknown"))
        c.warnings.push_back("method unknown and the result is empty: taken as the empty result of a non-tool method");
    } else {
      c.method = "tools/call";
    }
  }
}

void judge_result(Classification& c, View result, const std::string& ptr) {
  if (c.method.empty()) infer_method(c, result);
  const std::string& method = c.method;
  const bool tool = is_tool_method(method);
  // A shape fault is INVALID_TOOL_RESULT for a tool method, INVALID_RESULT for the others.
  auto invalid = [tool](Reason for_tool, Reason for_other) { return tool ? for_tool : for_other; };

  // resultType (2026-07-28; absent means "complete").
  std::string result_type = "complete";
  if (auto rt = result.get("resultType")) {
    const auto s = rt->string();
    if (!s) {
      set_verdict(c, invalid(Reason::result_type_not_string_tool_result, Reason::result_type_not_string_result),
                  fmt::format("\"resultType\" is {}, not a string", json::type_phrase(*rt)), ptr + "/resultType");
      return;
    }
    result_type = std::string(*s);
    c.result_type = result_type;
  } else if (in_force(Rule::result_type, c.protocol_version) && c.protocol_version_source != "assumed") {
    c.warnings.push_back("resultType is missing (required from 2026-07-28); treated as \"complete\"");
  }
  if (result_type == "input_required") {
    const bool allowed =
        method == "tools/call" || method == "prompts/get" || method == "resources/read" || method.empty();
    if (!allowed) {
      set_verdict(c, Reason::input_required_not_allowed,
                  fmt::format("\"input_required\" is only valid for tools/call, prompts/get and resources/read, not {}",
                              method),
                  ptr + "/resultType");
      return;
    }
    auto requests = result.get("inputRequests");
    auto state = result.get("requestState");
    if (requests && !requests->is_object()) {
      set_verdict(c, invalid(Reason::input_requests_not_object_tool_result, Reason::input_requests_not_object_result),
                  "\"inputRequests\" is not an object", ptr + "/inputRequests");
      return;
    }
    if (state && !state->is_string()) {
      set_verdict(c, invalid(Reason::request_state_not_string_tool_result, Reason::request_state_not_string_result),
                  "\"requestState\" is not a string", ptr + "/requestState");
      return;
    }
    if (!requests && !state) {
      set_verdict(c, invalid(Reason::input_required_empty_tool_result, Reason::input_required_empty_result),
                  "\"input_required\" with neither \"inputRequests\" nor \"requestState\"", ptr);
      return;
    }
    std::string keys;
    if (requests) {
      for (auto [key, value] : requests->members()) {
        std::string_view m = value.string_at("method").value_or("?");
        keys += fmt::format("{}{} ({})", keys.empty() ? "" : ", ", clipped(key), clipped(m));
      }
    }
    set_verdict(
        c, Reason::input_required,
        requests ? fmt::format("the server needs input before it can finish: {}", keys.empty() ? "(no requests)" : keys)
                 : "the server asks to retry with the echoed requestState (no input requests)");
    return;
  }
  if (result_type == "task") {
    if (!tool && method != "tools/call") {
      set_verdict(c, Reason::task_not_allowed,
                  fmt::format("resultType \"task\" answering {}: only task-capable methods may create tasks", method),
                  ptr + "/resultType");
      return;
    }
    judge_task(c, result, ptr, /*nested=*/false);
    return;
  }
  if (result_type != "complete") {
    set_verdict(c, invalid(Reason::unknown_result_type_tool_result, Reason::unknown_result_type_result),
                fmt::format("unknown resultType \"{}\"", clipped(result_type)), ptr + "/resultType");
    return;
  }
  if (method == "tools/call") {
    if (auto task = result.get("task"); task && !result.get("content")) {
      judge_task(c, *task, ptr + "/task", /*nested=*/true);
      return;
    }
  }
  if (tool) {
    judge_tool_result(c, result, ptr);
    return;
  }
  judge_other_result(c, result, ptr);
}

}  // namespace mcptriage::mcp
