// Unit tests for the CLI's session glue (src/cli/session_output.cpp) and curl -v body pairing.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "io/body_pairing.hpp"
#include "cli/session_output.hpp"
#include "mcptriage/classify.hpp"
#include "mcptriage/render.hpp"

namespace {

using namespace mcptriage;

constexpr long long kNow = 1796083200;

/// An exchange and where it is in its input (input 0).
struct Entry {
  Exchange exchange;
  std::size_t number = 0;
};

/// The records of one classified exchange, as the run builds them on its workers.
std::vector<Record> records_of(const Entry& e) {
  const SourceRef where{0, e.number, std::nullopt};
  const Exchange& ex = e.exchange;
  if (ex.skipped) return {cli::skipped_record(ex, where)};
  ReadAlong along;
  auto results = classify(ex, ContextFlags{}, kNow, &along);
  auto facts = cli::session_facts(ex, results, along);
  std::vector<Record> out;
  for (std::size_t k = 0; k < results.size(); ++k) {
    Record r{where, ex.format, std::move(results[k]), facts};
    if (results.size() > 1) r.source.element = k;
    out.push_back(std::move(r));
  }
  return out;
}

Entry reply(std::size_t number, std::string body) {
  Exchange ex;
  ex.format = mcptriage::CaptureFormat::exchange_log;
  ex.response.headers.push_back({"Content-Type", "application/json"});
  ex.response.body = std::move(body);
  return Entry{std::move(ex), number};
}

Entry skipped_page(std::size_t number, CaptureFormat format = CaptureFormat::har) {
  Exchange page;
  page.format = format;
  page.skipped = Skip{SkipReason::not_mcp, "GET /"};
  return Entry{std::move(page), number};
}

/// Runs batches of one input through SessionOutput as main() does; returns stdout.
std::string run(const std::vector<std::vector<Entry>>& batches, bool jsonl = true, std::string_view name = "log") {
  cli::SessionOutput out(jsonl, kNow);
  std::string text;
  for (const auto& batch : batches) {
    std::vector<Record> records;
    for (const auto& ex : batch) {
      auto rs = records_of(ex);
      for (auto& r : rs) records.push_back(std::move(r));
    }
    out.begin_batch(0, name, records, text);
    for (Record& rec : records) {
      if (out.skip(rec, text)) continue;
      if (jsonl) out.write_jsonl(rec, render_jsonl(rec, name), text);
    }
  }
  out.finish(text);
  return jsonl ? text : out.table_lines();
}

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::size_t pos = 0;
  while (pos < text.size()) {
    const std::size_t nl = text.find('\n', pos);
    out.push_back(text.substr(pos, nl - pos));
    pos = nl + 1;
  }
  return out;
}

TEST(SessionOutput, OneEntryPrintsAsBefore) {
  const Entry ex = reply(1, R"({"jsonrpc":"2.0","id":1,"result":{}})");
  const auto out = lines(run({{ex}}));
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0] + "", render_jsonl(records_of(ex)[0], "log"));
}

TEST(SessionOutput, FirstRecordHeldUntilTheSecondBatchShowsASession) {
  // A log read in blocks: the first block holds one entry, the next one two more.
  const auto out = lines(run({{reply(1, R"({"jsonrpc":"2.0","id":1,"result":{}})")},
                              {reply(2, R"({"jsonrpc":"2.0","id":2,"result":{}})"),
                               reply(3, R"({"jsonrpc":"2.0","id":3,"result":{}})")}}));
  ASSERT_EQ(out.size(), 4u);
  for (int i = 0; i < 3; ++i) EXPECT_NE(out[i].find("\"session\":{\"entry\":" + std::to_string(i + 1)), std::string::npos);
  EXPECT_NE(out[3].find("\"kind\":\"session_summary\""), std::string::npos);
  EXPECT_NE(out[3].find("\"entries\":3"), std::string::npos);
}

TEST(SessionOutput, SkippedEntriesKeepTheirPlace) {
  const Entry page = skipped_page(1);
  const auto out = lines(run({{page, reply(2, R"({"jsonrpc":"2.0","id":1,"result":{}})")}}));
  ASSERT_EQ(out.size(), 3u);
  EXPECT_TRUE(out[0].starts_with(R"({"schema":1,"kind":"skipped","skipped":true,"source":"log#1")"));
  EXPECT_NE(out[1].find("\"source\":\"log#2\""), std::string::npos);
  EXPECT_NE(out[2].find("\"skipped\":1"), std::string::npos);
}

TEST(SessionOutput, TableLinesForOneSkippedEntry) {
  EXPECT_EQ(run({{skipped_page(1)}}, false, "x.har"), "skipped x.har#1: not_mcp: GET /\n");
}

TEST(SessionOutput, TableListsTheFirstHundredSkippedAndNotableEntries) {
  std::vector<Entry> batch;
  std::size_t n = 0;
  for (int i = 1; i <= 130; ++i) batch.push_back(skipped_page(++n));
  // Replies without their requests, each id answered twice: a duplicate_response_id finding each.
  for (int i = 1; i <= 120; ++i) {
    const std::string body = R"({"jsonrpc":"2.0","id":)" + std::to_string(i) + R"(,"result":{}})";
    batch.push_back(reply(++n, body));
    batch.push_back(reply(++n, body));
  }
  const std::string table = run({batch}, false, "x.har");
  std::size_t skipped_lines = 0;
  std::size_t finding_lines = 0;
  for (const std::string& line : lines(table)) {
    if (line.starts_with("  skipped ")) ++skipped_lines;
    if (line.starts_with("  duplicate_response_id ")) ++finding_lines;
  }
  EXPECT_EQ(skipped_lines, 100u);
  EXPECT_EQ(finding_lines, 100u);
  EXPECT_NE(table.find("  ... and 30 more skipped entries\n"), std::string::npos) << table.substr(table.size() - 400);
  EXPECT_NE(table.find("  ... and 20 more entries with replays or findings"), std::string::npos);
}

TEST(BodyPairing, StderrFindsStdout) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("mcptriage-pair-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "call-stderr.txt") << "* x\n";
  std::ofstream(dir / "call-stdout.txt") << "{}";
  std::ofstream(dir / "lone.stderr") << "* x\n";
  EXPECT_EQ(io::paired_body_path((dir / "call-stderr.txt").string()), (dir / "call-stdout.txt").string());
  EXPECT_TRUE(io::is_paired_body((dir / "call-stdout.txt").string()));
  EXPECT_FALSE(io::paired_body_path((dir / "lone.stderr").string()));
  EXPECT_FALSE(io::is_paired_body((dir / "lone.stderr").string()));
  EXPECT_FALSE(io::paired_body_path((dir / "stderr").string())) << "the word must follow - _ or .";
  fs::remove_all(dir);
}

}  // namespace
