// Unit tests for the layered classifier: the contract's eleven reference cases and the rules
// behind each outcome, on Exchanges built in memory (no capture parsing involved).
#include <gtest/gtest.h>

#include "jsonrpc/envelope.hpp"
#include "mcptriage/classify.hpp"
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
