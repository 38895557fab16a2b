// The client-behaviour engine (src/triage/behaviour.hpp) with the stdio words and actions of
// mcptriage wrap: a resend, a host that closes the server's input after a failure or before it
// ends, a host that sends something else, and the server's end.
#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "triage/behaviour.hpp"

namespace mcptriage::triage {
namespace {

using namespace std::chrono_literals;

Verdict failed_call(std::string source) {
  Verdict v;
  v.source = std::move(source);
  v.outcome = Outcome::JSONRPC_ERROR;
  v.reason = "internal_error";
  v.failure = true;
  v.method = "tools/call";
  v.tool = "echo";
  v.retry_safe = true;
  v.retry_safe_source = "readOnlyHint: true (rec#3)";
  return v;
}

bool has(const std::string& text, std::string_view part) { return text.find(part) != std::string::npos; }

TEST(BehaviourWatcherStdio, ResendIsReportedWithItsSafetyAndNoHttpMembers) {
  BehaviourWatcher w(1000ms, WatchedTransport::stdio);
  const auto t = BehaviourClock::time_point{} + 100s;
  EXPECT_TRUE(w.started(RequestBegun{4, t, "", "tools/call", "echo", false}).empty());
  EXPECT_TRUE(w.completed(ExchangeEnded{4, t, t + 5ms, t + 6ms, "jsonrpc-error=-32603@call=4"}, {failed_call("rec#4")}).empty());
  w.started(RequestBegun{5, t + 8ms, "", "tools/call", "echo", false});
  Verdict again;
  again.source = "rec#5";
  again.outcome = Outcome::TOOL_SUCCESS;
  again.replay = Replay{"rec#4", 3, Outcome::JSONRPC_ERROR, ReplaySafety::safe, "readOnlyHint: true (rec#3)", "unknown", false};
  const auto reports = w.completed(ExchangeEnded{5, t + 8ms, t + 9ms, t + 10ms, ""}, {again});
  ASSERT_EQ(reports.size(), 1u);
  EXPECT_EQ(reports[0].action, "resend");
  const std::string& j = reports[0].jsonl;
  EXPECT_TRUE(has(j, R"("http_status":null)")) << j;
  EXPECT_TRUE(has(j, R"j("safe":true,"safe_source":"readOnlyHint: true (rec#3)")j")) << j;
  EXPECT_TRUE(has(j, R"("next_request":{"exchange":5,"http_method":null,"method":"tools/call")")) << j;
  EXPECT_TRUE(has(j, R"("closed_input_after_ms":null)")) << j;
  EXPECT_TRUE(has(j, "the host sent the same call again 3 ms after; repeating it was safe")) << j;
  EXPECT_EQ(reports[0].table.rfind("host after rec#4 JSONRPC_ERROR (internal_error) injected jsonrpc-error=-32603@call=4: ", 0),
            0u)
      << reports[0].table;
  EXPECT_EQ(w.counts().at("resend"), 1u);
}

TEST(BehaviourWatcherStdio, ClosingTheInputAfterAFailureOrBeforeItEnds) {
  BehaviourWatcher w(10s, WatchedTransport::stdio);
  const auto t = BehaviourClock::time_point{} + 100s;
  w.completed(ExchangeEnded{2, t, t + 1s, t + 1s, ""}, {failed_call("rec#2")});
  // Something else first (a cancellation), then the input closed: new_request, with the close said.
  w.started(RequestBegun{3, t + 2s, "", "notifications/cancelled", "", false});
  auto reports = w.input_closed(t + 3s);
  ASSERT_EQ(reports.size(), 1u);
  EXPECT_EQ(reports[0].action, "new_request");
  EXPECT_TRUE(has(reports[0].jsonl, R"("closed_input_after_ms":2000.000)")) << reports[0].jsonl;
  EXPECT_TRUE(has(reports[0].jsonl, "the host sent a new message (notifications/cancelled) 1.0 s after")) << reports[0].jsonl;
  EXPECT_TRUE(has(reports[0].jsonl, "it closed the server's input 2.0 s after")) << reports[0].jsonl;
  // A failure that ends after the close (the server's end with a call in flight): reported at once.
  reports = w.completed(ExchangeEnded{4, t + 1500ms, t + 3500ms, t + 3500ms, ""}, {failed_call("rec#4")});
  ASSERT_EQ(reports.size(), 1u);
  EXPECT_EQ(reports[0].action, "closed_input");
  EXPECT_TRUE(has(reports[0].jsonl, R"("closed_input_after_ms":-500.000)")) << reports[0].jsonl;
  EXPECT_TRUE(has(reports[0].jsonl, "the host had closed the server's input 500 ms before this failure ended")) << reports[0].jsonl;
  EXPECT_FALSE(w.next_deadline().has_value());
}

TEST(BehaviourWatcherStdio, NothingWithinTheWindowOrUntilTheServerEnds) {
  BehaviourWatcher w(1000ms, WatchedTransport::stdio);
  const auto t = BehaviourClock::time_point{} + 100s;
  w.completed(ExchangeEnded{2, t, t, t, ""}, {failed_call("rec#2")});
  EXPECT_TRUE(w.tick(t + 999ms).empty());
  auto reports = w.tick(t + 1000ms);
  ASSERT_EQ(reports.size(), 1u);
  EXPECT_EQ(reports[0].action, "nothing");
  EXPECT_TRUE(has(reports[0].jsonl, "the host sent nothing to the server within 1.0 s; resending it was safe")) << reports[0].jsonl;
  w.completed(ExchangeEnded{3, t + 2s, t + 2s, t + 2s, ""}, {failed_call("rec#3")});
  reports = w.finish(t + 2500ms);
  ASSERT_EQ(reports.size(), 1u);
  EXPECT_TRUE(has(reports[0].jsonl, "within 500 ms (the server ended)")) << reports[0].jsonl;
  // A success or a skipped entry opens no watch.
  Verdict ok;
  ok.source = "rec#4";
  ok.outcome = Outcome::TOOL_SUCCESS;
  EXPECT_TRUE(w.completed(ExchangeEnded{4, t + 3s, t + 3s, t + 3s, ""}, {ok}).empty());
  EXPECT_FALSE(w.next_deadline().has_value());
}

TEST(BehaviourWatcherHttp, KeepsTheProxysMembersAndWords) {
  BehaviourWatcher w(1000ms, WatchedTransport::http);
  const auto t = BehaviourClock::time_point{} + 100s;
  Verdict v = failed_call("rec#1");
  v.http_status = 503;
  w.completed(ExchangeEnded{1, t, t, t, ""}, {v});
  const auto reports = w.tick(t + 1s);
  ASSERT_EQ(reports.size(), 1u);
  EXPECT_TRUE(has(reports[0].jsonl, R"("http_status":503,"method":"tools/call","tool":"echo","injected":null,"retry_after_ms":null},"action":"nothing")"))
      << reports[0].jsonl;
  EXPECT_FALSE(has(reports[0].jsonl, "safe_source")) << reports[0].jsonl;
  EXPECT_FALSE(has(reports[0].jsonl, "closed_input_after_ms")) << reports[0].jsonl;
  EXPECT_TRUE(has(reports[0].jsonl, "the client sent nothing through the proxy within 1.0 s")) << reports[0].jsonl;
  EXPECT_EQ(reports[0].table.rfind("client after rec#1 JSONRPC_ERROR (internal_error, HTTP 503): ", 0), 0u) << reports[0].table;
}

}  // namespace
}  // namespace mcptriage::triage

namespace mcptriage::triage {
namespace {

TEST(BehaviourWatcherHttp, AFloodOfFailuresKeepsAtMostTheBoundOpen) {
  // Found with mcptriage mock under 20,000 unmatched requests: every event was checked against
  // every open watch (one per failure within --watch), so the triage thread fell minutes behind
  // the network and held their exchanges (50 MB per 20,000). The oldest watch past the bound is
  // reported at once, with what came after it.
  BehaviourWatcher w(std::chrono::milliseconds(10000), WatchedTransport::http);
  const auto t = BehaviourClock::time_point{} + std::chrono::seconds(100);
  std::size_t reported = 0;
  std::string first;
  const std::size_t n = BehaviourWatcher::kMaxOpenWatches + 10;
  for (std::size_t k = 1; k <= n; ++k) {
    const auto at = t + std::chrono::milliseconds(k);
    w.started(RequestBegun{k, at, "POST", "tools/call", "echo", false});
    Verdict v = failed_call("rec#" + std::to_string(k));
    auto out = w.completed(ExchangeEnded{k, at, at, at, ""}, {v});
    if (!out.empty() && first.empty()) first = out.front().jsonl;
    reported += out.size();
  }
  EXPECT_EQ(reported, 10u);
  EXPECT_TRUE(first.find(R"("source":"rec#1")") != std::string::npos) << first;
  EXPECT_TRUE(first.find(R"("action":"new_request")") != std::string::npos) << first;
  EXPECT_TRUE(first.find("reported early: more than 256 failures were watched at once") != std::string::npos) << first;
  EXPECT_EQ(w.finish(t + std::chrono::seconds(1)).size(), BehaviourWatcher::kMaxOpenWatches);
}

}  // namespace
}  // namespace mcptriage::triage
