// A documented subset of JSON Schema (draft 2020-12 / draft-07 keywords, docs/output.md
// "outputSchema checks") for checking a tool's structuredContent against its outputSchema.
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>

#include "json/dom.hpp"
#include "mcptriage/session.hpp"

namespace mcptriage {

namespace {

using json::Type;
using json::View;

/// Schema-node visits allowed per check: a hostile schema times a hostile instance stays bounded.
constexpr std::size_t kBudget = 2'000'000;

std::string clip(std::string_view s, std::size_t max = 60) {
  if (s.size() <= max) return std::string(s);
  std::size_t cut = max;
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
  return std::string(s.substr(0, cut)) + "...";
}

bool is_number(View e) { return e.is_number(); }

bool is_integer(View e) {
  if (e.is_integer()) return true;
  if (e.type() != Type::float64) return false;
  const double d = *e.number();
  return std::isfinite(d) && std::floor(d) == d;
}

std::string_view type_name(View e) {
  switch (e.type()) {
    case Type::array: return "array";
    case Type::object: return "object";
    case Type::int64:
    case Type::uint64: return "integer";
    case Type::float64: return is_integer(e) ? "integer" : "number";
    case Type::string: return "string";
    case Type::boolean: return "boolean";
    case Type::null: return "null";
  }
  return "value";
}

bool has_type(View e, std::string_view type) {
  if (type == "number") return is_number(e);
  if (type == "integer") return is_integer(e);
  return type_name(e) == type;
}

double number_of(View e) { return e.number().value_or(0); }

std::size_t code_points(std::string_view s) {
  std::size_t n = 0;
  for (char c : s) {
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++n;
  }
  return n;
}

/// The member `key` of a schema object (View::get).
std::optional<View> member(View schema, std::string_view key) { return schema.get(key); }

std::optional<double> number_member(View schema, std::string_view key) {
  auto v = member(schema, key);
  if (!v || !is_number(*v)) return std::nullopt;
  return number_of(*v);
}

class Checker {
 public:
  bool over_budget = false;

  /// JSON equality as JSON Schema defines it for enum and const (numbers by value, object
  /// members in any order).
  bool equal(View a, View b) {
    if (!spend()) return false;
    if (is_number(a) && is_number(b)) {
      if (a.type() != Type::float64 && b.type() != Type::float64 && a.type() == b.type()) {
        return json::minified(a) == json::minified(b);
      }
      return number_of(a) == number_of(b);
    }
    if (a.type() != b.type()) return false;
    switch (a.type()) {
      case Type::string: return a.string() == b.string();
      case Type::boolean: return a.boolean() == b.boolean();
      case Type::null: return true;
      case Type::array: {
        if (a.size() != b.size()) return false;
        const json::ItemRange y = b.items();
        auto it = y.begin();
        for (View v : a.items()) {
          if (!equal(v, *it)) return false;
          ++it;
        }
        return true;
      }
      case Type::object: {
        if (a.size() != b.size()) return false;
        for (auto [key, value] : a.members()) {
          auto other = b.get(key);
          if (!other || !equal(value, *other)) return false;
        }
        return true;
      }
      default: return false;
    }
  }

  std::optional<SchemaMismatch> check(View schema, View inst, const std::string& ptr) {
    if (!spend()) return std::nullopt;
    if (auto b = schema.boolean()) {
      if (*b) return std::nullopt;
      return SchemaMismatch{ptr, "the schema allows no value here (false)"};
    }
    if (!schema.is_object()) return std::nullopt;
    if (auto m = check_type(schema, inst, ptr)) return m;
    if (auto e = member(schema, "enum"); e && e->is_array()) {
      bool found = false;
      for (View v : e->items()) {
        if (equal(v, inst)) {
          found = true;
          break;
        }
      }
      if (!found && !over_budget) return SchemaMismatch{ptr, "the value " + clip(json::minified(inst)) + " is not in enum"};
    }
    if (auto c = member(schema, "const"); c && !equal(*c, inst) && !over_budget) {
      return SchemaMismatch{ptr, "the value " + clip(json::minified(inst)) + " is not the const " +
                                     clip(json::minified(*c))};
    }
    if (is_number(inst)) {
      if (auto m = check_number(schema, inst, ptr)) return m;
    }
    if (inst.is_string()) {
      const std::size_t n = code_points(*inst.string());
      if (auto v = number_member(schema, "minLength"); v && static_cast<double>(n) < *v) {
        return SchemaMismatch{ptr, "a string of " + std::to_string(n) + " characters, shorter than minLength " +
                                       clip(json::minified(*member(schema, "minLength")))};
      }
      if (auto v = number_member(schema, "maxLength"); v && static_cast<double>(n) > *v) {
        return SchemaMismatch{ptr, "a string of " + std::to_string(n) + " characters, longer than maxLength " +
                                       clip(json::minified(*member(schema, "maxLength")))};
      }
    }
    if (inst.is_array()) {
      if (auto m = check_array(schema, inst, ptr)) return m;
    }
    if (inst.is_object()) {
      if (auto m = check_object(schema, inst, ptr)) return m;
    }
    return check_combinators(schema, inst, ptr);
  }

 private:
  std::size_t spent_ = 0;

  bool spend() {
    if (++spent_ > kBudget) over_budget = true;
    return !over_budget;
  }

  std::optional<SchemaMismatch> check_type(View schema, View inst, const std::string& ptr) {
    auto t = member(schema, "type");
    if (!t) return std::nullopt;
    if (auto one = t->string()) {
      if (has_type(inst, *one)) return std::nullopt;
      return SchemaMismatch{ptr, "expected " + std::string(*one) + ", got " + std::string(type_name(inst))};
    }
    if (!t->is_array()) return std::nullopt;
    std::string names;
    for (View v : t->items()) {
      auto name = v.string();
      if (!name) continue;
      if (has_type(inst, *name)) return std::nullopt;
      names += (names.empty() ? "" : " or ") + std::string(*name);
    }
    if (names.empty()) return std::nullopt;
    return SchemaMismatch{ptr, "expected " + names + ", got " + std::string(type_name(inst))};
  }

  std::optional<SchemaMismatch> check_number(View schema, View inst, const std::string& ptr) {
    const double x = number_of(inst);
    const std::string shown = clip(json::minified(inst));
    // Draft 4 wrote exclusiveMaximum/exclusiveMinimum as booleans beside maximum/minimum.
    const bool draft4_excl_min = schema.bool_at("exclusiveMinimum").value_or(false);
    const bool draft4_excl_max = schema.bool_at("exclusiveMaximum").value_or(false);
    if (auto v = number_member(schema, "minimum"); v && (draft4_excl_min ? x <= *v : x < *v)) {
      return SchemaMismatch{ptr, shown + " is below the minimum " + clip(json::minified(*member(schema, "minimum")))};
    }
    if (auto v = number_member(schema, "maximum"); v && (draft4_excl_max ? x >= *v : x > *v)) {
      return SchemaMismatch{ptr, shown + " is above the maximum " + clip(json::minified(*member(schema, "maximum")))};
    }
    if (auto v = number_member(schema, "exclusiveMinimum"); v && x <= *v) {
      return SchemaMismatch{ptr, shown + " is not above exclusiveMinimum " +
                                     clip(json::minified(*member(schema, "exclusiveMinimum")))};
    }
    if (auto v = number_member(schema, "exclusiveMaximum"); v && x >= *v) {
      return SchemaMismatch{ptr, shown + " is not below exclusiveMaximum " +
                                     clip(json::minified(*member(schema, "exclusiveMaximum")))};
    }
    return std::nullopt;
  }

  std::optional<SchemaMismatch> check_array(View schema, View inst, const std::string& ptr) {
    const std::size_t n = inst.size();
    if (auto v = number_member(schema, "minItems"); v && static_cast<double>(n) < *v) {
      return SchemaMismatch{ptr, "an array of " + std::to_string(n) + " items, fewer than minItems " +
                                     clip(json::minified(*member(schema, "minItems")))};
    }
    if (auto v = number_member(schema, "maxItems"); v && static_cast<double>(n) > *v) {
      return SchemaMismatch{ptr, "an array of " + std::to_string(n) + " items, more than maxItems " +
                                     clip(json::minified(*member(schema, "maxItems")))};
    }
    // `prefixItems` (2020-12) or `items` as an array (draft-07): positional; `items` as a schema: every item.
    std::optional<View> positional = member(schema, "prefixItems");
    auto each = member(schema, "items");
    if (!positional && each && each->is_array()) {
      positional = each;
      each.reset();
    }
    std::size_t i = 0;
    std::optional<json::ItemRange> pos_arr;
    json::ItemIterator pit;
    if (positional && positional->is_array()) {
      pos_arr = positional->items();
      pit = pos_arr->begin();
    }
    for (View item : inst.items()) {
      const std::string item_ptr = ptr + "/" + std::to_string(i);
      if (pos_arr && pit != pos_arr->end()) {
        if (auto m = check(*pit, item, item_ptr)) return m;
        ++pit;
      } else if (each) {
        if (auto m = check(*each, item, item_ptr)) return m;
      }
      if (over_budget) return std::nullopt;
      ++i;
    }
    return std::nullopt;
  }

  std::optional<SchemaMismatch> check_object(View schema, View inst, const std::string& ptr) {
    const std::size_t size = inst.size();
    if (auto v = number_member(schema, "minProperties"); v && static_cast<double>(size) < *v) {
      return SchemaMismatch{ptr, "an object with " + std::to_string(size) + " members, fewer than minProperties"};
    }
    if (auto v = number_member(schema, "maxProperties"); v && static_cast<double>(size) > *v) {
      return SchemaMismatch{ptr, "an object with " + std::to_string(size) + " members, more than maxProperties"};
    }
    if (auto req = member(schema, "required"); req && req->is_array()) {
      for (View name : req->items()) {
        auto key = name.string();
        if (!key) continue;
        if (!inst.get(*key)) {
          return SchemaMismatch{ptr, "the required member \"" + clip(*key) + "\" is missing"};
        }
      }
    }
    auto props = member(schema, "properties");
    if (props && !props->is_object()) props.reset();
    auto additional = member(schema, "additionalProperties");
    // With patternProperties (not checked here) an extra member may be allowed by a pattern.
    if (member(schema, "patternProperties")) additional.reset();
    for (auto [key, value] : inst.members()) {
      const std::string member_ptr = ptr + "/" + json::pointer_escape(key);
      std::optional<View> sub = props ? props->get(key) : std::nullopt;
      if (sub) {
        if (auto m = check(*sub, value, member_ptr)) return m;
      } else if (additional) {
        if (additional->boolean() == std::optional<bool>(false)) {
          return SchemaMismatch{member_ptr, "the member \"" + clip(key) + "\" is not allowed (additionalProperties false)"};
        }
        if (auto m = check(*additional, value, member_ptr)) return m;
      }
      if (over_budget) return std::nullopt;
    }
    return std::nullopt;
  }

  std::optional<SchemaMismatch> check_combinators(View schema, View inst, const std::string& ptr) {
    if (auto all = member(schema, "allOf"); all && all->is_array()) {
      for (View sub : all->items()) {
        if (auto m = check(sub, inst, ptr)) return m;
      }
    }
    if (auto any = member(schema, "anyOf"); any && any->is_array()) {
      std::optional<SchemaMismatch> first;
      bool ok = false;
      for (View sub : any->items()) {
        auto m = check(sub, inst, ptr);
        if (!m) {
          ok = true;
          break;
        }
        if (!first) first = std::move(m);
      }
      if (!ok && !over_budget) {
        return SchemaMismatch{ptr, "matches none of anyOf" + (first ? " (first: " + first->message + ")" : std::string())};
      }
    }
    if (auto one = member(schema, "oneOf"); one && one->is_array()) {
      std::size_t matches = 0;
      for (View sub : one->items()) {
        if (!check(sub, inst, ptr)) ++matches;
      }
      if (matches != 1 && !over_budget) {
        return SchemaMismatch{ptr, "matches " + std::to_string(matches) + " of oneOf, not exactly one"};
      }
    }
    if (auto no = member(schema, "not")) {
      if (!check(*no, inst, ptr) && !over_budget) return SchemaMismatch{ptr, "matches the schema under \"not\""};
    }
    return std::nullopt;
  }
};

}  // namespace

std::expected<std::optional<SchemaMismatch>, std::string> check_schema(std::string_view schema_json,
                                                                       std::string_view instance_json) {
  json::Parser schema_parser;
  json::Parser instance_parser;
  auto schema = schema_parser.parse(schema_json);
  if (!schema) return std::unexpected("the outputSchema is not JSON (" + std::string(schema.error().message) + ")");
  auto instance = instance_parser.parse(instance_json);
  if (!instance) {
    return std::unexpected("structuredContent is not JSON (" + std::string(instance.error().message) + ")");
  }
  Checker checker;
  auto mismatch = checker.check(*schema, *instance, "");
  if (checker.over_budget) {
    return std::unexpected("the check needs more than " + std::to_string(kBudget) + " steps");
  }
  return mismatch;
}

}  // namespace mcptriage
