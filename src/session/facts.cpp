// Session facts: what the session analysis needs of one exchange (request id, method, params
// key, tool definitions, structuredContent), read once where the exchange is at hand.
#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "json/dom.hpp"
#include "mcptriage/capture.hpp"
#include "mcptriage/http.hpp"
#include "mcptriage/session.hpp"
#include "mcptriage/sse.hpp"

namespace mcptriage {

namespace {

using json::View;

bool is_sse_body(const Exchange& ex) {
  const auto ct = find_header(ex.response.headers, "content-type");
  return (ct && http::media_type_is(*ct, "text/event-stream")) || ex.format == CaptureFormat::bare_sse;
}

/// The JSON-RPC message that decided the record: the JSON body itself (a view, not a copy), or
/// the data of the SSE event whose response id equals `id_text` (the first response when
/// `id_text` is empty), kept in `event`.
std::optional<std::string_view> deciding_message(json::Parser& parser, const Exchange& ex,
                                                 const std::string& id_text, std::optional<std::string>& event) {
  const std::string& body = ex.response.body;
  if (!is_sse_body(ex)) return std::string_view(body);
  const sse::Stream stream = sse::parse(body);
  for (const sse::Event& ev : stream.events) {
    auto parsed = parser.parse(ev.data);
    if (!parsed) continue;
    const View root = *parsed;
    if (!root.is_object() || root.get("method") || !root.get("result")) continue;
    auto id = root.get("id");
    if (id_text.empty() || (id && json::minified(*id) == id_text)) {
      event = ev.data;
      return std::string_view(*event);
    }
  }
  return std::nullopt;
}

void read_tools(View result, std::vector<ToolDefinition>& out) {
  auto tools = result.get("tools");
  if (!tools || !tools->is_array()) return;
  for (View t : tools->items()) {
    auto name = t.string_at("name");
    if (!name) continue;
    ToolDefinition def;
    def.name = std::string(*name);
    if (auto ann = t.get("annotations"); ann && ann->is_object()) {
      def.read_only_hint = ann->bool_at("readOnlyHint");
      def.destructive_hint = ann->bool_at("destructiveHint");
      def.idempotent_hint = ann->bool_at("idempotentHint");
    }
    if (auto schema = t.get("outputSchema"); schema && schema->is_object()) {
      def.output_schema = json::minified(*schema);
    }
    out.push_back(std::move(def));
  }
}

}  // namespace

/// SessionFacts::server: the authority of an absolute URL (RFC 3986 §3.2), else the Host header.
static std::string server_of(const Request& request) {
  std::string_view authority;
  const std::string_view target = request.target;
  if (auto scheme_end = target.find("://"); scheme_end != std::string_view::npos && scheme_end > 0 &&
                                            target.find_first_of("/?#") > scheme_end) {
    authority = target.substr(scheme_end + 3);
    authority = authority.substr(0, authority.find_first_of("/?#"));
    if (auto at = authority.rfind('@'); at != std::string_view::npos) authority.remove_prefix(at + 1);  // userinfo
  } else if (auto host = find_header(request.headers, "host")) {
    authority = *host;
  }
  std::string out(authority);
  for (char& ch : out) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return out;
}

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
    f.server = server_of(*ex.request);
  }
  // A log that keeps only the response headers (a gateway's) shows the session there: the server
  // sets Mcp-Session-Id on its responses (the initialize response, and any other it chooses).
  if (f.session_id.empty()) {
    if (auto sid = find_header(ex.response.headers, "mcp-session-id")) f.session_id = std::string(*sid);
  }
  f.request = along.request;  // captured, or given beside the capture (ReadAlong::request)
  if (records.empty()) return f;
  const Classification& c = records.front();
  const std::string request_method = f.request ? f.request->method.value_or("") : std::string();
  const std::string& method = request_method.empty() ? c.method : request_method;
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
  thread_local json::Parser parser;  // reused: one allocation per thread, not per exchange
  const std::string id_text = c.response_id ? c.response_id->to_json() : std::string();
  std::optional<std::string> event;
  auto message = deciding_message(parser, ex, id_text, event);
  if (!message) return f;
  // `message` may be the body itself (a view): parsing a text that is not padded copies it into
  // the parser's own padded buffer, so the parse below needs no copy of its own.
  const std::string_view text = *message;
  auto root = parser.parse(text);
  if (!root) return f;
  auto result = root->get("result");
  if (!result || !result->is_object()) return f;
  read_tools(*result, f.tools);  // their source is set by SessionTracker::add
  return f;
}

std::expected<std::vector<ToolDefinition>, std::string> read_tool_definitions(std::string_view bytes,
                                                                             std::string_view name) {
  std::vector<ToolDefinition> out;
  bool json_shape = false;  // a tools/list result or a response holding one: read directly
  {
    json::Parser parser;
    if (auto root = parser.parse(bytes); root && root->is_object()) {
      if (auto tools = root->get("tools"); tools && tools->is_array()) {
        json_shape = true;
        read_tools(*root, out);
      } else if (auto result = root->get("result"); result && result->is_object() && result->get("tools")) {
        json_shape = true;
        read_tools(*result, out);
      }
    }
  }
  if (!json_shape) {
    // A captured exchange in any input format: the tools of its successful tools/list results.
    auto exchanges = read_capture(bytes, name);
    if (!exchanges) return std::unexpected(exchanges.error().message);
    for (const Exchange& ex : *exchanges) {
      if (ex.skipped) continue;
      ReadAlong along;
      const std::vector<Classification> records = classify(ex, ContextFlags{}, 0, &along);
      SessionFacts f = extract_session_facts(ex, records, along);
      for (ToolDefinition& t : f.tools) out.push_back(std::move(t));
    }
  }
  if (out.empty()) {
    return std::unexpected(json_shape ? std::string("the tools/list result defines no tool")
                                      : std::string("holds no successful tools/list result (give a tools/list result, a "
                                                    "JSON-RPC response holding one, or a capture of the exchange)"));
  }
  const std::string source(name);
  for (ToolDefinition& t : out) t.source = source;
  return out;
}

}  // namespace mcptriage
