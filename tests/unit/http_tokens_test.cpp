// Unit tests for src/http/tokens.hpp: the one set of header and token helpers.
#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "http/tokens.hpp"
#include "mcptriage/exchange.hpp"

namespace {

using mcptriage::Header;
using mcptriage::Headers;
namespace http = mcptriage::http;

TEST(HttpTokens, CaseFoldsAsciiOnly) {
  EXPECT_TRUE(http::iequals("Content-Length", "content-LENGTH"));
  EXPECT_FALSE(http::iequals("Content-Length", "Content-Lengt"));
  EXPECT_FALSE(http::iequals("\xc3\x89", "\xc3\xa9")) << "É and é are not folded: names are ASCII";
  EXPECT_EQ(http::lower("Text/Event-Stream; Charset=UTF-8"), "text/event-stream; charset=utf-8");
  EXPECT_EQ(http::ascii_lower('Z'), 'z');
  EXPECT_EQ(http::ascii_lower('['), '[');
}

TEST(HttpTokens, ContainsIgnoringCase) {
  EXPECT_TRUE(http::icontains("Bearer error=\"INSUFFICIENT_SCOPE\"", "insufficient_scope"));
  EXPECT_TRUE(http::icontains("Session not found", "SESSION"));
  EXPECT_FALSE(http::icontains("sess", "session"));
  EXPECT_TRUE(http::icontains("", ""));
  EXPECT_TRUE(http::icontains("x", ""));
}

TEST(HttpTokens, WhiteSpace) {
  EXPECT_EQ(http::trim_ows(" \t gzip \r\n"), "gzip");
  EXPECT_EQ(http::trim_ows(" \t\r\n"), "");
  EXPECT_TRUE(http::all_space(" \t\r\n\v\f"));
  EXPECT_TRUE(http::all_space(""));
  EXPECT_FALSE(http::all_space(" x "));
  EXPECT_TRUE(http::is_ows('\t'));
  EXPECT_FALSE(http::is_ows('\r'));
}

TEST(HttpTokens, TokensAndFieldLines) {
  EXPECT_TRUE(http::is_token("Mcp-Session-Id"));
  EXPECT_TRUE(http::is_token("!#$%&'*+-.^_`|~09azAZ"));
  EXPECT_FALSE(http::is_token(""));
  EXPECT_FALSE(http::is_token("a b"));
  EXPECT_FALSE(http::is_token("a:b"));
  const auto f = http::parse_field_line("Content-Type:  application/json \r");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->name, "Content-Type");
  EXPECT_EQ(f->value, "application/json");
  EXPECT_FALSE(http::parse_field_line("Content-Type : x")) << "no white space before the colon (RFC 9112 §5.1)";
  EXPECT_FALSE(http::parse_field_line(": x"));
  EXPECT_FALSE(http::parse_field_line("data"));
  EXPECT_EQ(http::field_line_name("X-Checksum: sha256-1"), "X-Checksum");
  EXPECT_EQ(http::field_line_name("{\"a\":1}"), "");
}

TEST(HttpTokens, Lists) {
  EXPECT_EQ(http::list_items(" gzip ,, br;q=1 ,"), (std::vector<std::string_view>{"gzip", "br;q=1"}));
  EXPECT_TRUE(http::list_items("").empty());
  EXPECT_TRUE(http::list_has("gzip, Chunked", "chunked"));
  EXPECT_TRUE(http::list_has("application/json, text/event-stream;q=0.9", "text/event-stream"));
  EXPECT_FALSE(http::list_has("text/event-streams", "text/event-stream"));
  EXPECT_FALSE(http::list_has("", "chunked"));
}

TEST(HttpTokens, ContentLength) {
  EXPECT_EQ(http::parse_content_length(" 42 "), 42u);
  EXPECT_EQ(http::parse_content_length("0"), 0u);
  EXPECT_FALSE(http::parse_content_length(""));
  EXPECT_FALSE(http::parse_content_length("-1"));
  EXPECT_FALSE(http::parse_content_length("4 2"));
  EXPECT_FALSE(http::parse_content_length("0x10"));
  EXPECT_FALSE(http::parse_content_length("1234567890123456789")) << "19 digits";
  EXPECT_EQ(http::parse_content_length("123456789012345678"), 123456789012345678u);
  EXPECT_EQ(http::content_length(Headers{{"content-length", "42, 42"}}), 42u);
  EXPECT_EQ(http::content_length(Headers{{"Content-Length", "42"}, {"CONTENT-LENGTH", "42"}}), 42u);
  EXPECT_FALSE(http::content_length(Headers{{"Content-Length", "42"}, {"Content-Length", "43"}})) << "RFC 9112 §6.3 rule 5";
  EXPECT_FALSE(http::content_length(Headers{{"Content-Length", "42,"}}));
  EXPECT_FALSE(http::content_length(Headers{{"Content-Type", "42"}}));
}

TEST(HttpTokens, InvalidContentLengthGivesTheValuesAsSent) {
  EXPECT_FALSE(http::invalid_content_length(Headers{}));
  EXPECT_FALSE(http::invalid_content_length(Headers{{"Content-Length", "42"}}));
  EXPECT_FALSE(http::invalid_content_length(Headers{{"content-length", "42, 42"}}));
  EXPECT_EQ(http::invalid_content_length(Headers{{"Content-Length", "abc"}}), "abc");
  EXPECT_EQ(http::invalid_content_length(Headers{{"Content-Length", ""}}), "");
  EXPECT_EQ(http::invalid_content_length(Headers{{"Content-Length", "42"}, {"Content-Length", "500"}}), "42, 500");
  EXPECT_EQ(http::invalid_content_length(Headers{{"Content-Length", "1234567890123456789"}}), "1234567890123456789");
}

}  // namespace
