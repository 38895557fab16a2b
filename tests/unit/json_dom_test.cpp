// Unit tests for src/json: canonical hashing of JSON values and the bounded reuse of parsers.
#include <gtest/gtest.h>

#include <simdjson.h>

#include <string>

#include "json/dom.hpp"

namespace {

using namespace mcptriage;

std::uint64_t hash_of(const std::string& text, bool skip_meta = false) {
  simdjson::dom::parser parser;
  simdjson::dom::element e;
  EXPECT_EQ(parser.parse(text).get(e), simdjson::SUCCESS) << text;
  return json::canonical_hash(e, skip_meta);
}

TEST(JsonCanonicalHash, MemberOrderAndWhiteSpaceDoNotCount) {
  EXPECT_EQ(hash_of(R"({"a":1,"b":{"c":[1,2],"d":"x"}})"), hash_of(R"({ "b" : {"d":"x","c":[1, 2]}, "a":1 })"));
  EXPECT_EQ(hash_of(R"({"s":"\u00e9"})"), hash_of("{\"s\":\"\xc3\xa9\"}")) << "strings compare unescaped";
}

TEST(JsonCanonicalHash, ValuesTypesOrderAndRepeatsDo) {
  EXPECT_NE(hash_of(R"([1,2])"), hash_of(R"([2,1])"));
  EXPECT_NE(hash_of(R"({"a":1})"), hash_of(R"({"a":"1"})"));
  EXPECT_NE(hash_of(R"({"a":1})"), hash_of(R"({"a":1.0})"));
  EXPECT_NE(hash_of(R"({"a":1})"), hash_of(R"({"a":1,"a":1})"));
  EXPECT_NE(hash_of(R"({"a":{}})"), hash_of(R"({"a":[]})"));
  EXPECT_NE(hash_of(R"({"a":null})"), hash_of(R"({"a":false})"));
  EXPECT_NE(hash_of(R"({"ab":"c"})"), hash_of(R"({"a":"bc"})"));
}

TEST(JsonCanonicalHash, MetaIsLeftOutAtTheTopOnly) {
  EXPECT_EQ(hash_of(R"({"a":1,"_meta":{"progressToken":"p1"}})", true), hash_of(R"({"a":1})", true));
  EXPECT_NE(hash_of(R"({"a":{"_meta":1}})", true), hash_of(R"({"a":{}})", true));
  EXPECT_NE(hash_of(R"({"a":1,"_meta":{}})", false), hash_of(R"({"a":1})", false));
}

TEST(JsonParse, ALargeDocumentsBuffersAreGivenBack) {
  simdjson::dom::parser parser;
  std::string big = "[\"" + std::string(2 * json::kKeptParserCapacity, 'x') + "\"]";
  simdjson::dom::element e;
  ASSERT_EQ(json::parse(parser, big).get(e), simdjson::SUCCESS);
  EXPECT_GT(parser.capacity(), json::kKeptParserCapacity);
  ASSERT_EQ(json::parse(parser, R"({"a":1})").get(e), simdjson::SUCCESS);
  EXPECT_LE(parser.capacity(), json::kKeptParserCapacity);
  EXPECT_EQ(json::string_member(e, "a"), std::nullopt) << "1 is no string";
  EXPECT_EQ(int64_t(*json::member(e, "a")), 1);
}

}  // namespace
