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

#include "mcptriage/http.hpp"
#include "mcptriage/session.hpp"
#include "mcptriage/sse.hpp"

namespace mcptriage {

namespace {

using simdjson::dom::array;
using simdjson::dom::element;
using simdjson::dom::element_type;
using simdjson::dom::object;

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

/// splitmix64's finaliser: spreads the bits of a hash over the whole word.
std::uint64_t mix64(std::uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ull;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebull;
  x ^= x >> 31;
  return x;
}

std::uint64_t hash_bytes(std::string_view s, std::uint64_t seed) {
  std::uint64_t h = 14695981039346656037ull ^ seed;
  for (char c : s) {
    h ^= static_cast<unsigned char>(c);
    h *= 1099511628211ull;
  }
  return mix64(h ^ s.size());
}

/// 64-bit hash of a JSON value read as canonical JSON: object members in any order (the sum
/// of their hashes), arrays in order, numbers by type and value, strings by their unescaped
/// bytes; `skip_meta` leaves out a top-level `_meta`. Equal JSON gives equal hashes without
/// building the canonical text (docs/output.md "Replays").
std::uint64_t canonical_hash(element e, bool skip_meta, int depth = 0) {
  if (depth > 256) return 0x5eed;  // simdjson's depth limit is lower; defensive only
  switch (e.type()) {
    case element_type::OBJECT: {
      std::uint64_t sum = 0;
      std::uint64_t n = 0;
      for (auto [key, value] : object(e)) {
        if (skip_meta && key == "_meta") continue;
        sum += mix64(hash_bytes(key, 0x6b) ^ (canonical_hash(value, false, depth + 1) * 0x9e3779b97f4a7c15ull));
        ++n;
      }
      return mix64(sum ^ mix64(n + 0x0b));
    }
    case element_type::ARRAY: {
      std::uint64_t h = 0xa7;
      for (element v : array(e)) h = mix64(h * 31 + canonical_hash(v, false, depth + 1));
      return mix64(h ^ 0xa7a7);
    }
    case element_type::STRING: return hash_bytes(std::string_view(e), 0x57);
    case element_type::INT64: return mix64(static_cast<std::uint64_t>(std::int64_t(e)) ^ 0x1111);
    case element_type::UINT64: return mix64(std::uint64_t(e) ^ 0x2222);
    case element_type::DOUBLE: {
      const double d = double(e);
      std::uint64_t bits = 0;
      std::memcpy(&bits, &d, sizeof bits);
      return mix64(bits ^ 0x3333);
    }
    case element_type::BOOL: return bool(e) ? 0x7777 : 0x8888;
    case element_type::NULL_VALUE: return 0x9999;
  }
  return 0;
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
          f.params_hash = canonical_hash(*params, /*skip_meta=*/true);
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
