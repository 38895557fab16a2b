// Unit tests for the layered classifier: the contract's eleven reference cases and the rules
// behind each outcome, on Exchanges built in memory (no capture parsing involved).
#include <gtest/gtest.h>

#include "jsonrpc/envelope.hpp"
#include "mcptriage/classify.hpp"
#include "mcptriage/http.hpp"
#include "mcptriage/render.hpp"

using namespace mcptriage;

namespace {

Exchange json_reply(int status, std::string body, std::string content_type = "application/json") {
  Exchange ex;
  ex.source = "t#1";
  ex.format = mcptriage::CaptureFormat::curl_i;
  ex.response.http_version = "HTTP/1.1";
  ex.response.status = status;
  if (!content_type.empty()) ex.response.headers.push_back({"Content-Type", content_type});
  ex.response.body = std::move(body);
  return ex;
}

ContextFlags call(long long id = 1) {
  ContextFlags f;
  f.id = JsonRpcId{JsonRpcId::Kind::integer, std::to_string(id)};
  f.method = "tools/call";
  return f;
}

Classification one(const Exchange& ex, const ContextFlags& f) {
  auto v = classify(ex, f, 0);
  EXPECT_EQ(v.size(), 1u);
  return v.at(0);
}

constexpr const char* kSuccess =
    R"({"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","content":[{"type":"text","text":"ok"}],"isError":false}})";

}  // namespace

// --- the eleven reference cases (shared/classification.md) ---

TEST(ClassifyReference, Case01Success) {
  auto c = one(json_reply(200, kSuccess), call());
  EXPECT_EQ(c.outcome, Outcome::TOOL_SUCCESS);
  EXPECT_EQ(c.layer, Layer::application);
  EXPECT_TRUE(c.id_checked);
}

TEST(ClassifyReference, Case02ServiceUnavailableThenSuccess) {
  auto first = one(json_reply(503, "", ""), call());
  EXPECT_EQ(first.outcome, Outcome::HTTP_ERROR);
  EXPECT_EQ(first.http_status, 503);
  EXPECT_EQ(first.retry.advice, Advice::retry_if_idempotent);
  auto second = one(json_reply(200, kSuccess), call());
  EXPECT_EQ(second.outcome, Outcome::TOOL_SUCCESS);
}

TEST(ClassifyReference, Case03InvalidParams) {
  auto c = one(json_reply(200, R"({"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"bad"}})"), call());
  EXPECT_EQ(c.outcome, Outcome::JSONRPC_ERROR);
  EXPECT_EQ(c.layer, Layer::protocol);
  EXPECT_EQ(c.error_code, -32602);
  EXPECT_EQ(c.retry.advice, Advice::fix_request);
}

TEST(ClassifyReference, Case04IsErrorTrue) {
  auto c = one(json_reply(200, R"({"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"boom"}],"isError":true}})"), call());
  EXPECT_EQ(c.outcome, Outcome::TOOL_ERROR);
  EXPECT_EQ(c.layer, Layer::application);
}

TEST(ClassifyReference, Case05Status500WithSuccessBody) {
  auto c = one(json_reply(500, kSuccess), call());
  EXPECT_EQ(c.outcome, Outcome::HTTP_ERROR);
  EXPECT_EQ(c.layer, Layer::transport);
  EXPECT_EQ(c.retry.advice, Advice::retry_once_if_idempotent);
}

TEST(ClassifyReference, Case06Unclosed) {
  auto c = one(json_reply(200, "{unclosed"), call());
  EXPECT_EQ(c.outcome, Outcome::MALFORMED_JSON);
  EXPECT_EQ(c.layer, Layer::protocol);
}

TEST(ClassifyReference, Case07ResultAndError) {
  auto c = one(json_reply(200, R"({"jsonrpc":"2.0","id":1,"result":{"content":[]},"error":{"code":1,"message":"x"}})"), call());
  EXPECT_EQ(c.outcome, Outcome::INVALID_ENVELOPE);
  EXPECT_EQ(to_string(c.reason), "result_and_error");
}

TEST(ClassifyReference, Case08IdMismatch) {
  std::string body = kSuccess;
  body.replace(body.find("\"id\":1"), 6, "\"id\":99");
  auto c = one(json_reply(200, body), call());
  EXPECT_EQ(c.outcome, Outcome::INVALID_ENVELOPE);
  EXPECT_EQ(to_string(c.reason), "id_mismatch");
  EXPECT_EQ(c.pointer, "/id");
}

TEST(ClassifyReference, Case09InputRequired) {
  auto c = one(json_reply(200, R"({"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","inputRequests":{"a":{"method":"elicitation/create","params":{}}}}})"), call());
  EXPECT_EQ(c.outcome, Outcome::INPUT_REQUIRED);
  EXPECT_EQ(c.layer, Layer::interaction);
  EXPECT_EQ(c.retry.advice, Advice::resend_with_input);
}

TEST(ClassifyReference, Case10NoResultType) {
  auto c = one(json_reply(200, R"({"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"ok"}],"isError":false}})"), call());
  EXPECT_EQ(c.outcome, Outcome::TOOL_SUCCESS);
}

TEST(ClassifyReference, Case11ContentNotArray) {
  auto c = one(json_reply(200, R"({"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","content":"not-an-array","isError":false}})"), call());
  EXPECT_EQ(c.outcome, Outcome::INVALID_TOOL_RESULT);
  EXPECT_EQ(to_string(c.reason), "content_not_array");
  EXPECT_EQ(c.pointer, "/result/content");
}

// --- precedence and rules ---

TEST(ClassifyRules, IdIsTypeExact) {
  ContextFlags f = call();
  f.id = JsonRpcId{JsonRpcId::Kind::string, "1"};
  auto c = one(json_reply(200, kSuccess), f);
  EXPECT_EQ(c.outcome, Outcome::INVALID_ENVELOPE);
  EXPECT_EQ(to_string(c.reason), "id_mismatch");
}

ContextFlags call2026(long long id = 1) {
  ContextFlags f = call(id);
  f.protocol_version = "2026-07-28";
  return f;
}

TEST(ClassifyRules, SpecPaired400IsJsonRpcError) {
  auto c = one(json_reply(400, R"({"jsonrpc":"2.0","id":1,"error":{"code":-32022,"message":"Unsupported protocol version","data":{"supported":["2026-07-28","2025-11-25"],"requested":"x"}}})"), call2026());
  EXPECT_EQ(c.outcome, Outcome::JSONRPC_ERROR);
  EXPECT_EQ(to_string(c.reason), "unsupported_protocol_version");
  EXPECT_EQ(c.retry.advice, Advice::retry_with_supported_version);
  ASSERT_EQ(c.supported_versions.size(), 2u);
}

TEST(ClassifyRules, Spec404MethodNotFoundIsJsonRpcError) {
  auto c = one(json_reply(404, R"({"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found"}})"), call2026());
  EXPECT_EQ(c.outcome, Outcome::JSONRPC_ERROR);
}

TEST(ClassifyRules, SpecPairsHoldUnder2026Only) {
  const char* body = R"({"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"Invalid params"}})";
  auto assumed = one(json_reply(400, body), call());
  EXPECT_EQ(assumed.outcome, Outcome::HTTP_ERROR);
  EXPECT_EQ(to_string(assumed.reason), "bad_request");
  EXPECT_EQ(assumed.error_code, -32602);
  ContextFlags f2025 = call();
  f2025.protocol_version = "2025-11-25";
  EXPECT_EQ(one(json_reply(400, body), f2025).outcome, Outcome::HTTP_ERROR);
  EXPECT_EQ(one(json_reply(400, body), call2026()).outcome, Outcome::JSONRPC_ERROR);
}

TEST(ClassifyRules, SpecPairsHoldForAnErrorAnsweringThisRequestOnly) {
  auto other = one(json_reply(404, R"({"jsonrpc":"2.0","id":7,"error":{"code":-32601,"message":"Method not found"}})"), call2026());
  EXPECT_EQ(other.outcome, Outcome::HTTP_ERROR);
  EXPECT_EQ(to_string(other.reason), "not_found");
  auto no_id = one(json_reply(400, R"({"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error"}})"), call2026());
  EXPECT_EQ(no_id.outcome, Outcome::JSONRPC_ERROR);
  auto string_id = one(json_reply(400, R"({"jsonrpc":"2.0","id":"1","error":{"code":-32600,"message":"Invalid Request"}})"), call2026());
  EXPECT_EQ(string_id.outcome, Outcome::HTTP_ERROR);
}

TEST(ClassifyRules, Session404IsHttpErrorNotFoundWithoutRequestHeaders) {
  auto c = one(json_reply(404, R"({"jsonrpc":"2.0","id":6,"error":{"code":-32001,"message":"Session not found"}})"), {});
  EXPECT_EQ(c.outcome, Outcome::HTTP_ERROR);
  EXPECT_EQ(to_string(c.reason), "not_found");
  EXPECT_EQ(c.error_code, -32001);
  EXPECT_EQ(c.retry.advice, Advice::new_session);
}

TEST(ClassifyRules, Session404WithSessionHeaderIsSessionExpired) {
  Exchange ex = json_reply(404, "", "");
  ex.request = Request{"POST", "/mcp", {{"Mcp-Session-Id", "abc"}}, std::nullopt, std::nullopt};
  auto c = one(ex, call());
  EXPECT_EQ(c.outcome, Outcome::HTTP_ERROR);
  EXPECT_EQ(to_string(c.reason), "session_expired");
  EXPECT_EQ(c.retry.advice, Advice::new_session);
}

TEST(ClassifyRules, TextPlainIsInvalidHttpResponseAndSaysWhatBodyWouldBe) {
  auto c = one(json_reply(200, kSuccess, "text/plain"), call());
  EXPECT_EQ(c.outcome, Outcome::INVALID_HTTP_RESPONSE);
  EXPECT_NE(c.detail.find("TOOL_SUCCESS"), std::string::npos) << c.detail;
}

TEST(ClassifyRules, MediaTypeIsCaseInsensitiveWithParameters) {
  auto c = one(json_reply(200, kSuccess, "Application/JSON; charset=utf-8"), call());
  EXPECT_EQ(c.outcome, Outcome::TOOL_SUCCESS);
}

TEST(ClassifyRules, TruncatedIsNeverSuccess) {
  Exchange ex = json_reply(200, std::string(kSuccess).substr(0, 40));
  ex.response.body_state = BodyState::truncated;
  auto c = one(ex, call());
  EXPECT_EQ(c.outcome, Outcome::MALFORMED_JSON);
  EXPECT_EQ(to_string(c.reason), "truncated");
}

TEST(ClassifyRules, TrailingData) {
  auto c = one(json_reply(200, std::string(kSuccess) + "200"), call());
  EXPECT_EQ(c.outcome, Outcome::MALFORMED_JSON);
  EXPECT_EQ(to_string(c.reason), "trailing_data");
}

TEST(ClassifyRules, NullIdErrorIsJsonRpcErrorWithWarning) {
  auto c = one(json_reply(200, R"({"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"x"}})"), call());
  EXPECT_EQ(c.outcome, Outcome::JSONRPC_ERROR);
  EXPECT_FALSE(c.warnings.empty());
}

TEST(ClassifyRules, ResultWithNullIdIsInvalidEnvelope) {
  std::string body = kSuccess;
  body.replace(body.find("\"id\":1"), 6, "\"id\":null");
  auto c = one(json_reply(200, body), call());
  EXPECT_EQ(c.outcome, Outcome::INVALID_ENVELOPE);
}

TEST(ClassifyRules, DuplicateMemberInResultIsInvalidToolResult) {
  auto c = one(json_reply(200, R"({"jsonrpc":"2.0","id":1,"result":{"content":[],"isError":false,"isError":true}})"), call());
  EXPECT_EQ(c.outcome, Outcome::INVALID_TOOL_RESULT);
  EXPECT_EQ(to_string(c.reason), "duplicate_member");
  EXPECT_EQ(c.pointer, "/result/isError");
}

TEST(ClassifyRules, UnknownResultType) {
  auto c = one(json_reply(200, R"({"jsonrpc":"2.0","id":1,"result":{"resultType":"later","content":[]}})"), call());
  EXPECT_EQ(c.outcome, Outcome::INVALID_TOOL_RESULT);
  EXPECT_EQ(to_string(c.reason), "unknown_result_type");
}

TEST(ClassifyRules, TaskCreated2025AndFlat2026) {
  auto nested = one(json_reply(200, R"({"jsonrpc":"2.0","id":1,"result":{"task":{"taskId":"t","status":"working","createdAt":"x","lastUpdatedAt":"x","ttl":1,"pollInterval":5000}}})"), call());
  EXPECT_EQ(nested.outcome, Outcome::TASK_CREATED);
  EXPECT_EQ(nested.retry.advice, Advice::poll_task);
  auto flat = one(json_reply(200, R"({"jsonrpc":"2.0","id":1,"result":{"resultType":"task","taskId":"t","status":"working"}})"), call());
  EXPECT_EQ(flat.outcome, Outcome::TASK_CREATED);
}

TEST(ClassifyRules, ContentItemMissingField) {
  auto c = one(json_reply(200, R"({"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"a"},{"type":"image","data":"x"}]}})"), call());
  EXPECT_EQ(c.outcome, Outcome::INVALID_TOOL_RESULT);
  EXPECT_EQ(c.pointer, "/result/content/1/mimeType");
}

TEST(ClassifyRules, ResourceLinkUnknownIn20250326) {
  ContextFlags f = call();
  f.protocol_version = "2025-03-26";
  auto c = one(json_reply(200, R"({"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"resource_link","uri":"u","name":"n"}]}})"), f);
  EXPECT_EQ(c.outcome, Outcome::INVALID_TOOL_RESULT);
  EXPECT_EQ(to_string(c.reason), "content_type_unknown");
}

TEST(ClassifyRules, NotificationAccepted) {
  ContextFlags f;
  f.method = "notifications/initialized";
  auto c = one(json_reply(202, "", ""), f);
  EXPECT_EQ(c.outcome, Outcome::ACCEPTED);
  auto bad = one(json_reply(200, "{}"), f);
  EXPECT_EQ(bad.outcome, Outcome::INVALID_HTTP_RESPONSE);
}

TEST(ClassifyRules, AcceptedForRequestIsInvalid) {
  auto c = one(json_reply(202, "", ""), call());
  EXPECT_EQ(c.outcome, Outcome::INVALID_HTTP_RESPONSE);
}

TEST(ClassifyRules, Bare202WithoutContextIsAcceptedWithWarning) {
  auto c = one(json_reply(202, "", ""), {});
  EXPECT_EQ(c.outcome, Outcome::ACCEPTED);
  EXPECT_FALSE(c.warnings.empty());
}

TEST(ClassifyRules, EmptyResultWithoutMethodIsRpcSuccess) {
  auto c = one(json_reply(200, R"({"jsonrpc":"2.0","id":1,"result":{}})"), {});
  EXPECT_EQ(c.outcome, Outcome::RPC_SUCCESS);
  EXPECT_FALSE(c.warnings.empty());
}

TEST(ClassifyRules, InitializeWithoutProtocolVersionIsInvalidResult) {
  ContextFlags f;
  f.method = "initialize";
  f.id = JsonRpcId{JsonRpcId::Kind::integer, "1"};
  auto c = one(json_reply(200, R"({"jsonrpc":"2.0","id":1,"result":{"capabilities":{},"serverInfo":{"name":"x","version":"1"}}})"), f);
  EXPECT_EQ(c.outcome, Outcome::INVALID_RESULT);
  EXPECT_EQ(c.pointer, "/result/protocolVersion");
}

TEST(ClassifyRules, BatchIn20250326GivesOneRecordPerElement) {
  auto v = classify(json_reply(200, R"([{"jsonrpc":"2.0","id":7,"result":{"content":[]}},{"jsonrpc":"2.0","id":8,"error":{"code":-32602,"message":"Unknown tool"}}])"), {}, 0);
  ASSERT_EQ(v.size(), 2u);
  EXPECT_EQ(v[0].outcome, Outcome::TOOL_SUCCESS);
  EXPECT_EQ(v[1].outcome, Outcome::JSONRPC_ERROR);
  EXPECT_EQ(v[0].protocol_version, "2025-03-26");
}

TEST(ClassifyRules, BatchNotAllowedIn20250618) {
  ContextFlags f;
  f.protocol_version = "2025-06-18";
  auto c = one(json_reply(200, R"([{"jsonrpc":"2.0","id":7,"result":{"content":[]}}])"), f);
  EXPECT_EQ(c.outcome, Outcome::INVALID_ENVELOPE);
  EXPECT_EQ(to_string(c.reason), "batch_not_allowed");
}

TEST(ClassifyRules, UnpublishedVersionsGetTheRulesOfTheLatestBefore) {
  // A date between 2025-03-26 and 2025-06-18 batches as 2025-03-26 does; one from 2025-06-18 on
  // or before 2025-03-26 does not (new-user trial, session 5: 2025-05-01 said "no batching").
  for (const char* v : {"2025-03-26", "2025-05-01", "2025-06-17"}) {
    ContextFlags f;
    f.protocol_version = v;
    auto all = classify(json_reply(200, R"([{"jsonrpc":"2.0","id":7,"result":{"content":[]}}])"), f, 0);
    ASSERT_EQ(all.size(), 1u) << v;
    EXPECT_EQ(all[0].outcome, Outcome::TOOL_SUCCESS) << v;
  }
  for (const char* v : {"2024-11-05", "2025-06-18", "2025-09-01", "2026-07-28"}) {
    ContextFlags f;
    f.protocol_version = v;
    EXPECT_EQ(to_string(one(json_reply(200, R"([{"jsonrpc":"2.0","id":7,"result":{"content":[]}}])"), f).reason), "batch_not_allowed") << v;
  }
}

TEST(ClassifyRules, RateLimitedRetryAfterSeconds) {
  Exchange ex = json_reply(429, "", "");
  ex.response.headers.push_back({"Retry-After", "3"});
  auto c = one(ex, call());
  EXPECT_EQ(to_string(c.reason), "rate_limited");
  EXPECT_EQ(c.retry.advice, Advice::wait_retry_after);
  EXPECT_EQ(c.retry.after_ms, 3000);
}

TEST(ClassifyRules, InsufficientScope) {
  Exchange ex = json_reply(403, "", "");
  ex.response.headers.push_back({"WWW-Authenticate", R"(Bearer error="insufficient_scope", scope="files:write")"});
  auto c = one(ex, call());
  EXPECT_EQ(to_string(c.reason), "insufficient_scope");
  EXPECT_EQ(c.retry.advice, Advice::step_up_authorization);
  EXPECT_NE(c.retry.text.find("files:write"), std::string::npos);
}

TEST(ClassifyRules, NotCapturedIsNeverSuccess) {
  Exchange ex = json_reply(200, "");
  ex.response.body_state = BodyState::not_captured;
  auto c = one(ex, call());
  EXPECT_EQ(c.outcome, Outcome::NOT_CAPTURED);
}

TEST(ClassifyRules, DeepNestingIsAClassifiedOutcome) {
  std::string deep = R"({"jsonrpc":"2.0","id":1,"result":{"content":[],"structuredContent":)" + std::string(5000, '[') +
                     std::string(5000, ']') + "}}";
  auto c = one(json_reply(200, deep), call());
  EXPECT_EQ(c.outcome, Outcome::MALFORMED_JSON);
  EXPECT_EQ(to_string(c.reason), "too_deep");
}

TEST(ClassifyNames, RoundTrip) {
  for (auto o : {Outcome::TOOL_SUCCESS, Outcome::NOT_CAPTURED, Outcome::INVALID_RESULT}) {
    EXPECT_EQ(parse_outcome(to_string(o)), o);
  }
  EXPECT_FALSE(parse_outcome("tool_success").has_value());
}

TEST(ClassifyCodings, PlainBytesUnderACodingAreNoSuccess) {
  // The reader marks plain bytes of exactly their Content-Length under a Content-Encoding
  // (Response::plain_under_coding): no client can decode them by the label (issue 14).
  Exchange ex = json_reply(200, kSuccess);
  ex.response.headers.push_back({"Content-Encoding", "gzip"});
  ex.response.plain_under_coding = true;
  const Classification c = one(ex, call());
  EXPECT_EQ(c.outcome, Outcome::INVALID_HTTP_RESPONSE);
  EXPECT_EQ(c.reason, Reason::content_encoding_mismatch);
  EXPECT_NE(c.detail.find("the body would be TOOL_SUCCESS"), std::string::npos) << c.detail;
  // A 4xx is judged by its status first, as for the other transport faults of a 2xx.
  Exchange error = json_reply(404, R"({"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"x"}})");
  error.response.headers.push_back({"Content-Encoding", "gzip"});
  error.response.plain_under_coding = true;
  EXPECT_NE(one(error, call()).reason, Reason::content_encoding_mismatch);
}

// RFC 9112 §6.3 rule 5: a Content-Length with no one valid length makes the framing invalid and
// a client discards the response, so a complete success body is no success (new-user trial: it
// was TOOL_SUCCESS). A 4xx is judged by its status.
TEST(ClassifyFraming, InvalidContentLengthIsNoSuccess) {
  for (const Headers& lengths : {Headers{{"Content-Length", "abc"}}, Headers{{"Content-Length", "+75"}},
                                 Headers{{"Content-Length", "75, 500"}},
                                 Headers{{"Content-Length", "75"}, {"Content-Length", "500"}}}) {
    Exchange ex = json_reply(200, kSuccess);
    for (const Header& h : lengths) ex.response.headers.push_back(h);
    const Classification c = one(ex, call());
    EXPECT_EQ(c.outcome, Outcome::INVALID_HTTP_RESPONSE) << lengths.front().value;
    EXPECT_EQ(c.reason, Reason::invalid_content_length);
    EXPECT_NE(c.detail.find("the body would be TOOL_SUCCESS"), std::string::npos) << c.detail;
    EXPECT_EQ(c.retry.advice, Advice::do_not_retry);
  }
  Exchange same = json_reply(200, kSuccess);
  same.response.headers.push_back({"Content-Length", "7, 7"});  // one length, sent twice: valid
  EXPECT_NE(one(same, call()).reason, Reason::invalid_content_length);
  // Transfer-Encoding with any Content-Length: a server must not send both (RFC 9112 §6.1), and
  // Node's fetch refuses it (HPE_UNEXPECTED_CONTENT_LENGTH; new-user trial). Chunked alone is fine.
  for (const char* length : {"abc", "75"}) {
    Exchange both = json_reply(200, kSuccess);
    both.response.headers.push_back({"Transfer-Encoding", "chunked"});
    both.response.headers.push_back({"Content-Length", length});
    const Classification c = one(both, call());
    EXPECT_EQ(c.reason, Reason::invalid_content_length) << length;
    EXPECT_NE(c.detail.find("both Transfer-Encoding chunked and Content-Length"), std::string::npos) << c.detail;
  }
  Exchange chunked = json_reply(200, kSuccess);
  chunked.response.headers.push_back({"Transfer-Encoding", "chunked"});
  EXPECT_EQ(one(chunked, call()).outcome, Outcome::TOOL_SUCCESS);
  Exchange error = json_reply(404, R"({"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"x"}})");
  error.response.headers.push_back({"Content-Length", "abc"});
  EXPECT_EQ(one(error, call()).outcome, Outcome::HTTP_ERROR);
}

// --- status and body together (issue 14) ---

TEST(StatusBody, ErrorTextNamingTheSession) {
  using jsonrpc::error_text_hint;
  EXPECT_EQ(error_text_hint("Session not found"), BodyHint::session_gone);
  EXPECT_EQ(error_text_hint("Bad Request: No valid session ID provided"), BodyHint::session_gone);
  EXPECT_EQ(error_text_hint("Bad Request: Mcp-Session-Id header is required"), BodyHint::session_gone);
  EXPECT_EQ(error_text_hint("SESSION EXPIRED"), BodyHint::session_gone);
  EXPECT_EQ(error_text_hint("Unknown session"), BodyHint::session_gone);
  // "session" alone is not enough: the text must say the session is missing, unknown or expired.
  EXPECT_EQ(error_text_hint("Conflict: Only one SSE stream is allowed per session"), BodyHint::none);
  EXPECT_EQ(error_text_hint("Invalid token"), BodyHint::none);
  EXPECT_EQ(error_text_hint(""), BodyHint::none);
}

TEST(StatusBody, TextBodyNamingTheSessionOn400IsSessionInvalid) {
  auto c = one(json_reply(400, "Bad Request: No valid session ID provided", "text/plain"), call());
  EXPECT_EQ(to_string(c.reason), "session_invalid");
  EXPECT_EQ(c.retry.advice, Advice::new_session);
}

TEST(StatusBody, Unauthorized401NamingTheSessionSaysBoth) {
  auto c = one(json_reply(401, R"({"jsonrpc":"2.0","id":null,"error":{"code":-32001,"message":"Session not found"}})"), call());
  EXPECT_EQ(to_string(c.reason), "unauthorized");
  EXPECT_EQ(c.retry.advice, Advice::new_session);
  EXPECT_NE(c.retry.text.find("new session"), std::string::npos);
  EXPECT_NE(c.retry.text.find("re-authorize"), std::string::npos);
  auto plain = one(json_reply(401, R"({"jsonrpc":"2.0","id":null,"error":{"code":-32001,"message":"Invalid token"}})"), call());
  EXPECT_EQ(plain.retry.advice, Advice::reauthorize);
}

TEST(StatusBody, NotFoundWithSessionTextAdvisesNewSession) {
  auto c = one(json_reply(404, "session expired", "text/plain"), call());
  EXPECT_EQ(to_string(c.reason), "not_found");
  EXPECT_EQ(c.retry.advice, Advice::new_session);
}

TEST(StatusBody, JsonRpcErrorNamingTheSessionOn200AdvisesNewSession) {
  auto c = one(json_reply(200, R"({"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":"Session not found"}})"), call());
  EXPECT_EQ(to_string(c.reason), "server_defined_error");
  EXPECT_EQ(c.retry.advice, Advice::new_session);
}

// --- a client's JSON-RPC response (its answer to a server request) is not a notification ---

namespace {

/// The flags of a `--request FILE` holding the client's response to server request id 0.
ContextFlags client_response(std::string_view body = R"({"jsonrpc":"2.0","id":0,"result":{"action":"decline"}})") {
  ContextFlags f;
  f.request = jsonrpc::read_request(body);
  return f;
}

}  // namespace

TEST(ClassifyClientResponse, ReadRequestSeesAResponse) {
  EXPECT_TRUE(jsonrpc::read_request(R"({"jsonrpc":"2.0","id":0,"result":{}})").response);
  EXPECT_TRUE(jsonrpc::read_request(R"({"jsonrpc":"2.0","id":"s1","error":{"code":-1,"message":"no"}})").response);
  EXPECT_FALSE(jsonrpc::read_request(R"({"jsonrpc":"2.0","method":"notifications/initialized"})").response);
  EXPECT_FALSE(jsonrpc::read_request(R"({"jsonrpc":"2.0","id":1,"method":"ping"})").response);
  EXPECT_FALSE(jsonrpc::read_request(R"({"jsonrpc":"2.0","id":1})").response) << "no result or error: not a response";
}

TEST(ClassifyClientResponse, Accepted202NamesTheResponse) {
  auto c = one(json_reply(202, "", ""), client_response());
  EXPECT_EQ(c.outcome, Outcome::ACCEPTED);
  EXPECT_EQ(c.reason, Reason::response_accepted);
  EXPECT_FALSE(c.notification);
  EXPECT_FALSE(c.request_id.has_value());
  ASSERT_TRUE(c.client_response_id.has_value());
  EXPECT_EQ(c.client_response_id->to_json(), "0");
  EXPECT_NE(c.detail.find("the client's JSON-RPC response to the server's request id 0"), std::string::npos) << c.detail;
  EXPECT_EQ(c.detail.find("notification"), std::string::npos) << c.detail;
  EXPECT_TRUE(c.warnings.empty());
}

TEST(ClassifyClientResponse, Other2xxAnd202WithBody) {
  auto ok = one(json_reply(200, R"({"jsonrpc":"2.0","id":0,"result":{}})"), client_response());
  EXPECT_EQ(ok.reason, Reason::response_not_202);
  EXPECT_EQ(ok.outcome, Outcome::INVALID_HTTP_RESPONSE);
  auto body = one(json_reply(202, "{}"), client_response());
  EXPECT_EQ(body.reason, Reason::body_on_202);
  EXPECT_NE(body.detail.find("response to the server's request id 0"), std::string::npos) << body.detail;
}

TEST(ClassifyClientResponse, ErrorStatuses) {
  auto rejected = one(json_reply(400, R"({"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request"}})"),
                      client_response(R"({"jsonrpc":"2.0","id":"srv-7","error":{"code":-1,"message":"user declined"}})"));
  EXPECT_EQ(rejected.outcome, Outcome::HTTP_ERROR);
  EXPECT_EQ(rejected.reason, Reason::response_rejected);
  EXPECT_EQ(rejected.retry.advice, Advice::investigate);
  EXPECT_NE(rejected.detail.find("request id \"srv-7\""), std::string::npos) << rejected.detail;
  auto session = one(json_reply(400, R"({"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"Bad Request: No valid session ID provided"}})"),
                     client_response());
  EXPECT_EQ(session.reason, Reason::session_invalid);
  EXPECT_EQ(session.retry.advice, Advice::new_session);
  EXPECT_NE(session.detail.find("answering the client's JSON-RPC response"), std::string::npos) << session.detail;
  auto unavailable = one(json_reply(503, "", ""), client_response());
  EXPECT_EQ(unavailable.reason, Reason::service_unavailable);
  EXPECT_NE(unavailable.detail.find("answering the client's JSON-RPC response"), std::string::npos);
  // A notification's 400 is unchanged.
  ContextFlags n;
  n.method = "notifications/initialized";
  EXPECT_EQ(one(json_reply(400, "", ""), n).reason, Reason::bad_request);
}

TEST(ClassifyClientResponse, Under2026ItIsWarned) {
  ContextFlags f = client_response();
  f.protocol_version = "2026-07-28";
  auto c = one(json_reply(202, "", ""), f);
  EXPECT_EQ(c.reason, Reason::response_accepted);
  ASSERT_EQ(c.warnings.size(), 1u);
  EXPECT_NE(c.warnings[0].find("must not POST a JSON-RPC response"), std::string::npos) << c.warnings[0];
}

// --- server/discover refused by a server of an earlier version (2026-07-28 backward compatibility) ---

namespace {

ContextFlags discover() {
  ContextFlags f;
  f.request = jsonrpc::read_request(
      R"({"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}})");
  return f;
}

}  // namespace

TEST(ClassifyDiscover, LegacyRefusalsFallBackToInitialize) {
  const std::vector<std::pair<int, std::string>> legacy = {
      {400, R"({"jsonrpc":"2.0","error":{"code":-32000,"message":"Bad Request: Server not initialized"},"id":null})"},
      {400, R"({"jsonrpc":"2.0","error":{"code":-32000,"message":"Bad Request: No valid session ID provided"},"id":null})"},
      {400, R"({"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"Invalid params"}})"},
      {404, ""},
      {405, ""},
  };
  for (const auto& [status, body] : legacy) {
    auto c = one(json_reply(status, body, body.empty() ? "" : "application/json"), discover());
    EXPECT_EQ(c.reason, Reason::legacy_server) << status << " " << body;
    EXPECT_EQ(c.outcome, Outcome::HTTP_ERROR);
    EXPECT_EQ(c.retry.advice, Advice::fall_back_to_initialize) << status;
  }
  auto html = one(json_reply(404, "<html>Not Found</html>", "text/html"), discover());
  EXPECT_EQ(html.reason, Reason::legacy_server);
}

TEST(ClassifyDiscover, ModernErrorsAndOtherStatusesKeepTheirVerdict) {
  auto version = one(json_reply(400, R"({"jsonrpc":"2.0","id":1,"error":{"code":-32022,"message":"Unsupported protocol version","data":{"supported":["2026-07-28"]}}})"),
                     discover());
  EXPECT_EQ(version.reason, Reason::unsupported_protocol_version);
  auto header = one(json_reply(400, R"({"jsonrpc":"2.0","id":1,"error":{"code":-32020,"message":"Header mismatch"}})"), discover());
  EXPECT_EQ(header.reason, Reason::header_mismatch);
  auto missing = one(json_reply(404, R"({"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found"}})"), discover());
  EXPECT_EQ(missing.reason, Reason::method_not_found);
  EXPECT_EQ(one(json_reply(401, "", ""), discover()).reason, Reason::unauthorized);
  EXPECT_EQ(one(json_reply(503, "", ""), discover()).reason, Reason::service_unavailable);
  // Another method refused so is judged by its status.
  ContextFlags other = call2026();
  EXPECT_EQ(one(json_reply(404, "", ""), other).reason, Reason::not_found);
}

// --- CDN and WAF challenge pages ---

TEST(HttpChallenge, HeaderMarkersAtAnyStatus) {
  EXPECT_EQ(http::challenge_marker(403, {{"CF-Mitigated", " challenge "}}, ""), "Cloudflare: cf-mitigated: challenge");
  EXPECT_EQ(http::challenge_marker(202, {{"x-amzn-waf-action", "challenge"}}, ""), "AWS WAF: x-amzn-waf-action: challenge");
  EXPECT_EQ(http::challenge_marker(405, {{"X-Amzn-Waf-Action", "CAPTCHA"}}, ""), "AWS WAF: x-amzn-waf-action: captcha");
  EXPECT_EQ(http::challenge_marker(429, {{"x-vercel-mitigated", "challenge"}}, ""), "Vercel: x-vercel-mitigated: challenge");
  EXPECT_FALSE(http::challenge_marker(403, {{"cf-mitigated", "block"}}, ""));
  EXPECT_FALSE(http::challenge_marker(403, {{"x-amzn-waf-action", "block"}}, ""));
}

TEST(HttpChallenge, BodyMarkersOnlyOnHtml403429503) {
  const Headers html = {{"Content-Type", "text/html; charset=UTF-8"}};
  const std::string page = "<!DOCTYPE html><html><head><title>Just a moment...</title></head><body>"
                           "<script>(function(){window._cf_chl_opt={cvId: '3'};})();</script></body></html>";
  EXPECT_TRUE(http::challenge_marker(403, html, page));
  EXPECT_TRUE(http::challenge_marker(503, html, "<script src=\"/cdn-cgi/challenge-platform/h/b/orchestrate/x\">"));
  EXPECT_TRUE(http::challenge_marker(429, html, "<TITLE>Just a moment...</TITLE>"));
  EXPECT_FALSE(http::challenge_marker(200, html, page)) << "a body marker needs a 403, 429 or 503";
  EXPECT_FALSE(http::challenge_marker(404, html, page));
  EXPECT_FALSE(http::challenge_marker(403, {{"Content-Type", "application/json"}}, page)) << "HTML only";
  EXPECT_FALSE(http::challenge_marker(403, {}, page));
  EXPECT_FALSE(http::challenge_marker(403, html, "<html><title>403 Forbidden</title></html>"));
  EXPECT_FALSE(http::challenge_marker(403, html, std::string(64 * 1024, ' ') + page)) << "the first 64 KiB only";
}

TEST(ClassifyChallenge, ChallengeIsItsOwnReasonAndPlainStatusesStay) {
  Exchange cf = json_reply(403, "<html><title>Just a moment...</title></html>", "text/html; charset=UTF-8");
  cf.response.headers.push_back({"cf-mitigated", "challenge"});
  auto c = one(cf, call());
  EXPECT_EQ(c.outcome, Outcome::HTTP_ERROR);
  EXPECT_EQ(c.reason, Reason::cdn_challenge);
  EXPECT_EQ(c.retry.advice, Advice::do_not_retry);
  EXPECT_NE(c.detail.find("Cloudflare: cf-mitigated: challenge"), std::string::npos) << c.detail;
  // AWS WAF's challenge is a 202: not ACCEPTED for a notification, not accepted_for_request.
  Exchange aws = json_reply(202, "", "");
  aws.response.headers.push_back({"x-amzn-waf-action", "challenge"});
  ContextFlags n;
  n.method = "notifications/initialized";
  EXPECT_EQ(one(aws, n).reason, Reason::cdn_challenge);
  EXPECT_EQ(one(aws, call()).reason, Reason::cdn_challenge);
  EXPECT_EQ(one(json_reply(403, "<html><title>403 Forbidden</title></html>", "text/html"), call()).reason,
            Reason::forbidden);
  EXPECT_EQ(one(json_reply(503, "<html>down for maintenance</html>", "text/html"), call()).reason,
            Reason::service_unavailable);
}
