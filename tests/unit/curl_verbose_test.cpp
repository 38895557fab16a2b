// Unit tests for the curl -v reader (src/capture/curl_verbose.cpp): stderr alone, with its stdout, merged.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include "mcptriage/capture.hpp"
#include "mcptriage/exchange.hpp"

namespace {

using mcptriage::BodyState;
using mcptriage::CaptureOptions;
using mcptriage::Exchange;
using mcptriage::find_header;
using mcptriage::read_capture;

constexpr std::string_view kInit =
    R"({"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{"listChanged":true},"logging":{}},"serverInfo":{"name":"fmtlab-server","version":"0.3.1"}}})";

std::string sample(std::string_view file) {
  std::ifstream in(std::string(MCPTRIAGE_SOURCE_DIR) + "/testdata/samples/" + std::string(file), std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::vector<Exchange> read_text(std::string_view text, const CaptureOptions& options = {}) {
  auto r = read_capture(text, "v.txt", options);
  EXPECT_TRUE(r) << (r ? "" : r.error().message);
  return r ? std::move(*r) : std::vector<Exchange>{};
}

TEST(CurlVerbose, StderrAloneHasNoBody) {
  const auto exs = read_text(sample("curl-v-stderr.txt"));
  ASSERT_EQ(exs.size(), 1u);
  const Exchange& ex = exs[0];
  EXPECT_EQ(ex.format, mcptriage::CaptureFormat::curl_v);
  ASSERT_TRUE(ex.request);
  EXPECT_EQ(ex.request->method_line, "POST");
  EXPECT_EQ(ex.request->target, "/json");
  EXPECT_EQ(find_header(ex.request->headers, "content-length").value_or(""), "154");
  EXPECT_FALSE(ex.request->body) << "curl -v never shows the request body";
  EXPECT_EQ(ex.response.status, 200);
  EXPECT_EQ(ex.response.reason, "OK");
  EXPECT_EQ(find_header(ex.response.headers, "mcp-session-id").value_or(""), "7c2a4f0e-93d1-4b7a-9e55-0d3c1f6a8b21");
  EXPECT_EQ(ex.response.body_state, BodyState::absent);
  ASSERT_FALSE(ex.warnings.empty());
  EXPECT_NE(ex.warnings.back().find("--body"), std::string::npos);
}

TEST(CurlVerbose, StderrWithItsStdout) {
  const std::string body = sample("curl-v-stdout.txt");
  const auto exs = read_text(sample("curl-v-stderr.txt"), CaptureOptions{.separate_body = body});
  ASSERT_EQ(exs.size(), 1u);
  EXPECT_EQ(exs[0].response.body, kInit);
  EXPECT_EQ(exs[0].response.body_state, BodyState::complete);
  EXPECT_TRUE(exs[0].warnings.empty());
}

TEST(CurlVerbose, SseWithRequestHeadersForContext) {
  const std::string body = sample("curl-sv-sse-stdout.txt");
  const auto exs = read_text(sample("curl-sv-sse-stderr.txt"), CaptureOptions{.separate_body = body});
  ASSERT_EQ(exs.size(), 1u);
  EXPECT_EQ(find_header(exs[0].request->headers, "MCP-Protocol-Version").value_or(""), "2025-06-18");
  EXPECT_EQ(find_header(exs[0].response.headers, "content-type").value_or(""), "text/event-stream");
  EXPECT_EQ(exs[0].response.body, body) << "a chunked SSE body is already de-chunked by curl";
}

TEST(CurlVerbose, MergedTwoToOneBodyComesLast) {
  const auto exs = read_text(sample("curl-v-stderr.txt") + sample("curl-v-stdout.txt"));
  ASSERT_EQ(exs.size(), 1u);
  EXPECT_EQ(exs[0].response.body, kInit) << "the progress meter's last row is not body";
}

TEST(CurlVerbose, TerminalInlineBodyGluedToTheNextInfoLine) {
  const std::string text =
      "* Connected to 127.0.0.1 (127.0.0.1) port 1 (#0)\n> POST /mcp HTTP/1.1\r\n> Host: x\r\n> \r\n"
      "< HTTP/1.1 200 OK\r\n< Content-Type: application/json\r\n< \r\n" +
      std::string(kInit) + "* Connection #0 to host 127.0.0.1 left intact\n";
  const auto exs = read_text(text);
  ASSERT_EQ(exs.size(), 1u);
  EXPECT_EQ(exs[0].response.body, kInit);
}

TEST(CurlVerbose, MeterRowWrittenIntoTheBodyIsNotBody) {
  // curl -v URL >f 2>&1 with a body longer than stdout's buffer (curl 7.88): the meter's last row
  // and the connection line land between two halves of the body.
  const std::string a = R"({"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"xxxx)";
  const std::string b = R"(xxxx"}]}})";
  const std::string text =
      "> POST /mcp HTTP/1.1\r\n> Host: x\r\n> \r\n< HTTP/1.1 200 OK\r\n< Content-Type: application/json\r\n"
      "< Content-Length: " + std::to_string(a.size() + b.size()) + "\r\n< \r\n{ [5073 bytes data]\n" + a +
      "\r100  5075  100  5075    0     0  28.3M      0 --:--:-- --:--:-- --:--:-- 31.8M\n"
      "* Connection #0 to host 127.0.0.1 left intact\n" + b;
  const auto exs = read_text(text);
  ASSERT_EQ(exs.size(), 1u);
  EXPECT_EQ(exs[0].response.body, a + b);
  EXPECT_EQ(exs[0].response.body_state, BodyState::complete);
  EXPECT_TRUE(exs[0].warnings.empty());
}

TEST(CurlVerbose, Http2AndInterimAndRedirect) {
  const std::string text =
      "Note: Unnecessary use of -X or --request, POST is already inferred.\n"
      "*   Trying 127.0.0.1:1...\n> POST /old HTTP/2\r\n> host: x\r\n> \r\n< HTTP/2 307 \r\n< location: /mcp\r\n< \r\n"
      "* Issue another request to this URL: 'http://x/mcp'\n> POST /mcp HTTP/2\r\n> host: x\r\n"
      "> mcp-session-id: abc\r\n> \r\n< HTTP/1.1 100 Continue\r\n< \r\n< HTTP/2 202 \r\n< date: x\r\n< \r\n"
      "* Connection #0 to host x left intact\n";
  const auto exs = read_text(text);
  ASSERT_EQ(exs.size(), 1u);
  EXPECT_EQ(exs[0].request->target, "/mcp");
  EXPECT_EQ(find_header(exs[0].request->headers, "mcp-session-id").value_or(""), "abc");
  EXPECT_EQ(exs[0].response.status, 202);
  EXPECT_EQ(exs[0].response.http_version, "HTTP/2");
  EXPECT_EQ(exs[0].response.body_state, BodyState::complete);
  ASSERT_EQ(exs[0].warnings.size(), 2u);
  EXPECT_NE(exs[0].warnings[0].find("interim 100"), std::string::npos);
  EXPECT_NE(exs[0].warnings[1].find("redirect 307"), std::string::npos);
}

TEST(CurlVerbose, TwoTransfersSplitTheirBodiesByContentLength) {
  const std::string head = "> POST /mcp HTTP/1.1\r\n> \r\n< HTTP/1.1 200 OK\r\n< Content-Type: application/json\r\n";
  const std::string a = R"({"jsonrpc":"2.0","id":1,"result":{}})";
  const std::string b = R"({"jsonrpc":"2.0","id":2,"result":{"tools":[]}})";
  const std::string text = head + "< Content-Length: " + std::to_string(a.size()) + "\r\n< \r\n{ [36 bytes data]\n" +
                           head + "< Content-Length: " + std::to_string(b.size()) + "\r\n< \r\n{ [46 bytes data]\n";
  const std::string body = a + b;
  const auto exs = read_text(text, CaptureOptions{.separate_body = body});
  ASSERT_EQ(exs.size(), 2u);
  EXPECT_EQ(exs[0].response.body, a);
  EXPECT_EQ(exs[1].response.body, b);
}

TEST(CurlVerbose, NoteAndMeterTitleBetweenTransfersAreNotBody) {
  // curl -v URL1 --next URL2 2>X-stderr (curl 7.88): a `Note: ` line, the meter's titles and a
  // redraw glued to the next request come after the first transfer's headers.
  const std::string a = R"({"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"hi"}]}})";
  const std::string b = R"({"jsonrpc":"2.0","id":null,"error":{"code":-32001,"message":"Unauthorized"}})";
  auto response = [](int status, std::size_t n) {
    return "< HTTP/1.1 " + std::to_string(status) + " X\r\n< Content-Type: application/json\r\n< Content-Length: " +
           std::to_string(n) + "\r\n< \r\n{ [" + std::to_string(n) + " bytes data]\n";
  };
  const std::string text =
      "> POST /ok HTTP/1.1\r\n> Host: x\r\n> \r\n" + response(200, a.size()) +
      "Note: Unnecessary use of -X or --request, POST is already inferred.\n"
      "  % Total    % Received % Xferd  Average Speed   Time    Time     Time  Current\n"
      "                                 Dload  Upload   Total   Spent    Left  Speed\n"
      "\r  0     0    0     0    0     0      0      0 --:--:-- --:--:-- --:--:--     0"
      "> POST /401 HTTP/1.1\r\n> Host: x\r\n> \r\n" + response(401, b.size());
  const auto exs = read_text(text, CaptureOptions{.separate_body = a + b});
  ASSERT_EQ(exs.size(), 2u);
  EXPECT_EQ(exs[0].response.body, a);
  EXPECT_TRUE(exs[0].warnings.empty());
  ASSERT_TRUE(exs[1].request);
  EXPECT_EQ(exs[1].request->target, "/401");
  EXPECT_EQ(exs[1].response.status, 401);
  EXPECT_EQ(exs[1].response.body, b);
}

TEST(CurlVerbose, NoteInTheMiddleOfAnInlineBodyIsBody) {
  const std::string text =
      "> GET /x HTTP/1.1\r\n> \r\n< HTTP/1.1 502 Bad Gateway\r\n< Content-Type: text/plain\r\n< Content-Length: 19\r\n"
      "< \r\nupstream down\nNote: x";
  const auto exs = read_text(text);
  ASSERT_EQ(exs.size(), 1u);
  EXPECT_EQ(exs[0].response.body, "upstream down\nNote: x");
}

TEST(CurlVerbose, CurlViHeaderCopiesInStdoutAreNotBody) {
  // curl -vi URL1 --next URL2 --next URL3 >X-stdout: each response's header block, then its body.
  const std::string a = R"({"jsonrpc":"2.0","id":1,"result":{}})";
  const std::string b = R"({"jsonrpc":"2.0","id":2,"result":{"tools":[]}})";
  auto block = [](std::string_view prefix, std::string_view status, std::size_t n) {
    std::string text = std::string(prefix) + "HTTP/1.1 " + std::string(status) + "\r\n";
    if (n > 0) text += std::string(prefix) + "Content-Type: application/json\r\n";
    text += std::string(prefix) + "Content-Length: " + std::to_string(n) + "\r\n" + std::string(prefix) + "\r\n";
    return text;
  };
  const std::string req = "> POST /mcp HTTP/1.1\r\n> \r\n";
  const std::string text = req + block("< ", "200 OK", a.size()) + "{ [36 bytes data]\n" + req +
                           block("< ", "202 Accepted", 0) + req + block("< ", "200 OK", b.size()) +
                           "{ [46 bytes data]\n";
  const std::string body = block("", "200 OK", a.size()) + a + block("", "202 Accepted", 0) +
                           block("", "200 OK", b.size()) + b;
  const auto exs = read_text(text, CaptureOptions{.separate_body = body});
  ASSERT_EQ(exs.size(), 3u);
  EXPECT_EQ(exs[0].response.body, a);
  EXPECT_EQ(exs[1].response.status, 202);
  EXPECT_TRUE(exs[1].response.body.empty());
  EXPECT_EQ(exs[2].response.body, b);
  EXPECT_NE(exs[2].warnings.at(0).find("(curl -i) removed"), std::string::npos);
}

TEST(CurlVerbose, OnlyATrueCopyOfTheHeadersIsRemoved) {
  // A text body that starts like a status line but does not repeat the response's block.
  const std::string body = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nupstream said this";
  const std::string text = "> GET /x HTTP/1.1\r\n> \r\n< HTTP/1.1 200 OK\r\n< Content-Type: text/html\r\n< \r\n" + body;
  const auto exs = read_text(text);
  ASSERT_EQ(exs.size(), 1u);
  EXPECT_EQ(exs[0].response.body, body);
  EXPECT_TRUE(exs[0].warnings.empty());
}

TEST(CurlVerbose, ConnectionFailureHasNoResponse) {
  // docs/formats.md: a transfer with no response is NOT_CAPTURED with curl's error (no input error).
  const auto exs = read_text("*   Trying 127.0.0.1:9...\n* connect to 127.0.0.1 port 9 failed: Connection refused\n"
                             "curl: (7) Failed to connect to 127.0.0.1 port 9\n");
  ASSERT_EQ(exs.size(), 1u);
  EXPECT_FALSE(exs[0].request);
  EXPECT_EQ(exs[0].response.status, 0);
  EXPECT_EQ(exs[0].response.body_state, BodyState::not_captured);
  EXPECT_NE(exs[0].warnings.at(0).find("curl: (7)"), std::string::npos);
}

TEST(CurlVerbose, ConnectionFailureOfTheNextTransferIsItsOwn) {
  const auto exs = read_text(
      "> POST /a HTTP/1.1\r\n> \r\n< HTTP/1.1 202 Accepted\r\n< Content-Length: 0\r\n< \r\n"
      "* Connection #0 to host x left intact\n*   Trying 127.0.0.1:9...\n"
      "* connect to 127.0.0.1 port 9 failed: Connection refused\ncurl: (7) Failed to connect to 127.0.0.1 port 9\n");
  ASSERT_EQ(exs.size(), 2u);
  EXPECT_EQ(exs[0].response.status, 202);
  EXPECT_TRUE(exs[0].response.body.empty());
  EXPECT_EQ(exs[1].response.status, 0);
  EXPECT_EQ(exs[1].response.body_state, BodyState::not_captured);
  EXPECT_NE(exs[1].warnings.at(0).find("curl: (7)"), std::string::npos);
}

TEST(CurlVerbose, LogWithoutTransferOrErrorIsAnInputError) {
  const auto r = read_capture("*   Trying 127.0.0.1:9...\n* Connected to 127.0.0.1 (127.0.0.1) port 9 (#0)\n", "v.txt");
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("without a request or response"), std::string::npos);
}

TEST(CurlVerbose, RequestWithoutResponseIsNotCaptured) {
  const auto exs = read_text("> POST /mcp HTTP/1.1\r\n> Host: x\r\n> \r\n} [10 bytes data]\n"
                             "* Operation timed out after 1000 milliseconds with 0 bytes received\n"
                             "curl: (28) Operation timed out\n");
  ASSERT_EQ(exs.size(), 1u);
  EXPECT_EQ(exs[0].response.status, 0);
  EXPECT_EQ(exs[0].response.body_state, BodyState::not_captured);
  EXPECT_NE(exs[0].warnings.at(0).find("curl: (28)"), std::string::npos);
}

TEST(CurlVerbose, CurlErrorAfterTheHeadersIsNotTheBody) {
  // curl -v 2>X-stderr >X-stdout of an SSE stream cut by --max-time: the error line comes after
  // the headers in stderr, the body is in stdout.
  const std::string body = "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"x\"}\n\n";
  const auto exs = read_text(
      "> POST /mcp HTTP/1.1\r\n> \r\n< HTTP/1.1 200 OK\r\n< Content-Type: text/event-stream\r\n< \r\n"
      "{ [50 bytes data]\n* Operation timed out after 5000 milliseconds\n* Closing connection 0\n"
      "curl: (28) Operation timed out after 5000 milliseconds with 50 bytes received\n",
      CaptureOptions{.separate_body = body});
  ASSERT_EQ(exs.size(), 1u);
  EXPECT_EQ(exs[0].response.body, body);
  EXPECT_TRUE(exs[0].warnings.empty());
}

TEST(CurlVerbose, ShortBodyIsTruncated) {
  const auto exs = read_text(
      "> POST /mcp HTTP/1.1\r\n> \r\n< HTTP/1.1 200 OK\r\n< Content-Type: application/json\r\n< Content-Length: 400\r\n"
      "< \r\n{\"jsonrpc\":\"2.0\",\"id\":1,\"res");
  ASSERT_EQ(exs.size(), 1u);
  EXPECT_EQ(exs[0].response.body_state, BodyState::truncated);
}

TEST(CurlVerbose, SniffLeavesOtherFormatsAlone) {
  auto bare = read_capture(": keep-alive\n\ndata: {}\n\n", "x.txt");
  ASSERT_TRUE(bare);
  EXPECT_EQ(bare->front().format, mcptriage::CaptureFormat::bare_sse);
  auto text = read_capture("* just a note\nnothing else\n", "x.txt");
  EXPECT_FALSE(text) << "a lone `* ` line is no curl -v log";
}

}  // namespace
