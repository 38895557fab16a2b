// The session reports' building blocks (report.hpp): the JSON embedded in the HTML page, the
// redacted exchange view, the HAR times it carries, and the HTML and OTLP sinks.
#include <gtest/gtest.h>

#include "mcptriage/capture.hpp"
#include "mcptriage/report.hpp"

namespace {

using mcptriage::Exchange;

TEST(JsonForScript, NothingCanEndOrBendTheScriptElement) {
  const std::string in = R"({"a":"</script><script>x()</script><!-- -->&)" "\xE2\x80\xA8\xE2\x80\xA9" R"("})";
  const std::string out = mcptriage::json_for_script(in);
  EXPECT_EQ(out.find('<'), std::string::npos);
  EXPECT_EQ(out.find('>'), std::string::npos);
  EXPECT_EQ(out.find('&'), std::string::npos);
  EXPECT_EQ(out.find("\xE2\x80\xA8"), std::string::npos);
  EXPECT_EQ(out, R"({"a":"\u003c/script\u003e\u003cscript\u003ex()\u003c/script\u003e\u003c!-- --\u003e\u0026\u2028\u2029"})");
  // Other UTF-8 passes through.
  EXPECT_EQ(mcptriage::json_for_script("\"\xE2\x80\x94\""), "\"\xE2\x80\x94\"");
}

TEST(ExchangeView, RedactsHeadersAndBodiesAndCutsPreviews) {
  Exchange ex;
  ex.request = mcptriage::Request{};
  ex.request->method_line = "POST";
  ex.request->target = "https://user:pw@example.com/mcp?token=abc123";
  ex.request->headers = {{"Authorization", "Bearer sk-live-secret"}, {"Mcp-Session-Id", "0123456789abcdef"}};
  ex.request->body = R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{"password":"hunter2"}}})";
  ex.response.headers = {{"Set-Cookie", "sid=cookie-secret; Path=/"}, {"Content-Type", "application/json"}};
  ex.response.body = std::string(5000, 'a') + "\xC3\xA9";
  const auto v = mcptriage::make_exchange_view(ex);
  EXPECT_EQ(v.http_method, "POST");
  EXPECT_EQ(v.target.find("pw@"), std::string::npos);
  EXPECT_EQ(v.target.find("abc123"), std::string::npos);
  ASSERT_EQ(v.request_headers.size(), 2u);
  EXPECT_EQ(v.request_headers[0].value, "Bearer [REDACTED]");
  EXPECT_EQ(v.request_headers[1].value.find("0123456789abcdef"), std::string::npos);
  EXPECT_EQ(v.request_body.find("hunter2"), std::string::npos);
  EXPECT_EQ(v.response_headers[0].value.find("cookie-secret"), std::string::npos);
  EXPECT_EQ(v.response_body.size(), mcptriage::ExchangeView::kBodyPreview);
  EXPECT_EQ(v.response_body_size, 5002u);
}

TEST(ExchangeView, ListsTheEventsOfAStreamWithTheirRoles) {
  Exchange ex;
  ex.response.headers = {{"Content-Type", "text/event-stream"}};
  ex.response.body =
      "id: 1\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{}}\n\n"
      "id: 2\ndata: {\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"sampling/createMessage\",\"params\":{}}\n\n"
      "data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n\n"
      "data: {\"jsonrpc\":\"2.0\",\"id\":1,\"res";
  const auto v = mcptriage::make_exchange_view(ex);
  ASSERT_EQ(v.events.size(), 3u);
  EXPECT_EQ(v.events_total, 3u);
  EXPECT_TRUE(v.stream_unterminated);
  EXPECT_EQ(v.events[0].role, "notification");
  EXPECT_EQ(v.events[0].method, "notifications/progress");
  EXPECT_EQ(v.events[0].id, "1");
  EXPECT_EQ(v.events[1].role, "request");
  EXPECT_EQ(v.events[1].method, "sampling/createMessage");
  EXPECT_EQ(v.events[2].role, "response");
}

TEST(ExchangeView, CarriesTheHarTimes) {
  const std::string har =
      R"({"log":{"version":"1.2","creator":{"name":"t","version":"1"},"entries":[{"startedDateTime":"2026-11-30T10:00:01.250+01:00","time":42.5,)"
      R"("request":{"method":"POST","url":"http://h/mcp","httpVersion":"HTTP/1.1","headers":[],"postData":{"mimeType":"application/json","text":"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}"}},)"
      R"("response":{"status":200,"statusText":"OK","httpVersion":"HTTP/1.1","headers":[{"name":"Content-Type","value":"application/json"}],"content":{"size":36,"mimeType":"application/json","text":"{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}"}}}]}})";
  auto exs = mcptriage::read_capture(har, "t.har");
  ASSERT_TRUE(exs);
  ASSERT_EQ(exs->size(), 1u);
  const auto v = mcptriage::make_exchange_view(exs->front());
  // 2026-11-30T09:00:01.25Z
  ASSERT_TRUE(v.started_unix_ns);
  EXPECT_EQ(*v.started_unix_ns, 1796029201250000000LL);
  ASSERT_TRUE(v.duration_ms);
  EXPECT_DOUBLE_EQ(*v.duration_ms, 42.5);
}

// A `mcptriage proxy` recording's `timing` (docs/proxy.md "Record format") gives the reports
// the exchange's own start and duration, as a HAR's startedDateTime and time do; a line
// without it, or with an unreadable one, has none (the report then uses the run's time).
TEST(ExchangeView, CarriesTheRecordingTimes) {
  auto view = [](std::string_view timing) {
    const std::string line =
        R"({"request":{"method":"POST","url":"http://h/mcp","headers":[["Content-Type","application/json"]],"body":"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}"},)"
        R"("response":{"status":200,"headers":[["Content-Type","application/json"]],"body":"{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}"})" +
        std::string(timing) + "}\n";
    auto exs = mcptriage::read_capture(line, "rec.jsonl");
    EXPECT_TRUE(exs);
    EXPECT_EQ(exs ? exs->size() : 0u, 1u);
    return exs && !exs->empty() ? mcptriage::make_exchange_view(exs->front()) : mcptriage::ExchangeView{};
  };
  const auto v = view(R"(,"timing":{"started":"2026-11-30T09:00:01.250Z","first_byte_ms":3,"end_ms":17.5})");
  ASSERT_TRUE(v.started_unix_ns);
  EXPECT_EQ(*v.started_unix_ns, 1796029201250000000LL);
  ASSERT_TRUE(v.duration_ms);
  EXPECT_DOUBLE_EQ(*v.duration_ms, 17.5);
  const auto none = view("");
  EXPECT_FALSE(none.started_unix_ns);
  EXPECT_FALSE(none.duration_ms);
  const auto bad = view(R"(,"timing":{"started":"yesterday","end_ms":-4})");
  EXPECT_FALSE(bad.started_unix_ns);
  EXPECT_FALSE(bad.duration_ms);
}

// Found by fuzz_read_capture in CI: a year-0001 startedDateTime overflowed the signed
// nanosecond product (UBSan). Instants 64-bit nanoseconds cannot hold carry no start time; the
// last representable second, and the Unix epoch itself, still do.
TEST(ExchangeView, HarTimesOutsideTheNanosecondRangeCarryNoStart) {
  auto started = [](std::string_view when) {
    const std::string har =
        R"({"log":{"version":"1.2","creator":{"name":"t","version":"1"},"entries":[{"startedDateTime":")" +
        std::string(when) +
        R"(","time":999999999999,"request":{"method":"POST","url":"http://h/mcp","httpVersion":"HTTP/1.1","headers":[]},)"
        R"("response":{"status":200,"statusText":"OK","httpVersion":"HTTP/1.1","headers":[],"content":{"size":0,"mimeType":"application/json","text":""}}}]}})";
    auto exs = mcptriage::read_capture(har, "t.har");
    EXPECT_TRUE(exs);
    return exs && !exs->empty() ? mcptriage::make_exchange_view(exs->front()).started_unix_ns : std::nullopt;
  };
  EXPECT_FALSE(started("0001-01-01T00:00:00Z"));
  EXPECT_FALSE(started("9999-12-31T23:59:59.999+14:00"));
  EXPECT_FALSE(started("1969-12-31T23:59:59Z"));
  EXPECT_FALSE(started("2262-04-11T23:47:17Z"));
  EXPECT_EQ(started("1970-01-01T00:00:00Z"), 0LL);
  EXPECT_EQ(started("2262-04-11T23:47:15Z"), 9223372035000000000LL);
}

TEST(HtmlSink, EmbedsRecordsWithoutMarkupFromTheCapture) {
  mcptriage::StringOutput out;
  auto sink = mcptriage::make_html_sink(out, false);
  sink->begin_input(mcptriage::InputInfo{0, "in<put>.txt"});
  mcptriage::Record r;
  r.source = mcptriage::SourceRef{0, 1, std::nullopt};
  r.c.outcome = mcptriage::Outcome::TOOL_ERROR;
  r.c.layer = mcptriage::Layer::application;
  r.c.detail = "</script><script>alert(1)</script>";
  sink->record(r, mcptriage::Check{}, {});
  sink->finish();
  const std::string& html = out.text;
  EXPECT_EQ(html.find("alert(1)</script>"), std::string::npos);
  EXPECT_NE(html.find("\\u003c/script\\u003e\\u003cscript\\u003ealert(1)"), std::string::npos);
  EXPECT_EQ(html.find("in<put>"), std::string::npos);
  // Exactly the page's own two script elements, no external resource.
  std::size_t scripts = 0;
  for (std::size_t at = html.find("<script"); at != std::string::npos; at = html.find("<script", at + 1)) ++scripts;
  EXPECT_EQ(scripts, 2u);
  EXPECT_EQ(html.find("src="), std::string::npos);
  EXPECT_EQ(html.find("http://"), std::string::npos);
}

// Every exchange gets a row; details are kept for every exchange within the first budget, then
// for failures only within the second, then for none; repeated values come from the string table.
TEST(HtmlSink, KeepsDetailsWithinItsBudgetAndARowForEveryRecord) {
  mcptriage::StringOutput out;
  auto sink = mcptriage::make_html_sink(out, false, mcptriage::HtmlBudget{1500, 4000});
  sink->begin_input(mcptriage::InputInfo{0, "big.log"});
  auto view = std::make_shared<mcptriage::ExchangeView>();
  view->http_method = "POST";
  view->response_body = std::string(600, 'x');
  for (std::size_t i = 1; i <= 12; ++i) {
    mcptriage::Record r;
    r.source = mcptriage::SourceRef{0, i, std::nullopt};
    const bool failure = i % 2 == 0;
    r.c.outcome = failure ? mcptriage::Outcome::HTTP_ERROR : mcptriage::Outcome::TOOL_SUCCESS;
    r.c.layer = failure ? mcptriage::Layer::transport : mcptriage::Layer::application;
    r.c.method = "tools/call";
    r.c.tool = "echo";
    r.view = view;
    sink->record(r, mcptriage::Check{}, {});
  }
  sink->finish();
  const std::string& html = out.text;
  std::vector<std::string> rows, details;
  std::size_t tools = 0;
  for (std::size_t at = 0; at < html.size();) {
    const std::size_t nl = html.find('\n', at);
    const std::string line = html.substr(at, nl == std::string::npos ? std::string::npos : nl - at);
    if (line.rfind("[2,", 0) == 0) rows.push_back(line);
    if (line.rfind("{\"rec\":", 0) == 0) details.push_back(rows.empty() ? "" : rows.back());
    if (line == R"([0,"echo"])") ++tools;
    if (nl == std::string::npos) break;
    at = nl + 1;
  }
  ASSERT_EQ(rows.size(), 12u);
  EXPECT_EQ(tools, 1u);  // defined once, referred to by every row
  EXPECT_EQ(rows[0].rfind(R"([2,"1",)", 0), 0u) << rows[0];
  // Each detail is some 1 KB: the first two rows keep theirs (all under 1500 bytes), then only
  // failures (even rows) until 4000 bytes, then none.
  ASSERT_GE(details.size(), 3u);
  ASSERT_LT(details.size(), 12u);
  EXPECT_EQ(details[0], rows[0]);
  EXPECT_EQ(details[1], rows[1]);
  for (std::size_t i = 2; i < details.size(); ++i) {
    const std::size_t n = std::stoul(details[i].substr(4));  // [2,"N",...
    EXPECT_EQ(n % 2, 0u) << details[i];                     // a failure's
  }
  EXPECT_NE(html.find("[6," + std::to_string(details.size()) + ",1500,4000]"), std::string::npos);
}

TEST(OtlpSink, OneSpanPerRecordWithErrorStatusForFailures) {
  mcptriage::StringOutput out;
  auto sink = mcptriage::make_otlp_sink(out, false, 1764633600);
  sink->begin_input(mcptriage::InputInfo{0, "a.txt"});
  mcptriage::Record ok;
  ok.source = mcptriage::SourceRef{0, 1, std::nullopt};
  ok.c.outcome = mcptriage::Outcome::TOOL_SUCCESS;
  ok.c.method = "tools/call";
  ok.c.tool = "echo";
  sink->record(ok, mcptriage::Check{}, {});
  mcptriage::Record bad = ok;
  bad.source.exchange = 2;
  bad.c.outcome = mcptriage::Outcome::JSONRPC_ERROR;
  bad.c.error_code = -32602;
  bad.c.error_message = "bad params";
  sink->record(bad, mcptriage::Check{}, {});
  sink->finish();
  const std::string& j = out.text;
  EXPECT_NE(j.find(R"("name":"tools/call echo","kind":3,"startTimeUnixNano":"1764633600000000000")"), std::string::npos);
  EXPECT_NE(j.find(R"({"key":"error.type","value":{"stringValue":"-32602"}})"), std::string::npos);
  EXPECT_NE(j.find(R"("status":{"message":"bad params","code":2})"), std::string::npos);
  EXPECT_NE(j.find(R"("status":{}})"), std::string::npos);  // the success: status unset
  EXPECT_EQ(j.rfind("{\"resourceSpans\":[", 0), 0u);
}

// The latest start a HAR can carry plus the longest duration it can carry overflowed the
// span's end time; the end saturates at the largest fixed64 value that is also an int64.
TEST(OtlpSink, EndTimeSaturatesInsteadOfWrapping) {
  mcptriage::StringOutput out;
  auto sink = mcptriage::make_otlp_sink(out, false, 1764633600);
  sink->begin_input(mcptriage::InputInfo{0, "a.har"});
  auto view = std::make_shared<mcptriage::ExchangeView>();
  view->started_unix_ns = 9223372035000000000LL;
  view->duration_ms = 999999999999.0;
  mcptriage::Record r;
  r.source = mcptriage::SourceRef{0, 1, std::nullopt};
  r.c.outcome = mcptriage::Outcome::TOOL_SUCCESS;
  r.view = view;
  sink->record(r, mcptriage::Check{}, {});
  sink->finish();
  EXPECT_NE(out.text.find(R"("startTimeUnixNano":"9223372035000000000","endTimeUnixNano":"9223372036854775807")"),
            std::string::npos)
      << out.text;
}

}  // namespace
