// Unit tests for src/jsonrpc/request: ids (`--id`, a response's id) and RequestInfo, the one
// request type, whether read from text or from a value a capture reader parsed already.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "json/dom.hpp"
#include "jsonrpc/request.hpp"
#include "mcptriage/classify.hpp"
#include "mcptriage/render.hpp"

using namespace mcptriage;

TEST(JsonRpcId, ParseIdTakesAJsonIntegerOrString) {
  EXPECT_EQ(jsonrpc::parse_id("1")->kind, JsonRpcId::Kind::integer);
  EXPECT_EQ(jsonrpc::parse_id("-7")->text, "-7");
  EXPECT_FALSE(jsonrpc::parse_id("01").has_value()) << "RFC 8259 §6: no leading zero";
  EXPECT_FALSE(jsonrpc::parse_id("1.0").has_value());
  EXPECT_FALSE(jsonrpc::parse_id("99999999999999999999").has_value()) << "past 64 bits";
  EXPECT_EQ(jsonrpc::parse_id("\"1\"")->kind, JsonRpcId::Kind::string);
  EXPECT_FALSE(jsonrpc::parse_id("abc").has_value());
  EXPECT_FALSE(jsonrpc::parse_id("").has_value());
  // JSON strings with escapes (new-user trial, session 4: refused before)
  EXPECT_EQ(jsonrpc::parse_id(R"("a\"b")")->text, "a\"b");
  EXPECT_EQ(jsonrpc::parse_id(R"("\u0041\\")")->text, "A\\");
  EXPECT_EQ(jsonrpc::parse_id(R"("a\"b")")->kind, JsonRpcId::Kind::string);
  EXPECT_FALSE(jsonrpc::parse_id(R"("a"b")").has_value());    // not one JSON string
  EXPECT_FALSE(jsonrpc::parse_id(R"("a\")").has_value());     // an unterminated escape
  // A lone surrogate: RFC 8259 §8.2 allows it; read as U+FFFD (json::Leniency).
  EXPECT_EQ(jsonrpc::parse_id(R"("\ud800")")->text, "\xEF\xBF\xBD");
}

TEST(JsonRpcId, IdOfAValueAndItsJsonText) {
  json::Parser parser;
  auto id = [&](std::string_view text) { return jsonrpc::id_of(*parser.parse(text)); };
  EXPECT_EQ(id("7"), (JsonRpcId{JsonRpcId::Kind::integer, "7"}));
  EXPECT_EQ(id("18446744073709551615"), (JsonRpcId{JsonRpcId::Kind::integer, "18446744073709551615"}));
  EXPECT_EQ(id(R"("a\nb")"), (JsonRpcId{JsonRpcId::Kind::string, "a\nb"}));
  EXPECT_EQ(id("null"), (JsonRpcId{JsonRpcId::Kind::null, "null"}));
  EXPECT_EQ(id("1.5"), (JsonRpcId{JsonRpcId::Kind::other, "1.5"}));
  // Numbers compare by value (JavaScript and Python clients match `1.0` with `1`).
  EXPECT_EQ(id("1.0"), id("1"));
  EXPECT_EQ(id("1.0"), (JsonRpcId{JsonRpcId::Kind::integer, "1"}));
  EXPECT_EQ(id("20E-1"), id("2"));
  EXPECT_EQ(id("1.50"), id("1.5"));
  EXPECT_NE(id("1.0"), id(R"("1")")) << "strings never equal numbers";
  EXPECT_NE(id("1.0"), id(R"("1.0")"));
  // Beyond 64 bits: an integer, compared exactly (not by the double both round to).
  EXPECT_EQ(id("123456789012345678901234567890"),
            (JsonRpcId{JsonRpcId::Kind::integer, "123456789012345678901234567890"}));
  EXPECT_NE(id("123456789012345678901234567890"), id("123456789012345678901234567891"));
  EXPECT_EQ(id(R"({"a":1})"), (JsonRpcId{JsonRpcId::Kind::other, R"({"a":1})"}));
  EXPECT_NE(id("1"), id(R"("1")")) << "type and value";
  EXPECT_EQ(id(R"("a\nb")").to_json(), R"("a\u000ab")");
  EXPECT_EQ(id(R"("q\"\\")").to_json(), R"("q\"\\")");
}

TEST(JsonRpcRequest, WhatARequestSays) {
  const RequestInfo call = jsonrpc::read_request(
      R"({"jsonrpc":"2.0","id":"x-1","method":"tools/call","params":{"name":"echo","arguments":{"a":1},)"
      R"("_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","progressToken":"p"}}})");
  EXPECT_EQ(call.shape, RequestInfo::Shape::message);
  EXPECT_EQ(call.method, "tools/call");
  EXPECT_EQ(call.id, (JsonRpcId{JsonRpcId::Kind::string, "x-1"}));
  EXPECT_FALSE(call.notification);
  EXPECT_TRUE(call.has_params);
  EXPECT_EQ(call.tool_name, "echo");
  EXPECT_EQ(call.protocol_version, "2026-07-28");
  EXPECT_EQ(call.params_hash,
            jsonrpc::read_request(R"({"id":2,"method":"tools/call","params":{"arguments":{"a":1},"name":"echo"}})")
                .params_hash)
      << "params compare as canonical JSON without _meta";

  const RequestInfo note = jsonrpc::read_request(R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
  EXPECT_TRUE(note.notification);
  EXPECT_FALSE(note.has_params);
  EXPECT_EQ(note.params_hash, 0u);
  const RequestInfo answer = jsonrpc::read_request(R"({"jsonrpc":"2.0","id":3,"result":{}})");
  EXPECT_EQ(answer.shape, RequestInfo::Shape::message);
  EXPECT_TRUE(answer.notification) << "a client's response expects no result";
  EXPECT_EQ(jsonrpc::read_request(R"({"id":1,"method":"ping","params":{"name":"n"}})").tool_name, "")
      << "only a tools/call names a tool";
  EXPECT_EQ(jsonrpc::read_request(R"({"id":1,"id":2,"method":"ping"})").id->text, "1") << "first wins";

  const RequestInfo batch = jsonrpc::read_request(
      R"([{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/x"},{"id":5},7,)"
      R"({"jsonrpc":"2.0","id":"b","method":"tools/list"}])");
  EXPECT_EQ(batch.shape, RequestInfo::Shape::batch);
  EXPECT_EQ(batch.batch_ids,
            (std::vector<JsonRpcId>{{JsonRpcId::Kind::integer, "1"}, {JsonRpcId::Kind::string, "b"}}))
      << "the ids of its requests: a notification, a response and a number are none";

  EXPECT_EQ(jsonrpc::read_request("42").shape, RequestInfo::Shape::not_jsonrpc);
  EXPECT_EQ(jsonrpc::read_request("{\"id\":").shape, RequestInfo::Shape::not_jsonrpc);
  EXPECT_EQ(jsonrpc::read_request("").shape, RequestInfo::Shape::not_jsonrpc);
}

TEST(JsonRpcRequest, ARequestReadByTheReaderClassifiesAsTheBodyGivenAsText) {
  const std::vector<std::string> bodies = {
      R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"a":1}}})",
      R"({"jsonrpc":"2.0","id":"x-1","method":"tools/call","params":{"name":"echo","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}})",
      R"({"jsonrpc":"2.0","method":"notifications/initialized"})",
      R"({"jsonrpc":"2.0","id":1,"result":{}})",
      R"({"jsonrpc":"2.0","id":1.5,"method":"ping"})",
      R"({"jsonrpc":"2.0","id":null,"method":"ping","params":[1,2]})",
      R"({"id":1,"id":2,"method":"tools/list","method":"ping"})",
      R"([{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"ping"}])",
      R"("just a string")",
      R"(42)",
      R"({"jsonrpc":"2.0","id":1,"method":7})",
  };
  const std::vector<std::string> replies = {
      R"({"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"ok"}]}})",
      R"({"jsonrpc":"2.0","id":2,"result":{}})", ""};
  json::Parser parser;
  for (const std::string& body : bodies) {
    auto root = parser.parse(body);
    ASSERT_TRUE(root) << body;
    const RequestInfo info = jsonrpc::read_request(*root);
    EXPECT_EQ(info, jsonrpc::read_request(body)) << body;
    for (const std::string& reply : replies) {
      Exchange as_text;
      as_text.source = "t#1";
      as_text.format = CaptureFormat::curl_i;
      as_text.response.status = reply.empty() ? 202 : 200;
      if (!reply.empty()) as_text.response.headers.push_back({"Content-Type", "application/json"});
      as_text.response.body = reply;
      as_text.request = Request{};
      as_text.request->body = body;
      Exchange as_info = as_text;
      as_info.request->body.reset();
      as_info.request->info = info;
      ReadAlong along_text;
      ReadAlong along_info;
      const auto a = classify(as_text, {}, 0, &along_text);
      const auto b = classify(as_info, {}, 0, &along_info);
      ASSERT_EQ(a.size(), b.size()) << body;
      for (std::size_t i = 0; i < a.size(); ++i) {
        EXPECT_EQ(render_jsonl(Record{{0, 1}, CaptureFormat::curl_i, a[i]}, "t"), render_jsonl(Record{{0, 1}, CaptureFormat::curl_i, b[i]}, "t"))
            << body << " / " << reply;
      }
      EXPECT_EQ(along_text.request, along_info.request) << body;
      EXPECT_EQ(along_text.request.has_value(), info.shape == RequestInfo::Shape::message) << body;
    }
  }
}
