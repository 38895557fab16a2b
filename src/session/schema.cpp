// A documented subset of JSON Schema (draft 2020-12 / draft-07 keywords, docs/output.md
// "outputSchema checks") for checking a tool's structuredContent against its outputSchema.
#include <simdjson.h>

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>

#include "json/dom.hpp"
#include "mcptriage/session.hpp"

namespace mcptriage {

namespace {

using simdjson::dom::array;
using simdjson::dom::element;
using simdjson::dom::element_type;
using simdjson::dom::object;

/// Schema-node visits allowed per check: a hostile schema times a hostile instance stays bounded.
constexpr std::size_t kBudget = 2'000'000;

std::string pointer_escape(std::string_view key) {
  std::string out;
  for (char ch : key) {
    if (ch == '~') out += "~0";
    else if (ch == '/') out += "~1";
    else out += ch;
  }
  return out;
}

std::string clip(std::string_view s, std::size_t max = 60) {
  if (s.size() <= max) return std::string(s);
  std::size_t cut = max;
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
  return std::string(s.substr(0, cut)) + "...";
}

bool is_number(element e) {
  const auto t = e.type();
  return t == element_type::INT64 || t == element_type::UINT64 || t == element_type::DOUBLE;
}

bool is_integer(element e) {
  const auto t = e.type();
  if (t == element_type::INT64 || t == element_type::UINT64) return true;
  if (t != element_type::DOUBLE) return false;
  const double d = double(e);
  return std::isfinite(d) && std::floor(d) == d;
}

std::string_view type_name(element e) {
  switch (e.type()) {
    case element_type::ARRAY: return "array";
    case element_type::OBJECT: return "object";
    case element_type::INT64:
    case element_type::UINT64: return "integer";
    case element_type::DOUBLE: return is_integer(e) ? "integer" : "number";
    case element_type::STRING: return "string";
    case element_type::BOOL: return "boolean";
    case element_type::NULL_VALUE: return "null";
  }
  return "value";
}

bool has_type(element e, std::string_view type) {
  if (type == "number") return is_number(e);
  if (type == "integer") return is_integer(e);
  return type_name(e) == type;
}

double number_of(element e) {
  double d = 0;
  if (e.get(d) != simdjson::SUCCESS) return 0;
  return d;
}

std::size_t code_points(std::string_view s) {
  std::size_t n = 0;
  for (char c : s) {
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++n;
  }
  return n;
}

using json::member;

std::optional<double> number_member(element schema, std::string_view key) {
  auto v = member(schema, key);
  if (!v || !is_number(*v)) return std::nullopt;
  return number_of(*v);
}

class Checker {
 public:
  bool over_budget = false;

  /// JSON equality as JSON Schema defines it for enum and const (numbers by value, object
  /// members in any order).
  bool equal(element a, element b) {
    if (!spend()) return false;
    if (is_number(a) && is_number(b)) {
      if (a.type() != element_type::DOUBLE && b.type() != element_type::DOUBLE && a.type() == b.type()) {
        return simdjson::to_string(a) == simdjson::to_string(b);
      }
      return number_of(a) == number_of(b);
    }
    if (a.type() != b.type()) return false;
    switch (a.type()) {
      case element_type::STRING: return std::string_view(a) == std::string_view(b);
      case element_type::BOOL: return bool(a) == bool(b);
      case element_type::NULL_VALUE: return true;
      case element_type::ARRAY: {
        array x = a;
        array y = b;
        if (x.size() != y.size()) return false;
        auto it = y.begin();
        for (element v : x) {
          if (!equal(v, *it)) return false;
          ++it;
        }
        return true;
      }
      case element_type::OBJECT: {
        object x = a;
        object y = b;
        if (x.size() != y.size()) return false;
        for (auto [key, value] : x) {
          element other;
          if (y.at_key(key).get(other) != simdjson::SUCCESS || !equal(value, other)) return false;
        }
        return true;
      }
      default: return false;
    }
  }

  std::optional<SchemaMismatch> check(element schema, element inst, const std::string& ptr) {
    if (!spend()) return std::nullopt;
    if (schema.type() == element_type::BOOL) {
      if (bool(schema)) return std::nullopt;
      return SchemaMismatch{ptr, "the schema allows no value here (false)"};
    }
    if (schema.type() != element_type::OBJECT) return std::nullopt;
    if (auto m = check_type(schema, inst, ptr)) return m;
    if (auto e = member(schema, "enum"); e && e->type() == element_type::ARRAY) {
      bool found = false;
      for (element v : array(*e)) {
        if (equal(v, inst)) {
          found = true;
          break;
        }
      }
      if (!found && !over_budget) return SchemaMismatch{ptr, "the value " + clip(simdjson::to_string(inst)) + " is not in enum"};
    }
    if (auto c = member(schema, "const"); c && !equal(*c, inst) && !over_budget) {
      return SchemaMismatch{ptr, "the value " + clip(simdjson::to_string(inst)) + " is not the const " +
                                     clip(simdjson::to_string(*c))};
    }
    if (is_number(inst)) {
      if (auto m = check_number(schema, inst, ptr)) return m;
    }
    if (inst.type() == element_type::STRING) {
      const std::size_t n = code_points(std::string_view(inst));
      if (auto v = number_member(schema, "minLength"); v && static_cast<double>(n) < *v) {
        return SchemaMismatch{ptr, "a string of " + std::to_string(n) + " characters, shorter than minLength " +
                                       clip(simdjson::to_string(*member(schema, "minLength")))};
      }
      if (auto v = number_member(schema, "maxLength"); v && static_cast<double>(n) > *v) {
        return SchemaMismatch{ptr, "a string of " + std::to_string(n) + " characters, longer than maxLength " +
                                       clip(simdjson::to_string(*member(schema, "maxLength")))};
      }
    }
    if (inst.type() == element_type::ARRAY) {
      if (auto m = check_array(schema, inst, ptr)) return m;
    }
    if (inst.type() == element_type::OBJECT) {
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

  std::optional<SchemaMismatch> check_type(element schema, element inst, const std::string& ptr) {
    auto t = member(schema, "type");
    if (!t) return std::nullopt;
    std::string_view one;
    if (t->get(one) == simdjson::SUCCESS) {
      if (has_type(inst, one)) return std::nullopt;
      return SchemaMismatch{ptr, "expected " + std::string(one) + ", got " + std::string(type_name(inst))};
    }
    if (t->type() != element_type::ARRAY) return std::nullopt;
    std::string names;
    for (element v : array(*t)) {
      std::string_view name;
      if (v.get(name) != simdjson::SUCCESS) continue;
      if (has_type(inst, name)) return std::nullopt;
      names += (names.empty() ? "" : " or ") + std::string(name);
    }
    if (names.empty()) return std::nullopt;
    return SchemaMismatch{ptr, "expected " + names + ", got " + std::string(type_name(inst))};
  }

  std::optional<SchemaMismatch> check_number(element schema, element inst, const std::string& ptr) {
    const double x = number_of(inst);
    const std::string shown = clip(simdjson::to_string(inst));
    // Draft 4 wrote exclusiveMaximum/exclusiveMinimum as booleans beside maximum/minimum.
    const bool draft4_excl_min = member(schema, "exclusiveMinimum").has_value() &&
                                 member(schema, "exclusiveMinimum")->type() == element_type::BOOL &&
                                 bool(*member(schema, "exclusiveMinimum"));
    const bool draft4_excl_max = member(schema, "exclusiveMaximum").has_value() &&
                                 member(schema, "exclusiveMaximum")->type() == element_type::BOOL &&
                                 bool(*member(schema, "exclusiveMaximum"));
    if (auto v = number_member(schema, "minimum"); v && (draft4_excl_min ? x <= *v : x < *v)) {
      return SchemaMismatch{ptr, shown + " is below the minimum " + clip(simdjson::to_string(*member(schema, "minimum")))};
    }
    if (auto v = number_member(schema, "maximum"); v && (draft4_excl_max ? x >= *v : x > *v)) {
      return SchemaMismatch{ptr, shown + " is above the maximum " + clip(simdjson::to_string(*member(schema, "maximum")))};
    }
    if (auto v = number_member(schema, "exclusiveMinimum"); v && x <= *v) {
      return SchemaMismatch{ptr, shown + " is not above exclusiveMinimum " +
                                     clip(simdjson::to_string(*member(schema, "exclusiveMinimum")))};
    }
    if (auto v = number_member(schema, "exclusiveMaximum"); v && x >= *v) {
      return SchemaMismatch{ptr, shown + " is not below exclusiveMaximum " +
                                     clip(simdjson::to_string(*member(schema, "exclusiveMaximum")))};
    }
    return std::nullopt;
  }

  std::optional<SchemaMismatch> check_array(element schema, element inst, const std::string& ptr) {
    array items = inst;
    const std::size_t n = items.size();
    if (auto v = number_member(schema, "minItems"); v && static_cast<double>(n) < *v) {
      return SchemaMismatch{ptr, "an array of " + std::to_string(n) + " items, fewer than minItems " +
                                     clip(simdjson::to_string(*member(schema, "minItems")))};
    }
    if (auto v = number_member(schema, "maxItems"); v && static_cast<double>(n) > *v) {
      return SchemaMismatch{ptr, "an array of " + std::to_string(n) + " items, more than maxItems " +
                                     clip(simdjson::to_string(*member(schema, "maxItems")))};
    }
    // `prefixItems` (2020-12) or `items` as an array (draft-07): positional; `items` as a schema: every item.
    std::optional<element> positional = member(schema, "prefixItems");
    auto each = member(schema, "items");
    if (!positional && each && each->type() == element_type::ARRAY) {
      positional = each;
      each.reset();
    }
    std::size_t i = 0;
    std::optional<array> pos_arr;
    if (positional && positional->type() == element_type::ARRAY) pos_arr = array(*positional);
    auto pit = pos_arr ? pos_arr->begin() : array::iterator();
    for (element item : items) {
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

  std::optional<SchemaMismatch> check_object(element schema, element inst, const std::string& ptr) {
    object obj = inst;
    if (auto v = number_member(schema, "minProperties"); v && static_cast<double>(obj.size()) < *v) {
      return SchemaMismatch{ptr, "an object with " + std::to_string(obj.size()) + " members, fewer than minProperties"};
    }
    if (auto v = number_member(schema, "maxProperties"); v && static_cast<double>(obj.size()) > *v) {
      return SchemaMismatch{ptr, "an object with " + std::to_string(obj.size()) + " members, more than maxProperties"};
    }
    if (auto req = member(schema, "required"); req && req->type() == element_type::ARRAY) {
      for (element name : array(*req)) {
        std::string_view key;
        if (name.get(key) != simdjson::SUCCESS) continue;
        element ignored;
        if (obj.at_key(key).get(ignored) != simdjson::SUCCESS) {
          return SchemaMismatch{ptr, "the required member \"" + clip(key) + "\" is missing"};
        }
      }
    }
    auto props = member(schema, "properties");
    if (props && props->type() != element_type::OBJECT) props.reset();
    auto additional = member(schema, "additionalProperties");
    // With patternProperties (not checked here) an extra member may be allowed by a pattern.
    if (member(schema, "patternProperties")) additional.reset();
    for (auto [key, value] : obj) {
      const std::string member_ptr = ptr + "/" + pointer_escape(key);
      element sub;
      if (props && props->at_key(key).get(sub) == simdjson::SUCCESS) {
        if (auto m = check(sub, value, member_ptr)) return m;
      } else if (additional) {
        if (additional->type() == element_type::BOOL && !bool(*additional)) {
          return SchemaMismatch{member_ptr, "the member \"" + clip(key) + "\" is not allowed (additionalProperties false)"};
        }
        if (auto m = check(*additional, value, member_ptr)) return m;
      }
      if (over_budget) return std::nullopt;
    }
    return std::nullopt;
  }

  std::optional<SchemaMismatch> check_combinators(element schema, element inst, const std::string& ptr) {
    if (auto all = member(schema, "allOf"); all && all->type() == element_type::ARRAY) {
      for (element sub : array(*all)) {
        if (auto m = check(sub, inst, ptr)) return m;
      }
    }
    if (auto any = member(schema, "anyOf"); any && any->type() == element_type::ARRAY) {
      std::optional<SchemaMismatch> first;
      bool ok = false;
      for (element sub : array(*any)) {
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
    if (auto one = member(schema, "oneOf"); one && one->type() == element_type::ARRAY) {
      std::size_t matches = 0;
      for (element sub : array(*one)) {
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
  simdjson::dom::parser schema_parser;
  simdjson::dom::parser instance_parser;
  element schema;
  element instance;
  if (auto err = schema_parser.parse(schema_json.data(), schema_json.size()).get(schema); err != simdjson::SUCCESS) {
    return std::unexpected(std::string("the outputSchema is not JSON (") + simdjson::error_message(err) + ")");
  }
  if (auto err = instance_parser.parse(instance_json.data(), instance_json.size()).get(instance);
      err != simdjson::SUCCESS) {
    return std::unexpected(std::string("structuredContent is not JSON (") + simdjson::error_message(err) + ")");
  }
  Checker checker;
  auto mismatch = checker.check(schema, instance, "");
  if (checker.over_budget) {
    return std::unexpected("the check needs more than " + std::to_string(kBudget) + " steps");
  }
  return mismatch;
}

}  // namespace mcptriage
