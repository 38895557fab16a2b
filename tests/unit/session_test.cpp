// Unit tests for src/session: pairing, POST sequence, replays and their safety, outputSchema checks.
#include <gtest/gtest.h>

#include <simdjson.h>

#include <string>
#include <string_view>
#include <vector>

#include "mcptriage/advice.hpp"
#include "mcptriage/classify.hpp"
#include "mcptriage/exchange.hpp"
#include "mcptriage/render.hpp"
#include "mcptriage/session.hpp"

namespace {

using namespace mcptriage;

constexpr long long kNow = 1796083200;

/// One POST with a JSON-RPC request body answered by `status` with a JSON `body`.
Exchange post(std::string_view request, int status, std::string_view body, std::string_view session = "s1",
              std::string_view content_type = "application/json") {
  static int n = 0;
  Exchange ex;
  ex.source = "t.har#" + std::to_string(++n);
  ex.format = mcptriage::CaptureFormat::har;
  Request r;
  r.method_line = "POST";
  r.target = "/mcp";
  if (!session.empty()) r.headers.push_back({"Mcp-Session-Id", std::string(session)});
  r.body = std::string(request);
  ex.request = std::move(r);
  ex.response.status = status;
  ex.response.http_version = "HTTP/1.1";
  if (!content_type.empty()) ex.response.headers.push_back({"Content-Type", std::string(content_type)});
  ex.response.body = std::string(body);
  return ex;
}

std::string call(int id, std::string_view tool, std::string_view args, std::string_view token = "p1") {
  return "{\"jsonrpc\":\"2.0\",\"id\":" + std::to_string(id) + ",\"method\":\"tools/call\",\"params\":{\"name\":\"" +
         std::string(tool) + "\",\"arguments\":" + std::string(args) + ",\"_meta\":{\"progressToken\":\"" +
         std::string(token) + "\"}}}";
}

std::string ok_result(int id, std::string_view extra = "") {
  return "{\"jsonrpc\":\"2.0\",\"id\":" + std::to_string(id) +
         ",\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"ok\"}]" + std::string(extra) + "}}";
}

std::string tools_list(int id, std::string_view tools) {
  return "{\"jsonrpc\":\"2.0\",\"id\":" + std::to_string(id) + ",\"result\":{\"tools\":[" + std::string(tools) + "]}}";
}

std::string list_request(int id) {
  return "{\"jsonrpc\":\"2.0\",\"id\":" + std::to_string(id) + ",\"method\":\"tools/list\"}";
}

constexpr std::string_view kInitRequest =
    R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}})";
constexpr std::string_view kInitResult =
    R"({"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","capabilities":{},"serverInfo":{"name":"s","version":"1"}}})";

/// The analysis of one capture: an annotation per exchange, and the summary.
struct Analysis {
  std::vector<SessionAnnotation> entries;
  SessionSummary summary;
};

struct Run {
  std::vector<Exchange> exchanges;
  std::vector<std::vector<Classification>> results;
  Analysis analysis;
  /// The source text of exchange i, as the tracker cites it (the capture is named "t.har").
  std::string source(std::size_t i) const { return source_text("t.har", SourceRef{0, i + 1, std::nullopt}); }
};

/// The exchanges of one capture ("t.har"), classified and walked in order by one tracker, each
/// amendment applied and its retry advice made as the run core does it (src/triage/core.cpp).
Run analyze(std::vector<Exchange> exchanges) {
  Run run;
  run.exchanges = std::move(exchanges);
  SessionTracker tracker("t.har");
  for (std::size_t i = 0; i < run.exchanges.size(); ++i) {
    const Exchange& ex = run.exchanges[i];
    ReadAlong along;
    run.results.push_back(ex.skipped ? std::vector<Classification>{} : classify(ex, ContextFlags{}, kNow, &along));
    std::vector<Classification>& recs = run.results.back();
    const SessionFacts facts = extract_session_facts(ex, recs, along);
    std::vector<const Classification*> ptrs;
    for (const Classification& c : recs) ptrs.push_back(&c);
    SessionAnnotation a = tracker.add(facts, ptrs, SourceRef{0, i + 1, std::nullopt});
    if (a.amendment) {
      a.amendment->apply(recs.front());
      if (a.amendment->verdict) recs.front().retry = advise(recs.front(), Headers{}, kNow);
    }
    run.analysis.entries.push_back(std::move(a));
  }
  run.analysis.summary = tracker.summary();
  return run;
}

/// Where entry `number` of the log "log" is.
SourceRef at(std::size_t number) { return SourceRef{0, number, std::nullopt}; }

bool has_note(const SessionSummary& s, std::string_view text) {
  for (const auto& n : s.notes) {
    if (n.find(text) != std::string::npos) return true;
  }
  return false;
}

TEST(SessionSequence, ToolsList503AndNoToolsCall) {
  auto run = analyze({post(kInitRequest, 200, kInitResult, ""),
                      post(R"({"jsonrpc":"2.0","method":"notifications/initialized"})", 202, "", "s1", ""),
                      post(list_request(2), 503, "upstream down", "s1", "text/plain")});
  const auto& e = run.analysis.entries;
  ASSERT_EQ(e.size(), 3u);
  EXPECT_EQ(e[2].post_index, 3u);
  EXPECT_EQ(e[2].http_statuses, (std::vector<int>{200, 202, 503}));
  const SessionSummary& s = run.analysis.summary;
  EXPECT_EQ(s.posts, 3u);
  ASSERT_TRUE(s.first_failure);
  EXPECT_EQ(s.first_failure->method, "tools/list");
  EXPECT_EQ(s.first_failure->outcome, Outcome::HTTP_ERROR);
  EXPECT_EQ(s.first_failure->http_status, 503);
  EXPECT_EQ(s.first_failure->post_index, 3u);
  ASSERT_EQ(s.never_answered.size(), 1u);
  EXPECT_EQ(s.never_answered[0].method, "tools/list");
  EXPECT_EQ(s.methods_never_answered, (std::vector<std::string>{"tools/list"}));
  EXPECT_TRUE(has_note(s, "nothing sent after the first failure"));
  EXPECT_TRUE(has_note(s, "no tools/call"));
  EXPECT_EQ(s.outcomes.at("HTTP_ERROR"), 1u);
  EXPECT_EQ(s.outcomes.at("ACCEPTED"), 1u);
}

TEST(SessionReplay, SafeByReadOnlyHint) {
  auto run = analyze({post(list_request(2), 200,
                           tools_list(2, R"({"name":"weather","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":true}})")),
                      post(call(3, "weather", R"({"city":"Oslo"})", "a"), 503, "", "s1", "text/plain"),
                      post(call(4, "weather", R"({"city":"Oslo"})", "b"), 200, ok_result(4))});
  const auto& r = run.analysis.entries[2].replay;
  ASSERT_TRUE(r) << "the same method and params (but _meta) after a failure";
  EXPECT_EQ(r->of_source, run.source(1));
  EXPECT_EQ(r->after, Outcome::HTTP_ERROR);
  EXPECT_EQ(r->safety, ReplaySafety::safe);
  EXPECT_NE(r->decided_by.find("readOnlyHint: true"), std::string::npos);
  EXPECT_EQ(r->who_retried, "unknown");
  EXPECT_FALSE(r->same_id);
  EXPECT_FALSE(run.analysis.entries[1].replay);
  EXPECT_TRUE(has_note(run.analysis.summary, "cannot tell who sent it again"));
}

TEST(SessionReplay, UnsafeByDestructiveHintAndDefaults) {
  auto run = analyze({post(list_request(2), 200,
                           tools_list(2, R"({"name":"rm","inputSchema":{"type":"object"},"annotations":{"destructiveHint":true}},{"name":"plain","inputSchema":{"type":"object"}},{"name":"add","inputSchema":{"type":"object"},"annotations":{"destructiveHint":false}})")),
                      post(call(3, "rm", R"({"path":"/a"})"), 502, "", "s1", "text/html"),
                      post(call(3, "rm", R"({"path":"/a"})"), 200, ok_result(3)),
                      post(call(5, "plain", "{}"), 200, R"({"jsonrpc":"2.0","id":5,"error":{"code":-32603,"message":"x"}})"),
                      post(call(6, "plain", "{}"), 200, ok_result(6)),
                      post(call(7, "add", "{}"), 504, "", "s1", ""),
                      post(call(8, "add", "{}"), 200, ok_result(8))});
  const auto& e = run.analysis.entries;
  ASSERT_TRUE(e[2].replay);
  EXPECT_EQ(e[2].replay->safety, ReplaySafety::unsafe);
  EXPECT_NE(e[2].replay->decided_by.find("destructiveHint: true"), std::string::npos);
  EXPECT_TRUE(e[2].replay->same_id);
  ASSERT_EQ(e[2].findings.size(), 1u);
  EXPECT_EQ(e[2].findings[0].code, "duplicate_request_id");
  ASSERT_TRUE(e[4].replay);
  EXPECT_EQ(e[4].replay->after, Outcome::JSONRPC_ERROR);
  EXPECT_EQ(e[4].replay->safety, ReplaySafety::unsafe);
  EXPECT_NE(e[4].replay->decided_by.find("MCP defaults"), std::string::npos);
  ASSERT_TRUE(e[6].replay);
  EXPECT_EQ(e[6].replay->safety, ReplaySafety::unsafe);
  EXPECT_NE(e[6].replay->decided_by.find("idempotentHint absent"), std::string::npos);
  EXPECT_EQ(run.analysis.summary.replays.size(), 3u);
  EXPECT_TRUE(run.analysis.summary.never_answered.empty()) << "each call was answered on its replay";
}

TEST(SessionReplay, ChainOfFailuresAnsweredAtLast) {
  auto run = analyze({post(call(3, "x", "{}"), 503, "", "s1", "text/plain"), post(call(4, "x", "{}"), 502, "", "s1", "text/plain"),
                      post(call(5, "x", "{}"), 200, ok_result(5)), post(list_request(6), 503, "", "s1", "text/plain")});
  const auto& e = run.analysis.entries;
  ASSERT_TRUE(e[1].replay);
  EXPECT_EQ(e[1].replay->of_source, run.source(0));
  ASSERT_TRUE(e[2].replay);
  EXPECT_EQ(e[2].replay->of_source, run.source(1));
  const SessionSummary& s = run.analysis.summary;
  ASSERT_EQ(s.never_answered.size(), 1u);
  EXPECT_EQ(s.never_answered[0].method, "tools/list");
  EXPECT_EQ(s.methods_never_answered, (std::vector<std::string>{"tools/list"}));
}

TEST(SessionReplay, UnknownWithoutToolsListAndNoReplayAfterSuccess) {
  auto run = analyze({post(call(3, "x", "{}"), 500, "", "s1", "text/plain"),
                      post(call(4, "x", "{}"), 200, ok_result(4)),
                      post(call(5, "x", "{}"), 200, ok_result(5)),
                      post(call(6, "x", R"({"other":1})"), 200, ok_result(6))});
  const auto& e = run.analysis.entries;
  ASSERT_TRUE(e[1].replay);
  EXPECT_EQ(e[1].replay->safety, ReplaySafety::unknown);
  EXPECT_NE(e[1].replay->decided_by.find("no tools/list"), std::string::npos);
  EXPECT_FALSE(e[2].replay) << "a repeat after a success is no replay";
  EXPECT_FALSE(e[3].replay) << "other params";
}

TEST(SessionReplay, ReadOnlyMethodIsSafe) {
  auto run = analyze({post(list_request(2), 503, "", "s1", "text/plain"), post(list_request(3), 200, tools_list(3, ""))});
  ASSERT_TRUE(run.analysis.entries[1].replay);
  EXPECT_EQ(run.analysis.entries[1].replay->safety, ReplaySafety::safe);
}

TEST(SessionPairing, UnknownDuplicateAndNullIds) {
  Exchange orphan;
  orphan.source = "log#9";
  orphan.format = mcptriage::CaptureFormat::exchange_log;
  orphan.response.headers.push_back({"Content-Type", "application/json"});
  orphan.response.body = ok_result(42);
  Exchange again = orphan;
  again.source = "log#10";
  again.response.body = ok_result(2);
  auto run = analyze({post(list_request(2), 200, tools_list(2, "")), orphan, again,
                      post(list_request(2), 200, tools_list(2, "")),
                      post(list_request(7), 200, R"({"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"bad"}})"),
                      post(list_request(2), 200, tools_list(2, ""), "s2")});
  const auto& e = run.analysis.entries;
  ASSERT_EQ(e[1].findings.size(), 1u);
  EXPECT_EQ(e[1].findings[0].code, "unknown_response_id");
  ASSERT_EQ(e[2].findings.size(), 1u);
  EXPECT_EQ(e[2].findings[0].code, "duplicate_response_id");
  ASSERT_EQ(e[3].findings.size(), 1u);
  EXPECT_EQ(e[3].findings[0].code, "duplicate_request_id");
  ASSERT_EQ(e[4].findings.size(), 1u);
  EXPECT_EQ(e[4].findings[0].code, "null_id_error");
  EXPECT_TRUE(e[5].findings.empty()) << "another session may use id 2 again";
  EXPECT_EQ(run.analysis.summary.findings.at("duplicate_request_id"), 1u);
}

TEST(SessionPairing, LateAnswerInALogClearsNeverAnswered) {
  Exchange request_only = post(list_request(5), 0, "", "s1", "");
  request_only.response.body_state = BodyState::not_captured;
  Exchange answer;
  answer.source = "log#3";
  answer.response.headers.push_back({"Content-Type", "application/json"});
  answer.response.body = tools_list(5, "");
  auto run = analyze({request_only, answer});
  EXPECT_TRUE(run.analysis.summary.never_answered.empty());
  EXPECT_TRUE(run.analysis.entries[1].findings.empty());
}

TEST(SessionPairing, AStringIdWithAControlCharacterIsPairedLikeAnyOther) {
  // The request's id and the reply's id are keyed by one text (JsonRpcId::to_json): "a\nb" was
  // keyed as minified JSON on the request side and as to_json() on the reply side, so it never paired.
  Exchange request_only = post(R"({"jsonrpc":"2.0","id":"a\nb","method":"tools/list"})", 0, "", "s1", "");
  request_only.response.body_state = BodyState::not_captured;
  Exchange answer;
  answer.source = "log#3";
  answer.response.headers.push_back({"Content-Type", "application/json"});
  answer.response.body = R"({"jsonrpc":"2.0","id":"a\nb","result":{"tools":[]}})";
  auto run = analyze({request_only, answer});
  EXPECT_TRUE(run.analysis.summary.never_answered.empty());
  EXPECT_TRUE(run.analysis.entries[1].findings.empty());
}

TEST(SessionReplay, ParamsCompareAsCanonicalJson) {
  auto run = analyze({post(call(3, "x", R"({"a":1,"b":[1,{"c":"d","e":null}]})"), 503, "", "s1", "text/plain"),
                      post(call(4, "x", R"({"b":[1,{"e":null,"c":"d"}],"a":1})", "p2"), 503, "", "s1", "text/plain"),
                      post(call(5, "x", R"({"b":[{"e":null,"c":"d"},1],"a":1})"), 503, "", "s1", "text/plain"),
                      post(call(6, "x", R"({"a":1,"b":[{"e":null,"c":"d"},1],"a":1})"), 503, "", "s1", "text/plain"),
                      post(call(7, "x", R"({"a":"1","b":[{"e":null,"c":"d"},1]})"), 503, "", "s1", "text/plain")});
  const auto& e = run.analysis.entries;
  ASSERT_TRUE(e[1].replay) << "member order and _meta do not make a new call";
  EXPECT_EQ(e[1].replay->of_source, run.source(0));
  EXPECT_FALSE(e[2].replay) << "array order does";
  EXPECT_FALSE(e[3].replay) << "a duplicate member does";
  EXPECT_FALSE(e[4].replay) << "\"1\" is not 1";
}

/// Facts of a captured tools/call request with the integer id `id` (its digits) and no session id.
SessionFacts request_facts(const std::string& id, int status) {
  SessionFacts f;
  f.http_method = "POST";
  f.http_status = status;
  RequestInfo r;
  r.shape = RequestInfo::Shape::message;
  r.id = JsonRpcId{JsonRpcId::Kind::integer, id};
  r.method = "tools/call";
  r.tool_name = "x";
  r.has_params = true;
  r.params_hash = 7;
  f.request = std::move(r);
  return f;
}

Classification record(Outcome o, std::optional<int> response_id) {
  Classification c;
  c.outcome = o;
  c.layer = layer_of(o);
  for (std::size_t k = 0; k < kReasonCount; ++k) {  // a reason of that outcome: the tests look at outcomes
    if (outcome_of(static_cast<Reason>(k)) == o) {
      c.reason = static_cast<Reason>(k);
      break;
    }
  }
  c.method = "tools/call";
  if (response_id) c.response_id = JsonRpcId{JsonRpcId::Kind::integer, std::to_string(*response_id)};
  return c;
}

TEST(SessionWindow, OldRequestsAreForgottenAndReportedNeverAnswered) {
  SessionTracker tracker("log");
  const std::size_t n = SessionTracker::kWindow + 10;
  auto add = [&](const SessionFacts& f, Classification c, std::size_t number) { return tracker.add(f, {&c}, at(number)); };
  // Entry 0: a request with no reply; then a window's worth of answered requests with other
  // params; then the first request's id again (a reuse the window no longer sees) and a late
  // reply for it (which it can no longer pair).
  add(request_facts("1", 0), record(Outcome::NOT_CAPTURED, std::nullopt), 1);
  for (std::size_t i = 1; i < n; ++i) {
    SessionFacts f = request_facts(std::to_string(i + 1), 200);
    f.request->params_hash = 1000 + i;
    add(f, record(Outcome::TOOL_SUCCESS, static_cast<int>(i + 1)), i + 1);
  }
  SessionAnnotation reuse = add(request_facts("1", 503), record(Outcome::HTTP_ERROR, std::nullopt), n + 1);
  EXPECT_TRUE(reuse.findings.empty()) << "id 1 was used more than a window ago";
  EXPECT_FALSE(reuse.replay) << "the failed call with these params was more than a window ago";
  SessionFacts late;
  late.http_status = 200;
  SessionAnnotation reply = add(late, record(Outcome::TOOL_SUCCESS, 1), n + 2);
  const SessionSummary s = tracker.summary();
  ASSERT_EQ(s.never_answered.size(), 1u) << "the late reply answers the reuse, still in the window";
  EXPECT_EQ(s.never_answered[0].source, "log#1");
  EXPECT_TRUE(reply.findings.empty());
  EXPECT_EQ(s.never_answered_omitted, 0u);
  EXPECT_EQ(s.entries, n + 2);
  EXPECT_TRUE(has_note(s, "windows of " + std::to_string(SessionTracker::kWindow) + " entries"));
}

TEST(SessionWindow, AReplyToAForgottenRequestIsNotCalledUnknown) {
  SessionTracker tracker("log");
  auto add = [&](const SessionFacts& f, Classification c, std::size_t number) { return tracker.add(f, {&c}, at(number)); };
  add(request_facts("1", 0), record(Outcome::NOT_CAPTURED, std::nullopt), 1);
  for (std::size_t i = 1; i < SessionTracker::kWindow + 10; ++i) {
    SessionFacts f = request_facts(std::to_string(i + 1), 200);
    f.request->params_hash = 1000 + i;
    add(f, record(Outcome::TOOL_SUCCESS, static_cast<int>(i + 1)), i + 1);
  }
  SessionFacts reply;
  reply.http_status = 200;
  SessionAnnotation a = add(reply, record(Outcome::TOOL_SUCCESS, 1), SessionTracker::kWindow + 11);
  EXPECT_TRUE(a.findings.empty()) << "id 1 was a request of the capture, further back than the window";
  const SessionSummary s = tracker.summary();
  ASSERT_EQ(s.never_answered.size(), 1u);
  EXPECT_EQ(s.never_answered[0].source, "log#1");
  SessionAnnotation other = add(reply, record(Outcome::TOOL_SUCCESS, 999999), SessionTracker::kWindow + 12);
  EXPECT_TRUE(other.findings.empty()) << "nor is any id once requests were forgotten";
}

TEST(SessionWindow, RecentPairingIsExactNearTheWindowEdge) {
  SessionTracker tracker("log");
  auto add = [&](const SessionFacts& f, Classification c, std::size_t number) { return tracker.add(f, {&c}, at(number)); };
  for (std::size_t i = 0; i < SessionTracker::kWindow - 1; ++i) {
    SessionFacts f = request_facts(std::to_string(i + 1), 200);
    f.request->params_hash = 1000 + i;
    add(f, record(Outcome::TOOL_SUCCESS, static_cast<int>(i + 1)), i + 1);
  }
  // Entry kWindow - 1 still sees entry 0: id 1 reused is found, with the first use's source.
  SessionAnnotation reuse = add(request_facts("1", 200), record(Outcome::TOOL_SUCCESS, 1), SessionTracker::kWindow);
  ASSERT_EQ(reuse.findings.size(), 1u);
  EXPECT_EQ(reuse.findings[0].code, "duplicate_request_id");
  EXPECT_NE(reuse.findings[0].detail.find("log#1 (tools/call)"), std::string::npos) << reuse.findings[0].detail;
  EXPECT_FALSE(has_note(tracker.summary(), "windows of")) << "nothing was forgotten";
}

TEST(SessionSequence, StatusesAreCapped) {
  std::vector<Exchange> many;
  for (int i = 0; i < 40; ++i) many.push_back(post(list_request(100 + i), 200, tools_list(100 + i, "")));
  auto run = analyze(std::move(many));
  const auto& last = run.analysis.entries.back();
  EXPECT_EQ(last.post_index, 40u);
  EXPECT_EQ(last.http_statuses.size(), SessionTracker::kMaxStatuses);
  EXPECT_EQ(last.http_statuses_omitted, 8u);
}

TEST(SessionSequence, SkippedEntriesCountButAreNoPosts) {
  Exchange page;
  page.source = "t.har#1";
  page.skipped = Skip{mcptriage::SkipReason::not_mcp, "GET /"};
  auto run = analyze({page, post(list_request(2), 200, tools_list(2, ""))});
  EXPECT_EQ(run.analysis.summary.entries, 2u);
  EXPECT_EQ(run.analysis.summary.skipped, 1u);
  EXPECT_EQ(run.analysis.summary.skipped_reasons.at("not_mcp"), 1u);
  EXPECT_EQ(run.analysis.entries[1].post_index, 1u);
}

constexpr std::string_view kSchemaTool =
    R"({"name":"stats","inputSchema":{"type":"object"},"outputSchema":{"type":"object","properties":{"count":{"type":"integer","minimum":0},"unit":{"enum":["m","s"]}},"required":["count"],"additionalProperties":false}})";

TEST(SessionOutputSchema, MismatchBecomesInvalidToolResult) {
  auto run = analyze({post(list_request(2), 200, tools_list(2, kSchemaTool)),
                      post(call(3, "stats", "{}"), 200, ok_result(3, R"(,"structuredContent":{"count":-1})")),
                      post(call(4, "stats", "{}"), 200, ok_result(4, R"(,"structuredContent":{"count":2,"extra":1})")),
                      post(call(5, "stats", "{}"), 200, ok_result(5)),
                      post(call(6, "stats", "{}"), 200, ok_result(6, R"(,"structuredContent":{"count":2,"unit":"s"})")),
                      post(call(7, "stats", "{}"), 200, ok_result(7, R"(,"structuredContent":{"count":2},"isError":true)"))});
  const auto& r = run.results;
  EXPECT_EQ(r[1][0].outcome, Outcome::INVALID_TOOL_RESULT);
  EXPECT_EQ(r[1][0].layer, Layer::protocol);
  EXPECT_EQ(to_string(r[1][0].reason), "structured_content_schema_mismatch");
  EXPECT_EQ(r[1][0].pointer, "/result/structuredContent/count");
  EXPECT_NE(r[1][0].detail.find("below the minimum"), std::string::npos);
  EXPECT_EQ(r[1][0].retry.advice, Advice::do_not_retry);
  EXPECT_EQ(r[2][0].pointer, "/result/structuredContent/extra");
  EXPECT_EQ(r[3][0].outcome, Outcome::INVALID_TOOL_RESULT) << "an outputSchema requires structuredContent";
  EXPECT_EQ(r[3][0].pointer, "/result/structuredContent");
  EXPECT_EQ(r[4][0].outcome, Outcome::TOOL_SUCCESS);
  EXPECT_TRUE(run.analysis.entries[4].schema_checked);
  EXPECT_EQ(r[5][0].outcome, Outcome::TOOL_ERROR) << "an isError result is not checked";
  EXPECT_EQ(run.analysis.summary.outcomes.at("INVALID_TOOL_RESULT"), 3u);
  ASSERT_TRUE(run.analysis.summary.first_failure);
  EXPECT_EQ(run.analysis.summary.first_failure->reason, "structured_content_schema_mismatch");
}

TEST(SessionOutputSchema, SseResultIsFound) {
  const std::string sse = "event: message\ndata: " + ok_result(3, R"(,"structuredContent":{"count":"x"})") + "\n\n";
  auto run = analyze({post(list_request(2), 200, tools_list(2, kSchemaTool)),
                      post(call(3, "stats", "{}"), 200, sse, "s1", "text/event-stream")});
  EXPECT_EQ(run.results[1][0].outcome, Outcome::INVALID_TOOL_RESULT);
  EXPECT_EQ(run.results[1][0].pointer, "/result/structuredContent/count");
}

std::optional<SchemaMismatch> mismatch(std::string_view schema, std::string_view instance) {
  auto r = check_schema(schema, instance);
  EXPECT_TRUE(r) << (r ? "" : r.error());
  return r ? *r : std::nullopt;
}

TEST(SchemaSubset, Keywords) {
  EXPECT_FALSE(mismatch(R"({"type":"integer"})", "3"));
  EXPECT_FALSE(mismatch(R"({"type":"integer"})", "3.0"));
  EXPECT_TRUE(mismatch(R"({"type":"integer"})", "3.5"));
  EXPECT_FALSE(mismatch(R"({"type":["string","null"]})", "null"));
  EXPECT_EQ(mismatch(R"({"type":"object"})", "[]")->message, "expected object, got array");
  EXPECT_FALSE(mismatch(R"({"enum":[1,"a",{"b":[1]}]})", R"({"b":[1.0]})"));
  EXPECT_TRUE(mismatch(R"({"enum":[1,"a"]})", "2"));
  EXPECT_FALSE(mismatch(R"({"const":{"a":1,"b":2}})", R"({"b":2,"a":1})"));
  EXPECT_TRUE(mismatch(R"({"minLength":2})", "\"\xc3\xa9\""));  // one code point
  EXPECT_TRUE(mismatch(R"({"maxLength":1})", "\"ab\""));
  EXPECT_EQ(mismatch(R"({"items":{"type":"string"}})", R"(["a",2])")->pointer, "/1");
  EXPECT_EQ(mismatch(R"({"prefixItems":[{"type":"string"},{"type":"integer"}]})", R"(["a","b"])")->pointer, "/1");
  EXPECT_TRUE(mismatch(R"({"minItems":1})", "[]"));
  EXPECT_TRUE(mismatch(R"({"maxItems":1})", "[1,2]"));
  EXPECT_TRUE(mismatch(R"({"exclusiveMaximum":3})", "3"));
  EXPECT_TRUE(mismatch(R"({"maximum":3,"exclusiveMaximum":true})", "3"));
  EXPECT_FALSE(mismatch(R"({"maximum":3})", "3"));
  EXPECT_EQ(mismatch(R"({"properties":{"a/b":{"type":"string"}}})", R"({"a/b":1})")->pointer, "/a~1b");
  EXPECT_EQ(mismatch(R"({"required":["a"]})", "{}")->message, "the required member \"a\" is missing");
  EXPECT_EQ(mismatch(R"({"additionalProperties":{"type":"integer"}})", R"({"x":"y"})")->pointer, "/x");
  EXPECT_FALSE(mismatch(R"({"patternProperties":{"^x":{}},"additionalProperties":false})", R"({"x":1})"));
  EXPECT_FALSE(mismatch(R"({"anyOf":[{"type":"string"},{"type":"integer"}]})", "1"));
  EXPECT_TRUE(mismatch(R"({"oneOf":[{"type":"number"},{"type":"integer"}]})", "1"));
  EXPECT_TRUE(mismatch(R"({"allOf":[{"type":"number"},{"minimum":5}]})", "1"));
  EXPECT_TRUE(mismatch(R"({"not":{"type":"null"}})", "null"));
  EXPECT_TRUE(mismatch("false", "1"));
  EXPECT_FALSE(mismatch(R"({"$ref":"#/defs/x","format":"email","pattern":"^a"})", "\"b\"")) << "not checked";
}

TEST(SchemaSubset, ErrorsAreValues) {
  EXPECT_FALSE(check_schema("{", "1"));
  EXPECT_FALSE(check_schema("{}", "\xff"));
  // A hostile pair: a large array checked against nested anyOf is bounded by the step budget.
  std::string schema = R"({"items":)";
  for (int i = 0; i < 40; ++i) schema += R"({"anyOf":[{"type":"string"},)";
  schema += "{}";
  for (int i = 0; i < 40; ++i) schema += "]}";
  schema += "}";
  std::string instance = "[" + std::string(200000 * 2 - 1, ',') + "]";
  for (std::size_t i = 1; i < instance.size() - 1; i += 2) instance[i] = '1';
  auto r = check_schema(schema, instance);
  EXPECT_FALSE(r);
  if (!r) {
    EXPECT_NE(r.error().find("steps"), std::string::npos);
  }
}

TEST(SessionRender, MembersAndRecordsAreJson) {
  auto run = analyze({post(list_request(2), 503, "", "s1", "text/plain"), post(list_request(3), 200, tools_list(3, ""))});
  simdjson::dom::parser parser;
  const std::string record = with_session_member(R"({"schema":1,"source":"x"})", run.analysis.entries[1]);
  simdjson::dom::element root;
  ASSERT_EQ(parser.parse(record).get(root), simdjson::SUCCESS) << record;
  EXPECT_EQ(std::string_view(root["session"]["replay_of"]["safety"]), "safe");
  const std::string summary = render_summary_jsonl("t.har", "har", run.analysis.summary);
  ASSERT_EQ(parser.parse(summary).get(root), simdjson::SUCCESS) << summary;
  EXPECT_EQ(std::string_view(root["kind"]), "session_summary");
  EXPECT_EQ(int64_t(root["first_failure"]["http_status"]), 503);
  const std::string skipped = render_skipped_jsonl("t.har#1", "har", Skip{mcptriage::SkipReason::not_mcp, "GET \x1b[31m/"});
  ASSERT_EQ(parser.parse(skipped).get(root), simdjson::SUCCESS) << skipped;
  EXPECT_EQ(std::string_view(root["reason"]), "not_mcp");
  const std::string table = render_summary_table("t.har", run.analysis.summary, {{"t.har#1", Skip{mcptriage::SkipReason::not_mcp, "a\x1b"}}}, {});
  EXPECT_EQ(table.find('\x1b'), std::string::npos) << "untrusted text is escaped";
}

}  // namespace

TEST(SessionOutputSchema, ToolsBelongToTheirSessionAndServer) {
  // Two sessions interleaved, then the same session id on another server: each tools/call is
  // judged by its own session's tools/list, never by the latest one of the capture.
  constexpr std::string_view kTemp =
      R"({"name":"w","inputSchema":{"type":"object"},"outputSchema":{"type":"object","required":["temp"]}})";
  constexpr std::string_view kSummary =
      R"({"name":"w","inputSchema":{"type":"object"},"outputSchema":{"type":"object","required":["summary"]}})";
  Exchange other_server = post(list_request(2), 200, tools_list(2, kSummary), "a");
  other_server.request->target = "https://other.example/mcp";
  Exchange other_call = post(call(4, "w", "{}"), 200, ok_result(4, R"(,"structuredContent":{"summary":"x"})"), "a");
  other_call.request->headers.push_back({"Host", "other.example"});
  auto run = analyze({post(list_request(2), 200, tools_list(2, kTemp), "a"),
                      post(list_request(2), 200, tools_list(2, kSummary), "b"),
                      post(call(3, "w", "{}"), 200, ok_result(3, R"(,"structuredContent":{"temp":1})"), "a"),
                      post(call(3, "w", "{}"), 200, ok_result(3, R"(,"structuredContent":{"summary":"s"})"), "b"),
                      post(call(5, "w", "{}"), 200, ok_result(5, R"(,"structuredContent":{"summary":"s"})"), "a"),
                      other_server, other_call});
  const auto& r = run.results;
  EXPECT_EQ(r[2][0].outcome, Outcome::TOOL_SUCCESS) << "session a's schema, not b's (the latest)";
  EXPECT_EQ(r[3][0].outcome, Outcome::TOOL_SUCCESS);
  EXPECT_EQ(r[4][0].outcome, Outcome::INVALID_TOOL_RESULT) << "session a's schema still applies to a";
  EXPECT_EQ(r[6][0].outcome, Outcome::TOOL_SUCCESS) << "the other server's session a (URL, then Host)";
}
