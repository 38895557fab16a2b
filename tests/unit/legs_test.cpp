// Unit tests for src/capture/legs: the Streamable HTTP legs that are no JSON-RPC call, one rule
// for HAR entries and JSON Lines exchange logs (issue 14).
#include <gtest/gtest.h>

#include <string>

#include "capture/legs.hpp"

using namespace mcptriage;
using capture::non_call_leg;

namespace {

Request request(std::string method, std::string target = "http://h/mcp?token=x") {
  Request r;
  r.method_line = std::move(method);
  r.target = std::move(target);
  return r;
}

Response response(int status, std::string content_type = "", std::string body = "") {
  Response r;
  r.status = status;
  if (!content_type.empty()) r.headers.push_back({"Content-Type", content_type});
  r.body = std::move(body);
  return r;
}

}  // namespace

TEST(NonCallLeg, DeleteEndsTheSession) {
  auto skip = non_call_leg(request("DELETE"), response(200));
  ASSERT_TRUE(skip);
  EXPECT_EQ(skip->reason, SkipReason::session_end);
  EXPECT_EQ(skip->detail.rfind("DELETE http://h/mcp?... -> 200: ends the MCP session", 0), 0u) << skip->detail;
  Response none = response(0);
  none.body_state = BodyState::not_captured;
  EXPECT_TRUE(non_call_leg(request("DELETE"), none));  // whether or not it was answered
}

TEST(NonCallLeg, OptionsIsAPreflight) {
  auto skip = non_call_leg(request("OPTIONS"), response(204));
  ASSERT_TRUE(skip);
  EXPECT_EQ(skip->reason, SkipReason::not_mcp);
}

TEST(NonCallLeg, StandaloneGetWithEventsOrA405) {
  auto events = non_call_leg(request("GET"), response(200, "text/event-stream", "id: 1\ndata: \n\ndata: {}\n\n"));
  ASSERT_TRUE(events);
  EXPECT_EQ(events->reason, SkipReason::standalone_stream);
  EXPECT_NE(events->detail.find("event stream with 1 event(s)"), std::string::npos) << events->detail;
  auto refused = non_call_leg(request("GET"), response(405));
  ASSERT_TRUE(refused);
  EXPECT_EQ(refused->reason, SkipReason::standalone_stream);
  EXPECT_NE(refused->detail.find("405 means"), std::string::npos) << refused->detail;
}

TEST(NonCallLeg, ResumingGetUncapturedGetAndPostAreJudged) {
  Request resume = request("GET");
  resume.headers.push_back({"Last-Event-ID", "7"});
  EXPECT_FALSE(non_call_leg(resume, response(200, "text/event-stream", "data: {}\n\n")));
  Response none = response(0);
  none.body_state = BodyState::not_captured;
  EXPECT_FALSE(non_call_leg(request("GET"), none));
  EXPECT_FALSE(non_call_leg(request("POST"), response(200, "application/json", "{}")));
  EXPECT_FALSE(non_call_leg(request(""), response(200, "application/json", "{}")));
}

// Issue 14: OAuth and discovery legs beside MCP traffic are not JSON-RPC: not_mcp, saying what
// they say, never a token.
TEST(NonCallLeg, OAuthLegsAreNotMcpWithWhatTheySay) {
  auto prm = non_call_leg(request("GET", "http://h/.well-known/oauth-protected-resource/mcp"),
                          response(200, "application/json",
                                   R"({"resource":"http://h/mcp","authorization_servers":["http://as/"]})"));
  ASSERT_TRUE(prm);
  EXPECT_EQ(prm->reason, SkipReason::not_mcp);
  EXPECT_NE(prm->detail.find("resource http://h/mcp; authorization servers http://as/"), std::string::npos) << prm->detail;

  Request token = request("POST", "/oauth2/v1/exchange");
  token.body = "grant_type=refresh_token&refresh_token=r1";
  auto error = non_call_leg(token, response(400, "application/json", R"({"error":"invalid_grant"})"));
  ASSERT_TRUE(error);
  EXPECT_EQ(error->reason, SkipReason::not_mcp);
  EXPECT_NE(error->detail.find("error invalid_grant"), std::string::npos) << error->detail;

  auto issued = non_call_leg(token, response(200, "application/json",
                                             R"({"access_token":"SECRET","refresh_token":"R2","token_type":"Bearer"})"));
  ASSERT_TRUE(issued);
  EXPECT_EQ(issued->detail.find("SECRET"), std::string::npos) << issued->detail;
  EXPECT_EQ(issued->detail.find("R2"), std::string::npos) << issued->detail;

  auto metadata = non_call_leg(request("GET", "/.well-known/openid-configuration"),
                               response(200, "application/json", R"({"issuer":"http://as/"})"));
  ASSERT_TRUE(metadata);
  EXPECT_NE(metadata->detail.find("issuer http://as/"), std::string::npos) << metadata->detail;

  EXPECT_TRUE(capture::is_oauth_leg(request("POST", "http://as/register")));
  Request call = request("POST", "/mcp");
  call.body = R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"arguments":{"q":"grant_type=x"}}})";
  EXPECT_FALSE(capture::is_oauth_leg(call));
}
