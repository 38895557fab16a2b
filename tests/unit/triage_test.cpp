// The run core (src/cli/triage.hpp): sessions across batches, the first entry held until a
// second shows a session, skipped entries in their place, amendments applied before any sink
// sees a record (and the worker's text dropped), expectations, and the same output whether the
// JSON Lines text is prepared on the workers or not.
#include "cli/triage.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "mcptriage/render.hpp"
#include "mcptriage/report.hpp"
#include "mcptriage/session.hpp"

namespace mcptriage::cli {
namespace {

constexpr long long kNow = 1796083200;

Exchange reply(std::string body, CaptureFormat format = CaptureFormat::exchange_log) {
  Exchange ex;
  ex.format = format;
  ex.response.headers.push_back({"Content-Type", "application/json"});
  ex.response.body = std::move(body);
  return ex;
}

Exchange post(std::string request, std::string body) {
  Exchange ex = reply(std::move(body), CaptureFormat::har);
  Request r;
  r.method_line = "POST";
  r.body = std::move(request);
  ex.request = std::move(r);
  return ex;
}

Exchange skipped_page(CaptureFormat format = CaptureFormat::har) {
  Exchange page;
  page.format = format;
  page.skipped = Skip{SkipReason::not_mcp, "GET /"};
  return page;
}

/// Feeds input 0 in the parts given, as a live source or the proxy would.
class Parts final : public io::Source {
 public:
  explicit Parts(std::vector<std::vector<Exchange>> parts) : parts_(std::move(parts)) {}
  void produce(io::Feed& feed) override {
    for (auto& part : parts_) feed.exchanges(0, std::move(part), false);
  }

 private:
  std::vector<std::vector<Exchange>> parts_;
};

struct Quiet final : Reporter {
  std::vector<std::string> broken;
  std::vector<std::string> errors;
  void input_error(std::string_view name, std::string_view why) override {
    errors.push_back(std::string(name) + ": " + std::string(why));
  }
  void skipped(std::string_view, std::string_view) override {}
  void expectation_broken(std::string_view failure) override { broken.emplace_back(failure); }
};

/// A JSON Lines sink that never prepares: everything rendered on the output side.
class Unprepared final : public RecordSink {
 public:
  explicit Unprepared(Output& out) : inner_(make_jsonl_sink(out)) {}
  void begin_input(const InputInfo& i) override { inner_->begin_input(i); }
  void record(const Record& r, const Check& c, std::string_view) override { inner_->record(r, c, {}); }
  void skipped(const SkippedEntry& e) override { inner_->skipped(e); }
  void end_input(const InputEnd& e) override { inner_->end_input(e); }
  void finish() override { inner_->finish(); }

 private:
  std::unique_ptr<RecordSink> inner_;
};

enum class Kind { jsonl, jsonl_unprepared, table };

struct Result {
  std::string out;
  Quiet reporter;
  std::size_t records = 0;
};

/// The parts of input `name` through a Triage with one sink of `kind`, on `jobs` threads.
Result run(std::vector<std::vector<Exchange>> parts, Kind kind = Kind::jsonl, std::string name = "log",
           unsigned jobs = 1, TriageOptions options = {}) {
  Result result;
  StringOutput out;
  std::unique_ptr<RecordSink> sink = kind == Kind::jsonl             ? make_jsonl_sink(out)
                                     : kind == Kind::jsonl_unprepared ? std::make_unique<Unprepared>(out)
                                                                      : make_table_sink(out, TableOptions{});
  std::vector<RecordSink*> sinks{sink.get()};
  const std::vector<io::Input> inputs{io::Input{.name = name}};
  options.now = kNow;
  options.pipeline.jobs = jobs;
  Triage triage(inputs, std::move(options), sinks, result.reporter);
  Parts source(std::move(parts));
  triage.run(source);
  sink->finish();
  result.out = std::move(out.text);
  result.records = triage.records();
  return result;
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

TEST(Triage, OneEntryPrintsAsBefore) {
  const Exchange ex = reply(R"({"jsonrpc":"2.0","id":1,"result":{}})");
  const auto out = lines(run({{ex}}).out);
  ASSERT_EQ(out.size(), 1u);
  Record expected{SourceRef{0, 1}, ex.format, classify(ex, {}, kNow).front()};
  EXPECT_EQ(out[0], render_jsonl(expected, "log")) << "no session member, no summary";
}

TEST(Triage, FirstRecordHeldUntilTheSecondPartShowsASession) {
  // A log read in parts: the first holds one entry, the next two more.
  for (unsigned jobs : {1u, 2u}) {
    const auto out = lines(run({{reply(R"({"jsonrpc":"2.0","id":1,"result":{}})")},
                                {reply(R"({"jsonrpc":"2.0","id":2,"result":{}})"),
                                 reply(R"({"jsonrpc":"2.0","id":3,"result":{}})")}},
                               Kind::jsonl, "log", jobs)
                               .out);
    ASSERT_EQ(out.size(), 4u);
    for (int i = 0; i < 3; ++i) {
      EXPECT_NE(out[i].find("\"source\":\"log#" + std::to_string(i + 1) + "\""), std::string::npos) << out[i];
      EXPECT_NE(out[i].find("\"session\":{\"entry\":" + std::to_string(i + 1)), std::string::npos);
    }
    EXPECT_NE(out[3].find("\"kind\":\"session_summary\""), std::string::npos);
    EXPECT_NE(out[3].find("\"entries\":3"), std::string::npos);
  }
}

TEST(Triage, SkippedEntriesKeepTheirPlace) {
  const auto out = lines(run({{skipped_page(), reply(R"({"jsonrpc":"2.0","id":1,"result":{}})")}}).out);
  ASSERT_EQ(out.size(), 3u);
  EXPECT_TRUE(out[0].starts_with(R"({"schema":1,"kind":"skipped","skipped":true,"source":"log#1")"));
  EXPECT_NE(out[1].find("\"source\":\"log#2\""), std::string::npos);
  EXPECT_NE(out[2].find("\"skipped\":1"), std::string::npos);
}

TEST(Triage, TableLinesForOneSkippedEntry) {
  const std::string table = run({{skipped_page()}}, Kind::table, "x.har").out;
  EXPECT_TRUE(table.ends_with("\nskipped x.har#1: not_mcp: GET /\n")) << table;
}

TEST(Triage, TableListsTheFirstHundredSkippedAndNotableEntries) {
  std::vector<Exchange> batch;
  for (int i = 1; i <= 130; ++i) batch.push_back(skipped_page());
  // Replies without their requests, each id answered twice: a duplicate_response_id finding each.
  for (int i = 1; i <= 120; ++i) {
    const std::string body = R"({"jsonrpc":"2.0","id":)" + std::to_string(i) + R"(,"result":{}})";
    batch.push_back(reply(body));
    batch.push_back(reply(body));
  }
  const std::string table = run({batch}, Kind::table, "x.har").out;
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

constexpr std::string_view kToolsList =
    R"({"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"stats","inputSchema":{"type":"object"},"outputSchema":{"type":"object","properties":{"count":{"type":"integer","minimum":0}},"required":["count"]}}]}})";

std::string call(int id) {
  return R"({"jsonrpc":"2.0","id":)" + std::to_string(id) + R"(,"method":"tools/call","params":{"name":"stats"}})";
}

std::string result(int id, std::string_view structured) {
  return R"({"jsonrpc":"2.0","id":)" + std::to_string(id) +
         R"(,"result":{"content":[{"type":"text","text":"ok"}],"structuredContent":)" + std::string(structured) + "}}";
}

std::vector<std::vector<Exchange>> schema_session() {
  return {{post(R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})", std::string(kToolsList))},
          {post(call(2), result(2, R"({"count":-1})")), post(call(3), result(3, R"({"count":4})"))}};
}

TEST(Triage, AnAmendmentIsAppliedBeforeAnySinkSeesTheRecord) {
  for (unsigned jobs : {1u, 2u}) {
    const auto out = lines(run(schema_session(), Kind::jsonl, "s.har", jobs).out);
    ASSERT_EQ(out.size(), 4u);
    EXPECT_NE(out[1].find(R"("outcome":"INVALID_TOOL_RESULT","layer":"protocol","failed":true,"reason":"structured_content_schema_mismatch")"),
              std::string::npos)
        << out[1];
    EXPECT_NE(out[1].find(R"("pointer":"/result/structuredContent/count")"), std::string::npos) << out[1];
    EXPECT_NE(out[1].find(R"("retry":{"advice":"do_not_retry")"), std::string::npos) << "advice of the new verdict";
    EXPECT_NE(out[1].find(R"("schema_checked":true)"), std::string::npos);
    EXPECT_NE(out[2].find(R"("outcome":"TOOL_SUCCESS")"), std::string::npos) << out[2];
    EXPECT_NE(out[3].find(R"("INVALID_TOOL_RESULT":1)"), std::string::npos) << "the summary counts the amended verdict";
  }
}

TEST(Triage, PreparedTextsGiveTheSameBytesAsRenderingAtTheEnd) {
  for (unsigned jobs : {1u, 2u}) {
    EXPECT_EQ(run(schema_session(), Kind::jsonl, "s.har", jobs).out,
              run(schema_session(), Kind::jsonl_unprepared, "s.har", jobs).out);
  }
}

TEST(Triage, ExpectationsAreCheckedOnTheFinalVerdict) {
  TriageOptions options;
  options.fail_on = {Outcome::INVALID_TOOL_RESULT};
  Result r = run(schema_session(), Kind::jsonl, "s.har", 1, options);
  ASSERT_EQ(r.reporter.broken.size(), 1u);
  EXPECT_EQ(r.reporter.broken[0], "s.har#2 is INVALID_TOOL_RESULT (structured_content_schema_mismatch), listed in --fail-on");
  EXPECT_EQ(r.records, 3u);
}

}  // namespace
}  // namespace mcptriage::cli
