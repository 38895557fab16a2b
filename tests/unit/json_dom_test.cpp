// Unit tests for src/json: views of parsed values, parse errors, canonical hashing, duplicate
// member names, and the bounded reuse of parsers.
#include <gtest/gtest.h>

#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "json/dom.hpp"

namespace {

using namespace mcptriage;
using json::Type;
using json::View;

std::uint64_t hash_of(const std::string& text, bool skip_meta = false) {
  json::Parser parser;
  auto e = parser.parse(text);
  EXPECT_TRUE(e) << text;
  return e ? json::canonical_hash(*e, skip_meta) : 0;
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
  EXPECT_EQ(json::canonical_hash(View()), hash_of("null")) << "a View of no document is a null";
}

TEST(JsonView, TypesAndAccessors) {
  json::Parser parser;
  auto root = parser.parse(
      R"({"i":-3,"u":18446744073709551615,"f":1.5,"e":1e2,"s":"a\"b","t":true,"n":null,"a":[1,"x",{}],"o":{"k":1}})");
  ASSERT_TRUE(root);
  ASSERT_TRUE(root->is_object());
  EXPECT_EQ(root->size(), 9u);
  EXPECT_EQ(root->get("i")->type(), Type::int64);
  EXPECT_EQ(root->get("i")->int64(), -3);
  EXPECT_EQ(root->get("i")->uint64(), std::nullopt) << "a negative integer is no uint64";
  EXPECT_EQ(root->get("u")->type(), Type::uint64);
  EXPECT_EQ(root->get("u")->int64(), std::nullopt) << "past 2^63-1";
  EXPECT_EQ(root->get("u")->uint64(), 18446744073709551615ull);
  EXPECT_EQ(root->get("f")->type(), Type::float64);
  EXPECT_EQ(root->get("f")->int64(), std::nullopt) << "a fraction is no integer";
  EXPECT_EQ(root->get("f")->number(), 1.5);
  EXPECT_EQ(root->get("e")->type(), Type::float64) << "an exponent reads as a double";
  EXPECT_EQ(root->get("i")->number(), -3.0);
  EXPECT_EQ(root->string_at("s"), "a\"b");
  EXPECT_EQ(root->string_at("i"), std::nullopt);
  EXPECT_EQ(root->bool_at("t"), true);
  EXPECT_EQ(root->bool_at("n"), std::nullopt);
  EXPECT_TRUE(root->get("n")->is_null());
  EXPECT_EQ(root->get("missing"), std::nullopt);
  EXPECT_EQ(root->get("a")->size(), 3u);
  EXPECT_EQ(root->get("a")->at(1)->string(), "x");
  EXPECT_EQ(root->get("a")->at(3), std::nullopt);
  EXPECT_EQ(root->get("a")->get("k"), std::nullopt) << "an array has no members";
  EXPECT_EQ(root->get("o")->get("k")->int64(), 1);
  const View nothing;
  EXPECT_TRUE(nothing.is_null());
  EXPECT_EQ(nothing.size(), 0u);
  EXPECT_EQ(nothing.get("k"), std::nullopt);
  EXPECT_EQ(nothing.items().begin(), nothing.items().end());
  EXPECT_EQ(json::minified(nothing), "null");
}

TEST(JsonView, IterationKeepsOrderAndRepeatedNames) {
  json::Parser parser;
  auto root = parser.parse(R"({"b":[1,[2,3],{"x":4}],"a":1,"b":2,"c":{}})");
  ASSERT_TRUE(root);
  std::vector<std::string> keys;
  for (auto [key, value] : root->members()) keys.push_back(std::string(key) + "=" + json::minified(value));
  EXPECT_EQ(keys, (std::vector<std::string>{"b=[1,[2,3],{\"x\":4}]", "a=1", "b=2", "c={}"}));
  EXPECT_EQ(json::minified(*root->get("b")), "[1,[2,3],{\"x\":4}]") << "the first of a repeated name wins";
  std::vector<std::string> items;
  for (View item : root->get("b")->items()) items.push_back(json::minified(item));
  EXPECT_EQ(items, (std::vector<std::string>{"1", "[2,3]", "{\"x\":4}"}));
  std::size_t n = 0;
  for (View item : root->get("c")->items()) n += item.size();  // an object has no items
  for (auto member : root->get("c")->members()) n += member.value.size();
  auto empty = parser.parse("[]");
  for (View item : empty->items()) n += item.size() + 1;
  EXPECT_EQ(n, 0u);
}

TEST(JsonView, MinifiedTextEscapesAsJsonRequires) {
  json::Parser parser;
  auto root = parser.parse("{ \"k\" : [ \"a\\nb\\u0001\\\"\\\\\\/\" , 1.0 , -0 , 1e2 ] }");
  ASSERT_TRUE(root);
  EXPECT_EQ(json::minified(*root), R"({"k":["a\nb\u0001\"\\/",1.0,0,100.0]})");
}

TEST(JsonParse, FaultsNameWhatIsWrong) {
  json::Parser parser;
  auto fault = [&](std::string_view text) { return parser.parse(text).error().fault; };
  EXPECT_EQ(fault("  "), json::ParseFault::empty);
  EXPECT_EQ(fault("\"\xff\""), json::ParseFault::utf8);
  EXPECT_EQ(fault(std::string(json::kMaxDepth + 1, '[') + std::string(json::kMaxDepth + 1, ']')),
            json::ParseFault::too_deep);
  EXPECT_EQ(fault("{\"a\":[1,2"), json::ParseFault::cut_short);
  EXPECT_EQ(fault("{\"a\":tru}"), json::ParseFault::syntax);
  EXPECT_FALSE(parser.parse("{} {}").error().message.empty());
  EXPECT_TRUE(json::is_one_value(" {\"a\":1}\n"));
  EXPECT_FALSE(json::is_one_value("{\"a\":1} x"));
}

TEST(JsonParse, TrailingDataIsFoundAfterACompleteValue) {
  EXPECT_EQ(json::trailing_data_at(R"({"a":1}{"b":2})"), 7u);
  EXPECT_EQ(json::trailing_data_at("[1] garbage"), 4u);
  EXPECT_EQ(json::trailing_data_at(R"({"a":1)"), std::nullopt) << "no complete value";
  EXPECT_EQ(json::trailing_data_at(R"({"a":1})"), std::nullopt) << "nothing after it";
  // A value larger than simdjson's default batch (1 MB), as a large HAR file is (new-user trial:
  // a 1.2 MB HAR with text after it was said to look cut short).
  std::string big = "{\"log\":{\"entries\":[";
  while (big.size() < (std::size_t{3} << 20)) big += "{\"request\":{\"method\":\"POST\"}},";
  big += "{}]}}";
  const std::size_t end = big.size();
  EXPECT_EQ(json::trailing_data_at(big + "garbage\n"), end);
  EXPECT_EQ(json::trailing_data_at(big + " {}"), end + 1);
  EXPECT_EQ(json::trailing_data_at(big), std::nullopt);
}

TEST(JsonDuplicates, ThePointerOfTheFirstRepeatedName) {
  json::Parser parser;
  auto at = [&](std::string_view text, std::string_view prefix = "") {
    auto root = parser.parse(text);
    EXPECT_TRUE(root) << text;
    return json::first_duplicate_member(*root, prefix);
  };
  EXPECT_EQ(at(R"({"a":1,"b":2})"), std::nullopt);
  EXPECT_EQ(at(R"({"a":1,"a":2})"), "/a");
  EXPECT_EQ(at(R"({"result":{"content":[{"type":"text"},{"type":"a","type":"b"}]}})", "/3"),
            "/3/result/content/1/type");
  EXPECT_EQ(at(R"({"a/b":{"~":1,"~":2}})"), "/a~1b/~0") << "RFC 6901 escapes";
  std::string wide = "{";
  for (int i = 0; i < 40; ++i) wide += "\"k" + std::to_string(i) + "\":" + std::to_string(i) + ",";
  EXPECT_EQ(at(wide + "\"k33\":0}"), "/k33") << "past the linear search of the first 16 names";
  EXPECT_EQ(at("[1,2]"), std::nullopt);
  EXPECT_EQ(json::pointer_escape("a/~b"), "a~1~0b");
}

TEST(JsonParse, ALargeDocumentsBuffersAreGivenBack) {
  json::Parser parser;
  std::string big = "[\"" + std::string(2 * json::kKeptParserCapacity, 'x') + "\"]";
  ASSERT_TRUE(parser.parse(big));
  EXPECT_GT(parser.capacity(), json::kKeptParserCapacity);
  auto e = parser.parse(R"({"a":1})");
  ASSERT_TRUE(e);
  EXPECT_LE(parser.capacity(), json::kKeptParserCapacity);
  EXPECT_EQ(e->string_at("a"), std::nullopt) << "1 is no string";
  EXPECT_EQ(e->get("a")->int64(), 1);
}

TEST(JsonUtf8, ValidationFollowsRfc3629) {
  EXPECT_TRUE(json::valid_utf8("plain \xc3\xa9 \xf0\x9f\x98\x80"));
  EXPECT_FALSE(json::valid_utf8("\xc0\xaf")) << "overlong";
  EXPECT_FALSE(json::valid_utf8("\xed\xa0\x80")) << "a surrogate";
  EXPECT_FALSE(json::valid_utf8("\xf4\x90\x80\x80")) << "past U+10FFFF";
}

}  // namespace

TEST(JsonParse, InPlaceReadsOnlyTheTextWhateverFollowsIt) {
  // Lines of a block are parsed where they are (padded): the bytes after a line are the next
  // line, and must not be read as part of it.
  const std::string block = std::string("123\n") + "{\"a\":tru\n" + "[1,2]456\n" + "\"s\"x\n" + "null" +
                            std::string(json::kPadding, 'z');
  auto line = [&](std::size_t from, std::size_t n) { return std::string_view(block).substr(from, n); };
  json::Parser parser;
  auto e = parser.parse(line(0, 3), true);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->int64(), 123);
  EXPECT_FALSE(parser.parse(line(4, 8), true)) << "{\"a\":tru is cut, not true";
  e = parser.parse(line(13, 5), true);
  ASSERT_TRUE(e);
  EXPECT_EQ(json::minified(*e), "[1,2]");
  e = parser.parse(line(22, 3), true);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->string(), "s");
  e = parser.parse(line(27, 4), true);
  ASSERT_TRUE(e);
  EXPECT_TRUE(e->is_null());
}

TEST(JsonParse, PaddedCopyIsReadInPlaceAndParsesAlike) {
  const std::string text = R"({"jsonrpc":"2.0","id":7,"result":{"content":[]}})";
  const std::string copy = json::padded_copy(text);
  EXPECT_EQ(copy, text);
  EXPECT_GE(copy.capacity() - copy.size(), json::kPadding);
  json::Parser a;
  json::Parser b;
  auto ea = a.parse_string(copy);
  auto eb = b.parse(text);
  ASSERT_TRUE(ea);
  ASSERT_TRUE(eb);
  EXPECT_EQ(json::minified(*ea), json::minified(*eb));
}

namespace {

// RFC 8259 §6 and §8.2: what simdjson 3.0.1 refuses and the parser's exact second reading takes.
TEST(JsonRfc8259, BigIntegersAndNumbersBeyondDoublesAreRead) {
  json::Parser parser;
  auto big = parser.parse(R"({"id":123456789012345678901234567890,"n":-18446744073709551617,"x":1E400,"y":-1e400,"z":7})");
  ASSERT_TRUE(big);
  EXPECT_EQ(parser.leniency().big_integers, 2u);
  EXPECT_EQ(parser.leniency().out_of_range, 2u);
  EXPECT_EQ(parser.leniency().lone_surrogates, 0u);
  auto id = big->get("id");
  ASSERT_TRUE(id);
  EXPECT_TRUE(json::is_big_integer(*id));
  EXPECT_EQ(json::exact_number(*id)->text, "123456789012345678901234567890");
  EXPECT_TRUE(json::exact_number(*id)->integer);
  EXPECT_DOUBLE_EQ(*id->number(), 1.2345678901234568e29) << "rounded as JavaScript rounds it";
  EXPECT_EQ(json::exact_number(*big->get("n"))->text, "-18446744073709551617");
  EXPECT_TRUE(std::isinf(*big->get("x")->number()));
  EXPECT_LT(*big->get("y")->number(), 0);
  EXPECT_FALSE(json::is_big_integer(*big->get("x")));
  EXPECT_EQ(json::exact_number(*big->get("x"))->text, "1e400");
  EXPECT_EQ(*big->get("z")->int64(), 7);
  // The next parse forgets the replaced numbers.
  auto plain = parser.parse("[1.5]");
  ASSERT_TRUE(plain);
  EXPECT_FALSE(parser.leniency().any());
  EXPECT_EQ(json::exact_number(*plain->at(0))->text, "1.5");
}

TEST(JsonRfc8259, LoneSurrogatesReadAsReplacementCharacter) {
  json::Parser parser;
  auto s = parser.parse(R"(["\ud800", "\udc00x", "\ud83d\ude00", "\ud800\u0041"])");
  ASSERT_TRUE(s);
  EXPECT_EQ(parser.leniency().lone_surrogates, 3u);
  EXPECT_EQ(*s->at(0)->string(), "\xEF\xBF\xBD");
  EXPECT_EQ(*s->at(1)->string(), "\xEF\xBF\xBDx");
  EXPECT_EQ(*s->at(2)->string(), "\xF0\x9F\x98\x80") << "a pair is one character";
  EXPECT_EQ(*s->at(3)->string(), "\xEF\xBF\xBD" "A");
}

TEST(JsonRfc8259, OtherFaultsKeepSimdjsonsError) {
  json::Parser parser;
  for (const char* bad : {"[1E400,]", "[01]", "[1.]", R"(["\ud800)", R"(["\uZZZZ"])", "123456789012345678901234567890 1",
                          "[\"\\ud800\", \"\xff\"]", "-",
                          // an escape after a lone surrogate: four hex digits, no sign, no fewer
                          R"(["\ud800", "\u-123"])", R"(["\ud800", "\u+123"])", R"(["\ud800\u12"])",
                          R"(["\ud800\u-dc0"])"}) {
    EXPECT_FALSE(parser.parse(bad)) << bad;
  }
  EXPECT_FALSE(parser.parse("[1E400, \"\xff\"]")) << "UTF-8 is still checked";
}

TEST(JsonExactNumber, EqualValuesGiveEqualText) {
  auto text = [](std::string_view t) { return json::exact_number(t)->text; };
  EXPECT_EQ(text("1"), "1");
  EXPECT_EQ(text("1.0"), "1");
  EXPECT_EQ(text("10E-1"), "1");
  EXPECT_EQ(text("0.1e1"), "1");
  EXPECT_EQ(text("-0"), "0");
  EXPECT_EQ(text("-0.0e5"), "0");
  EXPECT_EQ(text("1e2"), "100");
  EXPECT_EQ(text("1.50"), "1.5");
  EXPECT_EQ(text("-0.05"), "-0.05");
  EXPECT_EQ(text("1E400"), "1e400");
  EXPECT_EQ(text("1E-400"), "1e-400");
  EXPECT_TRUE(json::exact_number("1e2")->integer);
  EXPECT_FALSE(json::exact_number("1.5")->integer);
  for (const char* bad : {"01", "1.", ".5", "+1", "1e", "-", "", "1x"}) EXPECT_FALSE(json::exact_number(std::string_view(bad))) << bad;
}

}  // namespace

namespace element_walk {

const std::string_view kPath[] = {"log", "entries"};

/// The walk's elements as minified text, or nullopt when it declined the text.
std::optional<std::vector<std::string>> walk(const std::string& text) {
  std::vector<std::string> seen;
  if (!json::for_each_element_at(text, false, kPath, [&](View v) { seen.push_back(json::minified(v)); })) {
    return std::nullopt;
  }
  return seen;
}

/// A text nested `levels` deep inside the one entry ([[[...]]]), at depth 4 of the document.
std::string deep_entry(std::size_t levels) {
  return R"({"log":{"entries":[)" + std::string(levels, '[') + std::string(levels, ']') + "]}}";
}

}  // namespace element_walk

TEST(JsonElementWalk, GivesEachElementInOrderAndChecksTheRest) {
  const std::string text =
      R"({"x":[1,{"y":"\u00e9"}],"log":{"version":"1.2","entries":[{"a":1},2,"three",[4],null],"pages":[]},"z":true} )";
  auto seen = element_walk::walk(text);
  ASSERT_TRUE(seen);
  EXPECT_EQ(*seen, (std::vector<std::string>{R"({"a":1})", "2", R"("three")", "[4]", "null"}));
  // An empty array is walked (the caller says what an empty one means).
  EXPECT_EQ(element_walk::walk(R"({"log":{"entries":[]}})"), std::vector<std::string>{});
}

// What the walk declines, Parser::parse of the whole text is left to judge (a caller falls back
// to it): a walk that succeeds must never accept a text the whole parse refuses.
TEST(JsonElementWalk, DeclinesWhatItDoesNotFollowAndNeverAcceptsWhatParseRefuses) {
  const std::vector<std::string> declined = {
      R"({"log":{"entries":[1]}} x)",             // text after the root
      R"({"log":{"entries":[1]}}})",
      R"({"log":{"entries":[1,]}})",              // invalid inside the array
      R"({"log":{"entries":[1]},"other":[1,}})",  // invalid outside it
      R"({"log":{"entries":[1]},"other":tru})",
      R"({"log":{"entries":[1]})",                // cut short
      R"({"log":{"entries":[{"a":"b)",
      R"({"log":{"entries":[1]},"log":{}})",      // a repeated name on the path
      R"({"log":{"entries":[1],"entries":[2]}})",
      R"({"log":{"entries":{}}})",                // a name on the path of the wrong type
      R"({"log":[]})",
      R"({"nolog":{}})",
      R"([1])",
      "{\"log\":{\"entries\":[\"\xff\"]}}",      // invalid UTF-8
      "",
  };
  for (const std::string& text : declined) {
    EXPECT_FALSE(element_walk::walk(text)) << text;
  }
  // Numbers and escapes simdjson refuses but RFC 8259 allows are read as Parser::parse reads them.
  EXPECT_TRUE(element_walk::walk(R"({"log":{"entries":[123456789012345678901234567890,"\ud800"]},"n":1e999})"));
}

TEST(JsonElementWalk, DepthIsCountedInTheWholeText) {
  // The deepest entry the whole document may hold, and one level more: the walk agrees with
  // Parser::parse of the whole text on both.
  json::Parser whole;
  for (std::size_t levels : {json::kMaxDepth - 4, json::kMaxDepth - 3, json::kMaxDepth - 2}) {
    const std::string text = element_walk::deep_entry(levels);
    const bool parsed = whole.parse(text).has_value();
    EXPECT_EQ(element_walk::walk(text).has_value(), parsed) << levels << " levels";
  }
  EXPECT_TRUE(whole.parse(element_walk::deep_entry(json::kMaxDepth - 4)));
  EXPECT_FALSE(whole.parse(element_walk::deep_entry(json::kMaxDepth - 2)));
}
