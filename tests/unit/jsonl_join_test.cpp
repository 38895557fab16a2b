// Unit tests for a JSON-RPC message broken over lines (src/capture/jsonl_join.cpp): joined back in
// message streams and wrap recordings, judged as MALFORMED_JSON message_over_lines, bounded.
#include <gtest/gtest.h>
#include <fmt/format.h>

#include <chrono>
#include <string>
#include <string_view>
#include <vector>

#include "mcptriage/capture.hpp"
#include "mcptriage/classify.hpp"
#include "mcptriage/exchange.hpp"

namespace {

using mcptriage::Exchange;
using mcptriage::Outcome;
using mcptriage::Reason;
using mcptriage::SkipReason;
using mcptriage::StdioEnd;

std::vector<Exchange> read_text(std::string_view text, std::string_view name = "log.jsonl") {
  auto r = mcptriage::read_capture(text, name);
  EXPECT_TRUE(r) << (r ? "" : r.error().message);
  return r ? std::move(*r) : std::vector<Exchange>{};
}

mcptriage::Classification judge(const Exchange& ex) {
  auto out = mcptriage::classify(ex, mcptriage::ContextFlags{}, 0);
  EXPECT_EQ(out.size(), 1u);
  return out.at(0);
}

bool has(std::string_view text, std::string_view what) { return text.find(what) != std::string_view::npos; }

/// What `JSON.stringify(msg, null, 2)` writes for a tools/list result: a required array whose last
/// item, a string, is JSON alone on its line.
constexpr std::string_view kPrettyToolsList = R"({
  "jsonrpc": "2.0",
  "id": 2,
  "result": {
    "tools": [
      {
        "name": "echo",
        "inputSchema": {
          "type": "object",
          "required": [
            "message"
          ]
        }
      }
    ]
  }
}
)";

std::string stream_with_pretty_reply() {
  return std::string(R"({"jsonrpc":"2.0","id":1,"method":"ping"})" "\n"
                     R"({"jsonrpc":"2.0","id":1,"result":{}})" "\n"
                     R"({"jsonrpc":"2.0","id":2,"method":"tools/list"})" "\n") +
         std::string(kPrettyToolsList) +
         R"({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"message":"hi"}}})" "\n"
         R"({"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"hi"}]}})" "\n";
}

TEST(JsonLinesJoin, APrettyPrintedReplyIsJoinedPairedAndJudgedMalformed) {
  const auto exs = read_text(stream_with_pretty_reply());
  ASSERT_EQ(exs.size(), 3u) << "one exchange per call: no record per line of the reply";
  const Exchange& list = exs[1];
  ASSERT_TRUE(list.request);
  EXPECT_TRUE(has(*list.request->body, "tools/list"));
  EXPECT_EQ(list.broken_lines, 17u);
  EXPECT_TRUE(has(list.broken_detail, "the server wrote this response over 17 lines (lines 4 to 20)"))
      << list.broken_detail;
  EXPECT_TRUE(has(list.response.body, R"("required":["message"])")) << "joined, as one message";
  const auto c = judge(list);
  EXPECT_EQ(c.outcome, Outcome::MALFORMED_JSON);
  EXPECT_EQ(c.reason, Reason::message_over_lines);
  EXPECT_TRUE(has(c.detail, "joined back, it is RPC_SUCCESS (rpc_success): tools/list: 1 tool")) << c.detail;
  EXPECT_TRUE(has(c.detail, "MUST NOT contain embedded newlines")) << c.detail;
  EXPECT_EQ(judge(exs[2]).outcome, Outcome::TOOL_SUCCESS) << "the next call is read as before";
  EXPECT_EQ(exs[0].broken_lines, 0u);
}

TEST(JsonLinesJoin, AJoinedToolSuccessIsStillMalformed) {
  // classification.md's precedence: what the host could parse decides, not the joined content.
  const auto exs = read_text(R"({"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo"}})" "\n"
                             "{\n  \"jsonrpc\": \"2.0\",\n  \"id\": 7,\n  \"result\": {\n    \"content\": [],\n"
                             "    \"isError\": false\n  }\n}\n");
  ASSERT_EQ(exs.size(), 1u);
  const auto c = judge(exs[0]);
  EXPECT_EQ(c.outcome, Outcome::MALFORMED_JSON);
  EXPECT_TRUE(has(c.detail, "joined back, it is TOOL_SUCCESS")) << c.detail;
}

TEST(JsonLinesJoin, TextThatNeverFormsAMessageKeepsItsRecordPerLine) {
  // A pretty-printed object that is no message, brackets that never balance, and a line that is
  // an object alone in the middle: each line is judged as before.
  const auto exs = read_text(R"({"jsonrpc":"2.0","id":1,"method":"ping"})" "\n"
                             "{\n  \"level\": \"info\"\n}\n"
                             "{\n  \"a\": [\n{\"x\":1}\n  ]\n}\n"
                             "[info] ready }\n"
                             R"({"jsonrpc":"2.0","id":1,"result":{}})" "\n");
  ASSERT_EQ(exs.size(), 10u);
  EXPECT_EQ(exs[0].broken_lines, 0u);
  EXPECT_TRUE(has(exs[0].response.body, "result"));
  for (std::size_t i = 1; i < exs.size(); ++i) {
    ASSERT_TRUE(exs[i].skipped) << i;
    EXPECT_EQ(exs[i].skipped->reason, SkipReason::invalid_line) << i;
    EXPECT_EQ(exs[i].line, i + 1) << "one entry per line, in order";
  }
}

TEST(JsonLinesJoin, AMessageLineEndsTheJoin) {
  // A message cut off by the next message: the lines before it are judged one by one, and the
  // message after is read as it is.
  const auto exs = read_text(R"({"jsonrpc":"2.0","id":1,"method":"ping"})" "\n"
                             "{\n  \"jsonrpc\": \"2.0\",\n"
                             R"({"jsonrpc":"2.0","id":1,"result":{}})" "\n");
  ASSERT_EQ(exs.size(), 3u);
  EXPECT_EQ(exs[0].broken_lines, 0u);
  EXPECT_TRUE(has(exs[0].response.body, "result"));
  EXPECT_EQ(exs[1].skipped->reason, SkipReason::invalid_line);
  EXPECT_EQ(exs[2].skipped->reason, SkipReason::invalid_line);
}

TEST(JsonLinesJoin, ABrokenNotificationIsAnEntryOfItsOwn) {
  const auto exs = read_text(R"({"jsonrpc":"2.0","id":1,"method":"ping"})" "\n"
                             "{\n  \"jsonrpc\": \"2.0\",\n  \"method\": \"notifications/message\",\n"
                             "  \"params\": {\n    \"level\": \"info\"\n  }\n}\n"
                             R"({"jsonrpc":"2.0","id":1,"result":{}})" "\n");
  ASSERT_EQ(exs.size(), 2u);
  EXPECT_EQ(exs[1].stdio, StdioEnd::broken_message);
  EXPECT_EQ(exs[1].line, 2u);
  const auto c = judge(exs[1]);
  EXPECT_EQ(c.reason, Reason::message_over_lines);
  EXPECT_TRUE(has(c.detail, "the server wrote notification notifications/message over 7 lines (lines 2 to 8)"))
      << c.detail;
  EXPECT_TRUE(has(c.detail, "the message is lost")) << c.detail;
  EXPECT_EQ(judge(exs[0]).outcome, Outcome::RPC_SUCCESS);
}

TEST(JsonLinesJoin, ABrokenRequestOfTheHostIsSaid) {
  // (A log that starts with a broken message is no log but one pretty-printed body: JsonLinesSniff.)
  const auto exs = read_text(R"({"jsonrpc":"2.0","method":"notifications/initialized"})" "\n"
                             "{\n  \"jsonrpc\": \"2.0\",\n  \"id\": 5,\n  \"method\": \"ping\"\n}\n"
                             R"({"jsonrpc":"2.0","id":5,"result":{}})" "\n");
  ASSERT_EQ(exs.size(), 2u);
  ASSERT_TRUE(exs[1].request);
  EXPECT_EQ(exs[1].broken_lines, 5u);
  const auto c = judge(exs[1]);
  EXPECT_EQ(c.reason, Reason::message_over_lines);
  EXPECT_TRUE(has(c.detail, "the host wrote this request over 5 lines")) << c.detail;
  EXPECT_TRUE(has(c.detail, "a strict server parses none of the lines")) << c.detail;
}

std::string wrap_line(std::string_view dir, std::string_view text) {
  std::string escaped;
  for (char c : text) {
    if (c == '"' || c == '\\') escaped += '\\';
    escaped += c;
  }
  return fmt::format(R"({{"transport":"stdio","dir":"{}","t":"2026-12-06T10:00:00.000000Z","line":"{}","bytes":{}}})",
                     dir, escaped, text.size()) + "\n";
}

std::string wrap_pretty(std::string_view dir, std::string_view pretty) {
  std::string out;
  for (std::size_t pos = 0; pos < pretty.size();) {
    const std::size_t lf = pretty.find('\n', pos);
    out += wrap_line(dir, pretty.substr(pos, lf - pos));
    pos = lf + 1;
  }
  return out;
}

TEST(JsonLinesJoin, AWrapRecordingsLinesAreJoinedWithTheirDirection) {
  const std::string text =
      std::string(R"({"transport":"stdio","dir":"c2s","t":"2026-12-06T10:00:00.000000Z","message":{"jsonrpc":"2.0","id":2,"method":"tools/list"}})" "\n") +
      wrap_pretty("s2c", kPrettyToolsList) + R"({"transport":"stdio","dir":"c2s","t":"2026-12-06T10:00:01.000000Z","eof":true})" "\n" +
      R"({"transport":"stdio","t":"2026-12-06T10:00:01.000000Z","exit":{"code":0},"stderr":[]})" "\n";
  const auto exs = read_text(text, "rec.jsonl");
  ASSERT_EQ(exs.size(), 1u);
  EXPECT_EQ(exs[0].broken_lines, 17u);
  EXPECT_EQ(exs[0].stdio, StdioEnd::none) << "answered: the exit leaves it alone";
  const auto c = judge(exs[0]);
  EXPECT_EQ(c.reason, Reason::message_over_lines);
  EXPECT_TRUE(has(c.detail, "lines 2 to 18")) << c.detail;
}

TEST(JsonLinesJoin, AWrapLineOfTheOtherDirectionEndsTheJoin) {
  std::string pretty = wrap_pretty("s2c", kPrettyToolsList);
  // The host's line in the middle of the server's.
  const std::size_t third = [&] {
    std::size_t pos = 0;
    for (int i = 0; i < 3; ++i) pos = pretty.find('\n', pos) + 1;
    return pos;
  }();
  pretty.insert(third, wrap_line("c2s", "[host] hello"));
  const std::string text =
      std::string(R"({"transport":"stdio","dir":"c2s","t":"2026-12-06T10:00:00.000000Z","message":{"jsonrpc":"2.0","id":2,"method":"tools/list"}})" "\n") +
      pretty;
  const auto exs = read_text(text, "rec.jsonl");
  ASSERT_EQ(exs.size(), 19u) << "the request, and each of the 18 lines on its own";
  for (std::size_t i = 1; i < exs.size(); ++i) EXPECT_EQ(exs[i].stdio, StdioEnd::not_jsonrpc_line) << i;
  EXPECT_TRUE(has(exs[4].stdio_detail, "the host wrote a line")) << exs[4].stdio_detail;
}

TEST(JsonLinesJoin, AnUnclosedBraceBeforeThousandsOfLinesStaysBounded) {
  // Hostile input: `{` and 200,000 lines that never close it, then runs of `[`: the join gives up
  // after its 4,096 lines each time (every line judged on its own), in linear time.
  std::string text = R"({"jsonrpc":"2.0","id":1,"method":"ping"})" "\n" R"({"jsonrpc":"2.0","id":1,"result":{}})" "\n{\n";
  constexpr std::size_t kLines = 200000;
  for (std::size_t i = 0; i < kLines; ++i) text += "  \"k\": 1,\n";
  for (std::size_t i = 0; i < 20000; ++i) text += "[\n";
  text += R"({"jsonrpc":"2.0","id":2,"method":"ping"})" "\n" R"({"jsonrpc":"2.0","id":2,"result":{}})" "\n";
  const auto started = std::chrono::steady_clock::now();
  const auto exs = read_text(text);
  const auto took = std::chrono::steady_clock::now() - started;
  ASSERT_EQ(exs.size(), 1 + 1 + kLines + 20000 + 1);
  for (std::size_t i = 1; i + 1 < exs.size(); ++i) ASSERT_TRUE(exs[i].skipped) << i;
  EXPECT_TRUE(has(exs.back().response.body, "result")) << "the call after them is read as before";
  EXPECT_EQ(exs.back().broken_lines, 0u);
  EXPECT_LT(std::chrono::duration_cast<std::chrono::seconds>(took).count(), 20);
}

TEST(JsonLinesJoin, AMessageLargerThanTheBoundIsJudgedLineByLine) {
  std::string text = R"({"jsonrpc":"2.0","id":1,"method":"ping"})" "\n{\n  \"jsonrpc\": \"2.0\",\n  \"id\": 1,\n";
  text += "  \"result\": {\n    \"pad\": \"" + std::string(std::size_t{5} << 20, 'x') + "\"\n  }\n}\n";
  const auto exs = read_text(text);
  ASSERT_EQ(exs.size(), 8u) << "the request unanswered, and the 7 lines each on their own";
  EXPECT_EQ(exs[0].broken_lines, 0u);
}

TEST(JsonLinesJoin, ALinesStreamJoinsAMessageSplitAcrossItsBlocks) {
  // A followed log (LinesStream, as --follow and mcptriage wrap read): the reply comes in blocks
  // of 1, 2, 3 and 5 lines, so that its lines are split across reads; the stream gives what one
  // read gives, and waits (not quiet) while a message is being joined.
  const std::string text = stream_with_pretty_reply();
  const auto whole = read_text(text);
  for (std::size_t per : {1u, 2u, 3u, 5u}) {
    mcptriage::LinesStream stream("log.jsonl", {});
    std::vector<Exchange> got;
    bool waited_inside = false;
    std::size_t pos = 0;
    while (pos < text.size()) {
      std::size_t end = pos;
      for (std::size_t n = 0; n < per && end < text.size(); ++n) end = text.find('\n', end) + 1;
      auto block = stream.read(std::string_view(text).substr(pos, end - pos), false, end == text.size());
      ASSERT_TRUE(block) << block.error().message;
      for (auto& ex : block->exchanges) got.push_back(std::move(ex));
      const std::string_view last_line = std::string_view(text).substr(0, end - 1).substr(text.rfind('\n', end - 2) + 1);
      if (last_line == "  \"jsonrpc\": \"2.0\",") waited_inside = waited_inside || !stream.quiet();
      pos = end;
    }
    ASSERT_EQ(got.size(), whole.size()) << per;
    for (std::size_t i = 0; i < whole.size(); ++i) {
      EXPECT_EQ(got[i].response.body, whole[i].response.body) << per << " " << i;
      EXPECT_EQ(got[i].broken_lines, whole[i].broken_lines) << per << " " << i;
      EXPECT_EQ(got[i].broken_detail, whole[i].broken_detail) << per << " " << i;
      EXPECT_EQ(got[i].line, whole[i].line) << per << " " << i;
    }
    if (per == 1) {
      EXPECT_TRUE(waited_inside) << "a join waits for its later lines";
    }
  }
}

TEST(JsonLinesJoin, RowModeKeepsARowPerLine) {
  mcptriage::CaptureOptions rows;
  rows.rows = true;
  auto r = mcptriage::read_capture(stream_with_pretty_reply(), "log.jsonl", rows);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->size(), 3u + 17u);
}

}  // namespace
