// Unit tests for the JSON Lines readers (src/capture/jsonl_log.cpp): exchange logs and message streams.
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

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::vector<Exchange> read_text(std::string_view text, std::string_view name = "log.jsonl",
                                const CaptureOptions& options = {}) {
  auto r = read_capture(text, name, options);
  EXPECT_TRUE(r) << (r ? "" : r.error().message);
  return r ? std::move(*r) : std::vector<Exchange>{};
}

std::vector<Exchange> read_sample(std::string_view file) {
  return read_text(read_file(std::string(MCPTRIAGE_SOURCE_DIR) + "/testdata/samples/" + std::string(file)), file);
}

bool body_has(const Exchange& ex, std::string_view what) { return ex.response.body.find(what) != std::string::npos; }

TEST(JsonLinesGateway, PairsDirectionalLinesAndJoinsEvents) {
  const auto exs = read_sample("gateway-exchanges.jsonl");
  ASSERT_EQ(exs.size(), 5u);
  for (const auto& ex : exs) {
    EXPECT_EQ(ex.format, "exchange-log");
    EXPECT_FALSE(ex.skipped);
  }
  // initialize: request line then its reply.
  ASSERT_TRUE(exs[0].request);
  EXPECT_EQ(exs[0].request->method_line, "POST");
  EXPECT_EQ(exs[0].request->target, "/mcp");
  EXPECT_NE(exs[0].request->body->find("\"method\":\"initialize\""), std::string::npos);
  EXPECT_EQ(exs[0].response.status, 200);
  EXPECT_EQ(find_header(exs[0].response.headers, "content-type").value_or(""), "application/json");
  EXPECT_TRUE(body_has(exs[0], "fmtlab-server"));
  // notifications/initialized answered by a 202 with no message.
  EXPECT_NE(exs[1].request->body->find("notifications/initialized"), std::string::npos);
  EXPECT_EQ(exs[1].response.status, 202);
  EXPECT_EQ(exs[1].response.body, "");
  EXPECT_FALSE(find_header(exs[1].response.headers, "content-type"));
  // Two SSE lines (progress, then the result for id 3) make one event stream, no request logged.
  EXPECT_FALSE(exs[2].request);
  EXPECT_EQ(find_header(exs[2].response.headers, "content-type").value_or(""), "text/event-stream");
  EXPECT_TRUE(exs[2].response.body.starts_with("event: message\nid: 1c7b5e2a_1\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\""));
  EXPECT_TRUE(body_has(exs[2], "id: 1c7b5e2a_2\ndata: {\"jsonrpc\":\"2.0\",\"id\":3,\"result\""));
  EXPECT_TRUE(exs[2].response.body.ends_with("\n\n"));
  EXPECT_TRUE(body_has(exs[3], "\"code\":-32601"));
  EXPECT_EQ(exs[4].response.status, 404);
}

TEST(JsonLinesMessages, StdioFramingPairedById) {
  const auto exs = read_sample("jsonrpc-messages.jsonl");
  ASSERT_EQ(exs.size(), 5u);
  for (const auto& ex : exs) EXPECT_EQ(ex.format, "jsonrpc-messages");
  ASSERT_TRUE(exs[0].request);
  EXPECT_NE(exs[0].request->body->find("\"initialize\""), std::string::npos);
  EXPECT_TRUE(body_has(exs[0], "\"id\":1,\"result\""));
  EXPECT_FALSE(exs[0].response.transport_captured);
  EXPECT_EQ(exs[0].response.status, 200);
  ASSERT_TRUE(exs[1].skipped);
  EXPECT_EQ(exs[1].skipped->reason, "notification");
  EXPECT_NE(exs[2].request->body->find("tools/call"), std::string::npos);
  EXPECT_TRUE(body_has(exs[2], "hello from echo"));
  ASSERT_TRUE(exs[3].skipped);
  EXPECT_EQ(exs[3].skipped->reason, "server_message");
  EXPECT_NE(exs[4].request->body->find("tools/frobnicate"), std::string::npos);
  EXPECT_TRUE(body_has(exs[4], "-32601"));
}

TEST(JsonLinesMessages, AssumedStatusApplies) {
  const auto exs = read_text(
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n", "m.jsonl",
      CaptureOptions{.assumed_status = 500});
  ASSERT_EQ(exs.size(), 1u);
  EXPECT_EQ(exs[0].response.status, 500);
}

TEST(JsonLinesIssueShape, OneLinePerExchangeWithRawBodyAndRequest) {
  // The shape issue 3 names: status, headers (any case), the raw body, the request object.
  const std::string line1 =
      R"({"status": 200, "headers": {"Content-Type": "text/event-stream"}, "body": "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{\"content\":[]}}\n\n", "request": {"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"x"}}})";
  const std::string line2 = R"({"status": 503, "headers": {"content-type": "text/plain"}, "body": "down"})";
  const std::string line3 = R"({"status": 202, "body": "", "request": {"jsonrpc":"2.0","method":"notifications/initialized"}})";
  const auto exs = read_text(line1 + "\r\n" + line2 + "\n\n" + line3 + "\n");
  ASSERT_EQ(exs.size(), 3u);
  EXPECT_EQ(exs[0].format, "exchange-log");
  ASSERT_TRUE(exs[0].request);
  // A request logged as a JSON value is kept as what the classifier reads of it, not as text.
  EXPECT_FALSE(exs[0].request->body);
  ASSERT_TRUE(exs[0].request->summary);
  const mcptriage::RequestSummary& sent = *exs[0].request->summary;
  EXPECT_EQ(sent.shape, mcptriage::RequestSummary::Shape::object);
  EXPECT_EQ(sent.method, "tools/call");
  ASSERT_TRUE(sent.id);
  EXPECT_EQ(sent.id->kind, mcptriage::JsonRpcId::Kind::integer);
  EXPECT_EQ(sent.id->text, "7");
  EXPECT_EQ(sent.id_json, "7");
  EXPECT_EQ(sent.tool_name, "x");
  EXPECT_TRUE(sent.has_params);
  EXPECT_EQ(exs[0].response.status, 200);
  EXPECT_TRUE(exs[0].response.body.starts_with("event: message\ndata: "));
  EXPECT_EQ(find_header(exs[0].response.headers, "content-type").value_or(""), "text/event-stream");
  EXPECT_FALSE(exs[1].request);
  EXPECT_EQ(exs[1].response.status, 503);
  EXPECT_EQ(exs[1].response.body, "down");
  EXPECT_EQ(exs[2].response.status, 202);
}

TEST(JsonLinesIssueShape, SingleLineLogIsStillALog) {
  const auto exs = read_text(R"({"status": 200, "content_type": "application/json", "body": {"jsonrpc":"2.0","id":1,"result":{}}})");
  ASSERT_EQ(exs.size(), 1u);
  EXPECT_EQ(exs[0].format, "exchange-log");
  EXPECT_EQ(exs[0].response.body, R"({"jsonrpc":"2.0","id":1,"result":{}})");
}

TEST(JsonLinesEdges, UnansweredRequestIsNotCaptured) {
  const auto exs = read_text(
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}\n{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\"}\n"
      "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"content\":[]}}\n");
  ASSERT_EQ(exs.size(), 2u);
  EXPECT_EQ(exs[0].response.body_state, BodyState::not_captured);
  EXPECT_EQ(exs[0].response.status, 0);
  EXPECT_NE(exs[0].warnings.at(0).find("no reply"), std::string::npos);
  EXPECT_TRUE(body_has(exs[1], "\"id\":2"));
}

TEST(JsonLinesEdges, ResponseWithUnknownIdStandsAlone) {
  const auto exs = read_text(
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n{\"jsonrpc\":\"2.0\",\"id\":9,\"result\":{}}\n"
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n");
  ASSERT_EQ(exs.size(), 2u);
  EXPECT_TRUE(exs[0].request);
  EXPECT_TRUE(body_has(exs[0], "\"id\":1"));
  EXPECT_FALSE(exs[1].request);
  EXPECT_TRUE(body_has(exs[1], "\"id\":9"));
}

TEST(JsonLinesEdges, ServerRequestAndClientAnswerAreSkipped) {
  const auto exs = read_text(
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"a\"}}\n"
      "{\"jsonrpc\":\"2.0\",\"id\":\"e1\",\"method\":\"elicitation/create\",\"params\":{}}\n"
      "{\"jsonrpc\":\"2.0\",\"id\":\"e1\",\"result\":{\"action\":\"accept\"}}\n"
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"content\":[]}}\n");
  ASSERT_EQ(exs.size(), 3u);
  EXPECT_FALSE(exs[0].skipped);
  EXPECT_TRUE(body_has(exs[0], "\"id\":1"));
  ASSERT_TRUE(exs[1].skipped);
  EXPECT_EQ(exs[1].skipped->reason, "server_message");
  ASSERT_TRUE(exs[2].skipped);
  EXPECT_EQ(exs[2].skipped->reason, "client_response");
}

TEST(JsonLinesEdges, InvalidAndCutLinesAreReportedNotDropped) {
  const auto exs = read_text(
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n[1,2]\n{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n"
      "{\"jsonrpc\":\"2.0\",\"id\":2,\"res");
  ASSERT_EQ(exs.size(), 3u);
  ASSERT_TRUE(exs[1].skipped);
  EXPECT_EQ(exs[1].skipped->reason, "invalid_line");
  ASSERT_TRUE(exs[2].skipped);
  EXPECT_NE(exs[2].skipped->detail.find("line 4 is not valid JSON"), std::string::npos);
}

TEST(JsonLinesEdges, InvalidUtf8AndDeepNestingStayOnTheirLine) {
  std::string deep = "{\"a\":" + std::string(3000, '[') + std::string(3000, ']') + "}";
  const auto exs = read_text("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n{\"jsonrpc\":\"2.0\",\"x\":\"\xff\"}\n" +
                             deep + "\n{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n");
  ASSERT_EQ(exs.size(), 3u);
  EXPECT_TRUE(body_has(exs[0], "\"result\""));
  EXPECT_EQ(exs[1].skipped->reason, "invalid_line");
  EXPECT_EQ(exs[2].skipped->reason, "invalid_line");
}

TEST(JsonLinesSniff, PrettyPrintedJsonIsNoLog) {
  const auto exs = read_text("{\n  \"jsonrpc\": \"2.0\",\n  \"id\": 1,\n  \"result\": {}\n}\n", "body.json");
  ASSERT_EQ(exs.size(), 1u);
  EXPECT_EQ(exs[0].format, "bare-json");
}

TEST(JsonLinesSniff, OneBareMessageIsABareBody) {
  const auto exs = read_text(R"({"jsonrpc":"2.0","id":1,"result":{}})", "body.json");
  ASSERT_EQ(exs.size(), 1u);
  EXPECT_EQ(exs[0].format, "bare-json");
}

TEST(JsonLinesScale, HundredThousandLinesInOrder) {
  std::string text;
  for (int i = 0; i < 50000; ++i) {
    text += "{\"jsonrpc\":\"2.0\",\"id\":" + std::to_string(i) + ",\"method\":\"ping\"}\n";
    text += "{\"jsonrpc\":\"2.0\",\"id\":" + std::to_string(i) + ",\"result\":{}}\n";
  }
  const auto exs = read_text(text);
  ASSERT_EQ(exs.size(), 50000u);
  EXPECT_EQ(exs.back().source, "log.jsonl#50000");
  EXPECT_TRUE(body_has(exs.back(), "\"id\":49999"));
}

}  // namespace

TEST(JsonLinesMessages, LineNumbersCountLeadingBlankLines) {
  // New-user trial: a whole read dropped the blank lines before the first line from its count.
  const auto exs = read_text("\n\n{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\"}\n{not json\n");
  ASSERT_EQ(exs.size(), 2u);
  ASSERT_TRUE(exs[0].skipped);
  EXPECT_NE(exs[0].skipped->detail.find("line 3:"), std::string::npos) << exs[0].skipped->detail;
  ASSERT_TRUE(exs[1].skipped);
  EXPECT_NE(exs[1].skipped->detail.find("line 4 "), std::string::npos) << exs[1].skipped->detail;
}
