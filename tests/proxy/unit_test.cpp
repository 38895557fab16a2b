// Unit tests of the proxy's pure parts: the message peek, the event framer, the --inject grammar
// and the injected replies, body redaction, the recorded line read back by the JSON Lines
// reader (its `proxy` member), the record path (ProxySource through the run core), --upstream
// parsing, the record budget and the watcher.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <deque>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "mcptriage/capture.hpp"
#include "mcptriage/classify.hpp"
#include "mcptriage/render.hpp"
#include "io/duration.hpp"
#include "proxy/captured.hpp"
#include "proxy/inject.hpp"
#include "proxy/json_peek.hpp"
#include "proxy/server.hpp"
#include "proxy/sse_framer.hpp"
#include "proxy/source.hpp"
#include "triage/core.hpp"
#include "proxy/watcher.hpp"
#include "wrap/inject.hpp"
#include "wrap/record_line.hpp"
#include "wrap/relay.hpp"

namespace mcptriage::proxy {
namespace {

TEST(ProxyPeek, ReadsKindMethodIdToolAndVersions) {
  Peek p = peek_message(R"({"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo","arguments":{"a":[1,{"b":"}"}]}}})");
  EXPECT_EQ(p.kind, MessageKind::request);
  EXPECT_EQ(p.method, "tools/call");
  EXPECT_EQ(p.id_json, "7");
  EXPECT_EQ(p.tool_name, "echo");
  p = peek_message(R"({"method":"initialize","params":{"protocolVersion":"2025-11-25"},"jsonrpc":"2.0","id":"a\"b"})");
  EXPECT_EQ(p.kind, MessageKind::request);
  EXPECT_EQ(p.id_json, R"("a\"b")");
  EXPECT_EQ(p.protocol_version, "2025-11-25");
  p = peek_message(R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
  EXPECT_EQ(p.kind, MessageKind::notification);
  p = peek_message(R"({"result":{"protocolVersion":"2025-06-18","capabilities":{}},"jsonrpc":"2.0","id":0})");
  EXPECT_EQ(p.kind, MessageKind::response);
  EXPECT_EQ(p.result_protocol_version, "2025-06-18");
  p = peek_message(R"({"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"x"}})");
  EXPECT_EQ(p.kind, MessageKind::response);
  EXPECT_TRUE(p.is_error);
  p = peek_message(R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"},"name":"t\u00e9"}})");
  EXPECT_EQ(p.protocol_version, "2026-07-28");
  EXPECT_EQ(p.tool_name, "t\xc3\xa9");
  EXPECT_EQ(peek_message("[{}]").kind, MessageKind::batch);
  EXPECT_EQ(peek_message("not json").kind, MessageKind::other);
  EXPECT_EQ(peek_message(R"({"id":1,"method":)").kind, MessageKind::other);
  EXPECT_EQ(peek_message("").kind, MessageKind::other);
  // Deep nesting costs no stack.
  std::string deep = R"({"jsonrpc":"2.0","id":1,"method":"m","params":{"x":)" + std::string(100000, '[') +
                     std::string(100000, ']') + "}}";
  EXPECT_EQ(peek_message(deep).kind, MessageKind::request);
}

std::vector<SseBlock> frame(const std::vector<std::string>& pieces, std::size_t bound = 1 << 20) {
  SseFramer f(bound);
  std::vector<SseBlock> out;
  for (const auto& p : pieces) f.feed(p, out);
  return out;
}

// Ids compared by value, as the classifier pairs them (issue 25: the proxy's final-event timing
// compared them as text, so a request id 1.0 answered with id 1 had no final_ms).
TEST(ProxyPeek, IdsAreComparedByValue) {
  EXPECT_TRUE(same_id("1", "1"));
  EXPECT_TRUE(same_id("1.0", "1"));
  EXPECT_TRUE(same_id("1e2", "100"));
  EXPECT_TRUE(same_id(R"("a")", R"("\u0061")"));
  EXPECT_FALSE(same_id("1", R"("1")"));
  EXPECT_FALSE(same_id("1.5", "1"));
  EXPECT_FALSE(same_id("1", "2"));
  EXPECT_FALSE(same_id("{", "1"));
}

TEST(ProxySseFramer, FindsBlocksAcrossPiecesAndLineEnds) {
  auto blocks = frame({"id: a\ndata:\n\nevent: mess", "age\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\"}\n",
                       "\n: keep-alive\n\ndata: {\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{}}\r", "\n\r\n"});
  ASSERT_EQ(blocks.size(), 4u);
  EXPECT_TRUE(blocks[0].priming);
  EXPECT_EQ(blocks[1].message.kind, MessageKind::notification);
  EXPECT_TRUE(blocks[2].comment_only);
  EXPECT_TRUE(blocks[3].response());
  EXPECT_EQ(blocks[3].message.id_json, "3");
  // The blocks partition the bytes fed (the LF of a CRLF ends the block it closes when it came with
  // its CR, as here; when the CR came last, it begins the next block: below).
  std::string joined;
  for (const auto& b : blocks) joined += b.text;
  EXPECT_EQ(joined, "id: a\ndata:\n\nevent: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\"}\n\n"
                    ": keep-alive\n\ndata: {\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{}}\r\n\r\n");
  // CR alone ends lines too (WHATWG), and a CRLF split between pieces is one line end.
  blocks = frame({"data: x\r", "\r"});
  ASSERT_EQ(blocks.size(), 1u);
  blocks = frame({"data: x\r", "\n", "\r\n"});
  ASSERT_EQ(blocks.size(), 1u);
  EXPECT_EQ(blocks[0].text, "data: x\r\n\r\n");
  blocks = frame({"data: x\r\n\r", "\ndata: y\n\n"});  // the CR came last: its LF begins the next block
  ASSERT_EQ(blocks.size(), 2u);
  EXPECT_EQ(blocks[0].text, "data: x\r\n\r");
  EXPECT_EQ(blocks[1].text, "\ndata: y\n\n");
  // Leading empty lines stay with the block that follows them (the live reader's scanner ends a
  // block at each: sse::BlockScanner's join_leading_empty_lines).
  blocks = frame({"\n\ndata: z\n\n"});
  ASSERT_EQ(blocks.size(), 1u);
  EXPECT_EQ(blocks[0].text, "\n\ndata: z\n\n");
}

TEST(ProxySseFramer, KeepsAtMostTheBound) {
  auto blocks = frame({"data: " + std::string(100, 'x') + "\n\n"}, 16);
  ASSERT_EQ(blocks.size(), 1u);
  EXPECT_FALSE(blocks[0].whole);
  EXPECT_EQ(blocks[0].text.size(), 16u);
}

TEST(ProxyInject, ParsesEveryActionAndWhen) {
  auto r = parse_rule("status=503,retry-after=2@post=3,5");
  ASSERT_TRUE(r) << r.error();
  EXPECT_EQ(r->action, Action::status);
  EXPECT_EQ(r->status, 503);
  EXPECT_EQ(r->retry_after_s, 2);
  EXPECT_EQ(r->when, When::post);
  EXPECT_EQ(r->posts, (std::vector<std::size_t>{3, 5}));
  r = parse_rule("jsonrpc-error=-32603@method=tools/call");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->code, -32603);
  EXPECT_EQ(r->when, When::method);
  EXPECT_EQ(r->name, "tools/call");
  r = parse_rule("tool-error@tool=echo");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->when, When::tool);
  ASSERT_TRUE(parse_rule("input-required"));
  r = parse_rule("cut-after-events=2");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->events, 2u);
  r = parse_rule("delay=1500ms");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->delay.count(), 1500);
  // The one duration grammar (io::parse_duration), as --timeout: a whole number and a unit.
  EXPECT_FALSE(parse_rule("delay=1.5s"));
  EXPECT_FALSE(parse_rule("delay=0s"));
  ASSERT_TRUE(parse_rule("session-expired@post=4"));
  ASSERT_TRUE(parse_rule("unauthorized"));
  ASSERT_TRUE(parse_rule("status=429,body=x.json"));
  for (const char* bad : {"status=99", "status=abc", "status=503,retry=2", "nope", "tool-error=1", "delay=fast",
                          "cut-after-events=-1", "status=503@post=0", "status=503@post=", "status=503@when=1",
                          "jsonrpc-error=1.5"}) {
    EXPECT_FALSE(parse_rule(bad)) << bad;
  }
  EXPECT_EQ(io::parse_duration("250ms")->count(), 250);
}

// Issue 30 item 12: a WHEN that cannot match is a usage error, not a rule that never applies.
TEST(ProxyInject, RefusesAWhenThatCannotMatch) {
  auto why = [](const char* text) {
    auto r = parse_rule(text);
    return r ? std::string("accepted") : r.error();
  };
  EXPECT_NE(why("status=503@method=tools/call,tool=echo").find("write @tool=echo"), std::string::npos)
      << why("status=503@method=tools/call,tool=echo");
  EXPECT_NE(why("status=503@tool=a,b").find("has no comma"), std::string::npos);
  EXPECT_NE(why("status=503@method=a b").find("cannot be a method name"), std::string::npos);
  EXPECT_NE(why("status=503@tool=x=y").find("cannot be a tool name"), std::string::npos);
  EXPECT_NE(why("status=503@methods=tools/call").find("not 'methods'"), std::string::npos);
  EXPECT_NE(why("status=503@post=1@post=2").find("one @WHEN"), std::string::npos);
  EXPECT_NE(why("status=503@method=").find("method= needs a value"), std::string::npos);
  EXPECT_NE(why("tool-error@method=prompts/get").find("tools/call only"), std::string::npos);
  EXPECT_NE(why("input-required@method=initialize").find("never to initialize"), std::string::npos);
  EXPECT_NE(why("jsonrpc-error=-32603@method=notifications/initialized").find("is a notification"), std::string::npos);
  EXPECT_NE(why("cut-after-events=1@method=notifications/cancelled").find("is a notification"), std::string::npos);
  EXPECT_NE(why("session-expired@method=initialize").find("before the session exists"), std::string::npos);
  // Possible combinations stay accepted.
  for (const char* fine : {"tool-error@method=tools/call", "input-required@method=resources/read",
                           "status=503@method=notifications/initialized", "session-expired@tool=echo",
                           "jsonrpc-error=-32601@method=vendor.x/do-it", "status=503@post=1,2,3"}) {
    EXPECT_TRUE(parse_rule(fine)) << fine << ": " << why(fine);
  }
  EXPECT_EQ(io::parse_duration("2m")->count(), 120000);
  EXPECT_EQ(io::parse_duration("3")->count(), 3000);
  EXPECT_FALSE(io::parse_duration("-1s"));
}

// One grammar for the proxy and the wrapper (issue 28): each refuses the other's actions and counts.
TEST(ProxyInject, StdioRulesAndTheirLimits) {
  using proxy::Transport;
  auto why = [](const char* text, Transport t) {
    auto r = parse_rule(text, t);
    return r ? std::string("accepted") : r.error();
  };
  auto drop = parse_rule("drop@tool=echo", Transport::stdio);
  ASSERT_TRUE(drop);
  EXPECT_EQ(drop->action, Action::drop);
  EXPECT_EQ(drop->when, When::tool);
  auto exit = parse_rule("exit=3@call=2,4", Transport::stdio);
  ASSERT_TRUE(exit);
  EXPECT_EQ(exit->exit_code, 3);
  EXPECT_EQ(exit->when, When::call);
  EXPECT_EQ(exit->posts, (std::vector<std::size_t>{2, 4}));
  auto slow = parse_rule("slow-start=1500ms", Transport::stdio);
  ASSERT_TRUE(slow);
  EXPECT_EQ(slow->delay.count(), 1500);
  EXPECT_TRUE(parse_rule("garbage-line@method=tools/list", Transport::stdio));
  EXPECT_TRUE(parse_rule("jsonrpc-error=-32603@call=1", Transport::stdio));
  EXPECT_TRUE(parse_rule("delay=2s@method=initialize", Transport::stdio));
  EXPECT_NE(why("status=503", Transport::stdio).find("status is a fault of HTTP"), std::string::npos);
  EXPECT_NE(why("unauthorized@tool=echo", Transport::stdio).find("fault of HTTP"), std::string::npos);
  EXPECT_NE(why("cut-after-events=1", Transport::stdio).find("fault of HTTP"), std::string::npos);
  EXPECT_NE(why("session-expired", Transport::stdio).find("fault of HTTP"), std::string::npos);
  EXPECT_NE(why("drop", Transport::http).find("fault of a stdio server"), std::string::npos);
  EXPECT_NE(why("exit=1", Transport::http).find("fault of a stdio server"), std::string::npos);
  EXPECT_NE(why("drop@post=2", Transport::stdio).find("post=N counts HTTP POSTs"), std::string::npos);
  EXPECT_NE(why("drop@call=0", Transport::stdio).find("call=N counts the host's requests from 1"), std::string::npos);
  EXPECT_NE(why("status=503@call=2", Transport::http).find("not 'call'"), std::string::npos);
  EXPECT_NE(why("slow-start=1s@call=1", Transport::stdio).find("takes no @WHEN"), std::string::npos);
  EXPECT_NE(why("exit=256", Transport::stdio).find("0 to 255"), std::string::npos);
  EXPECT_NE(why("drop=1", Transport::stdio).find("takes no value"), std::string::npos);
  EXPECT_NE(why("drop@method=notifications/initialized", Transport::stdio).find("is a notification"), std::string::npos);
  EXPECT_NE(why("nope", Transport::stdio).find("garbage-line"), std::string::npos);
}

RequestFacts post(std::string body, std::size_t n, std::string version = "2025-11-25") {
  RequestFacts f;
  f.http_method = "POST";
  f.target = "/mcp";
  f.session_id = true;
  f.post_number = n;
  f.message = peek_message(body);
  f.protocol_version = std::move(version);
  return f;
}

TEST(ProxyInject, MatchesOnlyRequestsTheActionAppliesTo) {
  std::vector<Rule> rules;
  rules.push_back(*parse_rule("tool-error"));
  rules.push_back(*parse_rule("status=503@post=2"));
  const auto call = post(R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo"}})", 5);
  const auto list = post(R"({"jsonrpc":"2.0","id":2,"method":"tools/list"})", 2);
  const auto note = post(R"({"jsonrpc":"2.0","method":"notifications/initialized"})", 3);
  EXPECT_EQ(match_rule(rules, call), &rules[0]);
  EXPECT_EQ(match_rule(rules, list), &rules[1]);
  EXPECT_EQ(match_rule(rules, note), nullptr);
  std::vector<Rule> expiry{*parse_rule("session-expired")};
  auto no_session = call;
  no_session.session_id = false;
  EXPECT_EQ(match_rule(expiry, no_session), nullptr);
  EXPECT_NE(match_rule(expiry, call), nullptr);
}

TEST(ProxyInject, MatchesTheHostsNthRequestOnStdio) {
  std::vector<Rule> rules{*parse_rule("drop@call=2", proxy::Transport::stdio),
                          *parse_rule("slow-start=1s", proxy::Transport::stdio),
                          *parse_rule("garbage-line", proxy::Transport::stdio)};
  auto facts = [](std::string body, std::size_t call) {
    RequestFacts f;
    f.http_method = "POST";
    f.message = peek_message(body);
    f.call_number = call;
    return f;
  };
  EXPECT_EQ(match_rule(rules, facts(R"({"jsonrpc":"2.0","id":7,"method":"tools/list"})", 2)), &rules[0]);
  EXPECT_EQ(match_rule(rules, facts(R"({"jsonrpc":"2.0","id":8,"method":"ping"})", 3)), &rules[2]);
  // slow-start is never matched per request; a notification is no request for drop or garbage-line.
  EXPECT_EQ(match_rule(rules, facts(R"({"jsonrpc":"2.0","method":"notifications/initialized"})", 0)), nullptr);
  std::vector<std::string> notes;
  const Injected i = build_injected(*parse_rule("tool-error", proxy::Transport::stdio),
                                    facts(R"({"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"echo"}})", 4),
                                    "", notes, "mcptriage wrap");
  EXPECT_NE(i.body.find("(mcptriage wrap rule tool-error)"), std::string::npos) << i.body;
}

TEST(ProxyInject, BuildsRepliesToTheNegotiatedVersion) {
  std::vector<std::string> notes;
  const auto call = post(R"({"jsonrpc":"2.0","id":"x","method":"tools/call","params":{"name":"echo"}})", 1);
  Injected i = build_injected(*parse_rule("tool-error"), call, "http://127.0.0.1:8931", notes);
  EXPECT_EQ(i.status, 200);
  EXPECT_NE(i.body.find(R"("id":"x")"), std::string::npos);
  EXPECT_NE(i.body.find(R"("isError":true)"), std::string::npos);
  EXPECT_EQ(i.body.find("resultType"), std::string::npos);
  const auto call26 = post(R"({"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"echo"}})", 1, "2026-07-28");
  i = build_injected(*parse_rule("tool-error"), call26, "http://127.0.0.1:8931", notes);
  EXPECT_NE(i.body.find(R"("resultType":"complete")"), std::string::npos);
  i = build_injected(*parse_rule("jsonrpc-error=-32601"), call26, "", notes);
  EXPECT_EQ(i.status, 404);  // 2026-07-28: -32601 goes with 404
  i = build_injected(*parse_rule("jsonrpc-error=-32601"), call, "", notes);
  EXPECT_EQ(i.status, 200);
  i = build_injected(*parse_rule("status=503,retry-after=3"), call, "", notes);
  EXPECT_EQ(i.status, 503);
  ASSERT_TRUE(find_header(i.headers, "Retry-After"));
  EXPECT_EQ(*find_header(i.headers, "Retry-After"), "3");
  i = build_injected(*parse_rule("unauthorized"), call, "http://127.0.0.1:8931", notes);
  EXPECT_EQ(i.status, 401);
  EXPECT_EQ(*find_header(i.headers, "WWW-Authenticate"),
            R"(Bearer resource_metadata="http://127.0.0.1:8931/.well-known/oauth-protected-resource/mcp")");
  i = build_injected(*parse_rule("session-expired"), call, "", notes);
  EXPECT_EQ(i.status, 404);
  EXPECT_TRUE(notes.empty());
  i = build_injected(*parse_rule("input-required"), call, "", notes);
  EXPECT_NE(i.body.find(R"("resultType":"input_required")"), std::string::npos);
  EXPECT_EQ(notes.size(), 1u);  // MRTR is 2026-07-28's
}

TEST(ProxyRedaction, BodiesStayJson) {
  set_redaction(true);
  EXPECT_EQ(redact_body(R"({"password": "hunter2", "text":"Cookie: a=b; c=d","x":"Bearer abc.def"})"),
            R"({"password": "[REDACTED]", "text":"Cookie: a=[REDACTED]; c=[REDACTED]","x":"Bearer [REDACTED]"})");
  EXPECT_EQ(redact_body("data: {\"access_token\":\"eyJ\",\"token_type\":\"Bearer\"}\n\n"),
            "data: {\"access_token\":\"[REDACTED]\",\"token_type\":\"Bearer\"}\n\n");
  // A header list echoed in a JSON string: each escaped line end ends a line for the rules.
  EXPECT_EQ(redact_body(R"({"text":"x-api-key: K1\ncookie: sid=C2\nok: 1"})"),
            R"({"text":"x-api-key: [REDACTED]\ncookie: sid=[REDACTED]\nok: 1"})");
  // Nothing hidden: the literal is kept as it was written (escapes and all).
  EXPECT_EQ(redact_body(R"({"a":"caf\u00e9 \/"})"), R"({"a":"caf\u00e9 \/"})");
  EXPECT_EQ(redact_body("grant_type=authorization_code&code=abc&client_secret=xyz"),
            "grant_type=authorization_code&code=[REDACTED]&client_secret=[REDACTED]");
  set_redaction(false);
  EXPECT_EQ(redact_body(R"({"password": "hunter2"})"), R"({"password": "hunter2"})");
  set_redaction(true);
}

Captured sample() {
  Captured c;
  c.seq = 1;
  c.client = "127.0.0.1:5000";
  c.method = "POST";
  c.target = "/mcp";
  c.url = "http://127.0.0.1:3001/mcp";
  c.request_headers = {{"Content-Type", "application/json"}, {"Authorization", "Bearer SECRET123"}};
  c.request_body = R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{}}})";
  c.status = 200;
  c.reason = "OK";
  c.response_headers = {{"Content-Type", "application/json"}};
  c.body = R"({"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"hi"}]}})";
  c.body_bytes = c.body.size();
  c.record_bound = 1 << 20;
  c.started = std::chrono::system_clock::now();
  return c;
}

Exchange read_back(const std::string& line) {
  auto block = read_lines_block(line, "rec.jsonl", 0, CaptureOptions{}, 0);
  EXPECT_TRUE(block);
  EXPECT_EQ(block->exchanges.size(), 1u);
  return block->exchanges.front();
}

TEST(ProxyRecordLine, ReadsBackAsTheSameExchange) {
  const Captured c = sample();
  const std::string line = exchange_line(c, std::nullopt);
  EXPECT_EQ(line.find("SECRET123"), std::string::npos);
  const Exchange ex = read_back(line);
  EXPECT_EQ(ex.format, CaptureFormat::exchange_log);
  EXPECT_EQ(ex.response.status, 200);
  EXPECT_EQ(ex.response.body, c.body);
  ASSERT_TRUE(ex.request);
  EXPECT_EQ(ex.request->method_line, "POST");
  const auto results = classify(ex, ContextFlags{}, 0);
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(results[0].outcome, Outcome::TOOL_SUCCESS);
  EXPECT_TRUE(results[0].id_checked);
}

TEST(ProxyRecordLine, CutBodiesAreNeverASuccess) {
  Captured c = sample();
  c.body = c.body.substr(0, 30);
  c.end = BodyEnd::cut_upstream;
  c.end_detail = "Connection reset by peer";
  Exchange ex = read_back(exchange_line(c, std::nullopt));
  EXPECT_EQ(ex.response.body_state, BodyState::truncated);
  auto results = classify(ex, ContextFlags{}, 0);
  EXPECT_EQ(results[0].outcome, Outcome::MALFORMED_JSON);
  bool warned = false;
  for (const auto& w : results[0].warnings) warned |= w.find("upstream connection ended") != std::string::npos;
  EXPECT_TRUE(warned);
  // Cut at the record's bound: cut_at_limit, as --max-body.
  c = sample();
  c.body_bytes = c.body.size() + 100;
  c.end = BodyEnd::cut_limit;
  ex = read_back(exchange_line(c, std::nullopt));
  EXPECT_TRUE(ex.response.cut_at_max_body);
  results = classify(ex, ContextFlags{}, 0);
  EXPECT_NE(results[0].outcome, Outcome::TOOL_SUCCESS);
}

TEST(ProxyRecordLine, BinaryBodiesAndSkips) {
  Captured c = sample();
  c.body = std::string("\xff\xfe{", 3);
  const std::string line = exchange_line(c, std::nullopt);
  EXPECT_NE(line.find(R"("body_encoding":"base64")"), std::string::npos);
  EXPECT_EQ(read_back(line).response.body, c.body);
  c = sample();
  c.method = "GET";
  c.target = "/healthz";
  c.url = "http://127.0.0.1:3001/healthz";
  c.request_body.clear();
  c.body = R"({"status":"ok"})";
  const auto skip = skip_of(har_entry(c));
  ASSERT_TRUE(skip);
  EXPECT_EQ(skip->reason, SkipReason::not_mcp);
  const Exchange ex = read_back(exchange_line(c, skip));
  ASSERT_TRUE(ex.skipped);
  EXPECT_EQ(ex.skipped->reason, SkipReason::not_mcp);
  // A leg of MCP authorization (here the protected resource metadata) is no skip: it is kept for
  // the authorization triage (docs/auth.md), as the offline readers keep it.
  c.target = "/.well-known/oauth-protected-resource";
  c.url = "http://127.0.0.1:3001/.well-known/oauth-protected-resource";
  c.body = R"({"resource":"http://127.0.0.1:3001/mcp"})";
  EXPECT_FALSE(skip_of(har_entry(c)));
}

/// The number after `"key":` at or after `from` in `text` (-2 when absent).
double number_after(const std::string& text, const std::string& key, std::size_t from = 0) {
  const std::size_t at = text.find("\"" + key + "\":", from);
  return at == std::string::npos ? -2.0 : std::strtod(text.c_str() + at + key.size() + 3, nullptr);
}

// Issue 30 item 15: HAR 1.2 §timings: an entry's time is the sum of its timings (those not -1),
// and send is measured (reading the request from the client and writing it to the upstream).
TEST(ProxyHar, TimeIsTheSumOfTimingsAndSendIsMeasured) {
  auto check = [](const Captured& c, double want_time, double want_send, double want_connect, double want_blocked) {
    const std::string e = har_entry(c);
    const std::size_t t = e.find("\"timings\":{");
    ASSERT_NE(t, std::string::npos) << e;
    double sum = 0;
    for (const char* k : {"blocked", "dns", "connect", "send", "wait", "receive"}) {
      const double v = number_after(e, k, t);
      ASSERT_GE(v, -1.0) << k << " in " << e.substr(t);
      if (v >= 0) sum += v;
    }
    const double time = number_after(e, "time");
    EXPECT_NEAR(time, want_time, 1e-9) << e.substr(t);
    EXPECT_NEAR(sum, time, 1e-9) << e.substr(t);
    EXPECT_NEAR(number_after(e, "send", t), want_send, 1e-9);
    EXPECT_NEAR(number_after(e, "connect", t), want_connect, 1e-9);
    EXPECT_NEAR(number_after(e, "blocked", t), want_blocked, 1e-9);
  };
  Captured c = sample();
  // Forwarded on a new connection: read 2.5 ms, connected at 3.5, sent at 4.25, first byte 10.0005, end 12.
  c.timing.request_ms = 2.5;
  c.timing.forward_ms = 2.5;
  c.timing.connected_ms = 3.5;
  c.timing.sent_ms = 4.25;
  c.timing.response_ms = 10.0005;
  c.timing.end_ms = 12.0;
  check(c, 12.0, 2.5 + 0.75, 1.0, 0.0);
  // On a kept-alive connection, after an injected delay of 100 ms: connect -1, blocked 100.
  c.timing = Timing{};
  c.timing.request_ms = 1.0;
  c.timing.forward_ms = 101.0;
  c.timing.sent_ms = 101.5;
  c.timing.response_ms = 150.0;
  c.timing.end_ms = 150.25;
  check(c, 150.25, 1.5, -1.0, 100.0);
  // Made by the proxy (injected): nothing sent upstream; checkpoints out of order are clamped.
  c.timing = Timing{};
  c.timing.request_ms = 3.0;
  c.timing.response_ms = 2.0;
  c.timing.end_ms = 3.25;
  check(c, 3.25, 3.0, -1.0, 0.0);
}

// A content coding is decoded for the record by the readers' own body step (capture::decode_body):
// zstd and br as gzip. Issue 25: the proxy had its own gzip/deflate step and kept no body of a
// zstd or br answer (NOT_CAPTURED body_not_captured), while the curl -si capture of the same
// response read offline is TOOL_SUCCESS. The bytes: sample()'s body through zstd 1.5.4 -19
// --no-check and node 20 zlib.brotliCompressSync.
TEST(ProxyRecordLine, DecodesEveryCodingTheReadersDecode) {
  const std::string zstd_bytes(
      "\x28\xb5\x2f\xfd\x00\x68\x0d\x02\x00\x52\x04\x0e\x11\xa0\xed\xe0\xee\x52\x79\xbf\xce\xea\xf1\xbf\xbb\xe6\x2e\xfc"
      "\x7f\x43\xb5\x96\xfa\x84\xbe\xe0\x2d\xb9\xbf\x67\x37\xfb\x94\xec\x9b\x71\xb3\x66\x4e\xf7\xbd\x22\xe4\x77\x30\xf6"
      "\x27\x1d\x5c\x84\xf1\xbd\x71\x8f\x35\xa8\x4e\x03\x01\x00\xac\xa1\x40\x01",
      74);
  const std::string br_bytes(
      "\x1b\x4a\x00\xe8\xac\x8e\x77\x1a\x5e\xc8\x21\x21\x9a\x22\xa5\xd9\x09\x46\xf1\x23\x54\x7a\x8b\xec\x6d\xc9\x2c\x99"
      "\xb4\x64\x11\x71\x69\x9d\xbe\x2e\x96\x05\x43\xd6\x22\x63\x70\x72\x3d\xe0\xe2\x4b\x0c\xe7\x8d\x14\xd5\x52\x25\xbb"
      "\xa5\x29\xf1\x64\x46\x3d\x5f\xb0\x98\x41\x21\x52\x9e\x1e\x03\xc8\xc2\xf5\x7d\xea\x05",
      77);
  for (const auto& [coding, bytes] : {std::pair{"zstd", zstd_bytes}, std::pair{"br", br_bytes}}) {
    Captured c = sample();
    const std::string json = c.body;
    c.response_headers = {{"Content-Type", "application/json"}, {"Content-Encoding", coding}};
    c.body = bytes;
    c.body_bytes = bytes.size();
    const std::string line = exchange_line(c, std::nullopt);
    EXPECT_NE(line.find(R"("body":"complete")"), std::string::npos) << coding << ": " << line;
    const Exchange ex = read_back(line);
    EXPECT_EQ(ex.response.body, json) << coding;
    const auto results = classify(ex, ContextFlags{}, 0);
    ASSERT_EQ(results.size(), 1u);
    EXPECT_EQ(results[0].outcome, Outcome::TOOL_SUCCESS) << coding << ": " << to_string(results[0].reason);
    // Over the record's bound once decoded: cut there, as --max-body offline.
    c.record_bound = 20;
    const Exchange cut = read_back(exchange_line(c, std::nullopt));
    EXPECT_EQ(cut.response.body, json.substr(0, 20)) << coding;
    EXPECT_TRUE(cut.response.cut_at_max_body) << coding;
  }
  // A coding nothing decodes: no body kept, and the record says so.
  Captured c = sample();
  c.response_headers = {{"Content-Type", "application/json"}, {"Content-Encoding", "compress"}};
  c.body = "\x1f\x9d\x90 not really";
  c.body_bytes = c.body.size();
  const std::string line = exchange_line(c, std::nullopt);
  EXPECT_NE(line.find(R"("body":"not_captured")"), std::string::npos) << line;
  EXPECT_EQ(read_back(line).response.body, "");
}

/// Silent RunReport: counts what the core tells.
struct CountingReport final : io::RunReport {
  void input_error(std::string_view, std::string_view) override { ++errors; }
  void skipped(std::string_view, std::string_view) override {}
  void expectation_broken(std::string_view failure) override { broken.emplace_back(failure); }
  std::size_t errors = 0;
  std::vector<std::string> broken;
};

/// The proxy's record path: exchanges the network thread completed (a Queue), fed by ProxySource
/// to the run core as their recorded lines, out through the JSON Lines sink.
struct ProxyRun {
  std::string out;           ///< the JSON Lines written
  std::size_t records = 0;
  std::size_t broken = 0;
  std::string tally;
};

ProxyRun run_proxy(std::vector<Captured> exchanges, triage::TriageOptions options) {
  Queue queue;
  for (Captured& c : exchanges) queue.completed(std::move(c));
  queue.close();
  Watcher watcher(std::chrono::milliseconds(10));
  RecordBudget budget(1 << 20);
  std::vector<std::unique_ptr<Recording>> recordings;
  bool stopped = false;
  ProxySource source(queue, watcher, budget, recordings, "rec.jsonl", [&] { stopped = true; });
  StringOutput text;
  auto sink = make_jsonl_sink(text);
  RecordSink* sinks[] = {sink.get()};
  CountingReport report;
  const std::vector<io::Input> inputs{io::Input{"rec.jsonl", ""}};
  options.observer = &source;
  options.pipeline.jobs = 1;
  options.wall_clock = true;
  triage::Triage core(inputs, options, sinks, report);
  source.set_core(core);
  core.run(source);
  core.note(Note{R"({"kind":"proxy_summary"})", "proxy"});
  sink->finish();
  EXPECT_FALSE(stopped);
  EXPECT_EQ(report.errors, 0u);
  return ProxyRun{text.text, core.records(), core.broken(), core.tally().summary(0)};
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

// Each record is the one `mcptriage rec.jsonl` gives, plus the live members (timing, proxy); the
// watcher's report of the failure comes as a note after the records, before the session summary.
// The records get their `auth` member and the session its `auth_flow` as offline (issue 26).
TEST(ProxySourceRun, RecordsCarryLiveMembersAndTheWatcherNotesComeInOrder) {
  Captured failed = sample();
  failed.seq = 2;
  failed.request_body = R"({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{}}})";
  failed.status = 503;
  failed.reason = "Service Unavailable";
  failed.response_headers = {{"Content-Type", "text/plain"}, {"Retry-After", "2"}};
  failed.body = "busy";
  failed.body_bytes = failed.body.size();
  const ProxyRun run = run_proxy({sample(), failed}, {});
  const auto lines = lines_of(run.out);
  ASSERT_EQ(lines.size(), 6u) << run.out;
  EXPECT_NE(lines[0].find(R"("source":"rec.jsonl#1")"), std::string::npos) << lines[0];
  EXPECT_NE(lines[0].find(R"("outcome":"TOOL_SUCCESS")"), std::string::npos) << lines[0];
  EXPECT_NE(lines[1].find(R"("outcome":"HTTP_ERROR")"), std::string::npos) << lines[1];
  for (std::size_t k : {0u, 1u}) {
    EXPECT_NE(lines[k].find(R"("session":{)"), std::string::npos) << lines[k];  // two entries: a session
    EXPECT_NE(lines[k].find(R"(,"timing":{"started":)"), std::string::npos) << lines[k];
    EXPECT_NE(lines[k].find(R"(,"proxy":{"exchange":)" + std::to_string(k + 1)), std::string::npos) << lines[k];
  }
  EXPECT_NE(lines[2].find(R"("kind":"client_behaviour")"), std::string::npos) << lines[2];
  EXPECT_NE(lines[2].find(R"("action":"nothing")"), std::string::npos) << lines[2];
  // The session's authorization flow (a Bearer token the upstream accepted), judged live too.
  EXPECT_NE(lines[3].find(R"("kind":"auth_flow")"), std::string::npos) << lines[3];
  EXPECT_NE(lines[3].find(R"("verdict":"AUTH_OK")"), std::string::npos) << lines[3];
  EXPECT_NE(lines[4].find(R"("kind":"session_summary")"), std::string::npos) << lines[4];
  EXPECT_EQ(lines[5], R"({"kind":"proxy_summary"})");
  EXPECT_EQ(run.records, 2u);
}

// --fail-on counts every record as checked, one not listed holds: the proxy's summary line is the
// one `mcptriage --fail-on` prints on the proxy's own recording (report.hpp check_expectations).
// Issue 25: the proxy said "1 exchange: 1 TOOL_SUCCESS", the CLI "...; expectations 1 held, 0 broken".
TEST(ProxySourceRun, FailOnCountsEveryRecordAsTheCliDoes) {
  triage::TriageOptions options;
  options.fail_on = {Outcome::HTTP_ERROR};
  const ProxyRun run = run_proxy({sample()}, options);
  EXPECT_EQ(run.broken, 0u);
  EXPECT_EQ(run.tally, "1 exchange: 1 TOOL_SUCCESS; expectations 1 held, 0 broken");
  // One entry alone: no session member, no summary (as `mcptriage rec.jsonl`), the note after it.
  const auto lines = lines_of(run.out);
  ASSERT_EQ(lines.size(), 3u) << run.out;  // the record, its auth_flow, the note
  EXPECT_EQ(lines[0].find(R"("session":)"), std::string::npos) << lines[0];
  EXPECT_NE(lines[0].find(R"("proxy":{"exchange":1)"), std::string::npos) << lines[0];
}

TEST(ProxyUpstream, ParsesUrls) {
  auto u = parse_upstream("https://mcp.example.com/mcp?x=1");
  ASSERT_TRUE(u);
  EXPECT_TRUE(u->tls);
  EXPECT_EQ(u->port, "443");
  EXPECT_EQ(u->host_header, "mcp.example.com");
  EXPECT_EQ(u->path, "/mcp?x=1");
  u = parse_upstream("http://127.0.0.1:3001");
  ASSERT_TRUE(u);
  EXPECT_EQ(u->host_header, "127.0.0.1:3001");
  EXPECT_EQ(u->path, "/");
  u = parse_upstream("http://[::1]:3001/mcp");
  ASSERT_TRUE(u);
  EXPECT_EQ(u->host, "::1");
  EXPECT_EQ(u->origin, "http://[::1]:3001");
  EXPECT_FALSE(parse_upstream("ftp://x"));
  EXPECT_FALSE(parse_upstream("http://:80/"));
  EXPECT_FALSE(parse_upstream("http://u:p@host/"));
  EXPECT_FALSE(parse_upstream("http://host:99999/"));
}

TEST(ProxyBudget, TakesWhatIsLeft) {
  RecordBudget b(100);
  EXPECT_EQ(b.take(60), 60u);
  EXPECT_EQ(b.take(60), 40u);
  EXPECT_EQ(b.take(1), 0u);
  b.give_back(50);
  EXPECT_EQ(b.take(10), 10u);
  EXPECT_EQ(b.used(), 60u);
  // Past an exchange's first 64 KiB, only the limit less its reserve (an eighth): small records
  // still fit when large ones filled the rest (issue 30 item 8).
  const std::size_t k = RecordBudget::kSmallRecord;
  RecordBudget big(16 * k);
  EXPECT_EQ(big.take(20 * k), 14 * k);  // 14/16: the reserve of 2*k left
  EXPECT_FALSE(big.take(k, 14 * k));    // this exchange is past its small part: nothing more
  EXPECT_TRUE(big.room_for_small());
  EXPECT_EQ(big.take(k), k);            // a small record of another exchange: kept
  EXPECT_EQ(big.take(3 * k), k);        // another: its small part only, into the last of the reserve
  EXPECT_FALSE(big.room_for_small());
}

TEST(ProxyWatcher, ReportsNothingNewRequestAndResend) {
  using namespace std::chrono_literals;
  Watcher w(1000ms);
  const auto t = Clock::now();
  Captured failed = sample();
  failed.seq = 1;
  failed.t0 = t;
  failed.timing.end_ms = 10;
  failed.injected = "status=503,retry-after=1@post=3";
  Verdict v;
  v.source = "rec#1";
  v.outcome = Outcome::HTTP_ERROR;
  v.reason = "service_unavailable";
  v.http_status = 503;
  v.failure = true;
  v.method = "tools/call";
  v.tool = "echo";
  v.retry_after_ms = 1000;
  EXPECT_TRUE(w.completed(failed, {v}).empty());
  // A resend 1.2 s later, found by the session analysis as a replay of rec#1.
  w.started(Started{2, t + 1210ms, "POST", "tools/call", "echo", false});
  Captured again = sample();
  again.seq = 2;
  again.t0 = t + 1210ms;
  Verdict r;
  r.source = "rec#2";
  r.outcome = Outcome::TOOL_SUCCESS;
  r.replay = Replay{"rec#1", 0, Outcome::HTTP_ERROR, ReplaySafety::safe, "readOnlyHint: true (rec#0)", "unknown", false};
  auto reports = w.completed(again, {r});
  ASSERT_EQ(reports.size(), 1u);
  EXPECT_EQ(reports[0].action, "resend");
  EXPECT_NE(reports[0].jsonl.find(R"("honoured_retry_after":true)"), std::string::npos);
  EXPECT_NE(reports[0].jsonl.find(R"("retry_origin":"client")"), std::string::npos);
  // What the proxy knows, no more: the client sent it again (an SDK or the application's code).
  EXPECT_NE(reports[0].jsonl.find("the client sent the same call again 1.2 s after"), std::string::npos)
      << reports[0].jsonl;
  EXPECT_EQ(reports[0].jsonl.find("by itself"), std::string::npos) << reports[0].jsonl;
  // Nothing after a failure: reported when the window has passed.
  Captured f2 = failed;
  f2.seq = 3;
  f2.t0 = t + 2s;
  v.source = "rec#3";
  w.completed(f2, {v});
  EXPECT_TRUE(w.tick(t + 2500ms).empty());
  reports = w.tick(t + 3100ms);
  ASSERT_EQ(reports.size(), 1u);
  EXPECT_EQ(reports[0].action, "nothing");
  // A new request, after a session expiry, without re-initializing.
  Captured f3 = failed;
  f3.seq = 4;
  f3.t0 = t + 4s;
  f3.injected = "session-expired";
  v.source = "rec#4";
  v.advice = Advice::new_session;
  w.completed(f3, {v});
  w.started(Started{5, t + 4100ms, "POST", "tools/list", "", false});
  reports = w.finish(t + 4200ms);
  ASSERT_EQ(reports.size(), 1u);
  EXPECT_EQ(reports[0].action, "new_request");
  EXPECT_NE(reports[0].jsonl.find(R"("reinitialized":false)"), std::string::npos);
}

// `mcptriage wrap`'s recording lines and relay pieces (src/wrap, docs/formats.md "Recordings of mcptriage wrap").
TEST(WrapRecordLine, MessagesLinesEofAndExit) {
  json::Parser parser;
  bool message = false;
  const std::int64_t t = 1796083200LL * 1'000'000'000 + 123'456'789;
  EXPECT_EQ(wrap::iso_time_us(t), "2026-12-01T00:00:00.123456Z");
  EXPECT_EQ(wrap::stdio_message_line(wrap::Dir::c2s, t, R"({"jsonrpc":"2.0","id":1,"method":"ping"})", false, 40, parser, message),
            R"({"transport":"stdio","dir":"c2s","t":"2026-12-01T00:00:00.123456Z","message":{"jsonrpc":"2.0","id":1,"method":"ping"}})");
  EXPECT_TRUE(message);
  // A log line, and JSON that is no JSON-RPC message: `line`, a JSON string.
  EXPECT_EQ(wrap::stdio_message_line(wrap::Dir::s2c, t, "[info] \"up\"", false, 11, parser, message),
            R"({"transport":"stdio","dir":"s2c","t":"2026-12-01T00:00:00.123456Z","line":"[info] \"up\"","bytes":11})");
  EXPECT_FALSE(message);
  EXPECT_NE(wrap::stdio_message_line(wrap::Dir::s2c, t, R"({"level":"info"})", false, 16, parser, message).find(R"("line":"{\"level)"),
            std::string::npos);
  EXPECT_FALSE(message);
  // Cut at the bound: never a message, said.
  EXPECT_NE(wrap::stdio_message_line(wrap::Dir::s2c, t, R"({"jsonrpc":"2.0","id":1,"res)", true, 5000, parser, message).find(R"("cut":true,"bytes":5000)"),
            std::string::npos);
  EXPECT_FALSE(message);
  // Credentials redacted, and still JSON.
  const std::string secret = wrap::stdio_message_line(
      wrap::Dir::c2s, t, R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"arguments":{"password":"hunter2"}}})", false,
      90, parser, message);
  EXPECT_EQ(secret.find("hunter2"), std::string::npos) << secret;
  EXPECT_TRUE(parser.parse(json::padded_copy(secret), true).has_value());
  EXPECT_EQ(wrap::stdio_eof_line(t), R"({"transport":"stdio","dir":"c2s","t":"2026-12-01T00:00:00.123456Z","eof":true})");
  EXPECT_EQ(wrap::stdio_exit_line(t, io::ExitStatus{-1, 9}, {"boom", "Bearer abc.def"}),
            R"({"transport":"stdio","t":"2026-12-01T00:00:00.123456Z","exit":{"signal":9,"signal_name":"SIGKILL"},"stderr":["boom","Bearer [REDACTED]"]})");
  EXPECT_EQ(wrap::stdio_exit_line(t, io::ExitStatus{3, 0}, {}),
            R"({"transport":"stdio","t":"2026-12-01T00:00:00.123456Z","exit":{"code":3},"stderr":[]})");
}

TEST(WrapRelay, TailKeepsTheLastLinesCutAtTheirBound) {
  wrap::Tail tail(2, 5);
  tail.add("one\ntwo\r\nthree-is-long\npart");
  tail.add("ial");
  EXPECT_EQ(tail.lines(), (std::vector<std::string>{"three", "parti"}));
}

TEST(WrapRelay, PumpCopiesEveryByteAndHandsOverLines) {
  int in[2], out[2];
  ASSERT_EQ(::pipe(in), 0);
  ASSERT_EQ(::pipe(out), 0);
  wrap::EventQueue queue(1 << 20);
  wrap::Pump pump{in[0], out[1], wrap::Dir::s2c, &queue, -1, 8};
  const std::string bytes = "{\"a\":1}\r\n\nabcdefghijkl\nlast";
  ASSERT_TRUE(io::write_all(in[1], bytes));
  ::close(in[1]);
  EXPECT_TRUE(pump.run());
  ::close(out[1]);
  EXPECT_EQ(io::read_to_end(out[0]), bytes);  // byte for byte, blank line and CR included
  ::close(in[0]);
  ::close(out[0]);
  queue.close();
  std::deque<wrap::Event> events;
  ASSERT_TRUE(queue.wait(events));
  ASSERT_EQ(events.size(), 3u);  // the blank line is no event
  EXPECT_EQ(events[0].bytes, "{\"a\":1}");
  EXPECT_FALSE(events[0].cut);
  EXPECT_EQ(events[1].bytes, "abcdefgh");
  EXPECT_TRUE(events[1].cut);
  EXPECT_EQ(events[2].bytes, "last");
}

TEST(WrapRelay, TheQueueHandsOverAtMostMaxTakeAtATime) {
  // Found with 1 GB of notifications (docs/wrap.md "Performance"): the triage thread took all that
  // waited at once, and the wrapper's peak RSS grew with how far the judging was behind.
  const std::size_t one = 10 + sizeof(wrap::Event);  // what an event of a 10-byte line weighs
  wrap::EventQueue queue(1 << 20, 2 * one);
  for (int i = 0; i < 5; ++i) {
    wrap::Event e;
    e.bytes = std::string(9, 'a') + std::to_string(i);
    queue.push(std::move(e));
  }
  wrap::Event big;
  big.bytes = std::string(3 * one, 'b');  // more than max_take alone: still handed over
  queue.push(std::move(big));
  queue.close();
  std::vector<std::size_t> sizes;
  std::string order;
  std::deque<wrap::Event> events;
  while (queue.wait(events)) {
    sizes.push_back(events.size());
    for (const wrap::Event& e : events) order += e.bytes.back();
    events.clear();
  }
  EXPECT_EQ(sizes, (std::vector<std::size_t>{2, 2, 1, 1}));
  EXPECT_EQ(order, "01234b");
}

// `mcptriage wrap --inject` (src/wrap/inject.cpp, docs/wrap.md "Fault injection").
std::vector<Rule> stdio_rules(std::initializer_list<const char*> texts) {
  std::vector<Rule> out;
  for (const char* t : texts) out.push_back(*parse_rule(t, Transport::stdio));
  return out;
}

TEST(WrapInject, DecidesEachHostLine) {
  wrap::Injector inj(stdio_rules({"jsonrpc-error=-32603@tool=echo", "drop@call=3", "delay=250ms@method=ping",
                                  "garbage-line@method=prompts/get", "exit=4@method=resources/read", "slow-start=2s"}));
  ASSERT_NE(inj.slow_start(), nullptr);
  EXPECT_EQ(inj.slow_start()->delay.count(), 2000);
  const std::int64_t t0 = 1'000'000'000'000;
  // call 1: initialize, forwarded; the version comes from the server's answer.
  wrap::Decision d = inj.on_host_line(R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2026-07-28"}})", t0);
  EXPECT_EQ(d.rule, nullptr);
  EXPECT_TRUE(d.forward);
  EXPECT_TRUE(inj.wants_server_lines());
  inj.on_server_line(R"({"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2026-07-28"}})");
  EXPECT_FALSE(inj.wants_server_lines());
  // A notification is no call: counts stay.
  EXPECT_EQ(inj.on_host_line(R"({"jsonrpc":"2.0","method":"notifications/initialized"})", t0).rule, nullptr);
  // call 2: the reply is made here, with the id and the negotiated version's forms.
  d = inj.on_host_line(R"({"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"echo"}})", t0 + 1'000'000);
  ASSERT_NE(d.rule, nullptr);
  EXPECT_FALSE(d.forward);
  EXPECT_EQ(d.reply, R"({"jsonrpc":"2.0","id":"a","error":{"code":-32603,"message":"Internal error"}})");
  EXPECT_NE(d.warning.find("the server never saw this request"), std::string::npos);
  // call 3: dropped.
  d = inj.on_host_line(R"({"jsonrpc":"2.0","id":3,"method":"tools/list"})", t0 + 2'000'000'000);
  EXPECT_FALSE(d.forward);
  EXPECT_TRUE(d.reply.empty());
  d = inj.on_host_line(R"({"jsonrpc":"2.0","id":4,"method":"ping"})", t0);
  EXPECT_TRUE(d.forward);
  EXPECT_EQ(d.hold.count(), 250);
  d = inj.on_host_line(R"({"jsonrpc":"2.0","id":5,"method":"prompts/get","params":{"name":"p"}})", t0);
  EXPECT_TRUE(d.forward);
  EXPECT_EQ(d.garbage, wrap::garbage_line_text("garbage-line@method=prompts/get"));
  EXPECT_FALSE(json::Parser().parse(json::padded_copy(d.garbage), true).has_value());  // no JSON
  d = inj.on_host_line(R"({"jsonrpc":"2.0","id":6,"method":"resources/read","params":{"uri":"x"}})", t0);
  EXPECT_FALSE(d.forward);
  EXPECT_EQ(d.exit_code, 4);
  // Not JSON, or a host's answer to a server request: forwarded untouched.
  EXPECT_EQ(inj.on_host_line("hello", t0).rule, nullptr);
  EXPECT_EQ(inj.on_host_line(R"({"jsonrpc":"2.0","id":9,"result":{}})", t0).rule, nullptr);
  const auto applied = inj.applied();
  ASSERT_EQ(applied.size(), 5u);  // slow-start is kept apart
  EXPECT_EQ(applied[0], (std::pair<std::string, std::size_t>{"jsonrpc-error=-32603@tool=echo", 1}));
  // What the host did after each fault: the next message, or nothing until the end.
  const auto lines = inj.behaviour(t0 + 5'000'000'000, "the host closed the server's input");
  ASSERT_EQ(lines.size(), 5u);
  EXPECT_EQ(lines[0], "after --inject jsonrpc-error=-32603@tool=echo on tools/call echo: the host sent tools/list 2.0 s "
                      "after (not the same call)");
  EXPECT_NE(lines[4].find("sent nothing more; the host closed the server's input 5.0 s after"), std::string::npos) << lines[4];
}

TEST(WrapInject, ASameCallAgainIsAResendAnd2026FormsFollowTheSession) {
  wrap::Injector inj(stdio_rules({"tool-error@call=2"}));
  inj.on_host_line(R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{}})", 0);
  inj.on_server_line(R"({"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2026-07-28"}})");
  const wrap::Decision d = inj.on_host_line(R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo"}})", 0);
  EXPECT_NE(d.reply.find(R"("resultType":"complete")"), std::string::npos) << d.reply;
  EXPECT_NE(d.reply.find("mcptriage wrap rule tool-error@call=2"), std::string::npos);
  inj.on_host_line(R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo"}})", 1'500'000'000);
  EXPECT_EQ(inj.behaviour(2'000'000'000, "x").front(),
            "after --inject tool-error@call=2 on tools/call echo: the host sent the same call again 1.5 s after");
}

TEST(WrapRecordLine, InjectionMembersAreReadBackAsWarnings) {
  json::Parser parser;
  bool message = false;
  const std::int64_t t = 1796083200LL * 1'000'000'000;
  wrap::Injection req;
  req.rule = "drop@tool=echo";
  req.forwarded = false;
  req.warnings = {"injected: dropped"};
  const std::string request = wrap::stdio_message_line(
      wrap::Dir::c2s, t, R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo"}})", false, 70,
      parser, message, &req);
  EXPECT_NE(request.find(R"(,"injected":"drop@tool=echo","forwarded":false,"warnings":["injected: dropped"]})"),
            std::string::npos) << request;
  wrap::Injection garbage;
  garbage.rule = "garbage-line";
  garbage.made_by_wrapper = true;
  garbage.warnings = {"the wrapper wrote this line"};
  const std::string line = wrap::stdio_message_line(wrap::Dir::s2c, t, "not json", false, 8, parser, message, &garbage);
  EXPECT_NE(line.find(R"("bytes":8,"injected":"garbage-line","made_by":"wrapper")"), std::string::npos) << line;
  wrap::Injection ended;
  ended.rule = "exit=3";
  ended.wrapper_exit = 3;
  ended.warnings = {"killed by the wrapper"};
  const std::string exit = wrap::stdio_exit_line(t, io::ExitStatus{-1, 9}, {}, &ended);
  EXPECT_NE(exit.find(R"("stderr":[],"injected":"exit=3","wrapper_exit":3,"warnings":["killed by the wrapper"]})"),
            std::string::npos) << exit;
  // Read back: the request's and the exit's warnings on the request's record, the line's on its own.
  auto block = read_lines_block(request + "\n" + line + "\n" + exit + "\n", "rec.jsonl", 0, CaptureOptions{}, 0);
  ASSERT_TRUE(block);
  ASSERT_EQ(block->exchanges.size(), 2u);
  EXPECT_EQ(block->exchanges[0].warnings, (std::vector<std::string>{"injected: dropped", "killed by the wrapper"}));
  EXPECT_EQ(block->exchanges[0].stdio, StdioEnd::server_exited);
  EXPECT_EQ(block->exchanges[1].warnings, (std::vector<std::string>{"the wrapper wrote this line"}));
}

TEST(WrapRelay, HostOutPutsTheWrappersLineBetweenTheServersLines) {
  int p[2];
  ASSERT_EQ(::pipe(p), 0);
  wrap::HostOut out(p[1]);
  ASSERT_TRUE(out.write_chunk("{\"jsonrpc\":"));
  std::thread injected([&] { out.write_line("INJECTED"); });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  ASSERT_TRUE(out.write_chunk("\"2.0\"}\n"));  // the server's line ends: the wrapper's may follow
  injected.join();
  ::close(p[1]);
  EXPECT_EQ(io::read_to_end(p[0]), "{\"jsonrpc\":\"2.0\"}\nINJECTED\n");
  ::close(p[0]);
}

TEST(WrapRelay, AnInjectingPumpDecidesOnWholeLines) {
  int in[2], to_server[2], to_host[2];
  ASSERT_EQ(::pipe(in), 0);
  ASSERT_EQ(::pipe(to_server), 0);
  ASSERT_EQ(::pipe(to_host), 0);
  wrap::EventQueue queue(1 << 20);
  wrap::Injector inj(stdio_rules({"tool-error@tool=echo", "exit=9@method=ping"}));
  wrap::HostOut host(to_host[1]);
  int exited = -1;
  wrap::Pump pump{in[0], to_server[1], wrap::Dir::c2s, &queue, -1, 200};
  pump.injector = &inj;
  pump.host = &host;
  pump.on_exit = [&](int code, const std::string&) { exited = code; };
  const std::string echo = R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo"}})";
  const std::string list = "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}\r";
  const std::string ping = R"({"jsonrpc":"2.0","id":3,"method":"ping"})";
  const std::string input = echo + "\n\n" + list + "\n" + std::string(300, 'x') + "\n" + ping;
  // Written in pieces that cut lines: the pump decides on whole lines only.
  for (std::size_t at = 0; at < input.size(); at += 17) ASSERT_TRUE(io::write_all(in[1], input.substr(at, 17)));
  ::close(in[1]);
  EXPECT_TRUE(pump.run());
  ::close(to_server[1]);
  ::close(to_host[1]);
  // The server got everything but the answered call and the ping it died on, byte for byte.
  EXPECT_EQ(io::read_to_end(to_server[0]), "\n" + list + "\n" + std::string(300, 'x') + "\n");
  EXPECT_EQ(io::read_to_end(to_host[0]),
            R"x({"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"Injected tool error (mcptriage wrap rule tool-error@tool=echo)"}],"isError":true}})x"
            "\n");
  EXPECT_EQ(exited, 9);
  for (int fd : {in[0], to_server[0], to_host[0]}) ::close(fd);
  queue.close();
  std::deque<wrap::Event> events;
  ASSERT_TRUE(queue.wait(events));
  ASSERT_EQ(events.size(), 5u);  // echo, its reply, tools/list, the long line, ping
  EXPECT_EQ(events[0].injection->rule, "tool-error@tool=echo");
  EXPECT_FALSE(events[0].injection->forwarded);
  EXPECT_TRUE(events[1].injection->made_by_wrapper);
  EXPECT_EQ(events[1].dir, wrap::Dir::s2c);
  EXPECT_EQ(events[2].bytes, list.substr(0, list.size() - 1));  // the CR is not in the record
  EXPECT_FALSE(events[2].injection);
  EXPECT_TRUE(events[3].cut);
  EXPECT_EQ(events[3].size, 300u);
  EXPECT_EQ(events[4].injection->rule, "exit=9@method=ping");
}

}  // namespace
}  // namespace mcptriage::proxy
