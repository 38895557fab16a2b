// Unit tests for hardening (issue 6, docs/security.md): redaction, lossless bytes in JSON Lines,
// bounded input reading, --max-body, and the regressions the fuzz targets found.
#include <gtest/gtest.h>
#include <fcntl.h>
#include <unistd.h>
#include <zlib.h>

#include <cstdio>
#include <random>
#include <string>

#include "io/read_limited.hpp"
#include "mcptriage/capture.hpp"
#include "mcptriage/classify.hpp"
#include "mcptriage/http.hpp"
#include "mcptriage/render.hpp"
#include "render/redact_detail.hpp"
#include "render/text_detail.hpp"

using namespace mcptriage;

namespace {

/// Turns redaction back on whatever a test did.
struct RedactionOn : ::testing::Test {
  void SetUp() override { set_redaction(true); }
  void TearDown() override { set_redaction(true); }
};

Record record_with(std::string detail, std::vector<std::string> warnings = {}) {
  Record r;
  r.source = SourceRef{0, 1, std::nullopt};
  r.format = mcptriage::CaptureFormat::curl_i;
  r.c.outcome = Outcome::TOOL_ERROR;
  r.c.layer = Layer::application;
  r.c.reason = Reason::tool_error;
  r.c.detail = std::move(detail);
  r.c.warnings = std::move(warnings);
  return r;
}

/// The record's JSON line in an input named "t".
std::string render_jsonl_t(const Record& r) { return render_jsonl(r, "t"); }

}  // namespace

// --- redaction ---------------------------------------------------------------------------

using Redaction = RedactionOn;

TEST_F(Redaction, FreeTextBearerBasicAndHeaderLines) {
  EXPECT_EQ(redact("token rejected: Bearer abc.def-ghi"), "token rejected: Bearer [REDACTED]");
  EXPECT_EQ(redact("Authorization: Basic dXNlcjpwYXNz"), "Authorization: Basic [REDACTED]");
  EXPECT_EQ(redact("Authorization: token ghp_123 was sent"), "Authorization: token [REDACTED] was sent");
  EXPECT_EQ(redact("authorization: ghp_123, retry"), "authorization: [REDACTED], retry");
  EXPECT_EQ(redact("Proxy-Authorization: Negotiate YII=\nHost: x"), "Proxy-Authorization: Negotiate [REDACTED]\nHost: x");
  EXPECT_EQ(redact("cookie: sid=1; theme=dark\\r\\nAccept: */*"),
            "cookie: sid=[REDACTED]; theme=[REDACTED]\\r\\nAccept: */*");
  EXPECT_EQ(redact("Set-Cookie: sid=1; Path=/; HttpOnly"), "Set-Cookie: sid=[REDACTED]; Path=/; HttpOnly");
  EXPECT_EQ(redact("X-API-Key: sk-live-1 and more"), "X-API-Key: [REDACTED] and more");
  EXPECT_EQ(redact("Mcp-Session-Id: 0123456789abcdef"), "Mcp-Session-Id: 01234567\xE2\x80\xA6");
}

// New-user trial, session 4: white space other than a space after a scheme or a header name
// (a tab, a line end) let the credential through in raw fields such as error.message.
TEST_F(Redaction, AnyWhiteSpaceAfterSchemesAndHeaderNames) {
  EXPECT_EQ(redact("bad token Bearer\tSECRET1 for Cookie:\tsid=SECRET2"),
            "bad token Bearer\t[REDACTED] for Cookie:\tsid=[REDACTED]");
  EXPECT_EQ(redact("bearer\tx"), "bearer\t[REDACTED]");
  EXPECT_EQ(redact("basic\tx"), "basic\t[REDACTED]");
  EXPECT_EQ(redact("Bearer\nx"), "Bearer\n[REDACTED]");
  EXPECT_EQ(redact("Bearer\r\nx"), "Bearer\r\n[REDACTED]");
  EXPECT_EQ(redact("Authorization: Bearer\tx"), "Authorization: Bearer\t[REDACTED]");
  EXPECT_EQ(redact("Authorization:\tBearer\tx"), "Authorization:\tBearer\t[REDACTED]");
  EXPECT_EQ(redact("X-API-Key:\tx"), "X-API-Key:\t[REDACTED]");
  EXPECT_EQ(redact("Mcp-Session-Id:\t0123456789abcdef"), "Mcp-Session-Id:\t01234567\xE2\x80\xA6");
  EXPECT_EQ(redact("{\"password\":\t\"x\"}"), "{\"password\":\t\"[REDACTED]\"}");
  EXPECT_EQ(redact("{\"password\"\n:\n\"x\"}"), "{\"password\"\n:\n\"[REDACTED]\"}");
  // and the one-pass renderer agrees (a tab is escaped there, and still a separator)
  const std::string line = render_jsonl_t(record_with("Bearer\tSECRET3"));
  EXPECT_EQ(line.find("SECRET3"), std::string::npos) << line;
  EXPECT_NE(line.find(R"("detail":"Bearer\t[REDACTED]")"), std::string::npos) << line;
}

TEST_F(Redaction, UnrecognisedInputPreviewIsRedactedBeforeEscaping) {
  for (std::string_view text : {"Authorization: Bearer\tSECRET4\n", "X-Api-Key:\tSECRET4\n", "Bearer\tSECRET4\n"}) {
    auto read = read_capture(text, "x");
    ASSERT_FALSE(read.has_value()) << text;
    EXPECT_EQ(read.error().message.find("SECRET4"), std::string::npos) << read.error().message;
    EXPECT_NE(read.error().message.find("unrecognised input"), std::string::npos) << read.error().message;
  }
}

// The record head keeps the escaped "NAME#" of the last source (session 4, main-thread speed):
// whatever the order, each head must read as append_kv of the whole source would.
TEST_F(Redaction, RecordHeadSourcesAreRedactedAndEscapedWhole) {
  struct Source {
    std::string input;
    SourceRef ref;
  };
  const std::vector<Source> sources = {
      {"log.jsonl", {0, 1, std::nullopt}}, {"log.jsonl", {0, 2, std::nullopt}}, {"log.jsonl", {0, 3, 0}},
      {"Bearer abc", {1, 1, std::nullopt}}, {"Bearer abc", {1, 2, std::nullopt}}, {"log.jsonl", {0, 4, std::nullopt}},
      {"caf\xc3\xa9", {2, 1, std::nullopt}}, {"bad\xff", {3, 1, std::nullopt}}, {"bad\xff", {3, 2, std::nullopt}},
      {"q\"uote", {4, 7, std::nullopt}}, {"token=x", {5, 3, std::nullopt}}, {"no-number#", {6, 0, std::nullopt}},
      {"plain", {7, 0, std::nullopt}}};
  for (int round = 0; round < 2; ++round) {
    for (const Source& s : sources) {
      Record r;
      r.source = s.ref;
      r.format = mcptriage::CaptureFormat::exchange_log;
      std::string head;
      append_jsonl_head(head, r, s.input);
      const std::string source = source_text(s.input, s.ref);
      std::string expected = "\"source\":\"" + json_escape(redact(source)) + "\"";
      if (!is_valid_utf8(source)) expected += ",\"source_bytes\":";
      EXPECT_NE(head.find(expected), std::string::npos) << source << "\n" << head;
    }
  }
  Record r;
  r.source = SourceRef{0, 9, std::nullopt};
  std::string head;
  append_jsonl_head(head, r, "Bearer abc");
  EXPECT_EQ(head.find("abc"), std::string::npos) << head;
}

TEST_F(Redaction, FreeTextParametersJsonMembersAndUserinfo) {
  EXPECT_EQ(redact("GET /mcp?access_token=abc&x=1"), "GET /mcp?access_token=[REDACTED]&x=1");
  EXPECT_EQ(redact("session_token=abc password=hunter2"), "session_token=[REDACTED] password=[REDACTED]");
  EXPECT_EQ(redact(R"(bad body {"password": "hunter2", "user": "ann"})"),
            R"(bad body {"password": "[REDACTED]", "user": "ann"})");
  EXPECT_EQ(redact(R"({"access_token":"a\"b","n":1})"), R"({"access_token":"[REDACTED]","n":1})");
  EXPECT_EQ(redact("see https://ann:s3cret@example.com/x"), "see https://ann:[REDACTED]@example.com/x");
  EXPECT_EQ(redact("plain text, no secret: 42"), "plain text, no secret: 42");
}

TEST_F(Redaction, UrlParametersAndLoneUserInFreeText) {
  // security.md: the URL parameters redact_url() hides are hidden in free text too, after the
  // query's '?', the fragment's '#' or a separator (new-user trial, session 5: code=, sig=,
  // auth=, session=, jwt=, pwd=, pass= in an error message were printed).
  EXPECT_EQ(redact("callback failed: https://app.example/cb?state=x&code=C1&sig=C6&auth=C7&session=C8&jwt=C9&pwd=D1&pass=D2"),
            "callback failed: https://app.example/cb?state=[REDACTED]&code=[REDACTED]&sig=[REDACTED]&auth=[REDACTED]&"
            "session=[REDACTED]&jwt=[REDACTED]&pwd=[REDACTED]&pass=[REDACTED]");
  EXPECT_EQ(redact("see /cb#id=1&Access_Token=T1;X-Amz-Signature=S1 now"),
            "see /cb#id=1&Access_Token=[REDACTED];X-Amz-Signature=[REDACTED] now");
  EXPECT_EQ(redact("query a=b&client_key=K&page=2"), "query a=b&client_key=[REDACTED]&page=2");
  // a URL's lone user name is a token (redact_url does the same), also with an empty password
  // (API keys sent as Basic auth user names; second trial, session 5)
  EXPECT_EQ(redact("clone https://ghp_TOKEN@github.com/x failed"), "clone https://[REDACTED]@github.com/x failed");
  EXPECT_EQ(redact("GET https://sk_live_SECRET:@api.example.com/v1"), "GET https://[REDACTED]@api.example.com/v1");
  EXPECT_EQ(redact_url("https://sk_live_SECRET:@api.example.com/v1"), "https://[REDACTED]@api.example.com/v1");
  // array-style parameter names
  EXPECT_EQ(redact("see /x?token[]=S1&api_key[0]=S2&page[1]=3"), "see /x?token[]=[REDACTED]&api_key[0]=[REDACTED]&page[1]=3");
  // not parameters: no separator before the name, or a name that is no credential
  EXPECT_EQ(redact("code=200 page?sort=asc&order=desc#top"), "code=200 page?sort=asc&order=desc#top");
  EXPECT_EQ(redact("mail ann@example.com at https://example.com/a@b"), "mail ann@example.com at https://example.com/a@b");
}

TEST_F(Redaction, IsIdempotent) {
  for (std::string_view s : {"Bearer abc", "Cookie: a=b", "x?token=1&code=2", "https://u:p@h/", "Mcp-Session-Id: 0123456789",
                             "u?sig=1#jwt=2;pass=3", "https://TOKEN@h/"}) {
    EXPECT_EQ(redact(redact(s)), redact(s)) << s;
  }
}

TEST_F(Redaction, HeaderValuesByName) {
  EXPECT_EQ(redact_header("Authorization", "Bearer eyJhbGciOi.x.y"), "Bearer [REDACTED]");
  EXPECT_EQ(redact_header("authorization", "opaque-token"), "[REDACTED]");
  EXPECT_EQ(redact_header("Proxy-Authorization", "Basic dXNlcjpwYXNz"), "Basic [REDACTED]");
  EXPECT_EQ(redact_header("Cookie", "sid=abc; theme=dark"), "sid=[REDACTED]; theme=[REDACTED]");
  EXPECT_EQ(redact_header("Set-Cookie", "sid=abc; Path=/; HttpOnly; Secure"), "sid=[REDACTED]; Path=/; HttpOnly; Secure");
  EXPECT_EQ(redact_header("X-API-Key", "sk-live-1"), "[REDACTED]");
  EXPECT_EQ(redact_header("Api-Key", "k"), "[REDACTED]");
  EXPECT_EQ(redact_header("X-CSRF-Token", "t"), "[REDACTED]");
  EXPECT_EQ(redact_header("X-Client-Secret", "s"), "[REDACTED]");
  EXPECT_EQ(redact_header("X-Auth-User", "ann"), "[REDACTED]");
  EXPECT_EQ(redact_header("Mcp-Session-Id", "3f1c2a9e-77b0-4c61-9d2f-0a5e8e1b7c44"), "3f1c2a9e\xE2\x80\xA6");
  EXPECT_EQ(redact_header("Mcp-Session-Id", "short"), "short");
  EXPECT_EQ(redact_header("Location", "https://h/cb?code=xyz&state=1"), "https://h/cb?code=[REDACTED]&state=[REDACTED]");
  EXPECT_EQ(redact_header("WWW-Authenticate", R"(Bearer resource_metadata="https://h/.well-known/x")"),
            R"(Bearer resource_metadata="https://h/.well-known/x")");
  EXPECT_EQ(redact_header("Content-Type", "application/json"), "application/json");
  EXPECT_EQ(redact_header("Keep-Alive", "timeout=5"), "timeout=5");
}

TEST_F(Redaction, Urls) {
  EXPECT_EQ(redact_url("http://127.0.0.1:3001/mcp"), "http://127.0.0.1:3001/mcp");
  EXPECT_EQ(redact_url("https://h/mcp?access_token=abc&x=1"), "https://h/mcp?access_token=[REDACTED]&x=1");
  EXPECT_EQ(redact_url("https://h/mcp?API_KEY=abc;sig=zz"), "https://h/mcp?API_KEY=[REDACTED];sig=[REDACTED]");
  EXPECT_EQ(redact_url("https://h/cb#access_token=abc&token_type=bearer"),
            "https://h/cb#access_token=[REDACTED]&token_type=[REDACTED]");
  EXPECT_EQ(redact_url("https://ann:pw@h:8443/p?q=1"), "https://ann:[REDACTED]@h:8443/p?q=1");
  EXPECT_EQ(redact_url("https://ghp_TOKEN@github.com/o/r"), "https://[REDACTED]@github.com/o/r");
  EXPECT_EQ(redact_url("/mcp?session_id=1&cursor=2"), "/mcp?session_id=[REDACTED]&cursor=2");
}

TEST_F(Redaction, OffReturnsInputUnchanged) {
  set_redaction(false);
  EXPECT_FALSE(redaction_enabled());
  EXPECT_EQ(redact("Bearer abc"), "Bearer abc");
  EXPECT_EQ(redact_header("Cookie", "a=b"), "a=b");
  EXPECT_EQ(redact_url("https://u:p@h/?token=1"), "https://u:p@h/?token=1");
  EXPECT_NE(render_jsonl_t(record_with("Bearer abc")).find("Bearer abc"), std::string::npos);
}

TEST_F(Redaction, EveryRendererRedacts) {
  const Record r = record_with("server said Bearer abc123", {"saw access_token=abc123"});
  EXPECT_EQ(render_jsonl_t(r).find("abc123"), std::string::npos);
  EXPECT_EQ(render_table({r}, "t", false).find("abc123"), std::string::npos);
}

TEST_F(Redaction, FilterNeverHidesWhatTheScanWouldChange) {
  // append_redacted() prints text as it is when may_hold_credential() says false: that must
  // never skip a change the full scan would make. Random texts from the pieces the rules look
  // for, in every case, glued by the bytes around them.
  const std::vector<std::string_view> pieces = {
      "Bearer",  "basic",   " ",         "  ",      ":",        "=",       "//",          "\"",     "@",
      "token",   "TOKEN",   "access_",   "api",     "-",        "_",       "key",         "Key",     "cookie",
      "Set-",    "proxy-",  "x-",        "auth",    "Authorization", "mcp-session-", "id", "ID", "password",
      "passwd",  "secret",  "client_",   "session", "apikey",   "https",   "user",        "a",       "1",
      ";",       "&",       "\\",      "\n",     "refresh_", "id_",     "{",           "}",       "x",
      "\t",      "\r",      "\x0b",     "\x0c",   "?",        "#",       "code",        "sig",     "jwt",
      "pwd",     "pass",    "%",        "[",       "]",       "state",   "code_verifier", "nonce", "device_", "assertion", "registration_access_"};
  std::mt19937 rng(20261130);
  std::uniform_int_distribution<std::size_t> pick(0, pieces.size() - 1);
  std::uniform_int_distribution<int> length(1, 12);
  std::size_t scanned_changes = 0;
  for (int n = 0; n < 200000; ++n) {
    std::string s;
    for (int k = length(rng); k > 0; --k) s += pieces[pick(rng)];
    std::string scanned;
    detail::append_redacted_scan(scanned, s);
    if (scanned != s) {
      ++scanned_changes;
      ASSERT_TRUE(detail::may_hold_credential(s)) << "filtered out: " << s << " -> " << scanned;
    }
    ASSERT_EQ(redact(s), scanned) << s;
  }
  EXPECT_GT(scanned_changes, 1000u);  // the texts do exercise the rules
  // and the filter lets ordinary text through
  EXPECT_FALSE(detail::may_hold_credential("1 content item: 404 with user to tool 767 that and session config"));
  EXPECT_FALSE(detail::may_hold_credential("none: the exchange succeeded"));
  EXPECT_FALSE(detail::may_hold_credential(R"({"rows":[{"id":264658,"name":"and test","ok":false}],"total":1})"));
  EXPECT_TRUE(detail::may_hold_credential("x Bearer y"));
  EXPECT_TRUE(detail::may_hold_credential(R"({"password" : "p"})"));
}

TEST_F(Redaction, RenderedFieldsMatchRedactThenEscape) {
  // The renderer prints most strings in one pass (ASCII or valid UTF-8, nothing to redact);
  // whatever path a text takes, the field must read json_escape(redact(text)).
  const std::vector<std::string_view> pieces = {
      "Bearer ", "token=", "password", "\": \"", "://", "u:p@", "Cookie: ", "a", " ",  ":", "=",
      "\"",     "\\",   "\n",      "\t",      "\x01", "\x7f", "caf\xc3\xa9", "\xe2\x80\xa6",
      "\xff",   "\xc3",  "mcp-session-id: ", "0123456789abcdef", "x", "1", "Bearer\t", "basic\n",
      "\r", "\x0b", "X-API-Key:\t", "\"password\":\t\"", "?code=", "&sig=", "#jwt=", "https://", "@"};
  std::mt19937 rng(7);
  std::uniform_int_distribution<std::size_t> pick(0, pieces.size() - 1);
  std::uniform_int_distribution<int> length(0, 10);
  for (int n = 0; n < 20000; ++n) {
    std::string text;
    for (int k = length(rng); k > 0; --k) text += pieces[pick(rng)];
    const std::string shown = redact(text);
    std::string expected = "\"detail\":\"" + json_escape(shown) + "\"";
    if (!is_valid_utf8(shown)) expected += ",\"detail_bytes\":";
    const std::string line = render_jsonl_t(record_with(text));
    ASSERT_NE(line.find(expected), std::string::npos) << "text: " << text << "\nexpected: " << expected << "\nline: " << line;
    const Record warned = record_with("d", {text});
    const std::string wline = render_jsonl_t(warned);
    ASSERT_NE(wline.find("\"warnings\":[\"" + json_escape(shown) + "\"]"), std::string::npos) << text << "\n" << wline;
  }
}

// --- JSON Lines: bytes that are not UTF-8 -----------------------------------------------

TEST(JsonBytes, InvalidUtf8FieldGetsBase64Sibling) {
  const std::string line = render_jsonl_t(record_with("bad \xff\xfe!"));
  EXPECT_NE(line.find(R"("detail":"bad \ufffd\ufffd!","detail_bytes":"YmFkIP/+IQ==")"), std::string::npos) << line;
  EXPECT_TRUE(is_valid_utf8(line));
}

TEST(JsonBytes, ValidUtf8HasNoSibling) {
  const std::string line = render_jsonl_t(record_with("caf\xc3\xa9 \xe2\x9c\x93"));
  EXPECT_EQ(line.find("_bytes"), std::string::npos) << line;
}

TEST(JsonBytes, WarningsGetAParallelArray) {
  const std::string line = render_jsonl_t(record_with("d", {"ok", "bad \xc3", "fine"}));
  EXPECT_NE(line.find(R"("warnings_bytes":[null,"YmFkIMM=",null])"), std::string::npos) << line;
}

TEST(JsonBytes, NestedAndNullableFields) {
  Record r = record_with("d");
  r.c.content_type = "application/json\xc3\x28";
  r.c.method = "tools/\xff";
  const std::string line = render_jsonl_t(r);
  EXPECT_NE(line.find(R"("content_type":"application/json\ufffd(","content_type_bytes":"YXBwbGljYXRpb24vanNvbsMo")"),
            std::string::npos)
      << line;
  EXPECT_NE(line.find(R"("method_bytes":"dG9vbHMv/w==")"), std::string::npos) << line;
}

TEST(JsonBytes, Utf8Validity) {
  EXPECT_TRUE(is_valid_utf8(""));
  EXPECT_TRUE(is_valid_utf8("\xf0\x9f\x98\x80"));
  EXPECT_FALSE(is_valid_utf8("\xc0\xaf"));          // overlong
  EXPECT_FALSE(is_valid_utf8("\xed\xa0\x80"));      // surrogate
  EXPECT_FALSE(is_valid_utf8("\xf4\x90\x80\x80"));  // past U+10FFFF
  EXPECT_FALSE(is_valid_utf8("\xe2\x82"));          // cut short
}

// --- bounded reading ----------------------------------------------------------------------

namespace {

/// A pipe holding `bytes` (written before reading; small enough for the pipe buffer).
int pipe_with(std::string_view bytes) {
  int fds[2];
  if (pipe(fds) != 0) return -1;
  EXPECT_EQ(write(fds[1], bytes.data(), bytes.size()), static_cast<ssize_t>(bytes.size()));
  close(fds[1]);
  return fds[0];
}

}  // namespace

TEST(ReadLimited, PipeWithinAndOverTheLimit) {
  int fd = pipe_with("hello");
  auto ok = io::read_fd_limited(fd, 5);
  close(fd);
  ASSERT_TRUE(ok);
  EXPECT_EQ(*ok, "hello");
  fd = pipe_with("hello!");
  auto big = io::read_fd_limited(fd, 5);
  close(fd);
  ASSERT_FALSE(big);
  EXPECT_EQ(big.error().kind, io::ReadError::Kind::too_large);
  EXPECT_EQ(big.error().message, "input is larger than --max-input (5 bytes); raise the limit with --max-input BYTES");
}

TEST(ReadLimited, BytesAlreadyReadCountTowardTheLimit) {
  int fd = pipe_with("world");
  auto joined = io::read_fd_limited(fd, 11, "hello ");
  close(fd);
  ASSERT_TRUE(joined);
  EXPECT_EQ(*joined, "hello world");
  fd = pipe_with("world");
  auto over = io::read_fd_limited(fd, 10, "hello ");
  close(fd);
  ASSERT_FALSE(over);
  EXPECT_EQ(over.error().kind, io::ReadError::Kind::too_large);
}

TEST(ReadLimited, FilesBySizeAndErrors) {
  char path[] = "/tmp/mcptriage-read-limited-XXXXXX";
  const int fd = mkstemp(path);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(write(fd, "0123456789", 10), 10);
  close(fd);
  auto whole = io::read_file_limited(path, 10);
  ASSERT_TRUE(whole);
  EXPECT_EQ(*whole, "0123456789");
  auto over = io::read_file_limited(path, 9);
  ASSERT_FALSE(over);
  EXPECT_EQ(over.error().kind, io::ReadError::Kind::too_large);
  std::remove(path);
  auto missing = io::read_file_limited(path, 10);
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().kind, io::ReadError::Kind::io);
  auto dir = io::read_file_limited("/tmp", 10);
  ASSERT_FALSE(dir);
  EXPECT_EQ(dir.error().message, "Is a directory");
}

// --- --max-body and gzip limits -----------------------------------------------------------

TEST(MaxBody, LongBodyIsCutAndNeverSuccess) {
  const std::string body =
      R"({"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"0123456789012345678901234567890123456789"}]}})";
  const std::string capture = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n" + body;
  CaptureOptions options;
  options.max_body = 40;
  auto exs = read_capture(capture, "t", options);
  ASSERT_TRUE(exs);
  ASSERT_EQ(exs->size(), 1u);
  EXPECT_EQ((*exs)[0].response.body.size(), 40u);
  EXPECT_EQ((*exs)[0].response.body_state, BodyState::truncated);
  ASSERT_FALSE((*exs)[0].warnings.empty());
  EXPECT_NE((*exs)[0].warnings.back().find("larger than --max-body (40 bytes)"), std::string::npos);
  ContextFlags flags;
  flags.id = JsonRpcId{JsonRpcId::Kind::integer, "1"};
  flags.method = "tools/call";
  const auto c = classify((*exs)[0], flags, 0);
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].outcome, Outcome::MALFORMED_JSON);
  EXPECT_EQ(to_string(c[0].reason), "cut_at_limit");  // cut by --max-body, not by the sender
}

namespace {

/// `plain` as one gzip member (zlib's deflate with the gzip wrapper, RFC 1952).
std::string gzip_of(std::string_view plain) {
  z_stream zs{};
  EXPECT_EQ(deflateInit2(&zs, Z_BEST_COMPRESSION, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY), Z_OK);
  std::string out(deflateBound(&zs, static_cast<uLong>(plain.size())) + 32, '\0');
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(plain.data()));
  zs.avail_in = static_cast<uInt>(plain.size());
  zs.next_out = reinterpret_cast<Bytef*>(out.data());
  zs.avail_out = static_cast<uInt>(out.size());
  EXPECT_EQ(deflate(&zs, Z_FINISH), Z_STREAM_END);
  out.resize(zs.total_out);
  deflateEnd(&zs);
  return out;
}

}  // namespace

TEST(MaxBody, CodedBodyLargerThanTheLimitIsCutAtTheLimitNotCutShort) {
  // A gzip body whose compressed bytes alone pass --max-body: the limit bounds what it inflates
  // to (cut_at_limit), it does not cut the compressed bytes first (which read as a gzip stream
  // cut short: MALFORMED_JSON truncated, blaming the transfer).
  std::mt19937 rng(7);
  std::string text;
  for (int i = 0; i < 400; ++i) text.push_back(static_cast<char>('a' + rng() % 26));
  const std::string body = R"({"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":")" + text + "\"}]}}";
  const std::string gz = gzip_of(body);
  ASSERT_GT(gz.size(), 200u);
  const std::string capture = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\n\r\n" + gz;
  CaptureOptions options;
  options.max_body = 100;
  auto exs = read_capture(capture, "t", options);
  ASSERT_TRUE(exs);
  const Response& r = (*exs)[0].response;
  EXPECT_EQ(r.body, body.substr(0, 100));
  EXPECT_EQ(r.body_state, BodyState::truncated);
  EXPECT_TRUE(r.cut_at_max_body);
  ContextFlags flags;
  flags.id = JsonRpcId{JsonRpcId::Kind::integer, "1"};
  flags.method = "tools/call";
  const auto c = classify((*exs)[0], flags, 0);
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].reason, Reason::cut_at_limit);
}

TEST(MaxBody, GunzipPrefixStopsAtTheLimit) {
  // `printf 'a%.0s' $(seq 1000) | gzip -n`: 1000 bytes 'a'
  const std::string_view gz("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03\x4b\x4c\x1c\x05\xa3\x60"
                            "\x14\x0c\x77\x00\x00\x03\xda\x38\x9a\xe8\x03\x00\x00",
                            29);
  auto whole = http::gunzip_prefix(gz, 2000);
  ASSERT_TRUE(whole) << whole.error();
  EXPECT_FALSE(whole->cut);
  EXPECT_EQ(whole->bytes, std::string(1000, 'a'));
  auto cut = http::gunzip_prefix(gz, 100);
  ASSERT_TRUE(cut) << cut.error();
  EXPECT_TRUE(cut->cut);
  EXPECT_EQ(cut->bytes, std::string(100, 'a'));
  EXPECT_FALSE(http::gunzip(gz, 100));
  EXPECT_TRUE(http::gunzip(gz, 1000));
}

// --- fuzz regressions ------------------------------------------------------------------------

TEST(FuzzRegression, HeaderBlockCutBeforeA202IsNotAccepted) {
  // fuzz_pipeline: a 202 whose header block ends mid-line was ACCEPTED (success on a capture
  // cut short). Now NOT_CAPTURED/body_absent, with or without request context.
  auto exs = read_capture("HTTP/1.1 202 Accepted\r\nContent-Type: application/json\r\nContent-Ty", "t", {});
  ASSERT_TRUE(exs);
  ASSERT_EQ(exs->size(), 1u);
  EXPECT_EQ((*exs)[0].response.body_state, BodyState::truncated);
  ContextFlags notification;
  notification.method = "notifications/initialized";
  for (const ContextFlags& f : {ContextFlags{}, notification}) {
    const auto c = classify((*exs)[0], f, 0);
    ASSERT_EQ(c.size(), 1u);
    EXPECT_EQ(c[0].outcome, Outcome::NOT_CAPTURED);
    EXPECT_EQ(to_string(c[0].reason), "body_absent");
  }
}

TEST(FuzzRegression, JsonLinesBlockWiseGivesWhatOneReadGives) {
  // fuzz_read_capture: in a log mixing a wrapped (exchange-log) line and bare JSON-RPC lines, an
  // id-less reply was paired by order only once an earlier line had been wrapped, so a log read
  // in blocks (the CLI's streaming path for big logs) gave other exchanges than one read.
  const std::string log =
      R"({"request":{"jsonrpc":"2.0","id":1,"method":"ping"},"status":200,"response":{"jsonrpc":"2.0","id":1,"result":{}}})"
      "\n"
      R"({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo"}})"
      "\n"
      R"({"jsonrpc":"2.0","result":{"content":[{"type":"text","text":"x"}]}})"
      "\n";
  ASSERT_TRUE(is_json_lines(log));
  const auto whole = read_capture(log, "t", {});
  ASSERT_TRUE(whole);
  const std::size_t cut = log.find('\n') + 1;
  const auto first = read_lines_block(std::string_view(log).substr(0, cut), "t", 0, {});
  ASSERT_TRUE(first);
  ASSERT_TRUE(first->self_contained);
  const auto second = read_lines_block(std::string_view(log).substr(cut), "t", first->exchanges.size(), {});
  ASSERT_TRUE(second);
  ASSERT_EQ(first->exchanges.size() + second->exchanges.size(), whole->size());
  for (std::size_t i = 0; i < whole->size(); ++i) {
    const Exchange& a = i < first->exchanges.size() ? first->exchanges[i] : second->exchanges[i - first->exchanges.size()];
    EXPECT_EQ(a.source, (*whole)[i].source);
    EXPECT_EQ(a.response.body, (*whole)[i].response.body);
    EXPECT_EQ(a.response.status, (*whole)[i].response.status);
  }
}

// --- Terminals -----------------------------------------------------------------------------

TEST(Terminal, ControlsAndBidirectionalFormattingAreEscaped) {
  EXPECT_EQ(escape_terminal("a\x1b[31mb\x7f"), "a\\x1b[31mb\\x7f");
  EXPECT_EQ(escape_terminal("c1 \xc2\x9b"), "c1 \\u009b");
  // U+202E (right-to-left override) would show the rest of a table row reversed; U+2066..U+2069
  // isolates, U+200E/U+200F marks and U+061C too (new-user trial, session 5).
  EXPECT_EQ(escape_terminal("id \xe2\x80\xae" "cba"), "id \\u202ecba");
  EXPECT_EQ(escape_terminal("\xe2\x81\xa6x\xe2\x81\xa9 \xe2\x80\x8e\xe2\x80\x8f \xd8\x9c \xe2\x80\xaa"),
            "\\u2066x\\u2069 \\u200e\\u200f \\u061c \\u202a");
  // the TAP report's YAML strings: JSON escapes, and C1 and bidirectional controls as \uXXXX
  EXPECT_EQ(detail::escape_terminal_controls_json(json_escape("x\xe2\x80\xae" "evil \xc2\x9b \xc3\xa9 \t")),
            "x\\u202eevil \\u009b \xc3\xa9 \\t");
  // other characters stay: an em dash, U+2028, CJK, an accented letter, an emoji
  EXPECT_EQ(escape_terminal("\xe2\x80\x94 \xe2\x80\xa8 \xe6\x9d\xb1 caf\xc3\xa9 \xf0\x9f\x98\x80"),
            "\xe2\x80\x94 \xe2\x80\xa8 \xe6\x9d\xb1 caf\xc3\xa9 \xf0\x9f\x98\x80");
}

// The record's "otel" member is written in one pass (append_otel_member, detail::append_plain_escaped)
// where OTLP uses the attribute vector (otel_attributes: redacted, valid UTF-8): the two must say
// the same for every kind of text a capture can put in a method, tool name or id.
TEST_F(RedactionOn, OtelMemberEqualsTheAttributes) {
  const std::vector<std::string> texts = {
      "tools/call", "list_issues", "a \"quoted\" name\twith\nescapes", std::string("nul\0byte", 8), "caf\xC3\xA9",
      "bad\xFFutf8\xC3", "Bearer abcdef0123456789abcdef", "api_key=sk-live-0123456789abcdef", "x:y", "basic\tdXNlcjpwYXNz",
      "\x7F\x1B[31m", ""};
  for (bool redacting : {true, false}) {
    set_redaction(redacting);
    for (const std::string& t : texts) {
      Record r = record_with("d");
      r.c.method = t.empty() ? "tools/call" : t;
      r.c.tool = t;
      r.c.request_id = JsonRpcId{JsonRpcId::Kind::string, t};
      r.c.protocol_version = t;
      r.c.protocol_version_source = "request";
      r.c.outcome = Outcome::JSONRPC_ERROR;  // error.type: the code, after rpc.response.status_code
      r.c.error_code = -32602;
      r.c.transport_captured = true;
      r.c.http_status = 200;
      std::string expected = "\"otel\":{";
      bool first = true;
      for (const OtelAttribute& a : otel_attributes(r)) {
        expected += first ? "\"" : ",\"";
        first = false;
        expected += a.key;
        expected += "\":";
        if (a.integer) expected += a.value;
        else append_json_string(expected, a.value);
      }
      expected += '}';
      std::string actual;
      append_otel_member(actual, r);
      EXPECT_EQ(actual, expected) << "text: " << t << " redacting: " << redacting;
      EXPECT_NE(actual.find("\"error.type\":\"-32602\""), std::string::npos) << actual;
    }
  }
}

// detail::append_plain_escaped skips runs of plain bytes 16 at a time (SSE2): texts long enough
// for that, with every byte it must stop at placed anywhere in a run (at each offset of a
// 16-byte block, after letters that do or do not end `basic`/`bearer`), must give what the
// general path gives, and be refused whenever that path would change them.
TEST_F(RedactionOn, PlainPathMatchesTheGeneralPathOnLongTexts) {
  const std::vector<std::string_view> pieces = {
      "the quick brown fox jumps over the lazy dog ", "abcdefghijklmnopqrstuvwxyz0123456789", "Bearer ", "basic ",
      "bearer\t", "BASIC\n", "mac ", "car ", "rc ", "token=", "password", "\": \"", "://", ":", "=", "\"", "\\",
      "\n", "\x01", "\x1f", "\x7f", "caf\xc3\xa9", "\xe2\x80\xa6", "\xff", "\xc3", " ", "c", "r", "C ", "R "};
  std::mt19937 rng(20261203);
  std::uniform_int_distribution<std::size_t> pick(0, pieces.size() - 1);
  std::uniform_int_distribution<int> length(0, 24);
  std::uniform_int_distribution<int> filler(0, 40);
  std::size_t plain = 0;
  for (bool redacting : {true, false}) {
    set_redaction(redacting);
    for (int n = 0; n < 20000; ++n) {
      std::string text(static_cast<std::size_t>(filler(rng)), 'a');  // moves the rest across block offsets
      for (int k = length(rng); k > 0; --k) text += pieces[pick(rng)];
      const std::string shown = redacting ? redact(text) : text;
      std::string out = "<";
      if (detail::append_plain_escaped(out, text)) {
        ++plain;
        ASSERT_TRUE(is_valid_utf8(text)) << text;
        ASSERT_EQ(shown, text) << "a text the redaction changes went the plain way: " << text;
        ASSERT_EQ(out, "<" + json_escape(text)) << text;
      } else {
        ASSERT_EQ(out, "<") << "a refused text must leave the output as it was";
      }
      if (!is_valid_utf8(text) || shown != text) {
        ASSERT_EQ(out, "<") << text;
      }
    }
  }
  EXPECT_GT(plain, 5000u);  // the plain path is exercised, not only refused
}

// The session's retry safety rewrites a prepared record's retry member only (src/triage/core.cpp):
// the text must then equal a fresh rendering of the record with the new advice, whatever the
// strings hold (quotes, the member's own markers, invalid UTF-8, a secret the redaction hides).
TEST_F(RedactionOn, ReplacedRetryMemberEqualsAFreshRendering) {
  const std::vector<std::string> texts = {
      "", "retry after 2 s", "q\"uote},\"warnings\":[", ",\"retry\":{\"advice\":\"", "bad\xff\xfe",
      "Bearer abcdef", "caf\xc3\xa9"};
  int replaced = 0;
  for (const std::string& before : texts) {
    for (const std::string& after : texts) {
      for (int safe = 0; safe < 3; ++safe) {
        Record r = record_with(before, {before, after});
        r.c.retry.advice = Advice::none;
        r.c.retry.text = before;
        r.c.retry.safe_source = before;
        std::string tail;
        append_jsonl_tail(tail, r);
        r.c.retry.advice = Advice::wait_retry_after;
        r.c.retry.text = after;
        r.c.retry.after_ms = safe == 1 ? std::optional<long long>(1500) : std::nullopt;
        r.c.retry.safe = safe == 0 ? std::nullopt : std::optional<bool>(safe == 2);
        r.c.retry.safe_source = "tools/list annotations: " + after;
        ASSERT_TRUE(replace_retry_member(tail, r.c.retry)) << tail;
        std::string fresh;
        append_jsonl_tail(fresh, r);
        ASSERT_EQ(tail, fresh) << "before: " << before << "\nafter: " << after;
        ++replaced;
      }
    }
  }
  EXPECT_EQ(replaced, 7 * 7 * 3);
  std::string no_member = "{\"outcome\":\"TOOL_ERROR\"}";
  EXPECT_FALSE(replace_retry_member(no_member, RetryAdvice{}));
  EXPECT_EQ(no_member, "{\"outcome\":\"TOOL_ERROR\"}");
}
