// Unit tests for src/capture: format detection, HTTP text and bare-body readers, on samples.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <filesystem>
#include <fstream>
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
using mcptriage::read_capture;
using namespace std::string_literals;

// Payloads from testdata/samples/README.md.
constexpr std::string_view kInit =
    R"({"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{"listChanged":true},"logging":{}},"serverInfo":{"name":"fmtlab-server","version":"0.3.1"}}})";
constexpr std::string_view kList =
    R"({"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"echo","description":"Echo text back","inputSchema":{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}},{"name":"add","description":"Add two numbers","inputSchema":{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}}}}]}})";
constexpr std::string_view kCall =
    R"({"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"hello from echo"}],"isError":false}})";
constexpr std::string_view kProg =
    R"({"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"tok-3","progress":1,"total":2,"message":"halfway"}})";

std::string sse_a() {
  return "event: message\nid: ev-0001\ndata: "s + std::string(kProg) +
         "\n\n: keep-alive\n\nevent: message\nid: ev-0002\ndata: " + std::string(kCall) +
         "\n\n";
}

std::string sample_path(std::string_view file) {
  return std::string(MCPTRIAGE_SOURCE_DIR) + "/testdata/samples/" + std::string(file);
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// Reads a sample and requires it to parse; returns its exchanges.
std::vector<Exchange> read_sample(std::string_view file, const CaptureOptions& options = {}) {
  const std::string bytes = read_file(sample_path(file));
  EXPECT_FALSE(bytes.empty()) << "sample missing: " << file;
  auto result = read_capture(bytes, file, options);
  EXPECT_TRUE(result) << file << ": " << (result ? "" : result.error().message);
  return result ? std::move(*result) : std::vector<Exchange>{};
}

std::string media(const Exchange& ex) {
  const auto ct = mcptriage::find_header(ex.response.headers, "Content-Type");
  return ct ? mcptriage::http::media_type(*ct) : "";
}

bool has_warning(const Exchange& ex, std::string_view needle) {
  return std::any_of(ex.warnings.begin(), ex.warnings.end(),
                     [&](const std::string& w) { return w.find(needle) != std::string::npos; });
}

std::string all_warnings(const Exchange& ex) {
  std::string out;
  for (const auto& w : ex.warnings) out += "[" + w + "] ";
  return out;
}

/// Checks the shape shared by most single-response samples.
void expect_single(const std::vector<Exchange>& exs, std::string_view file, int status,
                   std::string_view media_type, std::string_view body,
                   mcptriage::CaptureFormat format = mcptriage::CaptureFormat::curl_i) {
  ASSERT_EQ(exs.size(), 1u) << file;
  const Exchange& ex = exs[0];
  EXPECT_EQ(ex.source, std::string(file) + "#1");
  EXPECT_EQ(ex.format, format) << file;
  EXPECT_EQ(ex.response.status, status) << file;
  EXPECT_EQ(media(ex), media_type) << file;
  EXPECT_EQ(ex.response.body, body) << file;
  EXPECT_EQ(ex.response.body_state, BodyState::complete) << file;
  EXPECT_TRUE(ex.response.transport_captured) << file;
  EXPECT_FALSE(ex.request) << file;
}

// ---------------------------------------------------------------------------------------
// Samples: curl -i / -D / -w

TEST(CaptureSamples, CurlHttp11Json) {
  const auto exs = read_sample("curl-i-http11-200-json.txt");
  expect_single(exs, "curl-i-http11-200-json.txt", 200, "application/json", kInit);
  ASSERT_EQ(exs.size(), 1u);
  EXPECT_EQ(exs[0].response.http_version, "HTTP/1.1");
  EXPECT_EQ(exs[0].response.reason, "OK");
  EXPECT_EQ(mcptriage::find_header(exs[0].response.headers, "mcp-session-id"),
            "7c2a4f0e-93d1-4b7a-9e55-0d3c1f6a8b21");
  EXPECT_EQ(exs[0].response.headers.front().name, "Content-Type");  // spelled as on the wire
  EXPECT_TRUE(exs[0].warnings.empty()) << all_warnings(exs[0]);
}

TEST(CaptureSamples, CurlChunkedAlreadyDechunked) {
  const auto exs = read_sample("curl-i-http11-chunked-json.txt");
  expect_single(exs, "curl-i-http11-chunked-json.txt", 200, "application/json", kList);
}

TEST(CaptureSamples, CurlRawChunkedIsDechunked) {
  const auto exs = read_sample("curl-i-raw-chunked.txt");
  expect_single(exs, "curl-i-raw-chunked.txt", 200, "application/json", kList, mcptriage::CaptureFormat::raw_http);
}

TEST(CaptureSamples, CurlHttp11Sse) {
  const auto exs = read_sample("curl-iN-http11-sse.txt");
  expect_single(exs, "curl-iN-http11-sse.txt", 200, "text/event-stream", sse_a());
}

TEST(CaptureSamples, CurlSseCrlfMultiline) {
  const auto exs = read_sample("curl-i-sse-crlf-multiline.txt");
  ASSERT_EQ(exs.size(), 1u);
  const auto& r = exs[0].response;
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(mcptriage::find_header(r.headers, "Content-Type"),
            "text/event-stream; charset=utf-8");
  EXPECT_EQ(media(exs[0]), "text/event-stream");
  EXPECT_TRUE(r.body.starts_with("retry:5000\r\n\r\nevent:message\r\n"));
  EXPECT_TRUE(r.body.ends_with("data: {\"jsonrpc\":\"2.0\",\"method\":\"ping\",\"id\":\"srv-1\"}\r\n"));
  EXPECT_EQ(r.body.size(), 509u);
  EXPECT_EQ(r.body_state, BodyState::complete);
}

TEST(CaptureSamples, Curl202EmptyChunked) {
  const auto exs = read_sample("curl-i-http11-202-empty.txt");
  ASSERT_EQ(exs.size(), 1u);
  EXPECT_EQ(exs[0].response.status, 202);
  EXPECT_EQ(exs[0].response.reason, "Accepted");
  EXPECT_FALSE(mcptriage::find_header(exs[0].response.headers, "Content-Type"));
  EXPECT_EQ(exs[0].response.body, "");
  EXPECT_EQ(exs[0].response.body_state, BodyState::complete);
}

TEST(CaptureSamples, CurlJsonRpcErrorAndToolError) {
  const std::string rpcerr =
      R"({"jsonrpc":"2.0","id":5,"error":{"code":-32601,"message":"Method not found","data":{"method":"tools/frobnicate"}}})";
  expect_single(read_sample("curl-i-jsonrpc-error.txt"), "curl-i-jsonrpc-error.txt", 200,
                "application/json", rpcerr);
  const std::string toolerr =
      R"({"jsonrpc":"2.0","id":4,"result":{"content":[{"type":"text","text":"division by zero"}],"isError":true}})";
  expect_single(read_sample("curl-i-tool-iserror.txt"), "curl-i-tool-iserror.txt", 200,
                "application/json", toolerr);
}

TEST(CaptureSamples, CurlErrorStatuses) {
  expect_single(read_sample("curl-i-400-jsonrpc-error.txt"), "curl-i-400-jsonrpc-error.txt", 400,
                "application/json",
                R"({"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"Bad Request: No valid session ID provided"}})");
  expect_single(read_sample("curl-i-404-session.txt"), "curl-i-404-session.txt", 404,
                "application/json",
                R"({"jsonrpc":"2.0","id":6,"error":{"code":-32001,"message":"Session not found"}})");
  const auto auth = read_sample("curl-i-401-www-authenticate.txt");
  expect_single(auth, "curl-i-401-www-authenticate.txt", 401, "application/json",
                R"({"error":"invalid_token","error_description":"Missing or invalid access token"})");
  ASSERT_EQ(auth.size(), 1u);
  EXPECT_EQ(mcptriage::find_header(auth[0].response.headers, "www-authenticate"),
            R"(Bearer resource_metadata="http://127.0.0.1:18081/.well-known/oauth-protected-resource")");
  expect_single(read_sample("curl-i-502-html.txt"), "curl-i-502-html.txt", 502, "text/html",
                "<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad "
                "Gateway</h1></body></html>\n");
  const auto get = read_sample("curl-i-405-get.txt");
  expect_single(get, "curl-i-405-get.txt", 405, "text/plain", "Method Not Allowed");
  ASSERT_EQ(get.size(), 1u);
  EXPECT_EQ(mcptriage::find_header(get[0].response.headers, "Allow"), "POST, DELETE");
}

TEST(CaptureSamples, CurlCompressedAlreadyDecoded) {
  // Content-Encoding: gzip and the compressed Content-Length 189 are stale: body is 322 bytes.
  const auto exs = read_sample("curl-i-compressed-gzip.txt");
  expect_single(exs, "curl-i-compressed-gzip.txt", 200, "application/json", kList);
  ASSERT_EQ(exs.size(), 1u);
  // Read as decoded by curl, with both readings said (issue 14): the length is not the plain one.
  ASSERT_EQ(exs[0].warnings.size(), 1u) << all_warnings(exs[0]);
  EXPECT_TRUE(has_warning(exs[0], "but the body is plain text: read as decoded by the capture tool"))
      << all_warnings(exs[0]);
  EXPECT_FALSE(exs[0].response.plain_under_coding);
}

TEST(CaptureCodings, PlainBytesOfExactlyTheirLengthUnderACodingWereSentSo) {
  // Content-Length equals the length of the plain bytes: they are what the server sent under a
  // gzip label, which no client can decode (curl --compressed fails with exit 61).
  const std::string body = std::string(kCall);
  const std::string head = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\n";
  auto exact = read_capture(head + "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body, "t");
  ASSERT_TRUE(exact);
  EXPECT_TRUE((*exact)[0].response.plain_under_coding);
  EXPECT_EQ((*exact)[0].response.body, body);
  EXPECT_TRUE(has_warning((*exact)[0], "plain text of exactly its Content-Length")) << all_warnings((*exact)[0]);
  // Another length (curl --compressed keeps the coded one), or none: decoded by the capture tool.
  for (const std::string& length : {std::string("Content-Length: 40\r\n"), std::string()}) {
    auto other = read_capture(head + length + "\r\n" + body, "t");
    ASSERT_TRUE(other);
    EXPECT_FALSE((*other)[0].response.plain_under_coding) << length;
    EXPECT_TRUE(has_warning((*other)[0], "read as decoded by the capture tool")) << all_warnings((*other)[0]);
  }
}

TEST(CaptureCodings, HarTextIsDecodedByDefinition) {
  // HAR 1.2: content.text is decoded by the exporter, whatever Content-Encoding and
  // Content-Length the headers still show.
  const std::string text = std::string(kCall);
  std::string escaped;
  for (char c : text) {
    if (c == '"' || c == '\\') escaped += '\\';
    escaped += c;
  }
  const std::string har = R"({"log":{"version":"1.2","entries":[{"request":{"method":"POST","url":"http://h/mcp","headers":[]},)"
                          R"("response":{"status":200,"headers":[{"name":"Content-Type","value":"application/json"},)"
                          R"({"name":"Content-Encoding","value":"gzip"},{"name":"Content-Length","value":")" +
                          std::to_string(text.size()) + R"("}],"content":{"mimeType":"application/json","text":")" +
                          escaped + R"("}}}]}})";
  auto exs = read_capture(har, "t.har");
  ASSERT_TRUE(exs) << exs.error().message;
  EXPECT_FALSE((*exs)[0].response.plain_under_coding);
  EXPECT_EQ((*exs)[0].response.body, text);
  EXPECT_FALSE(has_warning((*exs)[0], "Content-Encoding")) << all_warnings((*exs)[0]);
}

TEST(CaptureSamples, CurlGzipNotDecodedIsGunzipped) {
  const auto exs = read_sample("curl-i-gzip-not-decoded.bin");
  expect_single(exs, "curl-i-gzip-not-decoded.bin", 200, "application/json", kList);
}

TEST(CaptureSamples, CurlRedirectLastBlockWins) {
  const auto exs = read_sample("curl-iL-307-redirect.txt");
  expect_single(exs, "curl-iL-307-redirect.txt", 200, "application/json", kInit);
  ASSERT_EQ(exs.size(), 1u);
  EXPECT_TRUE(has_warning(exs[0], "skipped redirect response 307 Temporary Redirect"))
      << all_warnings(exs[0]);
}

TEST(CaptureSamples, Curl100ContinueSkipped) {
  const auto exs = read_sample("curl-i-100-continue.txt");
  expect_single(exs, "curl-i-100-continue.txt", 200, "application/json", kInit);
  ASSERT_EQ(exs.size(), 1u);
  EXPECT_EQ(exs[0].warnings, std::vector<std::string>{"skipped interim response 100 Continue"});
}

TEST(CaptureSamples, CurlProxyConnectSkipped) {
  const auto exs = read_sample("curl-i-proxytunnel-connect.txt");
  expect_single(exs, "curl-i-proxytunnel-connect.txt", 200, "application/json", kInit);
  ASSERT_EQ(exs.size(), 1u);
  EXPECT_EQ(exs[0].response.reason, "OK");
  EXPECT_TRUE(has_warning(exs[0], "skipped proxy CONNECT response 200 Connection established"))
      << all_warnings(exs[0]);
}

TEST(CaptureSamples, CurlHttp2Json) {
  const auto exs = read_sample("curl-i-http2-200-json.txt");
  expect_single(exs, "curl-i-http2-200-json.txt", 200, "application/json", kInit);
  ASSERT_EQ(exs.size(), 1u);
  EXPECT_EQ(exs[0].response.http_version, "HTTP/2");
  EXPECT_EQ(exs[0].response.reason, "");
  EXPECT_EQ(exs[0].response.headers.front().name, "content-type");
}

TEST(CaptureSamples, CurlHttp2Sse) {
  const auto exs = read_sample("curl-iN-http2-sse.txt");
  expect_single(exs, "curl-iN-http2-sse.txt", 200, "text/event-stream", sse_a());
}

TEST(CaptureSamples, CurlHttp2Accepted) {
  const auto exs = read_sample("curl-i-http2-202.txt");
  ASSERT_EQ(exs.size(), 1u);
  EXPECT_EQ(exs[0].response.http_version, "HTTP/2");
  EXPECT_EQ(exs[0].response.status, 202);
  ASSERT_EQ(exs[0].response.headers.size(), 1u);
  EXPECT_EQ(exs[0].response.headers[0].name, "date");
  EXPECT_EQ(exs[0].response.body, "");
  EXPECT_EQ(exs[0].response.body_state, BodyState::complete);
}

TEST(CaptureSamples, CurlBatchArray) {
  const auto exs = read_sample("curl-i-batch-array.txt");
  ASSERT_EQ(exs.size(), 1u);
  EXPECT_EQ(exs[0].response.status, 200);
  EXPECT_EQ(media(exs[0]), "application/json");
  EXPECT_EQ(exs[0].response.body.size(), 259u);
  EXPECT_TRUE(exs[0].response.body.starts_with("[" + std::string(kInit) + ","));
  EXPECT_TRUE(exs[0].response.body.ends_with(
      R"({"jsonrpc":"2.0","id":9,"error":{"code":-32602,"message":"Invalid params"}}])"));
}

TEST(CaptureSamples, CurlTruncatedBody) {
  const auto exs = read_sample("curl-i-truncated-body.txt");
  ASSERT_EQ(exs.size(), 1u);
  EXPECT_EQ(exs[0].response.status, 200);
  EXPECT_EQ(media(exs[0]), "application/json");
  EXPECT_EQ(exs[0].response.body, R"({"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text",)");
  EXPECT_EQ(exs[0].response.body_state, BodyState::truncated);
}

TEST(CaptureSamples, CurlSseTimeoutPartial) {
  // The cut stream is what was captured; the SSE layer discards the half event.
  const auto exs = read_sample("curl-iN-sse-timeout-partial.txt");
  ASSERT_EQ(exs.size(), 1u);
  EXPECT_EQ(exs[0].response.status, 200);
  EXPECT_EQ(media(exs[0]), "text/event-stream");
  EXPECT_TRUE(exs[0].response.body.starts_with("event: message\ndata: "));
  EXPECT_TRUE(exs[0].response.body.ends_with(R"(data: {"jsonrpc":"2.0","id":3,"res)"));
  EXPECT_EQ(exs[0].response.body.size(), 181u);
}

TEST(CaptureSamples, CurlFailHeadersOnly) {
  const auto exs = read_sample("curl-if-401.txt");
  ASSERT_EQ(exs.size(), 1u);
  EXPECT_EQ(exs[0].response.status, 401);
  EXPECT_EQ(media(exs[0]), "application/json");
  EXPECT_EQ(exs[0].response.body, "");
  EXPECT_EQ(exs[0].response.body_state, BodyState::absent);
}

TEST(CaptureSamples, CurlDumpHeaderFiles) {
  const auto headers = read_sample("curl-D-headers.txt");
  ASSERT_EQ(headers.size(), 1u);
  EXPECT_EQ(headers[0].format, mcptriage::CaptureFormat::curl_i);
  EXPECT_EQ(headers[0].response.status, 200);
  EXPECT_EQ(media(headers[0]), "application/json");
  EXPECT_EQ(headers[0].response.body, "");
  EXPECT_EQ(headers[0].response.body_state, BodyState::absent);  // Content-Length 181, no body

  const auto body = read_sample("curl-D-body.json");
  ASSERT_EQ(body.size(), 1u);
  EXPECT_EQ(body[0].format, mcptriage::CaptureFormat::bare_json);
  EXPECT_EQ(body[0].response.body, kInit);
  EXPECT_FALSE(body[0].response.transport_captured);
}

// ---------------------------------------------------------------------------------------
// Samples: HTTPie, raw wire bytes, bare bodies, unsupported

TEST(CaptureSamples, HttpiePrintHhBbJson) {
  const auto exs = read_sample("httpie-print-HhBb-json.txt");
  ASSERT_EQ(exs.size(), 1u);
  const Exchange& ex = exs[0];
  EXPECT_EQ(ex.format, mcptriage::CaptureFormat::http_conversation);
  ASSERT_TRUE(ex.request);
  EXPECT_EQ(ex.request->method_line, "POST");
  EXPECT_EQ(ex.request->target, "/json");
  EXPECT_EQ(mcptriage::find_header(ex.request->headers, "User-Agent"), "HTTPie/3.2.1");
  ASSERT_TRUE(ex.request->body);
  EXPECT_EQ(ex.request->body->size(), 170u);
  EXPECT_TRUE(ex.request->body->starts_with(R"({"jsonrpc": "2.0", "id": 1, "method": "initialize")"));
  EXPECT_EQ(ex.response.status, 200);
  EXPECT_EQ(media(ex), "application/json");
  EXPECT_EQ(ex.response.body, kInit);
  EXPECT_EQ(ex.response.body_state, BodyState::complete);
  EXPECT_TRUE(ex.warnings.empty()) << all_warnings(ex);
}

TEST(CaptureSamples, HttpieVerboseSse) {
  const auto exs = read_sample("httpie-v-sse.txt");
  ASSERT_EQ(exs.size(), 1u);
  ASSERT_TRUE(exs[0].request);
  EXPECT_EQ(exs[0].request->target, "/sse");
  ASSERT_TRUE(exs[0].request->body);
  EXPECT_EQ(exs[0].request->body->size(), 111u);
  EXPECT_EQ(exs[0].response.status, 200);
  EXPECT_EQ(media(exs[0]), "text/event-stream");
  EXPECT_EQ(exs[0].response.body, sse_a());
}

TEST(CaptureSamples, RawChunkedResponse) {
  const auto exs = read_sample("raw-http11-chunked-json-response.http");
  expect_single(exs, "raw-http11-chunked-json-response.http", 200, "application/json", kList,
                mcptriage::CaptureFormat::raw_http);
}

TEST(CaptureSamples, RawConversationRequestGluedToResponse) {
  const auto exs = read_sample("raw-http11-conversation-request-response.http");
  ASSERT_EQ(exs.size(), 1u);
  const Exchange& ex = exs[0];
  EXPECT_EQ(ex.format, mcptriage::CaptureFormat::http_conversation);
  ASSERT_TRUE(ex.request);
  EXPECT_EQ(ex.request->method_line, "POST");
  EXPECT_EQ(ex.request->target, "/json");
  ASSERT_TRUE(ex.request->body);
  EXPECT_EQ(ex.request->body->size(), 154u);
  EXPECT_TRUE(ex.request->body->ends_with(R"("version":"7.88.1"}}})"));
  EXPECT_EQ(ex.response.status, 200);
  EXPECT_EQ(media(ex), "application/json");
  EXPECT_EQ(ex.response.body, kInit);
  EXPECT_TRUE(ex.warnings.empty()) << all_warnings(ex);
}

TEST(CaptureSamples, BareJson) {
  const auto exs = read_sample("bare-json-response.json");
  ASSERT_EQ(exs.size(), 1u);
  EXPECT_EQ(exs[0].format, mcptriage::CaptureFormat::bare_json);
  EXPECT_EQ(exs[0].source, "bare-json-response.json#1");
  EXPECT_EQ(exs[0].response.body, std::string(kCall) + "\n");
  EXPECT_EQ(exs[0].response.status, 200);
  EXPECT_EQ(exs[0].response.http_version, "");
  EXPECT_TRUE(exs[0].response.headers.empty());
  EXPECT_FALSE(exs[0].response.transport_captured);
  EXPECT_EQ(exs[0].warnings, std::vector<std::string>{"transport not captured; status assumed 200"});
}

TEST(CaptureSamples, BareSseWithAssumedStatus) {
  const auto exs = read_sample("bare-sse-body.txt", CaptureOptions{.assumed_status = 202});
  ASSERT_EQ(exs.size(), 1u);
  EXPECT_EQ(exs[0].format, mcptriage::CaptureFormat::bare_sse);
  EXPECT_EQ(exs[0].response.status, 202);
  EXPECT_TRUE(exs[0].response.body.starts_with("id: 1c7b5e2a_0\nretry: 1000\ndata: \n\n"));
  EXPECT_TRUE(exs[0].response.body.ends_with(std::string(kCall) + "\n\n"));
  EXPECT_FALSE(exs[0].response.transport_captured);
  EXPECT_TRUE(has_warning(exs[0], "status assumed 202"));
}

TEST(CaptureSamples, MitmproxyFlowRejected) {
  const std::string expected =
      "mitmproxy flow file: unsupported, export it as HAR (mitmdump --set hardump=FILE)";
  const auto inline_result =
      read_capture("2417:4:type;4:http;7:version;2:17#9:websocket;0:~8:response;", "f.mitm");
  ASSERT_FALSE(inline_result);
  EXPECT_EQ(inline_result.error().message, expected);
  // The sample lives in testdata/samples or, as a hostile input, in testdata/hostile.
  std::string bytes = read_file(sample_path("mitmproxy-flows.mitm"));
  if (bytes.empty()) {
    bytes = read_file(std::string(MCPTRIAGE_SOURCE_DIR) + "/testdata/hostile/mitmproxy-flows.mitm");
  }
  ASSERT_FALSE(bytes.empty()) << "mitmproxy-flows.mitm not found";
  const auto result = read_capture(bytes, "mitmproxy-flows.mitm");
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().message, expected);
}

TEST(CaptureSamples, EverySampleAndEveryPrefixIsSafe) {
  // Whatever the format, reading never throws or crashes, and cutting a capture anywhere
  // gives an error or exchanges.
  for (const auto& entry : std::filesystem::directory_iterator(sample_path(""))) {
    const std::string bytes = read_file(entry.path().string());
    const std::string name = entry.path().filename().string();
    const std::size_t step = bytes.size() > 4000 ? 97 : 1;
    for (std::size_t n = 0; n <= bytes.size(); n += step) {
      const auto result = read_capture(std::string_view(bytes).substr(0, n), name);
      if (result) {
        EXPECT_FALSE(result->empty()) << name << " cut at " << n;
      }
    }
  }
}

// ---------------------------------------------------------------------------------------
// Inline captures

TEST(CaptureText, GluedNextResponses) {
  const std::string text =
      "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n" + std::string(kInit) +
      "HTTP/1.1 202 Accepted\r\nDate: x\r\n\r\n"
      "HTTP/2 200 \r\ncontent-type: text/event-stream\r\n\r\n" + sse_a() +
      "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 322\r\n\r\n" +
      std::string(kList);
  const auto result = read_capture(text, "next.txt");
  ASSERT_TRUE(result) << result.error().message;
  ASSERT_EQ(result->size(), 4u);
  EXPECT_EQ((*result)[0].source, "next.txt#1");
  EXPECT_EQ((*result)[0].response.body, kInit);
  EXPECT_EQ((*result)[1].source, "next.txt#2");
  EXPECT_EQ((*result)[1].response.status, 202);
  EXPECT_EQ((*result)[1].response.body, "");
  EXPECT_EQ((*result)[2].response.http_version, "HTTP/2");
  EXPECT_EQ((*result)[2].response.body, sse_a());
  EXPECT_EQ((*result)[3].response.body, kList);
  for (const auto& ex : *result) EXPECT_TRUE(ex.warnings.empty()) << all_warnings(ex);
}

TEST(CaptureText, StatusTextInsideBodyDoesNotSplit) {
  // A status line in a JSON string or SSE data without a following header block is body.
  const std::string body =
      "data: HTTP/1.1 200 OK\ndata: more\n\n"
      "data: {\"text\":\"HTTP/1.1 500 Oops\"}\n\n";
  const std::string text = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\n" + body;
  const auto result = read_capture(text, "x");
  ASSERT_TRUE(result);
  ASSERT_EQ(result->size(), 1u);
  EXPECT_EQ((*result)[0].response.body, body);
}

TEST(CaptureText, WriteOutAfterJsonWithContentLength) {
  const std::string text = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " +
                           std::to_string(kInit.size()) + "\r\n\r\n" + std::string(kInit) + "200";
  const auto result = read_capture(text, "w.txt");
  ASSERT_TRUE(result);
  ASSERT_EQ(result->size(), 1u);
  EXPECT_EQ((*result)[0].response.body, kInit);
  EXPECT_EQ((*result)[0].response.body_state, BodyState::complete);
  EXPECT_TRUE(has_warning((*result)[0], "3 bytes after Content-Length ignored"))
      << all_warnings((*result)[0]);
}

TEST(CaptureText, LongerNonJsonBodyIsKeptAsReRendered) {
  // HTTPie --pretty re-indents JSON, so the body no longer matches Content-Length.
  const std::string pretty = "{\n    \"id\": 1,\n    \"jsonrpc\": \"2.0\",\n    \"result\": {}\n}";
  const std::string text =
      "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 36\r\n\r\n" + pretty;
  const auto result = read_capture(text, "p.txt");
  ASSERT_TRUE(result);
  EXPECT_EQ((*result)[0].response.body, pretty);
  EXPECT_TRUE(has_warning((*result)[0], "re-rendered")) << all_warnings((*result)[0]);
}

TEST(CaptureText, TrailersAfterBodyAreStripped) {
  const std::string text =
      "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTrailer: X-Checksum, X-Elapsed\r\n"
      "Transfer-Encoding: chunked\r\n\r\n" +
      std::string(kCall) + "X-Checksum: sha256-abc\r\nX-Elapsed: 12\r\n\r\n";
  const auto result = read_capture(text, "t.txt");
  ASSERT_TRUE(result);
  ASSERT_EQ(result->size(), 1u);
  EXPECT_EQ((*result)[0].response.body, kCall);
  EXPECT_TRUE(has_warning((*result)[0], "X-Checksum X-Elapsed")) << all_warnings((*result)[0]);

  // Followed by the next glued response.
  const std::string two = "HTTP/2 200 \r\ncontent-type: application/json\r\ntrailer: x-checksum\r\n\r\n" +
                          std::string(kCall) + "x-checksum: 1\r\n" + "HTTP/2 202 \r\ndate: x\r\n\r\n";
  const auto both = read_capture(two, "t2.txt");
  ASSERT_TRUE(both);
  ASSERT_EQ(both->size(), 2u);
  EXPECT_EQ((*both)[0].response.body, kCall);
  EXPECT_EQ((*both)[1].response.status, 202);
}

TEST(CaptureText, TrailersOnlyWhenAnnounced) {
  const std::string body = std::string(kCall) + "X-Checksum: sha256-abc\r\n";
  const std::string text = "HTTP/2 200 \r\ncontent-type: application/json\r\n\r\n" + body;
  const auto result = read_capture(text, "t.txt");
  ASSERT_TRUE(result);
  EXPECT_EQ((*result)[0].response.body, body);
}

TEST(CaptureText, CaptureEndsInsideHeaderBlock) {
  const auto result =
      read_capture("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Le", "cut.txt");
  ASSERT_TRUE(result);
  ASSERT_EQ(result->size(), 1u);
  const auto& ex = (*result)[0];
  EXPECT_EQ(ex.response.status, 200);
  ASSERT_EQ(ex.response.headers.size(), 1u);
  EXPECT_EQ(media(ex), "application/json");
  EXPECT_EQ(ex.response.body, "");
  EXPECT_EQ(ex.response.body_state, BodyState::truncated);
  EXPECT_TRUE(has_warning(ex, "capture ends inside the header block")) << all_warnings(ex);

  const auto no_blank = read_capture("HTTP/2 202 \r\ndate: x\r\n", "cut2.txt");
  ASSERT_TRUE(no_blank);
  EXPECT_EQ((*no_blank)[0].response.body_state, BodyState::truncated);
  const auto status_only = read_capture("HTTP/1.1 204 No Content", "cut3.txt");
  ASSERT_TRUE(status_only);
  EXPECT_EQ((*status_only)[0].response.status, 204);
  EXPECT_EQ((*status_only)[0].response.body_state, BodyState::truncated);
}

TEST(CaptureText, HundredThousandHeadersAreFast) {
  std::string text = "HTTP/1.1 200 OK\r\n";
  for (int i = 0; i < 100000; ++i) text += "X-Header-" + std::to_string(i) + ": value\r\n";
  text += "Content-Type: application/json\r\n\r\n" + std::string(kInit);
  const auto start = std::chrono::steady_clock::now();
  const auto result = read_capture(text, "many.txt");
  const auto elapsed = std::chrono::steady_clock::now() - start;
  ASSERT_TRUE(result);
  ASSERT_EQ(result->size(), 1u);
  EXPECT_EQ((*result)[0].response.headers.size(), 100001u);
  EXPECT_EQ((*result)[0].response.body, kInit);
  EXPECT_LT(elapsed, std::chrono::seconds(2));
}

TEST(CaptureText, HugeBodyAndHeaderLineAreLinear) {
  const std::string big_value(1 << 20, 'v');
  std::string body(64u << 20, 'a');  // 64 MiB without any line end
  const std::string text = "HTTP/1.1 200 OK\r\nX-Big: " + big_value +
                           "\r\nContent-Type: text/plain\r\n\r\n" + body;
  const auto start = std::chrono::steady_clock::now();
  const auto result = read_capture(text, "big.txt");
  ASSERT_TRUE(result);
  EXPECT_EQ((*result)[0].response.body.size(), body.size());
  EXPECT_EQ(mcptriage::find_header((*result)[0].response.headers, "X-Big")->size(),
            big_value.size());

  // Many status-line look-alikes on one 1 MiB line, and many header-like lines after one.
  std::string tricky;
  while (tricky.size() < (1u << 20)) tricky += "HTTP/1.1 200 x";
  tricky += "\n";
  for (int i = 0; i < 50000; ++i) tricky += "X: HTTP/1.1 200 OK\n";
  tricky += "not a header\n";
  const auto tricky_result =
      read_capture("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\n" + tricky, "tricky.txt");
  ASSERT_TRUE(tricky_result);
  ASSERT_EQ(tricky_result->size(), 1u);
  EXPECT_EQ((*tricky_result)[0].response.body, tricky);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
}

TEST(CaptureText, LfOnlyAndTerminalLineEnds) {
  const std::string lf =
      "HTTP/1.1 200 OK\nContent-Type: application/json\nContent-Length: 181\n\n" +
      std::string(kInit);
  const auto a = read_capture(lf, "lf.txt");
  ASSERT_TRUE(a);
  EXPECT_EQ(media((*a)[0]), "application/json");
  EXPECT_EQ((*a)[0].response.body, kInit);
  EXPECT_TRUE((*a)[0].warnings.empty()) << all_warnings((*a)[0]);

  const std::string pty =
      "HTTP/1.1 200 OK\r\r\nContent-Type: application/json\r\r\nContent-Length: 181\r\r\n\r\r\n" +
      std::string(kInit) + "\r\n";
  const auto b = read_capture(pty, "pty.txt");
  ASSERT_TRUE(b);
  EXPECT_EQ((*b)[0].response.reason, "OK");
  EXPECT_EQ(mcptriage::find_header((*b)[0].response.headers, "Content-Length"), "181");
  EXPECT_EQ((*b)[0].response.body, kInit);
}

TEST(CaptureText, AnsiBoldHeaderNamesAndBom) {
  const std::string text =
      "\xef\xbb\xbfHTTP/1.1 200 OK\r\r\n\x1b[1mContent-Type\x1b[0m: application/json\r\r\n"
      "\x1b[1mContent-Length\x1b[22m: 181\r\r\n\r\r\n" +
      std::string(kInit);
  const auto result = read_capture(text, "tty.txt");
  ASSERT_TRUE(result) << result.error().message;
  ASSERT_EQ(result->size(), 1u);
  EXPECT_EQ((*result)[0].response.headers[0].name, "Content-Type");
  EXPECT_EQ(media((*result)[0]), "application/json");
  EXPECT_EQ((*result)[0].response.body, kInit);
  EXPECT_TRUE(has_warning((*result)[0], "ANSI")) << all_warnings((*result)[0]);
}

TEST(CaptureText, AnsiAfterAnInterimBlock) {
  const std::string text =
      "HTTP/1.1 100 Continue\r\r\n\r\r\nHTTP/1.1 200 OK\r\r\n\x1b[1mContent-Type\x1b[0m: "
      "application/json\r\r\n\r\r\n" +
      std::string(kInit);
  const auto result = read_capture(text, "tty.txt");
  ASSERT_TRUE(result) << result.error().message;
  ASSERT_EQ(result->size(), 1u);
  EXPECT_EQ(media((*result)[0]), "application/json");
  EXPECT_EQ((*result)[0].response.body, kInit);
  EXPECT_TRUE(has_warning((*result)[0], "skipped interim response 100 Continue"));
}

TEST(CaptureText, ObsFoldAndTrimmedValues) {
  const auto result = read_capture(
      "HTTP/1.0 200 OK\r\nX-Long: first\r\n   second  \r\nContent-Type:   text/plain  \r\n\r\nhi",
      "fold.txt");
  ASSERT_TRUE(result);
  const auto& headers = (*result)[0].response.headers;
  ASSERT_EQ(headers.size(), 2u);
  EXPECT_EQ(headers[0].value, "first second");
  EXPECT_EQ(headers[1].value, "text/plain");
  EXPECT_EQ((*result)[0].response.http_version, "HTTP/1.0");
  EXPECT_EQ((*result)[0].response.body, "hi");
}

TEST(CaptureText, NoBodyStatusesIgnoreFollowingBytes) {
  const auto result = read_capture("HTTP/1.1 204 No Content\r\nDate: x\r\n\r\n204", "nc.txt");
  ASSERT_TRUE(result);
  EXPECT_EQ((*result)[0].response.body, "");
  EXPECT_TRUE(has_warning((*result)[0], "ignored")) << all_warnings((*result)[0]);
}

TEST(CaptureText, AuthChallengeBeforeFinalResponse) {
  const std::string text =
      "HTTP/1.1 401 Unauthorized\r\nWWW-Authenticate: Digest realm=x\r\nContent-Length: 0\r\n\r\n"
      "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n" + std::string(kCall);
  const auto result = read_capture(text, "auth.txt");
  ASSERT_TRUE(result);
  ASSERT_EQ(result->size(), 1u);
  EXPECT_EQ((*result)[0].response.status, 200);
  EXPECT_TRUE(has_warning((*result)[0], "skipped authentication challenge 401 Unauthorized"));
}

TEST(CaptureText, ChunkFramingCutShortIsTruncated) {
  const std::string text =
      "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
      "6b\r\n{\"jsonrpc\":\"2.0\"";
  const auto result = read_capture(text, "cut.http");
  ASSERT_TRUE(result);
  EXPECT_EQ((*result)[0].format, mcptriage::CaptureFormat::raw_http);
  EXPECT_EQ((*result)[0].response.body, "{\"jsonrpc\":\"2.0\"");
  EXPECT_EQ((*result)[0].response.body_state, BodyState::truncated);
}

TEST(CaptureText, GzipHeaderThenNothingIsCutShort) {
  // A gzip header and the first bits of a block, then the end: a stream cut short, judged on
  // what it decodes to (nothing here), never on the compressed bytes (docs/formats.md).
  const std::string gz = "\x1f\x8b\x08\x00garbage"s;
  const std::string text = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n" + gz;
  const auto result = read_capture(text, "gz.txt");
  ASSERT_TRUE(result);
  const auto& r = (*result)[0].response;
  EXPECT_EQ(r.body, "");
  EXPECT_EQ(r.body_state, BodyState::truncated);
  EXPECT_TRUE(r.undecoded_coding.empty());
  EXPECT_TRUE(has_warning((*result)[0], "gzip body cut short")) << all_warnings((*result)[0]);
}

TEST(CaptureText, CorruptGzipBodyIsKeptAndNotDecoded) {
  // Bytes with the gzip magic that are no gzip data: kept as captured, the coding named in
  // undecoded_coding (NOT_CAPTURED body_not_decoded), the same in every reader.
  // A gzip header, then a deflate block of the reserved type 11 (RFC 1951 §3.2.3): an error.
  const std::string gz = "\x1f\x8b\x08\x00\x00\x00\x00\x00\x02\x03\x07{\"jsonrpc\":\"2.0\"}"s;
  const std::string text = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\n\r\n" + gz;
  const auto result = read_capture(text, "gz.txt");
  ASSERT_TRUE(result);
  const auto& r = (*result)[0].response;
  EXPECT_EQ(r.body, gz);
  EXPECT_EQ(r.body_state, BodyState::complete);
  EXPECT_EQ(r.undecoded_coding, "gzip");
  EXPECT_TRUE(has_warning((*result)[0], "Content-Encoding: gzip body that does not decode (corrupt gzip data"))
      << all_warnings((*result)[0]);
}

TEST(CaptureText, RequestWithout100ContinueBodyOnTheWire) {
  const std::string text =
      "POST /mcp HTTP/1.1\r\nHost: h\r\nContent-Length: 2\r\nExpect: 100-continue\r\n\r\n"
      "HTTP/1.1 100 Continue\r\n\r\n"
      "{}HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " +
      std::to_string(kCall.size()) + "\r\n\r\n" + std::string(kCall) +
      "GET /mcp HTTP/1.1\r\nHost: h\r\nAccept: text/event-stream\r\n\r\n"
      "HTTP/1.1 405 Method Not Allowed\r\nContent-Length: 0\r\n\r\n";
  const auto result = read_capture(text, "conv.http");
  ASSERT_TRUE(result) << result.error().message;
  ASSERT_EQ(result->size(), 2u);
  const auto& first = (*result)[0];
  EXPECT_EQ(first.format, mcptriage::CaptureFormat::http_conversation);
  ASSERT_TRUE(first.request);
  EXPECT_EQ(first.request->body, "{}");
  EXPECT_EQ(first.response.body, kCall);
  EXPECT_TRUE(has_warning(first, "skipped interim response 100 Continue"));
  const auto& second = (*result)[1];
  ASSERT_TRUE(second.request);
  EXPECT_EQ(second.request->method_line, "GET");
  EXPECT_FALSE(second.request->body);
  EXPECT_EQ(second.response.status, 405);
}

TEST(CaptureText, RequestWithoutResponse) {
  const auto result =
      read_capture("POST /json HTTP/1.1\r\nContent-Length: 2\r\n\r\n{}\n\n", "req.txt");
  ASSERT_TRUE(result);
  ASSERT_EQ(result->size(), 1u);
  ASSERT_TRUE((*result)[0].request);
  EXPECT_EQ((*result)[0].request->body, "{}");
  EXPECT_EQ((*result)[0].response.body_state, BodyState::not_captured);
  EXPECT_FALSE((*result)[0].response.transport_captured);
}

// ---------------------------------------------------------------------------------------
// Detection and errors

TEST(CaptureDetect, EmptyInput) {
  ASSERT_FALSE(read_capture("", "e"));
  EXPECT_EQ(read_capture("", "e").error().message, "empty input");
  EXPECT_EQ(read_capture(" \r\n\t\n", "e").error().message, "empty input");
  EXPECT_EQ(read_capture("\xef\xbb\xbf", "e").error().message, "empty input");
}

TEST(CaptureDetect, PcapRejected) {
  const std::string expected = "pcap capture: unsupported, export the HTTP stream as text or HAR";
  for (const std::string& magic : {"\xd4\xc3\xb2\xa1\x02\x00"s, "\xa1\xb2\xc3\xd4\x00\x02"s,
                                   "\x0a\x0d\x0d\x0a\x1c\x00\x00\x00"s}) {
    const auto result = read_capture(magic, "cap");
    ASSERT_FALSE(result);
    EXPECT_EQ(result.error().message, expected);
  }
}

TEST(CaptureDetect, GzippedWholeInput) {
  // gzip of {"jsonrpc":"2.0","id":1,"result":{}}
  const std::string gz(
      "\x1f\x8b\x08\x00\x00\x00\x00\x00\x02\x03\xab\x56\xca\x2a\xce\xcf\x2b\x2a\x48\x56\xb2\x52"
      "\x32\xd2\x33\x50\xd2\x51\xca\x4c\x51\xb2\x32\xd4\x51\x2a\x4a\x2d\x2e\xcd\x29\x51\xb2\xaa"
      "\xae\xad\x05\x00\x6c\xbd\x59\xc0\x24\x00\x00\x00",
      56);
  const auto result = read_capture(gz, "body.json.gz");
  ASSERT_TRUE(result) << result.error().message;
  EXPECT_EQ((*result)[0].format, mcptriage::CaptureFormat::bare_json);
  EXPECT_EQ((*result)[0].response.body, R"({"jsonrpc":"2.0","id":1,"result":{}})");
  EXPECT_TRUE(has_warning((*result)[0], "gzip"));

  const auto bad = read_capture(gz.substr(0, 20), "bad.gz");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("gzip"), std::string::npos);
}

TEST(CaptureDetect, UnrecognisedInput) {
  const auto result = read_capture("  hello\tworld\x01\xff and much more text than forty bytes", "u");
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().message, "unrecognised input: hello\\tworld\\x01\\xff and much more text than fo");
}

TEST(CaptureDetect, BinaryGarbageIsAnErrorNotACrash) {
  std::string garbage;
  unsigned x = 12345;
  for (int i = 0; i < 100000; ++i) {
    x = x * 1103515245u + 12345u;
    garbage.push_back(static_cast<char>(x >> 16));
  }
  garbage[0] = 'Z';
  EXPECT_FALSE(read_capture(garbage, "g"));
  // A status line followed by garbage is read best-effort.
  const auto best = read_capture("HTTP/1.1 200 OK\r\n" + garbage, "g2");
  ASSERT_TRUE(best);
  EXPECT_FALSE(best->empty());
}

TEST(CaptureDetect, BareSseVariants) {
  for (std::string_view text : {": comment\n\ndata: {}\n\n", "event: message\ndata: {}\n\n",
                                "id: 1\ndata: {}\n\n", "retry: 10\n\n", "data:{}\n\n"}) {
    const auto result = read_capture(text, "s");
    ASSERT_TRUE(result) << text;
    EXPECT_EQ((*result)[0].format, mcptriage::CaptureFormat::bare_sse) << text;
  }
  const auto arr = read_capture("\n  [1,2]", "a");
  ASSERT_TRUE(arr);
  EXPECT_EQ((*arr)[0].format, mcptriage::CaptureFormat::bare_json);
}

}  // namespace
