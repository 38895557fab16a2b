// JSON-RPC message kinds, owned copies, base64 and SSE text for the JSON-based capture readers.
#include "capture/json_message.hpp"

#include "jsonrpc/request.hpp"

#include <array>
#include <cstdint>

namespace mcptriage::capture {

MessageInfo inspect_message(json::View value) {
  MessageInfo info;
  if (value.is_array()) {
    auto first = value.at(0);
    if (!first || !first->is_object()) return info;
    MessageInfo inner = inspect_message(*first);
    if (inner.kind != MessageKind::not_jsonrpc) info.kind = MessageKind::batch;
    return info;
  }
  if (!value.is_object()) return info;
  bool has_jsonrpc = false;
  bool has_method = false;
  bool has_result = false;
  bool has_error = false;
  json::View id;
  bool has_id = false;
  for (auto [key, member] : value.members()) {
    if (key == "jsonrpc") {
      has_jsonrpc = true;
    } else if (key == "method") {
      if (auto m = member.string()) {
        has_method = true;
        info.method = std::string(*m);
      }
    } else if (key == "id") {
      has_id = true;
      id = member;
    } else if (key == "result") {
      has_result = true;
    } else if (key == "error") {
      has_error = true;
    }
  }
  // Numbers keyed by their exact value (`1.0` pairs with `1`), as jsonrpc::id_of compares them.
  if (has_id) info.id_key = id.is_number() ? jsonrpc::id_of(id).to_json() : json_text(id);
  if (has_method) {
    info.kind = has_id ? MessageKind::request : MessageKind::notification;
  } else if (has_jsonrpc || (has_id && (has_result || has_error))) {
    // `{"error": "invalid_token"}` alone is an OAuth or web error body, not JSON-RPC.
    info.kind = MessageKind::response;
    info.is_error = has_error;
  }
  return info;
}

MessageInfo inspect_message_text(json::Parser& parser, std::string_view text) {
  auto root = parser.parse(text);
  if (!root) return {};
  return inspect_message(*root);
}

MessageInfo inspect_request_text(json::Parser& parser, std::string_view text, std::optional<RequestInfo>& info) {
  if (text.empty()) return {};
  auto root = parser.parse(text);
  if (!root) {
    info = RequestInfo{};  // not JSON: no JSON-RPC message
    return {};
  }
  info = jsonrpc::read_request(*root);
  return inspect_message(*root);
}

std::string json_text(json::View value) { return json::minified(value); }

std::optional<std::string> string_member(json::View object_value, std::string_view key) {
  auto s = object_value.string_at(key);
  if (!s) return std::nullopt;
  return std::string(*s);
}

std::expected<std::string, std::string> base64_decode(std::string_view text) {
  static constexpr std::array<std::int8_t, 256> kTable = [] {
    std::array<std::int8_t, 256> t{};
    t.fill(-1);
    constexpr std::string_view alphabet =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for (std::size_t i = 0; i < alphabet.size(); ++i) {
      t[static_cast<unsigned char>(alphabet[i])] = static_cast<std::int8_t>(i);
    }
    return t;
  }();
  std::string out;
  out.reserve(text.size() / 4 * 3 + 3);
  std::uint32_t acc = 0;
  int bits = 0;
  std::size_t padding = 0;
  std::size_t symbols = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n') continue;
    if (c == '=') {
      ++padding;
      if (padding > 2) return std::unexpected("too much '=' padding at byte " + std::to_string(i));
      continue;
    }
    if (padding > 0) return std::unexpected("data after '=' padding at byte " + std::to_string(i));
    const std::int8_t v = kTable[static_cast<unsigned char>(c)];
    if (v < 0) return std::unexpected("byte " + std::to_string(i) + " is not a base64 character");
    ++symbols;
    acc = (acc << 6) | static_cast<std::uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<char>((acc >> bits) & 0xffu));
    }
  }
  if (symbols % 4 == 1) return std::unexpected("the base64 text ends in the middle of a byte");
  return out;
}

std::string sse_event_text(std::string_view event, std::string_view id, std::string_view data) {
  std::string out;
  out.reserve(data.size() + event.size() + id.size() + 24);
  if (!event.empty()) {
    out += "event: ";
    out += event;
    out += '\n';
  }
  if (!id.empty()) {
    out += "id: ";
    out += id;
    out += '\n';
  }
  // CR, LF and CRLF all end a line in an event stream, so each becomes its own `data:` line.
  std::size_t start = 0;
  while (true) {
    const std::size_t end = data.find_first_of("\r\n", start);
    out += "data: ";
    out += data.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
    out += '\n';
    if (end == std::string_view::npos) break;
    start = end + 1;
    if (data[end] == '\r' && start < data.size() && data[start] == '\n') ++start;
  }
  out += '\n';
  return out;
}

bool ascii_iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    char x = a[i];
    char y = b[i];
    if (x >= 'A' && x <= 'Z') x = static_cast<char>(x - 'A' + 'a');
    if (y >= 'A' && y <= 'Z') y = static_cast<char>(y - 'A' + 'a');
    if (x != y) return false;
  }
  return true;
}

void add_header(Headers& headers, std::string_view name, std::string_view value) {
  headers.push_back(Header{std::string(name), std::string(value)});
}

}  // namespace mcptriage::capture
