// Unit tests for src/mcp/versions: the protocol-version checks and the version table (each
// rule's first and last version, and the dates between published versions).
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <set>
#include <string>

#include "mcp/versions.hpp"
#include "mcptriage/classify.hpp"

using namespace mcptriage;
using mcp::Rule;

TEST(ProtocolVersion, IsACalendarDate) {
  for (const char* v : {"2025-11-25", "2024-02-29", "2000-02-29", "2025-12-31"}) EXPECT_TRUE(is_protocol_version(v)) << v;
  for (const char* v : {"2025-6-18", "latest", "", "2025-02-29", "1900-02-29", "2025-04-31", "2025-13-01", "2025-00-10",
                        "2025-01-00", "2025/01/01", "２０２５-01-01", "2025-01-01 "}) {
    EXPECT_FALSE(is_protocol_version(v)) << v;
  }
  EXPECT_TRUE(is_known_protocol_version("2025-06-18"));
  EXPECT_FALSE(is_known_protocol_version("2025-09-01"));
}

TEST(VersionTable, RowsAreInRuleOrderWithTheirSpecAndPublishedBounds) {
  std::set<std::string_view> names;
  std::size_t k = 0;
  for (const mcp::VersionRule& r : mcp::version_table()) {
    EXPECT_EQ(static_cast<std::size_t>(r.rule), k++);
    EXPECT_TRUE(names.insert(r.name).second) << r.name;
    EXPECT_TRUE(r.spec.starts_with("https://")) << r.name;
    EXPECT_FALSE(r.summary.empty()) << r.name;
    if (!r.first.empty()) {
      EXPECT_TRUE(is_known_protocol_version(r.first)) << r.name;
    }
    if (!r.last.empty()) {
      EXPECT_TRUE(is_known_protocol_version(r.last)) << r.name;
    }
    if (!r.first.empty() && !r.last.empty()) {
      EXPECT_LE(r.first, r.last) << r.name;
    }
  }
}

TEST(VersionTable, EachRuleHoldsFromItsFirstToItsLastVersion) {
  // rule, a version it holds in, one it does not (the rows of docs/classification.md "Versions").
  struct Case {
    Rule rule;
    std::string_view holds;
    std::string_view not_holds;
  };
  for (const Case& c : {Case{Rule::batching, "2025-03-26", "2025-06-18"}, Case{Rule::batching, "2025-06-17", "2025-03-25"},
                        Case{Rule::session_404, "2025-11-25", "2026-07-28"}, Case{Rule::session_404, "", "2027-01-01"},
                        Case{Rule::stream_resumption, "2024-11-05", "2026-07-28"},
                        Case{Rule::server_requests_on_stream, "2026-07-27", "2026-07-28"},
                        Case{Rule::resource_link, "2025-06-18", "2025-03-26"}, Case{Rule::resource_link, "2030-01-01", ""},
                        Case{Rule::structured_content_object, "2025-11-25", "2026-07-28"},
                        Case{Rule::structured_content_object, "2025-06-18", "2025-06-17"},
                        Case{Rule::result_type, "2026-07-28", "2026-07-27"},
                        Case{Rule::nested_task, "2025-11-25", "2026-07-28"},
                        Case{Rule::status_error_pairs, "2026-07-28", "2025-11-25"},
                        Case{Rule::status_error_pairs, "2030-01-01", ""},
                        Case{Rule::error_id_omitted, "2025-11-25", "2025-06-18"}}) {
    EXPECT_TRUE(mcp::in_force(c.rule, c.holds)) << mcp::version_rule(c.rule).name << " " << c.holds;
    EXPECT_FALSE(mcp::in_force(c.rule, c.not_holds)) << mcp::version_rule(c.rule).name << " " << c.not_holds;
  }
}

TEST(VersionTable, AResponseShowsItsVersion) {
  json::Parser parser;
  auto inferred = [&](std::string_view text) { return mcp::inferred_version(*parser.parse(text)); };
  EXPECT_EQ(inferred(R"({"id":1,"result":{"resultType":"complete","content":[]}})"), "2026-07-28");
  EXPECT_EQ(inferred(R"({"id":1,"result":{"task":{"taskId":"t","status":"working"}}})"), "2025-11-25");
  EXPECT_EQ(inferred(R"({"id":1,"result":{"protocolVersion":"2025-06-18","serverInfo":{}}})"), "2025-06-18");
  EXPECT_EQ(inferred(R"({"id":1,"result":{"protocolVersion":"2025-06-18"}})"), std::nullopt) << "no initialize result";
  EXPECT_EQ(inferred(R"({"id":1,"result":{"content":[]}})"), std::nullopt);
  EXPECT_EQ(inferred("[1]"), std::nullopt);
}

TEST(VersionTable, DocsClassificationMdListsEveryRuleAsTheTableHasIt) {
  std::ifstream in(std::string(MCPTRIAGE_SOURCE_DIR) + "/docs/classification.md");
  ASSERT_TRUE(in) << "docs/classification.md";
  const std::string doc((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto bound = [](std::string_view v) { return v.empty() ? std::string("—") : std::string(v); };
  for (const mcp::VersionRule& r : mcp::version_table()) {
    const std::string row = "| `" + std::string(r.name) + "` | " + bound(r.first) + " | " + bound(r.last) + " |";
    EXPECT_NE(doc.find(row), std::string::npos) << "docs/classification.md has no row " << row;
  }
}
