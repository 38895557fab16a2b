// Unit tests for src/http: status lines, header lookup, media types, dechunk, gunzip, deflate,
// HTTP-dates, Retry-After.
#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "mcptriage/exchange.hpp"
#include "mcptriage/http.hpp"

namespace {

using mcptriage::Header;
using mcptriage::Headers;
namespace http = mcptriage::http;

// gzip of {"jsonrpc":"2.0","id":1,"result":{}} (36 bytes), made with Python gzip, mtime 0.
constexpr char kGzip[] =
    "\x1f\x8b\x08\x00\x00\x00\x00\x00\x02\x03\xab\x56\xca\x2a\xce\xcf\x2b\x2a\x48\x56\xb2\x52"
    "\x32\xd2\x33\x50\xd2\x51\xca\x4c\x51\xb2\x32\xd4\x51\x2a\x4a\x2d\x2e\xcd\x29\x51\xb2\xaa"
    "\xae\xad\x05\x00\x6c\xbd\x59\xc0\x24\x00\x00\x00";
constexpr std::string_view kGzipBytes(kGzip, sizeof(kGzip) - 1);
constexpr std::string_view kGzipPlain = R"({"jsonrpc":"2.0","id":1,"result":{}})";

TEST(HttpStatusLine, Http11WithReason) {
  const auto s = http::parse_status_line("HTTP/1.1 200 OK");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->version, "HTTP/1.1");
  EXPECT_EQ(s->status, 200);
  EXPECT_EQ(s->reason, "OK");
}

TEST(HttpStatusLine, Http10AndCustomReason) {
  const auto s = http::parse_status_line("HTTP/1.0 200 Everything Is Fine");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->version, "HTTP/1.0");
  EXPECT_EQ(s->reason, "Everything Is Fine");
}

TEST(HttpStatusLine, NoReasonNoTrailingSpace) {
  const auto s = http::parse_status_line("HTTP/1.1 200");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->status, 200);
  EXPECT_EQ(s->reason, "");
}

TEST(HttpStatusLine, Http2AndHttp3WithTrailingSpace) {
  const auto h2 = http::parse_status_line("HTTP/2 200 ");
  ASSERT_TRUE(h2);
  EXPECT_EQ(h2->version, "HTTP/2");
  EXPECT_EQ(h2->status, 200);
  EXPECT_EQ(h2->reason, "");
  const auto h3 = http::parse_status_line("HTTP/3 202 ");
  ASSERT_TRUE(h3);
  EXPECT_EQ(h3->version, "HTTP/3");
  EXPECT_EQ(h3->status, 202);
}

TEST(HttpStatusLine, ToleratesLineEnd) {
  const auto s = http::parse_status_line("HTTP/1.1 404 Not Found\r\n");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->reason, "Not Found");
}

TEST(HttpStatusLine, Rejects) {
  EXPECT_FALSE(http::parse_status_line(""));
  EXPECT_FALSE(http::parse_status_line("HTTP/1.1"));
  EXPECT_FALSE(http::parse_status_line("HTTP/1.1 20"));
  EXPECT_FALSE(http::parse_status_line("HTTP/1.1 2000"));
  EXPECT_FALSE(http::parse_status_line("HTTP/1.1 abc OK"));
  EXPECT_FALSE(http::parse_status_line("HTTP/x 200 OK"));
  EXPECT_FALSE(http::parse_status_line("HTTP/1.1  200 OK"));
  EXPECT_FALSE(http::parse_status_line("HTTP/1.1 099 Low"));
  EXPECT_FALSE(http::parse_status_line("http/1.1 200 OK"));
  EXPECT_FALSE(http::parse_status_line("HTTP/1.1 200 O\x01K"));
  EXPECT_FALSE(http::parse_status_line("POST /json HTTP/1.1"));
}

TEST(HttpFindHeader, CaseInsensitiveFirstMatch) {
  const Headers headers = {{"Content-Type", "application/json"},
                           {"set-cookie", "a=1"},
                           {"Set-Cookie", "b=2"}};
  EXPECT_EQ(mcptriage::find_header(headers, "content-type"), "application/json");
  EXPECT_EQ(mcptriage::find_header(headers, "SET-COOKIE"), "a=1");
  EXPECT_FALSE(mcptriage::find_header(headers, "Content-Length"));
  EXPECT_FALSE(mcptriage::find_header({}, "x"));
}

TEST(HttpMediaType, LowerCasesAndDropsParameters) {
  EXPECT_EQ(http::media_type("Application/JSON; charset=utf-8"), "application/json");
  EXPECT_EQ(http::media_type("  text/event-stream  "), "text/event-stream");
  EXPECT_EQ(http::media_type("text/html;charset=UTF-8"), "text/html");
  EXPECT_EQ(http::media_type("application/json ; x=y"), "application/json");
  EXPECT_EQ(http::media_type(""), "");
  EXPECT_EQ(http::media_type(";charset=utf-8"), "");
}

TEST(HttpMediaType, IsComparesLikeMediaType) {
  for (std::string_view ct : {"Text/Event-Stream; charset=utf-8", "  text/event-stream  ", "text/event-streams",
                              "text/event-strea", "application/json", "", ";text/event-stream", "TEXT/EVENT-STREAM"}) {
    EXPECT_EQ(http::media_type_is(ct, "text/event-stream"), http::media_type(ct) == "text/event-stream") << ct;
  }
  EXPECT_TRUE(http::media_type_is("Text/Event-Stream; charset=utf-8", "text/event-stream"));
  EXPECT_FALSE(http::media_type_is("text/event-streams", "text/event-stream"));
}

TEST(HttpDechunk, ValidCrlfFraming) {
  const auto d = http::dechunk("4\r\nWiki\r\n5\r\npedia\r\n0\r\n\r\n");
  ASSERT_TRUE(d);
  EXPECT_EQ(d->body, "Wikipedia");
  EXPECT_TRUE(d->complete);
  EXPECT_EQ(d->consumed, 24u);  // all of it
}

TEST(HttpDechunk, ExtensionsTrailersBareLfAndUpperHex) {
  const std::string_view wire = "A;name=value\nabcdefghij\n0;x\nX-Checksum: 1\nX-Other: 2\n\nrest";
  const auto d = http::dechunk(wire);
  ASSERT_TRUE(d);
  EXPECT_EQ(d->body, "abcdefghij");
  EXPECT_TRUE(d->complete);
  EXPECT_EQ(wire.substr(d->consumed), "rest");
}

TEST(HttpDechunk, NotChunkFraming) {
  EXPECT_FALSE(http::dechunk(""));
  EXPECT_FALSE(http::dechunk(R"({"jsonrpc":"2.0"})"));
  EXPECT_FALSE(http::dechunk("event: message\ndata: {}\n\n"));
  EXPECT_FALSE(http::dechunk("abc"));                    // a hex word without line end
  EXPECT_FALSE(http::dechunk("4\r\nWikiX\r\n0\r\n\r\n"));  // data not followed by CRLF
  EXPECT_FALSE(http::dechunk("4 x\r\nWiki\r\n"));          // junk after the size
  EXPECT_FALSE(http::dechunk("Method Not Allowed"));
}

TEST(HttpDechunk, IncompleteFraming) {
  const auto cut_data = http::dechunk("a\r\n01234");
  ASSERT_TRUE(cut_data);
  EXPECT_FALSE(cut_data->complete);
  EXPECT_EQ(cut_data->body, "01234");

  const auto no_last_chunk = http::dechunk("4\r\nWiki\r\n");
  ASSERT_TRUE(no_last_chunk);
  EXPECT_FALSE(no_last_chunk->complete);
  EXPECT_EQ(no_last_chunk->body, "Wiki");

  const auto cut_size_line = http::dechunk("4\r\nWiki\r\n5");
  ASSERT_TRUE(cut_size_line);
  EXPECT_FALSE(cut_size_line->complete);

  // All data is there, only the final CRLF of the trailer section is missing.
  const auto no_final_crlf = http::dechunk("4\r\nWiki\r\n0\r\n");
  ASSERT_TRUE(no_final_crlf);
  EXPECT_TRUE(no_final_crlf->complete);
  EXPECT_EQ(no_final_crlf->body, "Wiki");
}

TEST(HttpDechunk, HugeSizesDoNotOverflow) {
  EXPECT_FALSE(http::dechunk("ffffffffffffffffffffffff\r\nx\r\n"));
  EXPECT_FALSE(http::dechunk("10000000000000000\r\nx\r\n"));
  // Large but representable: valid framing, data missing.
  const auto big = http::dechunk("fffffffffffffff\r\nabc");
  ASSERT_TRUE(big);
  EXPECT_FALSE(big->complete);
  // Leading zeros are fine.
  const auto zeros = http::dechunk("00000000000000000000004\r\nWiki\r\n0\r\n\r\n");
  ASSERT_TRUE(zeros);
  EXPECT_EQ(zeros->body, "Wiki");
}

TEST(HttpGzip, Magic) {
  EXPECT_TRUE(http::looks_gzip(kGzipBytes));
  EXPECT_FALSE(http::looks_gzip("{}"));
  EXPECT_FALSE(http::looks_gzip("\x1f"));
}

TEST(HttpGzip, InflatesOneMember) {
  const auto out = http::gunzip(kGzipBytes, 1024);
  ASSERT_TRUE(out) << out.error();
  EXPECT_EQ(*out, kGzipPlain);
}

TEST(HttpGzip, InflatesConcatenatedMembers) {
  const std::string twice = std::string(kGzipBytes) + std::string(kGzipBytes);
  const auto out = http::gunzip(twice, 1024);
  ASSERT_TRUE(out) << out.error();
  EXPECT_EQ(*out, std::string(kGzipPlain) + std::string(kGzipPlain));
}

TEST(HttpGzip, CorruptData) {
  std::string bad(kGzipBytes);
  bad[12] = static_cast<char>(0xff);
  bad[13] = static_cast<char>(0xff);
  const auto out = http::gunzip(bad, 1024);
  ASSERT_FALSE(out);
  EXPECT_NE(out.error().find("gzip"), std::string::npos);
}

TEST(HttpGzip, TruncatedData) {
  const auto out = http::gunzip(kGzipBytes.substr(0, 30), 1024);
  ASSERT_FALSE(out);
  EXPECT_NE(out.error().find("truncated"), std::string::npos) << out.error();
  EXPECT_FALSE(http::gunzip("", 1024));
  EXPECT_FALSE(http::gunzip("\x1f\x8b", 1024));
}

TEST(HttpGzip, OutputBound) {
  const auto out = http::gunzip(kGzipBytes, 10);
  ASSERT_FALSE(out);
  EXPECT_NE(out.error().find("exceeds"), std::string::npos) << out.error();
}

// kGzipPlain as HTTP "deflate" (RFC 9110 §8.4.1.2: zlib, RFC 1950) and as the raw deflate data
// (RFC 1951) some servers send instead; made with Python zlib, level 9.
constexpr char kZlib[] =
    "\x78\xda\xab\x56\xca\x2a\xce\xcf\x2b\x2a\x48\x56\xb2\x52\x32\xd2\x33\x50\xd2\x51\xca\x4c"
    "\x51\xb2\x32\xd4\x51\x2a\x4a\x2d\x2e\xcd\x29\x51\xb2\xaa\xae\xad\x05\x00\xca\x4c\x0b\x33";
constexpr std::string_view kZlibBytes(kZlib, sizeof(kZlib) - 1);
constexpr std::string_view kRawDeflateBytes = kZlibBytes.substr(2, kZlibBytes.size() - 6);

TEST(HttpDeflate, InflatesZlibWrapped) {
  const auto out = http::inflate_deflate_prefix(kZlibBytes, 1024);
  ASSERT_TRUE(out) << out.error();
  EXPECT_EQ(out->bytes, kGzipPlain);
  EXPECT_FALSE(out->cut);
}

TEST(HttpDeflate, InflatesRawDeflate) {
  const auto out = http::inflate_deflate_prefix(kRawDeflateBytes, 1024);
  ASSERT_TRUE(out) << out.error();
  EXPECT_EQ(out->bytes, kGzipPlain);
}

TEST(HttpDeflate, CutAtTheBound) {
  const auto out = http::inflate_deflate_prefix(kZlibBytes, 10);
  ASSERT_TRUE(out) << out.error();
  EXPECT_TRUE(out->cut);
  EXPECT_EQ(out->bytes, kGzipPlain.substr(0, 10));
}

TEST(HttpDeflate, CorruptOrCutData) {
  const auto bad = http::inflate_deflate_prefix("\xff\xff\xff\xff not deflate", 1024);
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().find("deflate"), std::string::npos) << bad.error();
  // Cut inside the stream: what it held so far, and input_ended (a body cut short).
  const auto cut = http::inflate_deflate_prefix(kZlibBytes.substr(0, 20), 1024);
  ASSERT_TRUE(cut) << cut.error();
  EXPECT_TRUE(cut->input_ended);
  EXPECT_FALSE(cut->cut);
  EXPECT_TRUE(kGzipPlain.starts_with(cut->bytes)) << cut->bytes;
}

TEST(HttpGzip, CutDataGivesWhatItHeld) {
  const auto cut = http::gunzip_prefix(kGzipBytes.substr(0, 30), 1024);
  ASSERT_TRUE(cut) << cut.error();
  EXPECT_TRUE(cut->input_ended);
  EXPECT_TRUE(kGzipPlain.starts_with(cut->bytes)) << cut->bytes;
  const auto whole = http::gunzip_prefix(kGzipBytes, 1024);
  ASSERT_TRUE(whole) << whole.error();
  EXPECT_FALSE(whole->input_ended);
  EXPECT_EQ(http::cut_short_text("gzip", 30), "truncated gzip data: stream ends after 30 bytes");
}

// 1994-11-06T08:49:37Z, the RFC 9110 example date.
constexpr long long kExampleDate = 784111777;

TEST(HttpRetryAfter, DeltaSeconds) {
  EXPECT_EQ(http::retry_after_ms("120", 0), 120000);
  EXPECT_EQ(http::retry_after_ms(" 0 ", 0), 0);
  EXPECT_FALSE(http::retry_after_ms("-5", 0));
  EXPECT_FALSE(http::retry_after_ms("1.5", 0));
  EXPECT_FALSE(http::retry_after_ms("", 0));
  EXPECT_FALSE(http::retry_after_ms("soon", 0));
  // Absurd values saturate at 2^31 seconds (RFC 9111 §1.2.2), a number JavaScript keeps exactly.
  EXPECT_EQ(*http::retry_after_ms("99999999999999999999999", 0), 2147483648000LL);
  EXPECT_EQ(*http::retry_after_ms("2147483647", 0), 2147483647000LL);
  EXPECT_EQ(*http::retry_after_ms("2147483648", 0), 2147483648000LL);
  EXPECT_EQ(*http::retry_after_ms("Fri, 31 Dec 9999 23:59:59 GMT", 0), 2147483648000LL);
}

TEST(HttpRetryAfter, ImfFixdate) {
  EXPECT_EQ(http::retry_after_ms("Sun, 06 Nov 1994 08:49:37 GMT", kExampleDate - 30), 30000);
  EXPECT_EQ(http::retry_after_ms("Sun, 06 Nov 1994 08:49:37 GMT", kExampleDate), 0);
  EXPECT_EQ(http::retry_after_ms("Sun, 06 Nov 1994 08:49:37 GMT", kExampleDate + 3600), 0);
  EXPECT_EQ(http::retry_after_ms("Mon, 30 Nov 2026 00:16:00 GMT", 1795997700), 60000);
  EXPECT_FALSE(http::retry_after_ms("Sun, 06 Nov 1994 08:49:37 UTC", 0));
  EXPECT_FALSE(http::retry_after_ms("Sun, 06 Foo 1994 08:49:37 GMT", 0));
  EXPECT_FALSE(http::retry_after_ms("Sun, 36 Nov 1994 08:49:37 GMT", 0));
  EXPECT_FALSE(http::retry_after_ms("Sun, 06 Nov 1994 25:49:37 GMT", 0));
}

TEST(HttpDate, ReadsADateHeader) {
  EXPECT_EQ(http::http_date_unix_seconds(" Sun, 06 Nov 1994 08:49:37 GMT ", 0), kExampleDate);
  EXPECT_EQ(http::http_date_unix_seconds("Sunday, 06-Nov-94 08:49:37 GMT", kExampleDate), kExampleDate);
  EXPECT_FALSE(http::http_date_unix_seconds("not a date", 0));
  EXPECT_FALSE(http::http_date_unix_seconds("", 0));
}

TEST(HttpRetryAfter, ObsoleteDateForms) {
  EXPECT_EQ(http::retry_after_ms("Sunday, 06-Nov-94 08:49:37 GMT", kExampleDate - 10), 10000);
  EXPECT_EQ(http::retry_after_ms("Sun Nov  6 08:49:37 1994", kExampleDate - 10), 10000);
}

}  // namespace

namespace {

// {"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"abcabcabd" x 40}]}} (433 bytes)
// as br (node 20 zlib.brotliCompressSync, quality 11) and as zstd (zstd 1.5.4 -19 --no-check).
std::string coded_plain() {
  std::string text;
  for (int i = 0; i < 40; ++i) text += "abcabcabd";
  return R"({"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":")" + text + "\"}]}}";
}
constexpr char kBr[] =
    "\x1b\xb0\x01\xc0\x34\x64\x98\x05\x99\x5b\xea\xcf\x8c\xa9\x91\x54\x9d\x41\xa1\xd8\x9c\x95\xa1\x93\x3b\x30"
    "\xfe\x2d\xa0\x56\x12\x60\x01\x49\xe0\x50\x09\x12\xcd\x11\x48\x1a\xd3\x23\x22\x45\x72\xd5\xfd\x9f\x63\x0c"
    "\x6d\x08\x37\xb0\xde\x21\x55\xc2\xd0\x33\x49\x24\x67\x48\x22\xad\xb1\x8f\xff\x33\x62\x43\xad\x2a";
constexpr std::string_view kBrBytes(kBr, sizeof(kBr) - 1);
constexpr char kZstd[] =
    "\x28\xb5\x2f\xfd\x00\x68\x4d\x02\x00\x72\xc4\x0e\x12\x90\xcf\x01\xec\xe6\xe8\x78\x00\x39\xa0\xfe\xa3\x0a"
    "\xcb\xb1\xb1\xdb\x4b\x39\x9b\x7c\x95\xd0\x79\x83\x53\xbb\xe8\xfb\x2b\x5e\x7a\x5c\xfa\xf4\x2d\xfa\x60\x3a"
    "\xee\x53\x57\xe7\x92\x07\xa3\xaf\xd8\xc1\x45\x20\xef\xa7\x28\x1f\x9c\xed\x38\x03\x00\x5c\x2c\x4a\xe8\x84"
    "\x66\x0d\x05\x0a";
constexpr std::string_view kZstdBytes(kZstd, sizeof(kZstd) - 1);

}  // namespace

TEST(HttpBrotli, Decodes) {
  ASSERT_EQ(kBrBytes.size(), 76u);
  const auto out = http::decode_brotli_prefix(kBrBytes, 1 << 20);
  ASSERT_TRUE(out) << out.error();
  EXPECT_EQ(out->bytes, coded_plain());
  EXPECT_FALSE(out->cut);
  EXPECT_FALSE(out->input_ended);
  const auto trailing = http::decode_brotli_prefix(std::string(kBrBytes) + "200", 1 << 20);
  ASSERT_TRUE(trailing) << trailing.error();
  EXPECT_EQ(trailing->bytes, coded_plain()) << "bytes after the stream (curl -w output) are not body";
}

TEST(HttpBrotli, BoundedCutShortAndCorrupt) {
  const auto cut = http::decode_brotli_prefix(kBrBytes, 100);
  ASSERT_TRUE(cut) << cut.error();
  EXPECT_TRUE(cut->cut);
  EXPECT_EQ(cut->bytes, coded_plain().substr(0, 100));
  const auto shorter = http::decode_brotli_prefix(kBrBytes.substr(0, 40), 1 << 20);
  ASSERT_TRUE(shorter) << shorter.error();
  EXPECT_TRUE(shorter->input_ended);
  EXPECT_TRUE(coded_plain().starts_with(shorter->bytes));
  const auto bad = http::decode_brotli_prefix("\xff\xff\xff\xff\xff\xff not br", 1 << 20);
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().find("corrupt br data"), std::string::npos) << bad.error();
}

TEST(HttpZstd, DecodesFramesOneAfterAnother) {
  ASSERT_EQ(kZstdBytes.size(), 82u);
  const auto out = http::decode_zstd_prefix(kZstdBytes, 1 << 20);
  ASSERT_TRUE(out) << out.error();
  EXPECT_EQ(out->bytes, coded_plain());
  EXPECT_FALSE(out->input_ended);
  const auto twice = http::decode_zstd_prefix(std::string(kZstdBytes) + std::string(kZstdBytes) + "200", 1 << 20);
  ASSERT_TRUE(twice) << twice.error();
  EXPECT_EQ(twice->bytes, coded_plain() + coded_plain()) << "RFC 8878 §3: frames follow one another";
}

TEST(HttpZstd, BoundedCutShortAndCorrupt) {
  const auto cut = http::decode_zstd_prefix(kZstdBytes, 100);
  ASSERT_TRUE(cut) << cut.error();
  EXPECT_TRUE(cut->cut);
  EXPECT_EQ(cut->bytes, coded_plain().substr(0, 100));
  const auto shorter = http::decode_zstd_prefix(kZstdBytes.substr(0, 40), 1 << 20);
  ASSERT_TRUE(shorter) << shorter.error();
  EXPECT_TRUE(shorter->input_ended);
  EXPECT_TRUE(coded_plain().starts_with(shorter->bytes));
  EXPECT_FALSE(http::decode_zstd_prefix("not zstd at all", 1 << 20));
  std::string damaged(kZstdBytes);
  damaged[20] = static_cast<char>(damaged[20] ^ 0x5a);
  damaged[21] = static_cast<char>(damaged[21] ^ 0x5a);
  const auto bad = http::decode_zstd_prefix(damaged, 1 << 20);
  EXPECT_TRUE(!bad || bad->bytes != coded_plain()) << "a damaged frame never decodes to the plain text";
}
