// Internal simdjson DOM helpers (dom.hpp).
#include "json/dom.hpp"

#include <cstring>

namespace mcptriage::json {

using simdjson::dom::array;
using simdjson::dom::element;
using simdjson::dom::element_type;
using simdjson::dom::object;

std::optional<element> member(element value, std::string_view key) {
  if (value.type() != element_type::OBJECT) return std::nullopt;
  element v;
  if (object(value).at_key(key).get(v) != simdjson::SUCCESS) return std::nullopt;
  return v;
}

std::optional<std::string_view> string_member(element value, std::string_view key) {
  auto v = member(value, key);
  std::string_view s;
  if (!v || v->get(s) != simdjson::SUCCESS) return std::nullopt;
  return s;
}

std::optional<bool> bool_member(element value, std::string_view key) {
  auto v = member(value, key);
  bool b = false;
  if (!v || v->get(b) != simdjson::SUCCESS) return std::nullopt;
  return b;
}

simdjson::simdjson_result<element> parse(simdjson::dom::parser& parser, std::string_view text, bool padded) {
  if (parser.capacity() > kKeptParserCapacity && text.size() <= kKeptParserCapacity) {
    parser = simdjson::dom::parser();  // gives back the large buffers (and the padded copy)
  }
  return parser.parse(text.data(), text.size(), /*realloc_if_needed=*/!padded);
}

simdjson::simdjson_result<element> parse_string(simdjson::dom::parser& parser, const std::string& text) {
  return parse(parser, std::string_view(text), text.capacity() - text.size() >= kPadding);
}

std::string padded_copy(std::string_view bytes) {
  std::string out;
  out.reserve(bytes.size() + kPadding);
  out.assign(bytes);
  return out;
}

std::uint64_t mix64(std::uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ull;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebull;
  x ^= x >> 31;
  return x;
}

std::uint64_t hash_bytes(std::string_view bytes, std::uint64_t seed) {
  std::uint64_t h = 14695981039346656037ull ^ mix64(seed + 0x9e3779b97f4a7c15ull);
  for (char c : bytes) {
    h ^= static_cast<unsigned char>(c);
    h *= 1099511628211ull;
  }
  return mix64(h ^ bytes.size());
}

namespace {

std::uint64_t canonical(element e, bool skip_meta) {
  // Recursion depth is bounded by simdjson's own depth limit (DEFAULT_MAX_DEPTH).
  switch (e.type()) {
    case element_type::OBJECT: {
      std::uint64_t sum = 0;
      std::uint64_t n = 0;
      for (auto [key, value] : object(e)) {
        if (skip_meta && key == "_meta") continue;
        sum += mix64(hash_bytes(key, 0x6b) ^ (canonical(value, false) * 0x9e3779b97f4a7c15ull));
        ++n;
      }
      return mix64(sum ^ mix64(n + 0x0b));
    }
    case element_type::ARRAY: {
      std::uint64_t h = 0xa7;
      for (element v : array(e)) h = mix64(h * 31 + canonical(v, false));
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

}  // namespace

std::uint64_t canonical_hash(element value, bool skip_meta) { return canonical(value, skip_meta); }

}  // namespace mcptriage::json
