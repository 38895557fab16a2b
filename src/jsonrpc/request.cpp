// JSON-RPC requests and ids (mcptriage/jsonrpc.hpp, jsonrpc/request.hpp): JSON-RPC 2.0 §4-§6.
#include "jsonrpc/request.hpp"

#include <charconv>
#include <string>

namespace mcptriage {

std::string JsonRpcId::to_json() const {
  switch (kind) {
    case Kind::integer: return text;
    case Kind::null: return "null";
    case Kind::other: return text;
    case Kind::string: {
      std::string out = "\"";
      for (char c : text) {
        if (c == '"' || c == '\\') out += '\\';
        if (static_cast<unsigned char>(c) < 0x20) {
          static constexpr char hex[] = "0123456789abcdef";
          out += "\\u00";
          out += hex[(c >> 4) & 0xF];
          out += hex[c & 0xF];
          continue;
        }
        out += c;
      }
      out += '"';
      return out;
    }
  }
  return "null";
}

namespace jsonrpc {

JsonRpcId id_of(json::View e) {
  switch (e.type()) {
    case json::Type::int64: return {JsonRpcId::Kind::integer, std::to_string(*e.int64())};
    case json::Type::uint64: return {JsonRpcId::Kind::integer, std::to_string(*e.uint64())};
    case json::Type::float64: {
      // One JSON number, compared by value (JavaScript and Python clients match `1.0` with `1`):
      // its exact value as canonical text; an integer value (`1.0`, `1e2`, or an integer beyond
      // 64 bits read exactly) is an integer id.
      if (auto n = json::exact_number(e)) {
        return {n->integer ? JsonRpcId::Kind::integer : JsonRpcId::Kind::other, std::move(n->text)};
      }
      return {JsonRpcId::Kind::other, json::minified(e)};
    }
    case json::Type::string: return {JsonRpcId::Kind::string, std::string(*e.string())};
    case json::Type::null: return {JsonRpcId::Kind::null, "null"};
    default: return {JsonRpcId::Kind::other, json::minified(e)};
  }
}

std::optional<JsonRpcId> parse_id(std::string_view text) {
  if (text.size() >= 2 && text.front() == '"' && text.back() == '"') {
    std::string_view inner = text.substr(1, text.size() - 2);
    if (inner.find_first_of("\"\\") == std::string_view::npos) return JsonRpcId{JsonRpcId::Kind::string, std::string(inner)};
    // A JSON string with escapes ("a\"b", "\u0041"): read by the JSON parser, as a response id is.
    json::Parser parser;
    auto root = parser.parse(text);
    if (!root || !root->is_string()) return std::nullopt;
    return JsonRpcId{JsonRpcId::Kind::string, std::string(*root->string())};
  }
  if (text.empty()) return std::nullopt;
  // RFC 8259 §6: no leading zeros ("01" is not a JSON number).
  const std::string_view digits = text.front() == '-' ? text.substr(1) : text;
  if (digits.size() > 1 && digits.front() == '0') return std::nullopt;
  long long value = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || ptr != text.data() + text.size()) return std::nullopt;
  return JsonRpcId{JsonRpcId::Kind::integer, std::to_string(value)};
}

std::optional<JsonRpcId> id_from_json(std::string_view json_text) {
  json::Parser parser;
  auto root = parser.parse(json_text);
  if (!root) return std::nullopt;
  return id_of(*root);
}

RequestInfo read_request(json::View body) {
  RequestInfo s;
  if (body.is_array()) {
    s.shape = RequestInfo::Shape::batch;
    for (json::View item : body.items()) {
      if (!item.string_at("method")) continue;
      if (auto id = item.get("id")) s.batch_ids.push_back(id_of(*id));
    }
    return s;
  }
  if (!body.is_object()) return s;
  s.shape = RequestInfo::Shape::message;
  if (auto method = body.string_at("method")) s.method = std::string(*method);
  if (auto id = body.get("id")) s.id = id_of(*id);
  s.notification = !s.method || !s.id;
  s.response = !s.method && s.id && (body.get("result") || body.get("error"));
  if (auto params = body.get("params")) {
    s.has_params = true;
    s.params_hash = json::canonical_hash(*params, /*skip_meta=*/true);
    if (s.method == std::optional<std::string>("tools/call")) {
      s.tool_name = std::string(params->string_at("name").value_or(""));
    }
    if (auto meta = params->get("_meta")) {
      if (auto v = meta->string_at("io.modelcontextprotocol/protocolVersion")) s.protocol_version = std::string(*v);
    }
  }
  return s;
}

RequestInfo read_request(std::string_view body) {
  // One parser per thread, reused for every request body (docs/performance.md).
  thread_local json::Parser parser;
  auto root = parser.parse(body);
  if (!root) return {};
  return read_request(*root);
}

}  // namespace jsonrpc
}  // namespace mcptriage
