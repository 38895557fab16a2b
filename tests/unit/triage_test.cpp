// The run core (src/triage/core.hpp): sessions across batches, the first entry held until a
// second shows a session, skipped entries in their place, amendments applied before any sink
// sees a record (and the worker's text dropped), expectations, and the same output whether the
// JSON Lines text is prepared on the workers or not.
#include "triage/core.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "mcptriage/render.hpp"
#include "mcptriage/report.hpp"
#include "mcptriage/session.hpp"

namespace mcptriage::triage {
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
  void begin_session(const SessionInfo& s) override { inner_->begin_session(s); }
  void end_session(const SessionEnd& e) override { inner_->end_session(e); }
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
  // No exchange row: no empty column header above the line (new-user trial).
  EXPECT_EQ(table, "skipped x.har#1: not_mcp: GET /\n");
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


// ---------------------------------------------------------------------------------------------
// --session: several inputs, one session

/// Feeds each input's exchanges in turn, or fails the input when its part is `failed`.
class Inputs final : public io::Source {
 public:
  struct Part {
    std::vector<Exchange> exchanges;
    bool failed = false;
  };
  explicit Inputs(std::vector<Part> parts) : parts_(std::move(parts)) {}
  void produce(io::Feed& feed) override {
    for (std::size_t i = 0; i < parts_.size(); ++i) {
      if (parts_[i].failed) feed.failed(i, "cannot be read");
      else feed.exchanges(i, std::move(parts_[i].exchanges), false);
    }
  }

 private:
  std::vector<Part> parts_;
};

constexpr std::string_view kEchoTools =
    R"({"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"echo","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":true}}]}})";

std::string echo_call(int id) {
  return R"({"jsonrpc":"2.0","id":)" + std::to_string(id) + R"(,"method":"tools/call","params":{"name":"echo","arguments":{"m":"hi"}}})";
}

/// tools/list, a failed echo call, the same call again: one file each (a.txt, b.txt, c.txt),
/// with `failed_middle` a fourth input that cannot be read between b.txt and c.txt.
std::vector<Inputs::Part> echo_files(bool failed_middle = false) {
  std::vector<Inputs::Part> parts;
  parts.push_back({{post(R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})", std::string(kEchoTools))}});
  parts.push_back({{post(echo_call(2), R"({"jsonrpc":"2.0","id":2,"error":{"code":-32603,"message":"busy"}})")}});
  if (failed_middle) parts.push_back({{}, true});
  parts.push_back({{post(echo_call(3), R"({"jsonrpc":"2.0","id":3,"result":{"content":[]}})")}});
  return parts;
}

Result run_inputs(std::vector<Inputs::Part> parts, std::vector<std::string> names, bool one_session, unsigned jobs,
                  Kind kind = Kind::jsonl) {
  Result result;
  StringOutput out;
  std::unique_ptr<RecordSink> sink = kind == Kind::jsonl ? make_jsonl_sink(out) : make_table_sink(out, TableOptions{});
  std::vector<RecordSink*> sinks{sink.get()};
  std::vector<io::Input> inputs;
  for (const std::string& n : names) inputs.push_back(io::Input{.name = n});
  TriageOptions options;
  options.now = kNow;
  options.pipeline.jobs = jobs;
  options.one_session = one_session;
  Triage triage(inputs, std::move(options), sinks, result.reporter);
  Inputs source(std::move(parts));
  triage.run(source);
  sink->finish();
  result.out = std::move(out.text);
  result.records = triage.records();
  return result;
}

TEST(TriageSession, InputsInOrderAreOneSession) {
  for (unsigned jobs : {1u, 2u}) {
    const auto out = lines(run_inputs(echo_files(), {"a.txt", "b.txt", "c.txt"}, true, jobs).out);
    ASSERT_EQ(out.size(), 4u);
    // Each record keeps its own input's name; the held first entry is named by a.txt, not b.txt.
    EXPECT_NE(out[0].find(R"("source":"a.txt#1")"), std::string::npos) << out[0];
    EXPECT_NE(out[0].find(R"("session":{"entry":1,)"), std::string::npos) << out[0];
    EXPECT_NE(out[1].find(R"("source":"b.txt#1")"), std::string::npos) << out[1];
    // The tools/list of a.txt decides the retry safety of b.txt's call.
    EXPECT_NE(out[1].find(R"x("safe":true,"safe_source":"readOnlyHint: true (a.txt#1)")x"), std::string::npos) << out[1];
    EXPECT_NE(out[2].find(R"("source":"c.txt#1")"), std::string::npos) << out[2];
    EXPECT_NE(out[2].find(R"("replay_of":{"source":"b.txt#1")"), std::string::npos) << out[2];
    EXPECT_NE(out[2].find(R"("safety":"safe")"), std::string::npos) << out[2];
    EXPECT_NE(out[3].find(R"x("kind":"session_summary","source":"a.txt .. c.txt (3 inputs)")x"), std::string::npos)
        << out[3];
    EXPECT_NE(out[3].find(R"("entries":3)"), std::string::npos) << out[3];
  }
}

TEST(TriageSession, WithoutItEachInputIsItsOwnSession) {
  const auto out = lines(run_inputs(echo_files(), {"a.txt", "b.txt", "c.txt"}, false, 1).out);
  ASSERT_EQ(out.size(), 3u) << "three single captures: no summary";
  for (const std::string& line : out) {
    EXPECT_EQ(line.find("\"session\":"), std::string::npos) << line;
    EXPECT_EQ(line.find("replay_of"), std::string::npos) << line;
  }
  EXPECT_EQ(out[1].find("readOnlyHint"), std::string::npos) << out[1];
}

TEST(TriageSession, SameOutputForAnyNumberOfJobs) {
  for (Kind kind : {Kind::jsonl, Kind::table}) {
    const std::string one = run_inputs(echo_files(), {"a.txt", "b.txt", "c.txt"}, true, 1, kind).out;
    EXPECT_EQ(one, run_inputs(echo_files(), {"a.txt", "b.txt", "c.txt"}, true, 2, kind).out);
    EXPECT_EQ(one, run_inputs(echo_files(), {"a.txt", "b.txt", "c.txt"}, true, 4, kind).out);
  }
}

TEST(TriageSession, AnInputThatCannotBeReadIsReportedAndTheSessionGoesOn) {
  for (unsigned jobs : {1u, 2u}) {
    Result r = run_inputs(echo_files(true), {"a.txt", "b.txt", "bad.txt", "c.txt"}, true, jobs);
    ASSERT_EQ(r.reporter.errors.size(), 1u);
    EXPECT_EQ(r.reporter.errors[0], "bad.txt: cannot be read");
    const auto out = lines(r.out);
    ASSERT_EQ(out.size(), 4u);
    EXPECT_NE(out[2].find(R"("replay_of":{"source":"b.txt#1")"), std::string::npos) << out[2];
    EXPECT_NE(out[3].find(R"x("source":"a.txt .. c.txt (4 inputs)")x"), std::string::npos) << out[3];
  }
}

TEST(TriageSession, TheTableHasOneSessionBlock) {
  const std::string table = run_inputs(echo_files(), {"a.txt", "b.txt", "c.txt"}, true, 1, Kind::table).out;
  std::size_t blocks = 0;
  for (const std::string& line : lines(table)) {
    if (line.starts_with("session ")) ++blocks;
  }
  EXPECT_EQ(blocks, 1u) << table;
  EXPECT_NE(table.find("session a.txt .. c.txt (3 inputs): 3 entries"), std::string::npos) << table;
  EXPECT_NE(table.find("  replay c.txt#1 of b.txt#1 (after JSONRPC_ERROR): safe"), std::string::npos) << table;
}

TEST(TriageSession, OneInputAloneIsAsWithoutIt) {
  std::vector<Inputs::Part> parts{{{reply(R"({"jsonrpc":"2.0","id":1,"result":{}})")}}};
  std::vector<Inputs::Part> again{{{reply(R"({"jsonrpc":"2.0","id":1,"result":{}})")}}};
  EXPECT_EQ(run_inputs(std::move(parts), {"log"}, true, 1).out, run_inputs(std::move(again), {"log"}, false, 1).out);
}

}  // namespace
}  // namespace mcptriage::triage
