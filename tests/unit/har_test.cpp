// Unit tests for the HAR 1.2 reader (src/capture/har.cpp): exporter samples and quirks.
#include <gtest/gtest.h>

#include <chrono>
#include <ctime>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include "mcptriage/capture.hpp"
#include "mcptriage/exchange.hpp"
#include "mcptriage/http.hpp"

namespace {

using mcptriage::BodyState;
using mcptriage::CaptureOptions;
using mcptriage::Exchange;
using mcptriage::find_header;
using mcptriage::read_capture;
using namespace std::string_literals;

constexpr std::string_view kInit =
    R"({"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{"listChanged":true},"logging":{}},"serverInfo":{"name":"fmtlab-server","version":"0.3.1"}}})";
constexpr std::string_view kCall =
    R"({"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"hello from echo"}],"isError":false}})";

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::vector<Exchange> read_sample(std::string_view file) {
  const std::string bytes = read_file(std::string(MCPTRIAGE_SOURCE_DIR) + "/testdata/samples/" + std::string(file));
  EXPECT_FALSE(bytes.empty()) << "sample missing: " << file;
  auto result = read_capture(bytes, file);
  EXPECT_TRUE(result) << file << ": " << (result ? "" : result.error().message);
  return result ? std::move(*result) : std::vector<Exchange>{};
}

/// JSON string literal of `s` (enough escaping for the test bodies).
std::string q(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + "\"";
}

/// One HAR entry: a POST of `request_body` answered by `status` with `content` (a JSON object
/// text) and `extra` members appended to the entry.
std::string entry(std::string_view request_body, int status, std::string_view content, std::string_view resp_headers,
                  std::string_view extra = "", std::string_view method = "POST",
                  std::string_view req_headers = R"([{"name":"Content-Type","value":"application/json"}])") {
  std::string e = R"({"startedDateTime":"2026-11-30T00:00:00Z","time":1,"request":{"method":")" + std::string(method) +
                  R"(","url":"http://127.0.0.1:1/mcp","httpVersion":"HTTP/1.1","headers":)" + std::string(req_headers) +
                  R"(,"queryString":[],"cookies":[],"headersSize":-1,"bodySize":-1)";
  if (!request_body.empty()) e += R"(,"postData":{"mimeType":"application/json","text":)" + q(request_body) + "}";
  e += R"(},"response":{"status":)" + std::to_string(status) +
       R"(,"statusText":"","httpVersion":"HTTP/1.1","headers":)" + std::string(resp_headers) +
       R"(,"cookies":[],"content":)" + std::string(content) + R"(,"redirectURL":"","headersSize":-1,"bodySize":-1})";
  e += R"(,"cache":{},"timings":{"send":0,"wait":1,"receive":0})";
  if (!extra.empty()) e += "," + std::string(extra);
  return e + "}";
}

std::string har(const std::vector<std::string>& entries, std::string_view version = "1.2") {
  std::string out = R"({"log":{"version":")" + std::string(version) +
                    R"(","creator":{"name":"test","version":"1"},"entries":[)";
  for (std::size_t i = 0; i < entries.size(); ++i) out += (i ? "," : "") + entries[i];
  return out + "]}}";
}

constexpr std::string_view kJsonCt = R"([{"name":"Content-Type","value":"application/json"}])";
constexpr std::string_view kCallRequest = R"({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo"}})";

std::vector<Exchange> read_har_text(const std::string& text) {
  auto r = read_capture(text, "t.har");
  EXPECT_TRUE(r) << (r ? "" : r.error().message);
  return r ? std::move(*r) : std::vector<Exchange>{};
}

TEST(HarChrome, SkipsPageAndFaviconReadsTheRest) {
  const auto exs = read_sample("chrome-devtools-http11.har");
  ASSERT_EQ(exs.size(), 9u);
  for (const auto& ex : exs) EXPECT_EQ(ex.format, mcptriage::CaptureFormat::har);
  EXPECT_EQ(exs[0].source, "chrome-devtools-http11.har#1");
  ASSERT_TRUE(exs[0].skipped);
  EXPECT_EQ(exs[0].skipped->reason, mcptriage::SkipReason::not_mcp);
  EXPECT_NE(exs[0].skipped->detail.find("GET http://127.0.0.1:18081/page.html"), std::string::npos);
  ASSERT_TRUE(exs[3].skipped);  // favicon.ico: 404 JSON that is not JSON-RPC
  EXPECT_EQ(exs[3].skipped->reason, mcptriage::SkipReason::not_mcp);
  EXPECT_NE(exs[3].skipped->detail.find("favicon.ico"), std::string::npos);

  const Exchange& init = exs[1];
  EXPECT_FALSE(init.skipped);
  ASSERT_TRUE(init.request);
  EXPECT_EQ(init.request->method_line, "POST");
  EXPECT_EQ(init.request->target, "http://127.0.0.1:18081/json");
  EXPECT_TRUE(init.request->body->find("\"method\":\"initialize\"") != std::string::npos);
  EXPECT_EQ(init.response.status, 200);
  EXPECT_EQ(init.response.http_version, "HTTP/1.1");
  EXPECT_EQ(init.response.body, kInit);
  EXPECT_EQ(init.response.body_state, BodyState::complete);

  const Exchange& accepted = exs[2];  // mimeType x-unknown, text ""
  EXPECT_EQ(accepted.response.status, 202);
  EXPECT_EQ(accepted.response.body, "");
  EXPECT_EQ(accepted.response.body_state, BodyState::complete);
  EXPECT_FALSE(find_header(accepted.response.headers, "content-type")) << "x-unknown is no media type";
  EXPECT_EQ(find_header(accepted.request->headers, "mcp-session-id").value_or(""),
            "7c2a4f0e-93d1-4b7a-9e55-0d3c1f6a8b21");

  const Exchange& priming = exs[4];
  EXPECT_TRUE(priming.response.body.starts_with("id: 1c7b5e2a_0\nretry: 1000\ndata: \n\n"));
  EXPECT_EQ(find_header(priming.response.headers, "content-type").value_or(""), "text/event-stream");

  EXPECT_EQ(exs[6].response.body.size(), 322u) << "gzip entry: the decoded LIST";
  EXPECT_EQ(exs[7].response.status, 404);

  const Exchange& eventsource = exs[8];  // GET, _resourceType eventsource, no text, _error
  EXPECT_FALSE(eventsource.skipped);
  EXPECT_EQ(eventsource.response.status, 200);
  EXPECT_EQ(eventsource.response.body_state, BodyState::not_captured);
  ASSERT_FALSE(eventsource.warnings.empty());
  EXPECT_NE(eventsource.warnings[0].find("EventSource"), std::string::npos);
  EXPECT_NE(eventsource.warnings[0].find("net::ERR_ABORTED"), std::string::npos);
}

TEST(HarMitmproxy, CompressedSizeAndHttp2) {
  const auto exs = read_sample("mitmproxy.har");
  ASSERT_EQ(exs.size(), 9u);
  for (const auto& ex : exs) EXPECT_FALSE(ex.skipped) << ex.source;
  EXPECT_EQ(exs[1].response.status, 202);
  EXPECT_EQ(exs[1].response.body, "");
  EXPECT_EQ(exs[4].response.body.size(), 322u) << "content.size 189 is the compressed size: ignored";
  EXPECT_EQ(exs[6].response.status, 401);
  EXPECT_EQ(exs[7].response.http_version, "HTTP/2");
  EXPECT_EQ(exs[7].response.reason, "");
  EXPECT_EQ(exs[7].response.body, kInit);
  EXPECT_TRUE(exs[8].response.body.starts_with("event: message\nid: ev-0001\n"));
  EXPECT_EQ(find_header(exs[8].request->headers, "MCP-Protocol-Version").value_or(""), "2025-06-18");
}

TEST(HarFirefox, Version11AndNoMimeType) {
  const auto exs = read_sample("firefox-style-mcp.har");
  ASSERT_EQ(exs.size(), 4u);
  EXPECT_EQ(exs[0].response.body, kInit);
  EXPECT_EQ(exs[1].response.status, 202);
  EXPECT_EQ(exs[1].response.body_state, BodyState::complete);
  EXPECT_FALSE(find_header(exs[1].response.headers, "content-type"));
  EXPECT_TRUE(exs[2].response.body.starts_with("id: 1c7b5e2a_0\n"));
}

TEST(HarQuirks, CharlesBase64Body) {
  const std::string b64 =
      "eyJqc29ucnBjIjoiMi4wIiwiaWQiOjMsInJlc3VsdCI6eyJjb250ZW50IjpbeyJ0eXBlIjoidGV4dCIsInRleHQiOiJoZWxsbyBmcm9tIGVj"
      "aG8ifV0sImlzRXJyb3IiOmZhbHNlfX0=";
  const auto exs = read_har_text(har({entry(
      kCallRequest, 200, R"({"size":104,"mimeType":"application/json","encoding":"base64","text":")" + b64 + R"("})",
      kJsonCt)}));
  ASSERT_EQ(exs.size(), 1u);
  EXPECT_EQ(exs[0].response.body, kCall);
  EXPECT_TRUE(exs[0].warnings.empty());
}

TEST(HarQuirks, BogusBase64FlagOnPlainTextFallsBackToTheText) {
  const auto exs = read_har_text(har({entry(
      kCallRequest, 200, R"({"size":104,"mimeType":"application/json","encoding":"base64","text":)" + q(kCall) + "}",
      kJsonCt)}));
  ASSERT_EQ(exs.size(), 1u);
  EXPECT_EQ(exs[0].response.body, kCall);
  ASSERT_EQ(exs[0].warnings.size(), 1u);
  EXPECT_NE(exs[0].warnings[0].find("not base64"), std::string::npos);
}

TEST(HarQuirks, InsomniaStatusZeroIsNotCaptured) {
  const auto exs = read_har_text(har({entry(kCallRequest, 0, R"({"size":0,"mimeType":""})", "[]")}));
  ASSERT_EQ(exs.size(), 1u);
  EXPECT_FALSE(exs[0].skipped);
  EXPECT_EQ(exs[0].response.status, 0);
  EXPECT_EQ(exs[0].response.body_state, BodyState::not_captured);
  EXPECT_NE(exs[0].warnings.at(0).find("status 0"), std::string::npos);
}

TEST(HarQuirks, Utf8BomAndTabIndentation) {
  const std::string text = "\xef\xbb\xbf{\n\t\"log\": " +
                           har({entry(kCallRequest, 200, R"({"size":104,"mimeType":"application/json","text":)" +
                                                             q(kCall) + "}",
                                      kJsonCt)})
                               .substr(7);
  const auto exs = read_har_text(text);
  ASSERT_EQ(exs.size(), 1u);
  EXPECT_EQ(exs[0].format, mcptriage::CaptureFormat::har);
  EXPECT_EQ(exs[0].response.body, kCall);
}

TEST(HarQuirks, FirefoxCommentWithoutText) {
  const auto exs = read_har_text(har(
      {entry(kCallRequest, 200, R"({"size":-1,"mimeType":"application/json","comment":"Response bodies are not included."})",
             kJsonCt)},
      "1.1"));
  ASSERT_EQ(exs.size(), 1u);
  EXPECT_EQ(exs[0].response.body_state, BodyState::not_captured);
  EXPECT_NE(exs[0].warnings.at(0).find("Response bodies are not included."), std::string::npos);
}

TEST(HarQuirks, MissingTextWithSizeZeroIsAnEmptyBody) {
  const auto exs = read_har_text(
      har({entry(R"({"jsonrpc":"2.0","method":"notifications/initialized"})", 202, R"({"size":0,"mimeType":""})", "[]")}));
  ASSERT_EQ(exs.size(), 1u);
  EXPECT_EQ(exs[0].response.body_state, BodyState::complete);
  EXPECT_EQ(exs[0].response.body, "");
}

TEST(HarQuirks, MissingTextOnAnOpenStreamIsNotCaptured) {
  const auto exs = read_har_text(
      har({entry(kCallRequest, 200, R"({"size":0,"mimeType":"text/event-stream"})",
                 R"([{"name":"Content-Type","value":"text/event-stream"}])")}));
  ASSERT_EQ(exs.size(), 1u);
  EXPECT_EQ(exs[0].response.body_state, BodyState::not_captured);
}

TEST(HarQuirks, ErrorNullIsNoError) {
  const auto exs = read_har_text(har({entry(kCallRequest, 200,
                                            R"({"size":104,"mimeType":"application/json","text":)" + q(kCall) + "}",
                                            kJsonCt, R"("_error":null)")}));
  ASSERT_EQ(exs.size(), 1u);
  EXPECT_EQ(exs[0].response.body_state, BodyState::complete);
}

TEST(HarQuirks, ErrorWithTextIsNotCaptured) {
  const auto exs = read_har_text(har({entry(kCallRequest, 200,
                                            R"({"size":104,"mimeType":"application/json","text":)" + q(kCall) + "}",
                                            kJsonCt, R"("_error":"net::ERR_CONNECTION_RESET")")}));
  ASSERT_EQ(exs.size(), 1u);
  EXPECT_EQ(exs[0].response.body_state, BodyState::not_captured);
  EXPECT_NE(exs[0].warnings.at(0).find("net::ERR_CONNECTION_RESET"), std::string::npos);
}

TEST(HarQuirks, MimeTypeStandsInForAMissingContentType) {
  const auto exs = read_har_text(
      har({entry(kCallRequest, 200, R"({"size":104,"mimeType":"application/json","text":)" + q(kCall) + "}", "[]")}));
  ASSERT_EQ(exs.size(), 1u);
  EXPECT_EQ(find_header(exs[0].response.headers, "content-type").value_or(""), "application/json");
  EXPECT_NE(exs[0].warnings.at(0).find("content.mimeType"), std::string::npos);
}

TEST(HarQuirks, EventSourceMessagesRebuildTheStream) {
  const std::string messages =
      R"("_eventSourceMessages":[{"time":1,"eventName":"message","eventId":"e1","data":)" + q(kCall) + "}]";
  const auto exs = read_har_text(har({entry(kCallRequest, 200, R"({"size":0,"mimeType":"text/event-stream"})",
                                            R"([{"name":"Content-Type","value":"text/event-stream"}])", messages)}));
  ASSERT_EQ(exs.size(), 1u);
  EXPECT_EQ(exs[0].response.body, "event: message\nid: e1\ndata: " + std::string(kCall) + "\n\n");
  EXPECT_EQ(exs[0].response.body_state, BodyState::complete);
}

TEST(HarQuirks, DeleteOptionsAndStandaloneStreamsAreSkipped) {
  const std::string session = R"([{"name":"Mcp-Session-Id","value":"s1"}])";
  const auto exs = read_har_text(har({
      entry("", 200, R"({"size":0,"mimeType":""})", "[]", "", "DELETE", session),
      entry("", 204, R"({"size":0,"mimeType":""})", "[]", "", "OPTIONS",
            R"([{"name":"Access-Control-Request-Headers","value":"mcp-session-id"}])"),
      entry("", 200, R"({"size":20,"mimeType":"text/event-stream","text":": keep-alive\n\n"})",
            R"([{"name":"Content-Type","value":"text/event-stream"}])", "", "GET", session),
      entry("", 200, R"({"size":104,"mimeType":"text/event-stream","text":)" + q("data: " + std::string(kCall) + "\n\n") + "}",
            R"([{"name":"Content-Type","value":"text/event-stream"}])", "", "GET",
            R"([{"name":"Last-Event-ID","value":"e1"},{"name":"Mcp-Session-Id","value":"s1"}])"),
      entry(R"(user=a&pass=b)", 302, R"({"size":0,"mimeType":"text/html","text":""})", "[]"),
  }));
  ASSERT_EQ(exs.size(), 5u);
  ASSERT_TRUE(exs[0].skipped);
  EXPECT_EQ(exs[0].skipped->reason, mcptriage::SkipReason::session_end);
  ASSERT_TRUE(exs[1].skipped);
  EXPECT_EQ(exs[1].skipped->reason, mcptriage::SkipReason::not_mcp);
  ASSERT_TRUE(exs[2].skipped);
  EXPECT_EQ(exs[2].skipped->reason, mcptriage::SkipReason::standalone_stream);
  EXPECT_FALSE(exs[3].skipped) << "a resumed stream (Last-Event-ID) can carry the response";
  ASSERT_TRUE(exs[4].skipped) << "a form POST is not JSON-RPC";
  EXPECT_EQ(exs[4].skipped->reason, mcptriage::SkipReason::not_mcp);
  EXPECT_EQ(exs[4].source, "t.har#5");
}

TEST(HarQuirks, PostDataOnlyFromTheResponse) {
  // No postData captured, but the reply is JSON-RPC: still MCP, without request context.
  const auto exs = read_har_text(
      har({entry("", 200, R"({"size":104,"mimeType":"application/json","text":)" + q(kCall) + "}", kJsonCt)}));
  ASSERT_EQ(exs.size(), 1u);
  EXPECT_FALSE(exs[0].skipped);
  ASSERT_TRUE(exs[0].request);
  EXPECT_FALSE(exs[0].request->body);
}

TEST(HarQuirks, EntryThatIsNoObjectIsSkipped) {
  const auto exs = read_har_text(har({"42"}));
  ASSERT_EQ(exs.size(), 1u);
  ASSERT_TRUE(exs[0].skipped);
  EXPECT_EQ(exs[0].skipped->reason, mcptriage::SkipReason::invalid_entry);
}

TEST(HarErrors, ClearMessages) {
  auto err = [](const std::string& text) {
    auto r = read_capture(text, "x.har");
    EXPECT_FALSE(r);
    return r ? std::string() : r.error().message;
  };
  const std::string good = har({entry(kCallRequest, 200, R"({"size":0,"mimeType":""})", "[]")});
  EXPECT_NE(err(good.substr(0, good.size() / 2)).find("cut short"), std::string::npos);
  // A whole archive with more after it is not "cut short" (new-user trial): say where it ends.
  for (const char* after : {"garbage here\n", "{\"x\":1}\n"}) {
    const std::string more = err(good + "\n" + after);
    EXPECT_EQ(more.find("cut short"), std::string::npos) << more;
    EXPECT_NE(more.find("HAR: text after the JSON document at byte " + std::to_string(good.size() + 1)), std::string::npos)
        << more;
  }
  EXPECT_EQ(err(R"({"log":{"version":"1.2","entries":[]}})"),
            "HAR: \"log.entries\" is empty: the archive recorded no request");
  EXPECT_EQ(err(R"({"log":{"version":"1.2"}})"), "HAR: \"log.entries\" is missing or not an array");
  EXPECT_EQ(err(R"({"log":[]})"), "HAR: the top-level object has no \"log\" object");
  std::string bad_utf8 = good;
  bad_utf8.replace(bad_utf8.find("test"), 4, "te\xff\xfe");
  EXPECT_NE(err(bad_utf8).find("UTF-8"), std::string::npos);
  std::string deep = R"({"log":{"entries":[)" + std::string(5000, '[') + std::string(5000, ']') + "]}}";
  EXPECT_NE(err(deep).find("nested deeper"), std::string::npos);
}

TEST(HarScale, HundredThousandEntriesAreFast) {
  const std::string one = entry(kCallRequest, 200,
                                R"({"size":104,"mimeType":"application/json","text":)" + q(kCall) + "}", kJsonCt);
  std::string text = R"({"log":{"version":"1.2","creator":{"name":"t","version":"1"},"entries":[)";
  text.reserve(one.size() * 100001);
  for (int i = 0; i < 100000; ++i) {
    if (i) text += ',';
    text += one;
  }
  text += "]}}";
  // CPU time of this process, not wall time: ctest runs other tests beside this one.
  const std::clock_t start = std::clock();
  const auto wall_start = std::chrono::steady_clock::now();
  auto r = read_capture(text, "big.har");
  const double cpu_ms = 1000.0 * static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC;
  const auto wall_ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - wall_start).count();
  ASSERT_TRUE(r);
  EXPECT_EQ(r->size(), 100000u);
  EXPECT_EQ(r->back().source, "big.har#100000");
#if defined(__SANITIZE_ADDRESS__) || !defined(__OPTIMIZE__)
  constexpr double kLimitMs = 120000.0;  // sanitizers and -O0 are about ten times slower
#else
  constexpr double kLimitMs = 10000.0;
#endif
  EXPECT_LT(cpu_ms, kLimitMs) << "100,000 entries took " << cpu_ms << " ms of CPU";
  std::cout << "[ measured ] 100,000 HAR entries (" << text.size() / (1024 * 1024) << " MiB) read in " << cpu_ms
            << " ms CPU, " << wall_ms << " ms wall\n";
}

}  // namespace
