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

TEST(JsonParse, InPlaceReadsOnlyTheTextWhateverFollowsIt) {
  // Lines of a block are parsed where they are (padded): the bytes after a line are the next
  // line, and must not be read as part of it.
  const std::string block = std::string("123\n") + "{\"a\":tru\n" + "[1,2]456\n" + "\"s\"x\n" + "null" +
                            std::string(json::kPadding, 'z');
  auto line = [&](std::size_t from, std::size_t n) { return std::string_view(block).substr(from, n); };
  simdjson::dom::parser parser;
  simdjson::dom::element e;
  std::int64_t n = 0;
  ASSERT_EQ(json::parse(parser, line(0, 3), true).get(e), simdjson::SUCCESS);
  ASSERT_EQ(e.get(n), simdjson::SUCCESS);
  EXPECT_EQ(n, 123);
  EXPECT_NE(json::parse(parser, line(4, 8), true).get(e), simdjson::SUCCESS) << "{\"a\":tru is cut, not true";
  ASSERT_EQ(json::parse(parser, line(13, 5), true).get(e), simdjson::SUCCESS);
  EXPECT_EQ(simdjson::to_string(e), "[1,2]");
  std::string_view s;
  ASSERT_EQ(json::parse(parser, line(22, 3), true).get(e), simdjson::SUCCESS);
  ASSERT_EQ(e.get(s), simdjson::SUCCESS);
  EXPECT_EQ(s, "s");
  ASSERT_EQ(json::parse(parser, line(27, 4), true).get(e), simdjson::SUCCESS);
  EXPECT_TRUE(e.is_null());
}

TEST(JsonParse, PaddedCopyIsReadInPlaceAndParsesAlike) {
  const std::string text = R"({"jsonrpc":"2.0","id":7,"result":{"content":[]}})";
  const std::string copy = json::padded_copy(text);
  EXPECT_EQ(copy, text);
  EXPECT_GE(copy.capacity() - copy.size(), json::kPadding);
  simdjson::dom::parser a;
  simdjson::dom::parser b;
  simdjson::dom::element ea;
  simdjson::dom::element eb;
  ASSERT_EQ(json::parse_string(a, copy).get(ea), simdjson::SUCCESS);
  ASSERT_EQ(json::parse(b, text).get(eb), simdjson::SUCCESS);
  EXPECT_EQ(simdjson::to_string(ea), simdjson::to_string(eb));
}
