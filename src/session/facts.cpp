// Session facts: what the session analysis needs of one exchange (request id, method, params
// key, tool definitions, structuredContent), read once where the exchange is at hand.
#include <simdjson.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "mcptriage/http.hpp"
#include "mcptriage/session.hpp"
#include "mcptriage/sse.hpp"

namespace mcptriage {

namespace {

using simdjson::dom::array;
using simdjson::dom::element;
using simdjson::dom::element_type;
using simdjson::dom::object;

constexpr std::size_t kMaxParamsKey = 4096;  // longer canonical params are kept as a hash

std::optional<element> member(element e, std::string_view key) {
  if (e.type() != element_type::OBJECT) return std::nullopt;
  element v;
  if (e.at_key(key).get(v) != simdjson::SUCCESS) return std::nullopt;
  return v;
}

std::optional<std::string> string_member(element e, std::string_view key) {
  auto v = member(e, key);
  std::string_view s;
  if (!v || v->get(s) != simdjson::SUCCESS) return std::nullopt;
  return std::string(s);
}

std::optional<bool> bool_member(element e, std::string_view key) {
  auto v = member(e, key);
  bool b = false;
  if (!v || v->get(b) != simdjson::SUCCESS) return std::nullopt;
  return b;
}

/// Appends `s` as a JSON string (RFC 8259 §7).
void append_json_string(std::string& out, std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  out += '"';
  for (char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (u < 0x20) {
      out += "\\u00";
      out += kHex[u >> 4];
      out += kHex[u & 0x0f];
    } else {
      out += c;
    }
  }
  out += '"';
}

/// Canonical JSON: object members sorted by name (stable, so duplicates keep their order),
/// no white space; `skip_meta` leaves out a top-level `_meta`.
void canonical(element e, std::string& out, bool skip_meta) {
  switch (e.type()) {
    case element_type::OBJECT: {
      std::vector<std::pair<std::string_view, element>> members;
      for (auto [key, value] : object(e)) {
        if (skip_meta && key == "_meta") continue;
        members.emplace_back(key, value);
      }
      std::stable_sort(members.begin(), members.end(),
                       [](const auto& a, const auto& b) { return a.first < b.first; });
      out += '{';
      bool first = true;
      for (const auto& [key, value] : members) {
        if (!first) out += ',';
        first = false;
        append_json_string(out, key);
        out += ':';
        canonical(value, out, false);
      }
      out += '}';
      return;
    }
    case element_type::ARRAY: {
      out += '[';
      bool first = true;
      for (element v : array(e)) {
        if (!first) out += ',';
        first = false;
        canonical(v, out, false);
      }
      out += ']';
      return;
    }
    default: out += simdjson::to_string(e); return;
  }
}

std::uint64_t fnv1a(std::string_view s) {
  std::uint64_t h = 14695981039346656037ull;
  for (char c : s) {
    h ^= static_cast<unsigned char>(c);
    h *= 1099511628211ull;
  }
  return h;
}

std::string params_key(element params) {
  std::string out;
  canonical(params, out, true);
  if (out.size() <= kMaxParamsKey) return out;
  return "#" + std::to_string(fnv1a(out)) + ":" + std::to_string(out.size());
}

bool is_sse_body(const Exchange& ex) {
  const auto ct = find_header(ex.response.headers, "content-type");
  return (ct && http::media_type(*ct) == "text/event-stream") || ex.format == "bare-sse";
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
    if (parser.parse(ev.data.data(), ev.data.size()).get(root) != simdjson::SUCCESS) continue;
    if (root.type() != element_type::OBJECT || member(root, "method") || !member(root, "result")) continue;
    auto id = member(root, "id");
    if (id_text.empty() || (id && simdjson::to_string(*id) == id_text)) {
      event = ev.data;
      return std::string_view(*event);
    }
  }
  return std::nullopt;
}

void read_tools(element result, const std::string& source, std::vector<ToolDefinition>& out) {
  auto tools = member(result, "tools");
  if (!tools || tools->type() != element_type::ARRAY) return;
  for (element t : array(*tools)) {
    auto name = string_member(t, "name");
    if (!name) continue;
    ToolDefinition def;
    def.name = std::move(*name);
    def.source = source;
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

SessionFacts extract_session_facts(const Exchange& ex, const std::vector<Classification>& records) {
  SessionFacts f;
  if (ex.skipped) {
    f.skipped = ex.skipped;
    return f;
  }
  f.http_status = ex.response.status;
  f.transport_captured = ex.response.transport_captured;
  thread_local simdjson::dom::parser parser;  // reused: one allocation per thread, not per exchange
  if (ex.request) {
    f.http_method = ex.request->method_line;
    if (auto sid = find_header(ex.request->headers, "mcp-session-id")) f.session_id = std::string(*sid);
    if (ex.request->body && !ex.request->body->empty()) {
      element root;
      const std::string& body = *ex.request->body;
      if (parser.parse(body.data(), body.size()).get(root) == simdjson::SUCCESS &&
          root.type() == element_type::OBJECT) {
        f.request_captured = true;
        auto method = string_member(root, "method");
        auto id = member(root, "id");
        if (id) f.request_id = simdjson::to_string(*id);
        if (method) {
          f.method = std::move(*method);
          f.notification = !id;
        } else {
          f.notification = true;  // a client's JSON-RPC response (answers a server request)
        }
        if (auto params = member(root, "params")) {
          f.params_key = params_key(*params);
          if (f.method == "tools/call") f.tool_name = string_member(*params, "name").value_or("");
        }
      }
    }
  }
  if (records.empty()) return f;
  const Classification& c = records.front();
  const std::string& method = f.method.empty() ? c.method : f.method;
  const std::string id_text = c.response_id ? c.response_id->to_json() : std::string();
  const bool tools_list = method == "tools/list" && c.outcome == Outcome::RPC_SUCCESS;
  const bool tool_success = method == "tools/call" && c.outcome == Outcome::TOOL_SUCCESS;
  if (!tools_list && !tool_success) return f;
  std::optional<std::string> event;
  auto message = deciding_message(parser, ex, id_text, event);
  if (!message) return f;
  // `message` may be the body itself (a view): parsing a `const char*` copies the text into the
  // parser's own padded buffer, so the parse below needs no copy of its own.
  const std::string_view text = *message;
  element root;
  if (parser.parse(text.data(), text.size()).get(root) != simdjson::SUCCESS) return f;
  auto result = member(root, "result");
  if (!result || result->type() != element_type::OBJECT) return f;
  if (tools_list) {
    read_tools(*result, ex.source, f.tools);
    return f;
  }
  f.result_found = true;
  f.result_pointer = "/result";
  if (auto sc = member(*result, "structuredContent")) f.structured_content = simdjson::to_string(*sc);
  return f;
}

}  // namespace mcptriage
