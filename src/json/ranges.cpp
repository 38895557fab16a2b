// member_value_range (dom.hpp): simdjson's on-demand API, whose values point into the text read,
// gives where a value is; the DOM keeps no positions.
#include <simdjson.h>

#include "json/dom.hpp"

namespace mcptriage::json {
namespace {

namespace od = simdjson::ondemand;

std::string_view trim_right(std::string_view s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\n' || s.back() == '\r')) {
    s.remove_suffix(1);
  }
  return s;
}

}  // namespace

std::optional<TextRange> member_value_range(std::string_view text, const std::vector<std::string_view>& path) {
  if (path.empty()) return std::nullopt;
  const simdjson::padded_string buf(text);
  od::parser parser;
  od::document doc;
  od::object obj;
  if (parser.iterate(buf).get(doc) != simdjson::SUCCESS || doc.get_object().get(obj) != simdjson::SUCCESS) {
    return std::nullopt;
  }
  for (std::size_t depth = 0; depth < path.size(); ++depth) {
    const bool last = depth + 1 == path.size();
    bool found = false;
    for (auto field : obj) {
      std::string_view key;
      od::value v;
      if (field.unescaped_key().get(key) != simdjson::SUCCESS || field.value().get(v) != simdjson::SUCCESS) {
        return std::nullopt;
      }
      if (key != path[depth]) continue;
      if (!last) {
        if (v.get_object().get(obj) != simdjson::SUCCESS) return std::nullopt;
        found = true;
        break;
      }
      od::json_type type;
      if (v.type().get(type) != simdjson::SUCCESS) return std::nullopt;
      std::string_view raw;
      if (type == od::json_type::array) {
        od::array a;
        if (v.get_array().get(a) != simdjson::SUCCESS || a.raw_json().get(raw) != simdjson::SUCCESS) {
          return std::nullopt;
        }
      } else if (type == od::json_type::object) {
        od::object o;
        if (v.get_object().get(o) != simdjson::SUCCESS || o.raw_json().get(raw) != simdjson::SUCCESS) {
          return std::nullopt;
        }
      } else {
        raw = v.raw_json_token();
      }
      raw = trim_right(raw);
      const auto begin = static_cast<std::size_t>(raw.data() - buf.data());
      return TextRange{begin, begin + raw.size()};
    }
    if (!found) return std::nullopt;
  }
  return std::nullopt;
}

}  // namespace mcptriage::json
