// Unit tests for the JSON Lines readers (src/capture/jsonl_log.cpp): exchange logs and message streams.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <optional>
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
    EXPECT_EQ(ex.format, mcptriage::CaptureFormat::exchange_log);
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
  for (const auto& ex : exs) EXPECT_EQ(ex.format, mcptriage::CaptureFormat::jsonrpc_messages);
  ASSERT_TRUE(exs[0].request);
  EXPECT_NE(exs[0].request->body->find("\"initialize\""), std::string::npos);
  EXPECT_TRUE(body_has(exs[0], "\"id\":1,\"result\""));
  EXPECT_FALSE(exs[0].response.transport_captured);
  EXPECT_EQ(exs[0].response.status, 200);
  ASSERT_TRUE(exs[1].skipped);
  EXPECT_EQ(exs[1].skipped->reason, mcptriage::SkipReason::notification);
  EXPECT_NE(exs[2].request->body->find("tools/call"), std::string::npos);
  EXPECT_TRUE(body_has(exs[2], "hello from echo"));
  ASSERT_TRUE(exs[3].skipped);
  EXPECT_EQ(exs[3].skipped->reason, mcptriage::SkipReason::server_message);
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
  EXPECT_EQ(exs[0].format, mcptriage::CaptureFormat::exchange_log);
  ASSERT_TRUE(exs[0].request);
  // A request logged as a JSON value is kept as what the classifier reads of it, not as text.
  EXPECT_FALSE(exs[0].request->body);
  ASSERT_TRUE(exs[0].request->info);
  const mcptriage::RequestInfo& sent = *exs[0].request->info;
  EXPECT_EQ(sent.shape, mcptriage::RequestInfo::Shape::message);
  EXPECT_EQ(sent.method, "tools/call");
  ASSERT_TRUE(sent.id);
  EXPECT_EQ(sent.id->kind, mcptriage::JsonRpcId::Kind::integer);
  EXPECT_EQ(sent.id->text, "7");
  EXPECT_FALSE(sent.notification);
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
  EXPECT_EQ(exs[0].format, mcptriage::CaptureFormat::exchange_log);
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
  EXPECT_EQ(exs[1].skipped->reason, mcptriage::SkipReason::server_message);
  ASSERT_TRUE(exs[2].skipped);
  EXPECT_EQ(exs[2].skipped->reason, mcptriage::SkipReason::client_response);
}

TEST(JsonLinesEdges, InvalidAndCutLinesAreReportedNotDropped) {
  const auto exs = read_text(
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n[1,2]\n{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n"
      "{\"jsonrpc\":\"2.0\",\"id\":2,\"res");
  ASSERT_EQ(exs.size(), 3u);
  ASSERT_TRUE(exs[1].skipped);
  EXPECT_EQ(exs[1].skipped->reason, mcptriage::SkipReason::invalid_line);
  EXPECT_FALSE(exs[1].skipped->not_json) << "JSON, but no message: skipped, not a damaged log";
  ASSERT_TRUE(exs[2].skipped);
  EXPECT_NE(exs[2].skipped->detail.find("line 4 is not valid JSON"), std::string::npos);
  EXPECT_TRUE(exs[2].skipped->not_json) << "the CLI's exit 3 goes by this flag";
}

TEST(JsonLinesEdges, InvalidUtf8AndDeepNestingStayOnTheirLine) {
  std::string deep = "{\"a\":" + std::string(3000, '[') + std::string(3000, ']') + "}";
  const auto exs = read_text("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n{\"jsonrpc\":\"2.0\",\"x\":\"\xff\"}\n" +
                             deep + "\n{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n");
  ASSERT_EQ(exs.size(), 3u);
  EXPECT_TRUE(body_has(exs[0], "\"result\""));
  EXPECT_EQ(exs[1].skipped->reason, mcptriage::SkipReason::invalid_line);
  EXPECT_EQ(exs[2].skipped->reason, mcptriage::SkipReason::invalid_line);
}

TEST(JsonLinesSniff, PrettyPrintedJsonIsNoLog) {
  const auto exs = read_text("{\n  \"jsonrpc\": \"2.0\",\n  \"id\": 1,\n  \"result\": {}\n}\n", "body.json");
  ASSERT_EQ(exs.size(), 1u);
  EXPECT_EQ(exs[0].format, mcptriage::CaptureFormat::bare_json);
}

TEST(JsonLinesSniff, OneBareMessageIsABareBody) {
  const auto exs = read_text(R"({"jsonrpc":"2.0","id":1,"result":{}})", "body.json");
  ASSERT_EQ(exs.size(), 1u);
  EXPECT_EQ(exs[0].format, mcptriage::CaptureFormat::bare_json);
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

namespace {

/// The exchanges of `text` read as the CLI reads a long log (capture.hpp read_lines_block): a
/// first block up to the line end `cut` with more to follow, then the rest from where the first
/// block stopped; empty when the first block gives nothing out (the CLI then reads a larger one).
std::optional<std::vector<Exchange>> read_in_two_blocks(std::string_view text, std::size_t cut) {
  auto first = mcptriage::read_lines_block(text.substr(0, cut), "log.jsonl", 0, {}, 0, false, /*more_follows=*/true);
  if (!first) return std::nullopt;
  std::size_t rest = cut;
  // Lines before the second block: those the first one read, or all of its lines.
  auto lines_before = static_cast<std::size_t>(std::count(text.begin(), text.begin() + cut, '\n'));
  if (first->consumed > 0) {
    EXPECT_LE(first->consumed, cut);
    rest = first->consumed;
    lines_before = first->consumed_lines;
  } else if (!first->self_contained) {
    return std::nullopt;
  }
  auto second = mcptriage::read_lines_block(text.substr(rest), "log.jsonl", first->exchanges.size(), {},
                                            lines_before, false, false, first->carry_skip);
  if (!second) return std::nullopt;
  std::vector<Exchange> parts = std::move(first->exchanges);
  for (auto& ex : second->exchanges) parts.push_back(std::move(ex));
  return parts;
}

/// Every cut of `text` at a line end reads like one read of it (the fuzz harness's property,
/// fuzz/fuzz_read_capture.cpp, at every line end instead of the middle one only).
void expect_blocks_read_like_one_read(std::string_view text) {
  const auto whole = read_text(text);
  std::size_t tried = 0;
  for (std::size_t lf = text.find('\n'); lf != std::string_view::npos && lf + 1 < text.size();
       lf = text.find('\n', lf + 1)) {
    const auto parts = read_in_two_blocks(text, lf + 1);
    if (!parts) continue;
    ++tried;
    ASSERT_EQ(parts->size(), whole.size()) << "cut after byte " << lf;
    for (std::size_t i = 0; i < whole.size(); ++i) {
      const Exchange& a = (*parts)[i];
      const Exchange& b = whole[i];
      EXPECT_EQ(a.source, b.source) << "cut after byte " << lf;
      EXPECT_EQ(a.response.status, b.response.status) << a.source << ", cut after byte " << lf;
      EXPECT_EQ(a.response.body_state, b.response.body_state) << a.source << ", cut after byte " << lf;
      EXPECT_EQ(a.response.body, b.response.body) << a.source << ", cut after byte " << lf;
      EXPECT_EQ(a.warnings, b.warnings) << a.source << ", cut after byte " << lf;
    }
  }
  EXPECT_GT(tried, 0u);
}

}  // namespace

TEST(JsonLinesBlocks, EventsBeforeTheCutStayWithTheReplyAfterIt) {
  // Events logged before a request that is still waiting when the block ends, joined to the
  // reply of a later request: a cut at the waiting request lost the events before it (fuzz
  // finding read_capture-blockwise-jsonl; the block reader now cuts where nothing waited).
  const std::string text =
      R"({"dir":"c2s","message":{"jsonrpc":"2.0","id":1,"method":"ping"}})" "\n"
      R"({"dir":"s2c","http":{"status":200,"content_type":"application/json"},"message":{"jsonrpc":"2.0","id":1,"result":{}}})" "\n"
      R"({"dir":"s2c","http":{"status":200,"content_type":"text/event-stream"},"sse":{"event":"message","id":"e1"},"message":{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"t","progress":1}}})" "\n"
      R"({"dir":"c2s","message":{"jsonrpc":"2.0","id":2,"method":"ping"}})" "\n"
      R"({"dir":"c2s","message":{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo"}}})" "\n"
      R"({"dir":"s2c","http":{"status":200,"content_type":"text/event-stream"},"sse":{"event":"message","id":"e2"},"message":{"jsonrpc":"2.0","id":3,"result":{"content":[]}}})" "\n"
      R"({"dir":"s2c","http":{"status":200,"content_type":"application/json"},"message":{"jsonrpc":"2.0","id":2,"result":{}}})" "\n";
  const auto whole = read_text(text);
  ASSERT_EQ(whole.size(), 3u);
  EXPECT_TRUE(body_has(whole[2], "id: e1")) << whole[2].response.body;
  // The first block ends after the reply to request 3, with request 2 still waiting.
  std::size_t cut = 0;
  for (int i = 0; i < 6; ++i) cut = text.find('\n', cut) + 1;
  const auto parts = read_in_two_blocks(text, cut);
  ASSERT_TRUE(parts);
  ASSERT_EQ(parts->size(), 3u);
  EXPECT_EQ((*parts)[2].response.body, whole[2].response.body);
  expect_blocks_read_like_one_read(text);
}

TEST(JsonLinesBlocks, FuzzFindingReadsLikeOneRead) {
  // fuzz/seeds/read_capture-blockwise-jsonl.bin: found by `fuzz/run.sh 150` (the 43rd exchange
  // lost an event read in blocks).
  expect_blocks_read_like_one_read(
      read_file(std::string(MCPTRIAGE_SOURCE_DIR) + "/fuzz/seeds/read_capture-blockwise-jsonl.bin"));
}

TEST(JsonLinesBlocks, AMessageBrokenOverLinesReadsLikeOneReadAtEveryCut) {
  // Issue 28: a reply pretty-printed over lines, a broken notification, a broken request, text
  // that never makes a message, requests in flight; every cut, also inside a message broken over
  // lines, gives what one read gives.
  const std::string text =
      R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})" "\n"
      R"({"jsonrpc":"2.0","id":2,"method":"ping"})" "\n"
      "{\n  \"jsonrpc\": \"2.0\",\n  \"id\": 1,\n  \"result\": {\n    \"tools\": [\n      \"x\"\n    ]\n  }\n}\n"
      "{\n  \"jsonrpc\": \"2.0\",\n  \"method\": \"notifications/progress\"\n}\n"
      R"({"jsonrpc":"2.0","id":2,"result":{}})" "\n"
      "{\n  oops\n}\n"
      "{\n  \"jsonrpc\": \"2.0\",\n  \"id\": 3,\n  \"method\": \"ping\"\n}\n"
      R"({"jsonrpc":"2.0","id":3,"result":{}})" "\n"
      R"({"jsonrpc":"2.0","id":4,"method":"ping"})" "\n"
      "{\n  \"jsonrpc\": \"2.0\",\n  \"id\": 4,\n  \"result\": {}\n}\n";
  const auto whole = read_text(text);
  ASSERT_EQ(whole.size(), 8u);
  EXPECT_EQ(whole[0].broken_lines, 9u);
  EXPECT_EQ(whole[1].broken_lines, 0u);
  EXPECT_EQ(whole[2].stdio, mcptriage::StdioEnd::broken_message);
  for (std::size_t i = 3; i < 6; ++i) EXPECT_EQ(whole[i].skipped->reason, mcptriage::SkipReason::invalid_line);
  EXPECT_EQ(whole[6].broken_lines, 5u) << "the host's request";
  EXPECT_EQ(whole[7].broken_lines, 5u) << "the reply to the request after it";
  expect_blocks_read_like_one_read(text);
}

// Issue 14: a media type is assumed only when the log records no response headers at all
// (docs/formats.md "JSON Lines"); logged headers without Content-Type are a response without one.
TEST(JsonLinesMediaType, LoggedHeadersWithoutContentTypeAreKeptWithout) {
  const auto exs = read_text(
      R"({"request":{"jsonrpc":"2.0","id":1,"method":"ping"},"status":200,"headers":{"mcp-session-id":"s1"},"body":{"jsonrpc":"2.0","id":1,"result":{}}})"
      "\n"
      R"({"request":{"jsonrpc":"2.0","id":2,"method":"ping"},"status":200,"headers":{},"body":{"jsonrpc":"2.0","id":2,"result":{}}})"
      "\n");
  ASSERT_EQ(exs.size(), 2u);
  EXPECT_FALSE(find_header(exs[0].response.headers, "content-type"));
  EXPECT_EQ(find_header(exs[0].response.headers, "mcp-session-id").value_or(""), "s1");
  EXPECT_TRUE(exs[0].warnings.empty());
  EXPECT_EQ(find_header(exs[1].response.headers, "content-type").value_or(""), "application/json");
  ASSERT_EQ(exs[1].warnings.size(), 1u);
  EXPECT_EQ(exs[1].warnings[0], "the log gives no media type: the message read as application/json");
}

// Issue 14: a log of another shape (no line recognised) is an input error that names the members
// looked for and shows a jq remap to the documented shape (docs/formats.md "JSON Lines").
TEST(JsonLinesShape, NoLineRecognisedIsAnInputErrorWithARemap) {
  const std::string log =
      R"({"ts":1,"upstream-code":200,"resp_body":"{}"})"
      "\n"
      R"({"ts":2,"upstream-code":200,"resp_body":"{}"})"
      "\n";
  auto r = read_capture(log, "gw.jsonl", CaptureOptions{});
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("line 1 has the members ts, upstream-code, resp_body"), std::string::npos)
      << r.error().message;
  EXPECT_NE(r.error().message.find(R"(jq -c '{status: ."upstream-code", headers: .HEADERS, body: .resp_body, )"
                                   R"(request: .REQUEST}' LOG > exchanges.jsonl)"),
            std::string::npos)
      << r.error().message;
}

TEST(JsonLinesShape, OneRecognisedLineKeepsTheLog) {
  const auto exs = read_text(
      R"({"ts":1,"level":"info"})"
      "\n"
      R"({"status":202,"body":null})"
      "\n");
  ASSERT_EQ(exs.size(), 2u);
  ASSERT_TRUE(exs[0].skipped);
  EXPECT_EQ(exs[0].skipped->reason, mcptriage::SkipReason::invalid_line);
}

namespace {

// Fuzz finding (fuzz/run.sh, fuzz_read_capture on the proxy recordings among its seeds): the
// `proxy` member's `body` and `skipped.reason` were read into string_views of temporaries, a
// heap-use-after-free under ASan (scripts/test-sanitized runs this test) whenever the value
// was longer than a short string. Unknown names fall back to a complete body and not_mcp.
TEST(JsonLinesProxyMember, LongStateAndReasonNamesAreReadSafely) {
  const std::string log =
      R"({"request":{"method":"POST","url":"http://h/mcp"},"status":200,"headers":{"content-type":"application/json"},"body":"{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}",)"
      R"("proxy":{"body":"a body state no reader knows of","skipped":{"reason":"a skip reason no reader knows of","detail":"d"}}})"
      "\n"
      R"({"request":{"method":"POST","url":"http://h/mcp"},"status":200,"headers":{"content-type":"application/json"},"body":"{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{}}",)"
      R"("proxy":{"body":"cut_at_limit"}})"
      "\n";
  const auto exchanges = read_text(log);
  ASSERT_EQ(exchanges.size(), 2u);
  ASSERT_TRUE(exchanges[0].skipped);
  EXPECT_EQ(exchanges[0].skipped->reason, mcptriage::SkipReason::not_mcp);
  EXPECT_FALSE(exchanges[1].skipped);
  EXPECT_EQ(exchanges[1].response.body_state, BodyState::truncated);
  EXPECT_TRUE(exchanges[1].response.cut_at_max_body);
}

}  // namespace
