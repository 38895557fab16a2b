// The reason catalogue: one row per Reason (verdict.hpp), in enumerator order: its code, outcome,
// default retry advice, the spec section its rule comes from, a paragraph for a person and what to
// do next. `mcptriage explain` prints rows; JSON Lines records carry `spec`; docs/classification.md's
// reason tables and docs/output.schema.json's reason list are checked against it (CatalogueDocs.*).
#include <array>

#include "verdict/spec_links.hpp"
#include "mcptriage/verdict.hpp"

namespace mcptriage {
namespace {

using A = Advice;
using O = Outcome;
using R = Reason;
using namespace spec;

constexpr std::array<ReasonEntry, kReasonCount> kRows{{
#include "verdict/reason_rows_http.inc"
#include "verdict/reason_rows_messages.inc"
}};

constexpr bool in_enumerator_order() {
  for (std::size_t i = 0; i < kRows.size(); ++i) {
    if (kRows[i].reason != static_cast<Reason>(i)) return false;
  }
  return true;
}
static_assert(in_enumerator_order(), "kRows lists every Reason once, in enumerator order");

/// For each reason, the first reason with its code: reasons that share a code share this.
constexpr std::array<Reason, kReasonCount> kFirstOfCode = [] {
  std::array<Reason, kReasonCount> first{};
  for (std::size_t i = 0; i < kRows.size(); ++i) {
    std::size_t k = 0;
    while (kRows[k].name != kRows[i].name) ++k;
    first[i] = kRows[k].reason;
  }
  return first;
}();

}  // namespace

std::string_view to_string(Reason r) { return kRows[static_cast<std::size_t>(r)].name; }

Outcome outcome_of(Reason r) { return kRows[static_cast<std::size_t>(r)].outcome; }

const ReasonEntry& reason_entry(Reason r) { return kRows[static_cast<std::size_t>(r)]; }

std::span<const ReasonEntry> reason_catalogue() { return kRows; }

std::vector<Reason> reasons_named(std::string_view name) {
  std::vector<Reason> out;
  for (const ReasonEntry& row : kRows) {
    if (row.name == name) out.push_back(row.reason);
  }
  return out;
}

bool same_code(Reason a, Reason b) {
  return kFirstOfCode[static_cast<std::size_t>(a)] == kFirstOfCode[static_cast<std::size_t>(b)];
}

std::vector<std::string_view> reason_names() {
  std::vector<std::string_view> out;
  for (const ReasonEntry& row : kRows) {
    if (kFirstOfCode[static_cast<std::size_t>(row.reason)] == row.reason) out.push_back(row.name);
  }
  return out;
}

}  // namespace mcptriage
