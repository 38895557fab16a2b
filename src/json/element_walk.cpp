// for_each_element_at (dom.hpp): the elements of one array deep in a large JSON text, one at a
// time, with simdjson On-Demand over the whole text and a small DOM per value.
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "json/dom.hpp"
#include "json/simdjson_bridge.hpp"

namespace mcptriage::json {
namespace {

namespace od = simdjson::ondemand;

/// The raw JSON text of `value`, whatever its type; consumes it. A scalar's text may carry the
/// white space after it (simdjson's raw_json_token), which a parse ignores.
simdjson::simdjson_result<std::string_view> raw_text(od::value value) {
  od::json_type type;
  if (auto err = value.type().get(type)) return err;
  if (type == od::json_type::object) {
    od::object object;
    if (auto err = value.get_object().get(object)) return err;
    return object.raw_json();
  }
  if (type == od::json_type::array) {
    od::array array;
    if (auto err = value.get_array().get(array)) return err;
    return array.raw_json();
  }
  return value.raw_json_token();
}

class Walk {
 public:
  Walk(std::span<const std::string_view> path, const std::function<void(View)>& element)
      : path_(path), element_(element) {}

  /// The object at `level` of the path (the root is level 0, at depth 1): every member checked,
  /// the one named path_[level] followed. False when anything is off.
  bool object(od::object object, std::size_t level) {
    bool found = false;
    for (auto member : object) {
      od::field field;
      std::string_view key;
      if (std::move(member).get(field) || field.unescaped_key().get(key)) return false;
      od::value value = field.value();
      if (key != path_[level]) {
        // Any other member is checked by itself, at its depth in the whole text (level + 2).
        std::string_view raw;
        if (raw_text(value).get(raw) || !check(raw, kMaxDepth - (level + 1))) return false;
        continue;
      }
      if (found) return false;  // a repeated name: Parser::parse's reading decides
      found = true;
      if (level + 1 < path_.size()) {
        od::object inner;
        if (value.get_object().get(inner) || !this->object(inner, level + 1)) return false;
      } else {
        od::array array;
        if (value.get_array().get(array) || !elements(array)) return false;
      }
    }
    return found;
  }

 private:
  std::span<const std::string_view> path_;
  const std::function<void(View)>& element_;
  std::vector<std::pair<std::size_t, Parser>> parsers_;  ///< by maximum depth

  Parser& parser(std::size_t max_depth) {
    for (auto& [depth, p] : parsers_) {
      if (depth == max_depth) return p;
    }
    return parsers_.emplace_back(max_depth, Parser(max_depth)).second;
  }

  // The raw texts lie inside the padded whole text: kPadding readable bytes follow each one.
  bool check(std::string_view raw, std::size_t max_depth) { return parser(max_depth).parse(raw, true).has_value(); }

  /// The array's elements (at depth path_.size() + 2), each parsed and handed to element_.
  bool elements(od::array array) {
    Parser& p = parser(kMaxDepth - (path_.size() + 1));
    for (auto item : array) {
      od::value value;
      std::string_view raw;
      if (std::move(item).get(value) || raw_text(value).get(raw)) return false;
      auto view = p.parse(raw, true);
      if (!view) return false;
      element_(*view);
    }
    return true;
  }
};

}  // namespace

bool for_each_element_at(std::string_view text, bool padded, std::span<const std::string_view> path,
                         const std::function<void(View)>& element) {
  if (path.empty()) return false;
  std::string copy;
  if (!padded) {
    copy = padded_copy(text);
    text = copy;
  }
  od::parser parser;
  od::document doc;
  od::object root;
  if (parser.iterate(text.data(), text.size(), text.size() + kPadding).get(doc) || doc.get_object().get(root)) {
    return false;
  }
  Walk walk(path, element);
  if (!walk.object(root, 0)) return false;
  // After the root object only white space may follow: the iterator is then out of bounds.
  const char* after = nullptr;
  return doc.current_location().get(after) == simdjson::OUT_OF_BOUNDS;
}

}  // namespace mcptriage::json
