// Session facts: what the session analysis needs of one exchange (request id, method, params
// key, tool definitions, structuredContent), read once where the exchange is at hand.
#include <simdjson.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "json/dom.hpp"
#include "mcptriage/http.hpp"
#include "mcptriage/session.hpp"
#include "mcptriage/sse.hpp"

namespace mcptriage {

namespace {

using simdjson::dom::array;
using simdjson::dom::element;
using simdjson::dom::element_type;
using simdjson::dom::object;

using json::bool_member;
using json::member;

bool is_sse_body(const Exchange& ex) {
  const auto ct = find_header(ex.response.headers, "content-type");
  return (ct && http::media_type_is(*ct, "text/event-stream")) || ex.format == CaptureFormat::bare_sse;
}

/// The JSON-RPC message that decided the record: the JSON body itself (a view, not a copy), or
/// the data of the SSE event whose response id equals `id_text` (the first response when
/// `id_text` is empty), kept in `event`.
std::optional<std::string_view> deciding_message(simdjson::dom::parser& parser, const Exchange& ex,
                                                 const std::string& id_text, std::optional<std::string>& event) {
  const std::string& body = ex.response.body;
  if (!is_sse_body(ex)) return std::string_view(body);
  const sse::Stream stream = sse::parse(body);
  for (const sse::Event& ev : stream.events) {
    element root;
    if (json::parse(parser, ev.data).get(root) != simdjson::SUCCESS) continue;
    if (root.type() != element_type::OBJECT || member(root, "method") || !member(root, "result")) continue;
    auto id = member(root, "id");
    if (id_text.empty() || (id && simdjson::to_string(*id) == id_text)) {
      event = ev.data;
      return std::string_view(*event);
    }
  }
  return std::nullopt;
}

void read_tools(element result, std::vector<ToolDefinition>& out) {
  auto tools = member(result, "tools");
  if (!tools || tools->type() != element_type::ARRAY) return;
  for (element t : array(*tools)) {
    auto name = json::string_member(t, "name");
    if (!name) continue;
    ToolDefinition def;
    def.name = std::string(*name);
    if (auto ann = member(t, "annotations"); ann && ann->type() == element_type::OBJECT) {
      def.read_only_hint = bool_member(*ann, "readOnlyHint");
      def.destructive_hint = bool_member(*ann, "destructiveHint");
      def.idempotent_hint = bool_member(*ann, "idempotentHint");
    }
    if (auto schema = member(t, "outputSchema"); schema && schema->type() == element_type::OBJECT) {
      def.output_schema = simdjson::to_string(*schema);
    }
    out.push_back(std::move(def));
  }
}

}  // namespace

SessionFacts extract_session_facts(const Exchange& ex, const std::vector<Classification>& records,
                                   const ReadAlong& along) {
  SessionFacts f;
  if (ex.skipped) {
    f.skipped = ex.skipped;
    return f;
  }
  f.http_status = ex.response.status;
  f.transport_captured = ex.response.transport_captured;
  if (ex.request) {
    f.http_method = ex.request->method_line;
    if (auto sid = find_header(ex.request->headers, "mcp-session-id")) f.session_id = std::string(*sid);
    if (along.request_message) {
      f.request_captured = true;
      f.request_id = along.request_id;
      f.method = along.request_method;
      f.notification = along.request_notification;
      f.params_hash = along.params_hash;
      f.tool_name = along.tool_name;
    }
  }
  if (records.empty()) return f;
  const Classification& c = records.front();
  const std::string& method = f.method.empty() ? c.method : f.method;
  if (method == "tools/call" && c.outcome == Outcome::TOOL_SUCCESS) {
    // The classifier read the deciding result already (ReadAlong).
    if (along.tool_result_found) {
      f.result_found = true;
      f.result_pointer = "/result";
      f.structured_content = along.structured_content;
    }
    return f;
  }
  if (method != "tools/list" || c.outcome != Outcome::RPC_SUCCESS) return f;
  // A tools/list result (a few per session): its tool definitions, read here.
  thread_local simdjson::dom::parser parser;  // reused: one allocation per thread, not per exchange
  const std::string id_text = c.response_id ? c.response_id->to_json() : std::string();
  std::optional<std::string> event;
  auto message = deciding_message(parser, ex, id_text, event);
  if (!message) return f;
  // `message` may be the body itself (a view): parsing a `const char*` copies the text into the
  // parser's own padded buffer, so the parse below needs no copy of its own.
  const std::string_view text = *message;
  element root;
  if (json::parse(parser, text).get(root) != simdjson::SUCCESS) return f;
  auto result = member(root, "result");
  if (!result || result->type() != element_type::OBJECT) return f;
  read_tools(*result, f.tools);  // their source is set by SessionTracker::add
  return f;
}

}  // namespace mcptriage
