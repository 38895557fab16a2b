// Unit tests for src/classify/sse_body: event-stream bodies judged one event at a time, through
// classify() (a whole body) and through SseJudge (events fed one by one, as a live reader does).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "mcptriage/classify.hpp"
#include "mcptriage/render.hpp"

using namespace mcptriage;

namespace {

Exchange json_reply(int status, std::string body, std::string content_type = "application/json") {
  Exchange ex;
  ex.source = "t#1";
  ex.format = CaptureFormat::curl_i;
  ex.response.http_version = "HTTP/1.1";
  ex.response.status = status;
  if (!content_type.empty()) ex.response.headers.push_back({"Content-Type", content_type});
  ex.response.body = std::move(body);
  return ex;
}

ContextFlags call(long long id = 1) {
  ContextFlags f;
  f.id = JsonRpcId{JsonRpcId::Kind::integer, std::to_string(id)};
  f.method = "tools/call";
  return f;
}

Classification one(const Exchange& ex, const ContextFlags& f) {
  auto v = classify(ex, f, 0);
  EXPECT_EQ(v.size(), 1u);
  return v.at(0);
}

constexpr const char* kSuccess =
    R"({"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","content":[{"type":"text","text":"ok"}],"isError":false}})";

std::string event(std::string_view data, std::string_view extra = "") {
  return std::string(extra) + "data: " + std::string(data) + "\n\n";
}

/// The records of `ex`'s body fed to an SseJudge one event at a time, rendered.
std::vector<std::string> fed(const Exchange& ex, const ContextFlags& f) {
  Exchange head = ex;  // the head a live reader has: no body yet, its end not known
  head.response.body.clear();
  head.response.body_state = BodyState::complete;
  auto judge = SseJudge::start(head, f, 0);
  EXPECT_TRUE(judge.has_value());
  if (!judge) return {};
  const sse::Stream stream = sse::parse(ex.response.body);
  for (const sse::Event& ev : stream.events) judge->feed(ev);
  EXPECT_EQ(judge->events(), stream.events.size());
  std::vector<std::string> out;
  for (const Classification& c : judge->finish(SseStreamEnd::of(stream, ex.response.body_state == BodyState::truncated))) {
    out.push_back(render_jsonl(Record{{0, 1}, ex.format, c}, ex.source));
  }
  return out;
}

std::vector<std::string> whole(const Exchange& ex, const ContextFlags& f) {
  std::vector<std::string> out;
  for (const Classification& c : classify(ex, f, 0)) out.push_back(render_jsonl(Record{{0, 1}, ex.format, c}, ex.source));
  return out;
}

}  // namespace

TEST(ClassifySse, MatchingResponseDecidesAfterNotifications) {
  auto c = one(json_reply(200,
                          "id: a\nretry: 1000\ndata:\n\n"
                          "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{}}\n\n"
                          "data: {\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"content\":[]}}\n\n"
                          "data: " + std::string(kSuccess) + "\n\n",
                          "text/event-stream"),
               call());
  EXPECT_EQ(c.outcome, Outcome::TOOL_SUCCESS);
  EXPECT_EQ(c.sse_events, 3u);
}

TEST(ClassifySse, PrimingOnlyIsResumableIncomplete) {
  auto c = one(json_reply(200, "id: s1-0\nretry: 2000\ndata:\n\n", "text/event-stream"), call());
  EXPECT_EQ(c.outcome, Outcome::STREAM_INCOMPLETE);
  EXPECT_EQ(c.resumable, true);
  EXPECT_EQ(c.retry.advice, Advice::resume_stream);
  EXPECT_EQ(c.retry.after_ms, 2000);
}

TEST(ClassifySse, Not2026Resumable) {
  ContextFlags f = call();
  f.protocol_version = "2026-07-28";
  auto c = one(json_reply(200, "id: 1\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\"}\n\n", "text/event-stream"), f);
  EXPECT_EQ(c.outcome, Outcome::STREAM_INCOMPLETE);
  EXPECT_EQ(c.resumable, false);
  EXPECT_EQ(c.retry.advice, Advice::resend_if_idempotent);
}

TEST(ClassifySse, EmptyStreamIsIncomplete) {
  auto c = one(json_reply(200, "", "text/event-stream"), call());
  EXPECT_EQ(c.outcome, Outcome::STREAM_INCOMPLETE);
  EXPECT_EQ(to_string(c.reason), "empty_stream");
}

TEST(ClassifySse, ServerRequestLastIsInputRequiredBefore2026) {
  auto c = one(json_reply(200, "data: {\"jsonrpc\":\"2.0\",\"id\":\"srv-1\",\"method\":\"sampling/createMessage\",\"params\":{}}\n\n", "text/event-stream"), call());
  EXPECT_EQ(c.outcome, Outcome::INPUT_REQUIRED);
  EXPECT_EQ(to_string(c.reason), "server_request_pending");
}

TEST(ClassifySse, BrokenResponseEventIsMalformed) {
  auto c = one(json_reply(200, "data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\n\n", "text/event-stream"), call());
  EXPECT_EQ(c.outcome, Outcome::MALFORMED_JSON);
}

TEST(SseJudge, EventsFedOneByOneGiveWhatTheWholeBodyGives) {
  const std::string note = R"({"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1}})";
  const std::string other = R"({"jsonrpc":"2.0","id":9,"result":{"content":[]}})";
  const std::string idless = R"({"jsonrpc":"2.0","error":{"code":-32600,"message":"bad"}})";
  const std::string elicit = R"({"jsonrpc":"2.0","id":"s1","method":"elicitation/create","params":{}})";
  const std::string typed = R"({"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","content":[]}})";
  const std::vector<std::string> bodies = {
      "id: a\nretry: 1000\ndata:\n\n" + event(note) + event(other) + event(kSuccess) + event(note),
      event("{broken") + event(note) + event(kSuccess),
      event("{broken", "event: endpoint\n") + event(kSuccess) + event("{x", "event: endpoint\n"),
      event(other) + event(idless) + event(note) + event(other),
      event(elicit) + event(typed) + event(elicit),
      event(elicit) + event(note),
      event(elicit) + event(other),
      event(R"([{"jsonrpc":"2.0","id":1,"result":{"content":[]}},{"jsonrpc":"2.0","id":2,"result":{}}])") + event(note),
      "id: 7\n" + event(note) + "data: {\"jsonrpc\"",
      event("{broken") + event(note),
      "",
      "data:\n\n",
  };
  for (const std::string& body : bodies) {
    for (const ContextFlags& f : {call(), ContextFlags{}}) {
      const Exchange ex = json_reply(200, body, "text/event-stream");
      EXPECT_EQ(fed(ex, f), whole(ex, f)) << body;
      ContextFlags v2026 = f;
      v2026.protocol_version = "2026-07-28";
      EXPECT_EQ(fed(ex, v2026), whole(ex, v2026)) << body;
    }
  }
  Exchange cut = json_reply(200, event(note), "text/event-stream");
  cut.response.body_state = BodyState::truncated;
  EXPECT_EQ(fed(cut, call()), whole(cut, call()));
}

TEST(SseJudge, DecidedWhenTheFinalResponseArrives) {
  auto judge = SseJudge::start(json_reply(200, "", "text/event-stream"), call(), 0);
  ASSERT_TRUE(judge);
  sse::Event ev;
  ev.data = R"({"jsonrpc":"2.0","method":"notifications/progress"})";
  EXPECT_FALSE(judge->feed(ev));
  ev.data = R"({"jsonrpc":"2.0","id":2,"result":{"content":[]}})";
  EXPECT_FALSE(judge->feed(ev)) << "another id";
  ev.data = kSuccess;
  EXPECT_TRUE(judge->feed(ev));
  EXPECT_TRUE(judge->decided());
  auto records = judge->finish(SseStreamEnd{});
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(records[0].outcome, Outcome::TOOL_SUCCESS);
  EXPECT_EQ(records[0].sse_events, 3u);
  EXPECT_EQ(records[0].retry.advice, Advice::none);
}

TEST(SseJudge, OnlyForWhatClassifyJudgesAsAnEventStream) {
  EXPECT_FALSE(SseJudge::start(json_reply(200, "", "application/json"), call(), 0));
  EXPECT_FALSE(SseJudge::start(json_reply(404, "", "text/event-stream"), call(), 0));
  EXPECT_FALSE(SseJudge::start(json_reply(202, "", "text/event-stream"), call(), 0));
  ContextFlags note;
  note.method = "notifications/initialized";
  EXPECT_FALSE(SseJudge::start(json_reply(200, "", "text/event-stream"), note, 0)) << "a notification wants 202";
  Exchange bare = json_reply(200, "", "");
  bare.format = CaptureFormat::bare_sse;
  bare.response.transport_captured = false;
  EXPECT_TRUE(SseJudge::start(bare, call(), 0));
}

TEST(SseJudge, AnEndlessStreamOfNotificationsIsCountedNotKept) {
  auto judge = SseJudge::start(json_reply(200, "", "text/event-stream"), call(), 0);
  ASSERT_TRUE(judge);
  sse::Event ev;
  ev.data = R"({"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1}})";
  for (int i = 0; i < 200000; ++i) judge->feed(ev);
  SseStreamEnd end;
  end.any_id = true;
  end.last_event_id = "e-200000";
  auto records = judge->finish(end);
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(records[0].reason, Reason::no_final_response_stream);
  EXPECT_EQ(records[0].detail,
            "the stream ended without the final response (200000 events, 200000 notifications); resumable from event "
            "id e-200000");
  EXPECT_TRUE(records[0].warnings.empty());
}

TEST(SseJudge, ManySkippedEventsAreCountedNotListed) {
  std::string body;
  for (int i = 0; i < 40; ++i) body += event(R"({"jsonrpc":"2.0","id":)" + std::to_string(100 + i) + R"(,"result":{}})");
  body += event(kSuccess);
  const Exchange ex = json_reply(200, body, "text/event-stream");
  const Classification c = one(ex, call());
  EXPECT_EQ(c.outcome, Outcome::TOOL_SUCCESS);
  ASSERT_EQ(c.warnings.size(), 17u);
  EXPECT_EQ(c.warnings[0], "event 1 is a response for another id (100)");
  EXPECT_EQ(c.warnings[15], "event 16 is a response for another id (115)");
  EXPECT_EQ(c.warnings[16],
            "24 more event(s) skipped with a warning (responses for other ids, `endpoint` events, events of other "
            "types): only the first 16 are listed");
  EXPECT_EQ(fed(ex, call()), whole(ex, call()));
}

// Issue 14: only `message` events reach an EventSource-style client (WHATWG HTML, "dispatch the
// event"; the TypeScript and Python SDK clients); a response in an event of another type is never
// delivered.
TEST(ClassifySse, ResponseOnlyInEventOfAnotherTypeIsIncomplete) {
  const Exchange ex = json_reply(200, "id: e1\ndata:\n\n" + event(kSuccess, "event: result\n"), "text/event-stream");
  const Classification c = one(ex, call());
  EXPECT_EQ(c.outcome, Outcome::STREAM_INCOMPLETE);
  EXPECT_EQ(c.reason, Reason::event_type_not_message);
  EXPECT_NE(c.detail.find("`result`"), std::string::npos) << c.detail;
  EXPECT_EQ(c.resumable, false);
  EXPECT_EQ(c.retry.advice, Advice::do_not_retry);
  EXPECT_EQ(fed(ex, call()), whole(ex, call()));
}

TEST(ClassifySse, MessageEventStillDecidesAfterAnotherType) {
  const Exchange ex = json_reply(200,
                                 event(R"({"jsonrpc":"2.0","method":"notifications/progress","params":{}})", "event: progress\n") +
                                     event(kSuccess, "event: result\n") + event(kSuccess, "event: message\n"),
                                 "text/event-stream");
  const Classification c = one(ex, call());
  EXPECT_EQ(c.outcome, Outcome::TOOL_SUCCESS);
  ASSERT_EQ(c.warnings.size(), 2u);
  EXPECT_NE(c.warnings[0].find("event 1 is of type `progress`"), std::string::npos) << c.warnings[0];
  EXPECT_NE(c.warnings[0].find("a notification notifications/progress"), std::string::npos) << c.warnings[0];
  EXPECT_NE(c.warnings[1].find("event 2 is of type `result`, not `message`: the response"), std::string::npos) << c.warnings[1];
  EXPECT_EQ(fed(ex, call()), whole(ex, call()));
}

TEST(ClassifySse, ServerRequestInAnotherTypeIsNotPending) {
  const Exchange ex = json_reply(
      200, event(R"({"jsonrpc":"2.0","id":9,"method":"elicitation/create","params":{}})", "event: request\n"),
      "text/event-stream");
  const Classification c = one(ex, call());
  EXPECT_EQ(c.outcome, Outcome::STREAM_INCOMPLETE);
  EXPECT_EQ(c.reason, Reason::no_final_response_stream);
  ASSERT_EQ(c.warnings.size(), 1u);
  EXPECT_NE(c.warnings[0].find("a server request elicitation/create"), std::string::npos) << c.warnings[0];
}

// Issue 14: a stream that ends after a response for another id is id_mismatch, as for a JSON body,
// not a stream to resume.
TEST(ClassifySse, StreamEndingAfterAnotherIdIsIdMismatch) {
  const Exchange ex = json_reply(200,
                                 "id: a\nretry: 1000\ndata:\n\n" +
                                     event(R"({"jsonrpc":"2.0","id":2,"result":{"content":[]}})", "id: b\n") +
                                     event(R"({"jsonrpc":"2.0","method":"notifications/progress","params":{}})", "id: c\n"),
                                 "text/event-stream");
  const Classification c = one(ex, call());
  EXPECT_EQ(c.outcome, Outcome::INVALID_ENVELOPE);
  EXPECT_EQ(c.reason, Reason::id_mismatch);
  EXPECT_EQ(c.pointer, "/id");
  EXPECT_EQ(c.detail.rfind("SSE event 1: response id 2 does not equal request id 1", 0), 0u) << c.detail;
  EXPECT_EQ(c.retry.advice, Advice::do_not_retry);
  EXPECT_EQ(fed(ex, call()), whole(ex, call()));
}

TEST(ClassifySse, IdLessErrorStillBeatsAnotherId) {
  const Exchange ex = json_reply(200,
                                 event(R"({"jsonrpc":"2.0","id":2,"result":{"content":[]}})") +
                                     event(R"({"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"x"}})"),
                                 "text/event-stream");
  EXPECT_EQ(one(ex, call()).outcome, Outcome::JSONRPC_ERROR);
}
