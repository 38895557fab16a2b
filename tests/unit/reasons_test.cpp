// The reason codes (include/mcptriage/verdict.hpp, src/verdict/reasons.cpp).
#include <gtest/gtest.h>
#include <simdjson.h>

#include <algorithm>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>
#include <string>

#include "mcptriage/advice.hpp"
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

namespace {

/// A spec link is an https URL of the sources the catalogue may cite, with a section anchor.
::testing::AssertionResult is_spec_link(std::string_view url) {
  if (url.find_first_of("\"\\ \t\n") != std::string_view::npos) return ::testing::AssertionFailure() << url << ": bad character";
  if (url.find('#') == std::string_view::npos) return ::testing::AssertionFailure() << url << ": no section anchor";
  for (std::string_view v : {"2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"}) {
    if (url.starts_with("https://modelcontextprotocol.io/specification/" + std::string(v) + "/")) {
      return ::testing::AssertionSuccess();
    }
  }
  if (url.starts_with("https://modelcontextprotocol.io/extensions/")) return ::testing::AssertionSuccess();
  if (url.starts_with("https://www.rfc-editor.org/rfc/rfc") && url.find("#section-") != std::string_view::npos) {
    return ::testing::AssertionSuccess();
  }
  if (url.starts_with("https://www.jsonrpc.org/specification#")) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << url << ": not an MCP specification (with its version), RFC or JSON-RPC 2.0 section";
}

bool is_sentence(std::string_view s) { return !s.empty() && (s.back() == '.' || s.back() == '?'); }

}  // namespace

TEST(Catalogue, EveryReasonHasAnEntryWithItsOutcomeSpecAndText) {
  const auto rows = reason_catalogue();
  ASSERT_EQ(rows.size(), kReasonCount);
  for (std::size_t k = 0; k < rows.size(); ++k) {
    const ReasonEntry& e = rows[k];
    EXPECT_EQ(e.reason, reason_at(k));
    EXPECT_EQ(&reason_entry(e.reason), &e);
    EXPECT_EQ(e.name, to_string(e.reason));
    EXPECT_EQ(e.outcome, outcome_of(e.reason));
    EXPECT_TRUE(is_spec_link(e.spec)) << e.name;
    EXPECT_TRUE(is_sentence(e.explanation)) << e.name;
    EXPECT_TRUE(is_sentence(e.next_step)) << e.name;
    // An authorization leg that broke no rule (auth_leg_ok, auth_probe_miss) has no advice of its
    // own either: the advice is its flow's (the auth_flow record, docs/auth.md).
    const bool success = e.outcome == Outcome::TOOL_SUCCESS || e.outcome == Outcome::RPC_SUCCESS ||
                         e.outcome == Outcome::ACCEPTED || e.reason == Reason::auth_leg_ok ||
                         e.reason == Reason::auth_probe_miss;
    EXPECT_EQ(e.advice == Advice::none, success) << e.name << ": advice none goes with success only";
  }
}

TEST(Catalogue, DefaultAdviceIsWhatAdviseGivesInThePlainCase) {
  // advise() with no headers, no JSON-RPC error data, a stream that set an event id: the entry's
  // advice. (The exceptions the entries explain: not_found naming a session, data.supported,
  // a stream that is not resumable.)
  for (const ReasonEntry& e : reason_catalogue()) {
    Classification c;
    c.outcome = e.outcome;
    c.layer = layer_of(e.outcome);
    c.reason = e.reason;
    if (e.outcome == Outcome::STREAM_INCOMPLETE) c.resumable = e.reason == Reason::no_final_response_stream;
    EXPECT_EQ(to_string(advise(c, Headers{}, 0).advice), to_string(e.advice)) << e.name;
  }
}

TEST(Catalogue, EveryOutcomeAndSkipReasonHasAnEntry) {
  const auto outcomes = outcome_catalogue();
  ASSERT_EQ(outcomes.size(), kOutcomeCount);
  for (std::size_t k = 0; k < outcomes.size(); ++k) {
    const OutcomeEntry& e = outcomes[k];
    EXPECT_EQ(e.outcome, static_cast<Outcome>(k));
    EXPECT_EQ(&outcome_entry(e.outcome), &e);
    EXPECT_TRUE(is_spec_link(e.spec)) << to_string(e.outcome);
    EXPECT_TRUE(is_sentence(e.explanation)) << to_string(e.outcome);
    EXPECT_TRUE(is_sentence(e.next_step)) << to_string(e.outcome);
    bool has_reason = false;
    for (const ReasonEntry& r : reason_catalogue()) has_reason = has_reason || r.outcome == e.outcome;
    EXPECT_TRUE(has_reason) << to_string(e.outcome) << " has no reason";
  }
  std::set<std::string_view> names;
  for (const SkipReasonEntry& e : skip_reason_catalogue()) {
    EXPECT_TRUE(names.insert(e.name).second) << e.name;
    EXPECT_TRUE(e.spec.empty() || is_spec_link(e.spec)) << e.name;
    EXPECT_TRUE(is_sentence(e.explanation)) << e.name;
    EXPECT_TRUE(is_sentence(e.next_step)) << e.name;
    EXPECT_TRUE(reasons_named(e.name).empty()) << e.name << " is also a reason code";
  }
  EXPECT_EQ(names.size(), 8u);
}

// docs/classification.md's reason tables, docs/output.md's skipped reasons and
// docs/output.schema.json's reason lists against the catalogue, so that they cannot drift.
namespace {

std::string read_doc(const std::string& relative) {
  std::ifstream in(std::string(MCPTRIAGE_SOURCE_DIR) + "/" + relative, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

/// The cells of a Markdown table row (`| a | b |`), trimmed.
std::vector<std::string> cells_of(const std::string& row) {
  std::vector<std::string> cells;
  std::size_t start = 1;
  while (start < row.size()) {
    const std::size_t end = row.find('|', start);
    if (end == std::string::npos) break;
    std::string cell = row.substr(start, end - start);
    cell.erase(0, cell.find_first_not_of(' '));
    cell.erase(cell.find_last_not_of(' ') + 1);
    cells.push_back(cell);
    start = end + 1;
  }
  return cells;
}

/// The `code` spans of a cell that have the form of a reason code (or, `upper`, of an outcome).
std::vector<std::string> codes_in(const std::string& cell, bool upper = false) {
  std::vector<std::string> out;
  std::size_t pos = 0;
  while ((pos = cell.find('`', pos)) != std::string::npos) {
    const std::size_t end = cell.find('`', pos + 1);
    if (end == std::string::npos) break;
    const std::string span = cell.substr(pos + 1, end - pos - 1);
    pos = end + 1;
    const bool is_code = !span.empty() && std::all_of(span.begin(), span.end(), [&](char ch) {
      return ch == '_' || (ch >= '0' && ch <= '9') || (upper ? (ch >= 'A' && ch <= 'Z') : (ch >= 'a' && ch <= 'z'));
    });
    if (is_code) out.push_back(span);
  }
  return out;
}

using Documented = std::set<std::pair<std::string, std::string>>;  // (outcome, reason code)

/// The (outcome, code) pairs of docs/classification.md's "Reasons" section: a table under
/// "### OUTCOME (layer)" lists codes in its first column; the "Success and interaction outcomes"
/// table, outcomes in the first and codes in the second.
Documented documented_reasons() {
  Documented out;
  bool in_reasons = false;
  std::optional<Outcome> outcome;
  bool outcome_table = false;
  for (const std::string& line : lines_of(read_doc("docs/classification.md"))) {
    if (line.starts_with("## ")) in_reasons = line == "## Reasons";
    if (!in_reasons) continue;
    if (line.starts_with("### ")) {
      const std::string title = line.substr(4);
      outcome = parse_outcome(title.substr(0, title.find(' ')));
      outcome_table = !outcome && title.starts_with("Success and interaction outcomes");
      continue;
    }
    if (!line.starts_with("| ") || line.starts_with("| ---")) continue;
    const std::vector<std::string> cells = cells_of(line);
    if (cells.size() < 2 || cells[0] == "reason" || cells[0] == "outcome") continue;
    if (outcome) {
      for (const std::string& code : codes_in(cells[0])) out.emplace(std::string(to_string(*outcome)), code);
    } else if (outcome_table) {
      for (const std::string& o : codes_in(cells[0], true)) {
        for (const std::string& code : codes_in(cells[1])) out.emplace(o, code);
      }
    }
  }
  return out;
}

Documented catalogued_reasons() {
  Documented out;
  for (const ReasonEntry& e : reason_catalogue()) out.emplace(std::string(to_string(e.outcome)), std::string(e.name));
  return out;
}

std::vector<std::string> schema_enum(simdjson::dom::element schema, std::string_view record) {
  std::vector<std::string> out;
  simdjson::dom::array list;
  const auto err = schema["definitions"][record]["properties"]["reason"]["enum"].get(list);
  EXPECT_FALSE(err) << record << ": no reason enum in docs/output.schema.json";
  if (err) return out;
  for (auto v : list) out.emplace_back(std::string_view(v));
  return out;
}

}  // namespace

TEST(CatalogueDocs, ClassificationMdDocumentsEveryReasonUnderItsOutcome) {
  const Documented docs = documented_reasons();
  const Documented catalogue = catalogued_reasons();
  ASSERT_GT(docs.size(), 100u) << "docs/classification.md's reason tables were not found";
  for (const auto& [outcome, code] : catalogue) {
    EXPECT_TRUE(docs.contains({outcome, code})) << code << " (" << outcome
                                                << ") is in the catalogue but not in docs/classification.md under "
                                                << outcome;
  }
  for (const auto& [outcome, code] : docs) {
    EXPECT_TRUE(catalogue.contains({outcome, code}))
        << code << " is documented under " << outcome << " in docs/classification.md but the catalogue has no such reason";
  }
}

TEST(CatalogueDocs, SchemaListsEveryReasonCode) {
  const std::string text = read_doc("docs/output.schema.json");
  simdjson::dom::parser parser;
  simdjson::dom::element schema;
  ASSERT_FALSE(parser.parse(simdjson::padded_string(text)).get(schema)) << "docs/output.schema.json is not JSON";
  const std::vector<std::string> listed = schema_enum(schema, "exchangeRecord");
  std::vector<std::string> codes;
  for (std::string_view name : reason_names()) codes.emplace_back(name);
  EXPECT_EQ(listed, codes) << "exchangeRecord.reason.enum: every reason code once, in catalogue order";

  std::vector<std::string> skip_names;
  for (const SkipReasonEntry& e : skip_reason_catalogue()) skip_names.emplace_back(e.name);
  EXPECT_EQ(schema_enum(schema, "skippedRecord"), skip_names) << "skippedRecord.reason.enum";
}

TEST(CatalogueDocs, OutputMdListsEverySkippedRecordReason) {
  std::vector<std::string> documented;
  bool in_section = false;
  for (const std::string& line : lines_of(read_doc("docs/output.md"))) {
    if (line.starts_with("## ")) in_section = line == "## Skipped records";
    if (!in_section || !line.starts_with("| ") || line.starts_with("| ---")) continue;
    const std::vector<std::string> cells = cells_of(line);
    if (!cells.empty() && cells[0] != "`reason`") {
      for (const std::string& code : codes_in(cells[0])) documented.push_back(code);
    }
  }
  std::vector<std::string> skip_names;
  for (const SkipReasonEntry& e : skip_reason_catalogue()) skip_names.emplace_back(e.name);
  EXPECT_EQ(documented, skip_names) << "docs/output.md \"Skipped records\" table";
}
