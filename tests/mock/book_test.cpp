// `mcptriage mock`'s book (src/mock/book.hpp): matching by call, recorded order, the id rewrite,
// event streams, sessions, and the closest-call message.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "mcptriage/capture.hpp"
#include "mock/book.hpp"
#include "mock/replay.hpp"

namespace mcptriage::mock {
namespace {

/// An exchange log line (docs/formats.md) for one POST.
std::string line(const std::string& request, int status, const std::string& response,
                 const std::string& content_type = "application/json", const std::string& extra_response_headers = "",
                 const std::string& extra_request_headers = "") {
  // The request body as a string, as the proxy records it.
  std::string quoted = "\"";
  for (char c : request) quoted += c == '"' ? std::string("\\\"") : std::string(1, c);
  quoted += '"';
  std::string l = R"({"request":{"method":"POST","url":"http://127.0.0.1:3001/mcp","headers":{"Content-Type":"application/json")" +
                  extra_request_headers + R"(},"body":)" + quoted + R"(},"response":{"status":)" + std::to_string(status) +
                  R"(,"headers":{"Content-Type":")" + content_type + "\"" + extra_response_headers + R"(},"body":)";
  // A body that is JSON is logged as JSON; an event stream as a string.
  if (content_type == "application/json") l += response;
  else {
    l += '"';
    for (char c : response) {
      if (c == '\n') l += "\\n";
      else if (c == '"') l += "\\\"";
      else l += c;
    }
    l += '"';
  }
  return l + "}}\n";
}

Book book_of(const std::string& log) {
  auto read = read_capture(log, "rec.jsonl");
  EXPECT_TRUE(read) << (read ? "" : read.error().message);
  auto book = Book::build(std::move(*read));
  EXPECT_TRUE(book) << (book ? "" : book.error());
  return std::move(*book);
}

std::string body(const Answer& a) {
  std::string s;
  for (const std::string& p : a.pieces) s += p;
  return s;
}

TEST(MockBook, MatchesByMethodAndParamsInRecordedOrderWithTheNewId) {
  const std::string call1 = R"({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"message":"hi"}}})";
  std::string log = line(call1, 200, R"({"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"one"}]}})");
  log += line(call1, 503, R"({"jsonrpc":"2.0","id":3,"error":{"code":-32000,"message":"busy"}})");
  Book book = book_of(log);
  EXPECT_EQ(book.entries(), 2u);
  // Member order and _meta do not count; the id is the new request's.
  const std::string again = R"({"params":{"arguments":{"message":"hi"},"name":"echo","_meta":{"progressToken":9}},"method":"tools/call","id":"x-7","jsonrpc":"2.0"})";
  Answer a = book.answer("POST", {}, again);
  EXPECT_TRUE(a.matched);
  EXPECT_EQ(a.status, 200);
  EXPECT_EQ(body(a), R"({"jsonrpc":"2.0","id":"x-7","result":{"content":[{"type":"text","text":"one"}]}})");
  a = book.answer("POST", {}, again);
  EXPECT_EQ(a.status, 503);
  EXPECT_EQ(body(a), R"({"jsonrpc":"2.0","id":"x-7","error":{"code":-32000,"message":"busy"}})");
  a = book.answer("POST", {}, again);  // used up: the last one again
  EXPECT_EQ(a.status, 503);
  EXPECT_EQ(book.unmatched(), 0u);
  EXPECT_EQ(book.notes().size(), 1u);  // the same call answered differently
}

TEST(MockBook, AnEventStreamIsServedEventByEventWithTheFinalResponsesIdRewritten) {
  const std::string call = R"({"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"long"}})";
  const std::string stream =
      "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progress\":1}}\n\n"
      "id: e2\ndata: {\"jsonrpc\":\"2.0\",\"id\":5,\"result\":{\"content\":[]}}\n\n";
  Book book = book_of(line(call, 200, stream, "text/event-stream"));
  Answer a = book.answer("POST", {}, R"({"jsonrpc":"2.0","id":41,"method":"tools/call","params":{"name":"long"}})");
  ASSERT_TRUE(a.event_stream);
  ASSERT_EQ(a.pieces.size(), 2u);
  EXPECT_EQ(a.pieces[0], "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progress\":1}}\n\n");
  EXPECT_EQ(a.pieces[1], "id: e2\ndata: {\"jsonrpc\":\"2.0\",\"id\":41,\"result\":{\"content\":[]}}\n\n");
  bool framing = false;
  for (const Header& h : a.headers) framing = framing || h.name == "Content-Length";
  EXPECT_FALSE(framing);
}

TEST(MockBook, AnUnmatchedCallNamesTheClosestAndWhereItDiffers) {
  const std::string call = R"({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"message":"hi"}}})";
  const std::string other = R"({"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"add","arguments":{"a":1}}})";
  Book book = book_of(line(other, 200, R"({"jsonrpc":"2.0","id":4,"result":{"content":[]}})") +
                      line(call, 200, R"({"jsonrpc":"2.0","id":3,"result":{"content":[]}})"));
  Answer a = book.answer("POST", {}, R"({"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"echo","arguments":{"message":"ho"}}})");
  EXPECT_FALSE(a.matched);
  EXPECT_EQ(a.status, 200);
  const std::string b = body(a);
  EXPECT_NE(b.find(R"("id":9,"error":{"code":-32603)"), std::string::npos) << b;
  EXPECT_NE(b.find(R"(the closest recorded: tools/call (tool \"echo\") at rec.jsonl#2, where /arguments/message: recorded \"hi\", sent \"ho\")"),
            std::string::npos)
      << b;
  a = book.answer("POST", {}, R"({"jsonrpc":"2.0","id":10,"method":"prompts/get","params":{"name":"p"}})");
  EXPECT_NE(body(a).find("no prompts/get was recorded (recorded: tools/call)"), std::string::npos) << body(a);
  // A notification with no match is accepted.
  a = book.answer("POST", {}, R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
  EXPECT_EQ(a.status, 202);
  EXPECT_EQ(book.unmatched(), 2u);
}

TEST(MockBook, SessionsAsTheRecordedServerKeptThem) {
  const std::string init = R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}})";
  const std::string list = R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})";
  Book book = book_of(line(init, 200, R"({"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-06-18","capabilities":{},"serverInfo":{"name":"s","version":"1"}}})",
                           "application/json", R"(,"Mcp-Session-Id":"sess-1")") +
                      line(list, 200, R"({"jsonrpc":"2.0","id":1,"result":{"tools":[]}})", "application/json", "",
                           R"(,"Mcp-Session-Id":"sess-1")"));
  Answer a = book.answer("POST", {}, init);
  bool sid = false;
  for (const Header& h : a.headers) sid = sid || (h.name == "Mcp-Session-Id" && h.value == "sess-1");
  EXPECT_TRUE(sid);
  EXPECT_EQ(book.answer("POST", {}, list).status, 400);
  EXPECT_EQ(book.answer("POST", {{"Mcp-Session-Id", "other"}}, list).status, 404);
  EXPECT_EQ(book.answer("POST", {{"Mcp-Session-Id", "sess-1"}}, list).status, 200);
  EXPECT_EQ(book.answer("GET", {{"Mcp-Session-Id", "sess-1"}}, "").status, 405);
  EXPECT_EQ(book.answer("DELETE", {{"Mcp-Session-Id", "sess-1"}}, "").status, 200);
}

TEST(MockBook, ARequestBodyLoggedAsJsonIsMatchedByItsHash) {
  const std::string log =
      R"({"request":{"method":"POST","url":"http://h/mcp","body":{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"m":1}}}},)"
      R"("response":{"status":200,"headers":{"Content-Type":"application/json"},"body":{"jsonrpc":"2.0","id":1,"result":{"content":[]}}}})"
      "\n";
  Book book = book_of(log);
  Answer a = book.answer("POST", {}, R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"m":1}}})");
  EXPECT_TRUE(a.matched);
  EXPECT_NE(body(a).find(R"("id":2)"), std::string::npos) << body(a);
  a = book.answer("POST", {}, R"({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"m":2}}})");
  EXPECT_NE(body(a).find("the recording keeps their hash only"), std::string::npos) << body(a);
}

TEST(MockBook, RefusesStdioAndEmptyRecordings) {
  auto read = read_capture("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n", "s.jsonl");
  ASSERT_TRUE(read);
  auto book = Book::build(std::move(*read));
  ASSERT_FALSE(book);
  EXPECT_NE(book.error().find("message stream"), std::string::npos) << book.error();
  auto none = Book::build({});
  ASSERT_FALSE(none);
  EXPECT_NE(none.error().find("no recorded MCP exchange"), std::string::npos);
}

TEST(MockBook, WithIdAndFirstDifference) {
  EXPECT_EQ(with_id(R"({"jsonrpc":"2.0", "id" : 1 ,"result":{"id":1}})", "\"n\""),
            R"({"jsonrpc":"2.0", "id" : "n" ,"result":{"id":1}})");
  EXPECT_EQ(with_id("not json", "1"), "not json");
  EXPECT_EQ(first_difference(R"({"a":[1,2]})", R"({"a":[1,2]})"), "");
  EXPECT_EQ(first_difference(R"({"a":[1,2]})", R"({"a":[1]})"), "/a/1: recorded 2, not sent");
  EXPECT_EQ(first_difference(R"({"a":1,"_meta":{"x":1}})", R"({"a":1})"), "");
  EXPECT_EQ(first_difference(R"({"a":1})", R"({"a":1,"b":true})"), "/b: not recorded, sent true");
}

}  // namespace
}  // namespace mcptriage::mock

namespace mcptriage::mock {
namespace {

TEST(MockReplay, SelectorsEditsAndSafety) {
  EXPECT_EQ(parse_selector("tool=echo")->kind, Selector::Kind::tool);
  EXPECT_EQ(parse_selector("#4")->index, 4u);
  EXPECT_EQ(parse_selector("method=tools/list")->text, "tools/list");
  EXPECT_FALSE(parse_selector("echo"));
  RecordedCall c;
  c.index = 4;
  c.method = "tools/call";
  c.tool = "echo";
  EXPECT_TRUE(selected(c, {*parse_selector("tool=echo")}));
  EXPECT_TRUE(selected(c, {*parse_selector("method=ping"), *parse_selector("4")}));
  EXPECT_FALSE(selected(c, {*parse_selector("tool=add")}));

  auto e = parse_edit("/params/arguments/a=1");
  ASSERT_TRUE(e);
  EXPECT_EQ(e->value_json, "1");
  EXPECT_EQ(parse_edit("/params/arguments/m=hello there")->value_json, "\"hello there\"");
  EXPECT_EQ(parse_edit("/a~1b~0c=true")->path, (std::vector<std::string>{"a/b~c"}));
  EXPECT_FALSE(parse_edit("params/a=1"));
  EXPECT_FALSE(parse_edit("/a~2=1"));
  const std::string body = R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":{"a":"x"}}})";
  EXPECT_EQ(*apply_edit(body, *e), R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":{"a":1}}})");
  EXPECT_EQ(*apply_edit(body, *parse_edit("/params/arguments/b=2")),
            R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":{"b":2,"a":"x"}}})");
  EXPECT_FALSE(apply_edit(body, *parse_edit("/params/nothing/b=2")));
  EXPECT_EQ(*apply_edit(R"({"params":{}})", *parse_edit("/params/x=1")), R"({"params":{"x":1}})");

  std::map<std::string, ToolHints> tools;
  EXPECT_TRUE(unsafe_reason(c, tools));
  tools["echo"].read_only = true;
  EXPECT_FALSE(unsafe_reason(c, tools));
  tools["echo"] = ToolHints{false, false};
  EXPECT_TRUE(unsafe_reason(c, tools));
  c.method = "tools/list";
  EXPECT_FALSE(unsafe_reason(c, tools));
}

}  // namespace
}  // namespace mcptriage::mock
