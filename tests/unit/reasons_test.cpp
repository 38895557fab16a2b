// The reason codes (include/mcptriage/verdict.hpp, src/classify/reasons.cpp).
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "mcptriage/report.hpp"
#include "mcptriage/verdict.hpp"

using namespace mcptriage;

namespace {

Reason reason_at(std::size_t k) { return static_cast<Reason>(k); }

}  // namespace

TEST(Reasons, EveryReasonHasASnakeCaseCode) {
  for (std::size_t k = 0; k < kReasonCount; ++k) {
    const std::string_view name = to_string(reason_at(k));
    ASSERT_FALSE(name.empty()) << k;
    EXPECT_TRUE(name.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_") == std::string_view::npos) << name;
    EXPECT_TRUE(name.front() >= 'a' && name.front() <= 'z') << name;
  }
}

TEST(Reasons, ASharedCodeNamesOneReasonPerOutcome) {
  // A code is shared only between reasons of different outcomes: (outcome, code) picks one reason.
  std::set<std::pair<Outcome, std::string_view>> seen;
  for (std::size_t k = 0; k < kReasonCount; ++k) {
    EXPECT_TRUE(seen.emplace(outcome_of(reason_at(k)), to_string(reason_at(k))).second) << to_string(reason_at(k));
  }
  const std::vector<Reason> dup = reasons_named("duplicate_member");
  ASSERT_EQ(dup.size(), 3u);
  EXPECT_EQ(outcome_of(dup[0]), Outcome::INVALID_ENVELOPE);
  EXPECT_EQ(outcome_of(dup[1]), Outcome::INVALID_TOOL_RESULT);
  EXPECT_EQ(outcome_of(dup[2]), Outcome::INVALID_RESULT);
  EXPECT_EQ(reasons_named("content_type_missing"),
            (std::vector<Reason>{Reason::content_type_missing_http, Reason::content_type_missing_item}));
  EXPECT_EQ(reasons_named("no_final_response"),
            (std::vector<Reason>{Reason::no_final_response_interim, Reason::no_final_response_stream}));
  EXPECT_EQ(reasons_named("id_mismatch"), std::vector<Reason>{Reason::id_mismatch});
  EXPECT_TRUE(reasons_named("Id_Mismatch").empty()) << "codes are exact";
  EXPECT_TRUE(reasons_named("skipped").empty());
}

TEST(Reasons, SameCodeJoinsTheReasonsOfASharedCode) {
  EXPECT_TRUE(same_code(Reason::duplicate_member_envelope, Reason::duplicate_member_result));
  EXPECT_TRUE(same_code(Reason::id_mismatch, Reason::id_mismatch));
  EXPECT_FALSE(same_code(Reason::id_mismatch, Reason::id_missing));
  const std::vector<std::string_view> names = reason_names();
  EXPECT_EQ(std::set<std::string_view>(names.begin(), names.end()).size(), names.size()) << "each code once";
  // Shared: duplicate_member (3 reasons), content_type_missing, no_final_response and the five resultType and
  // input_required shape codes (2 each): 9 reasons more than codes.
  EXPECT_EQ(names.size(), kReasonCount - 9);
}

TEST(Reasons, NearestNamesSuggestsTyposCaseInsensitively) {
  const std::vector<std::string_view> names = reason_names();
  EXPECT_EQ(nearest_names("tool_sucess", names), std::vector<std::string_view>{"tool_success"});
  EXPECT_EQ(nearest_names("TOOL_SUCCESS", names).front(), "tool_success") << "case-insensitive";
  EXPECT_EQ(nearest_names("id_mismacth", names).front(), "id_mismatch") << "a swap is one edit";
  EXPECT_TRUE(nearest_names("zzzzzzzzzzzz", names).empty()) << "nothing near";
  EXPECT_LE(nearest_names("session", names).size(), 3u);
  EXPECT_EQ(nearest_names("ab", {"ac", "abc", "xyz"}), (std::vector<std::string_view>{"abc", "ac"}))
      << "nearest first, then alphabetical";
}

TEST(Reasons, ManifestReasonIsParsedUpFront) {
  auto m = parse_manifest("a.txt INVALID_RESULT,INVALID_ENVELOPE reason=duplicate_member\n");
  ASSERT_TRUE(m) << m.error();
  const Expectation& e = m->entries.at(0).second;
  Classification c;
  c.outcome = Outcome::INVALID_RESULT;
  c.layer = layer_of(c.outcome);
  c.reason = Reason::duplicate_member_result;
  EXPECT_TRUE(e.holds(c)) << "any reason of the shared code";
  c.reason = Reason::tools_missing;
  EXPECT_FALSE(e.holds(c));
  EXPECT_EQ(e.describe(), "INVALID_RESULT or INVALID_ENVELOPE, reason duplicate_member");

  auto bad = parse_manifest("a.txt HTTP_ERROR reason=sesion_expired\n");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error(), "line 1: 'sesion_expired' is not a reason code; did you mean session_expired?");
  auto far = parse_manifest("a.txt HTTP_ERROR reason=qqqqqqqqqqqq\n");
  ASSERT_FALSE(far);
  EXPECT_EQ(far.error(), "line 1: 'qqqqqqqqqqqq' is not a reason code (docs/classification.md lists them)");
}
