// Streamable HTTP legs that are no JSON-RPC call (legs.hpp): one rule for HAR and JSON Lines logs.
#include "capture/legs.hpp"

#include "http/tokens.hpp"
#include "json/dom.hpp"
#include "mcptriage/http.hpp"
#include "mcptriage/sse.hpp"

namespace mcptriage::capture {

namespace {

/// The path of a request target (an absolute URL or an origin-form target), without its query.
std::string_view path_of(std::string_view target) {
  target = target.substr(0, target.find_first_of("?#"));
  if (const std::size_t scheme = target.find("://"); scheme != std::string_view::npos) {
    const std::size_t slash = target.find('/', scheme + 3);
    return slash == std::string_view::npos ? std::string_view("/") : target.substr(slash);
  }
  return target;
}

/// At most 100 bytes of `text` (whole UTF-8 sequences), for a detail.
std::string clip(std::string_view text) {
  if (text.size() <= 100) return std::string(text);
  std::size_t cut = 100;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  return std::string(text.substr(0, cut)) + "...";
}

enum class OAuthLeg { none, resource_metadata, server_metadata, registration, token, authorization };

/// Which OAuth or discovery request this is, by its path (the well-known URIs of RFC 9728 §3 and
/// RFC 8414 §3, OpenID Connect Discovery §4) or, for the endpoints whose paths the authorization
/// server chooses, by the usual names and the token request's form body (RFC 6749 §4.1.3).
OAuthLeg oauth_leg_of(const Request& request) {
  const std::string_view path = path_of(request.target);
  if (path.find("/.well-known/oauth-protected-resource") != std::string_view::npos) return OAuthLeg::resource_metadata;
  if (path.find("/.well-known/oauth-authorization-server") != std::string_view::npos ||
      path.find("/.well-known/openid-configuration") != std::string_view::npos) {
    return OAuthLeg::server_metadata;
  }
  const bool post = request.method_line == "POST";
  if (post && request.body && request.body->find("grant_type=") != std::string::npos &&
      request.body->find("\"jsonrpc\"") == std::string::npos) {
    return OAuthLeg::token;
  }
  if (post && (path.ends_with("/token") || path.ends_with("/oauth/token"))) return OAuthLeg::token;
  if (post && path.ends_with("/register")) return OAuthLeg::registration;
  if (request.method_line == "GET" && path.ends_with("/authorize")) return OAuthLeg::authorization;
  return OAuthLeg::none;
}

/// `name` and its string values (a string or an array of strings), joined: "a, b".
std::string strings_at(json::View object, std::string_view name) {
  auto v = object.get(name);
  if (!v) return {};
  if (auto s = v->string()) return clip(*s);
  std::string out;
  if (v->is_array()) {
    for (json::View item : v->items()) {
      if (auto s = item.string()) out += (out.empty() ? "" : ", ") + clip(*s);
    }
  }
  return out;
}

/// What an OAuth leg's response says, never a secret (no token, no client secret).
std::string oauth_says(OAuthLeg leg, const Response& response) {
  json::Parser parser;
  std::optional<json::View> root;
  if (response.body_state != BodyState::not_captured) {
    if (auto parsed = parser.parse(response.body); parsed && parsed->is_object()) root = *parsed;
  }
  if (!root) return response.body_state == BodyState::not_captured ? "body not captured" : "no JSON object in the body";
  if (auto error = root->string_at("error")) {
    std::string out = "error " + clip(*error);
    if (auto description = root->string_at("error_description")) out += ": " + clip(*description);
    return out;
  }
  std::string out;
  auto add = [&](std::string_view label, std::string value) {
    if (value.empty()) return;
    out += (out.empty() ? "" : "; ") + std::string(label) + " " + value;
  };
  switch (leg) {
    case OAuthLeg::resource_metadata:
      add("resource", strings_at(*root, "resource"));
      add("authorization servers", strings_at(*root, "authorization_servers"));
      add("scopes", strings_at(*root, "scopes_supported"));
      break;
    case OAuthLeg::server_metadata:
      add("issuer", strings_at(*root, "issuer"));
      add("token endpoint", strings_at(*root, "token_endpoint"));
      add("registration endpoint", strings_at(*root, "registration_endpoint"));
      break;
    case OAuthLeg::registration:
      add("client_id", strings_at(*root, "client_id"));
      break;
    case OAuthLeg::token:
      if (root->get("access_token")) {
        out = "an access token issued";
        add("token_type", strings_at(*root, "token_type"));
        if (auto expires = root->get("expires_in"); expires && expires->int64()) {
          add("expires_in", std::to_string(*expires->int64()));
        }
        add("scope", strings_at(*root, "scope"));
      }
      break;
    default: break;
  }
  return out.empty() ? "no members it is known by" : out;
}

/// The skip of an OAuth or discovery leg: not_mcp, with what it says.
std::optional<Skip> oauth_skip(const Request& request, const Response& response, const std::string& head) {
  const OAuthLeg leg = oauth_leg_of(request);
  std::string_view what;
  switch (leg) {
    case OAuthLeg::none: return std::nullopt;
    case OAuthLeg::resource_metadata: what = "OAuth protected resource metadata (RFC 9728)"; break;
    case OAuthLeg::server_metadata: what = "OAuth authorization server metadata (RFC 8414)"; break;
    case OAuthLeg::registration: what = "OAuth dynamic client registration (RFC 7591)"; break;
    case OAuthLeg::token: what = "OAuth token request (RFC 6749)"; break;
    case OAuthLeg::authorization: what = "OAuth authorization request (RFC 6749)"; break;
  }
  std::string detail = head + ": " + std::string(what);
  if (leg != OAuthLeg::authorization) detail += ": " + oauth_says(leg, response);
  detail += "; not JSON-RPC (MCP authorization)";
  return Skip{SkipReason::not_mcp, std::move(detail)};
}

}  // namespace

bool is_oauth_leg(const Request& request) { return oauth_leg_of(request) != OAuthLeg::none; }

namespace {

/// The query of a request target, without the `?` ("" when none); the fragment is cut off.
std::string_view query_of(std::string_view target) {
  target = target.substr(0, target.find('#'));
  const std::size_t q = target.find('?');
  return q == std::string_view::npos ? std::string_view() : target.substr(q + 1);
}

/// The query or form `text` has a parameter named `name` (names compared as sent, undecoded).
bool has_param(std::string_view text, std::string_view name) {
  while (!text.empty()) {
    const std::size_t amp = text.find('&');
    const std::string_view pair = text.substr(0, amp);
    if (pair.substr(0, pair.find('=')) == name) return true;
    if (amp == std::string_view::npos) break;
    text.remove_prefix(amp + 1);
  }
  return false;
}

/// The request carries a JSON-RPC message (a method or an id) or a batch: an MCP request.
bool carries_jsonrpc(const Request& request) {
  if (request.info) {
    return request.info->shape == RequestInfo::Shape::batch ||
           (request.info->shape == RequestInfo::Shape::message && (request.info->method || request.info->id));
  }
  return request.body && request.body->find("\"jsonrpc\"") != std::string::npos;
}

constexpr std::string_view kRegistrationErrors[] = {"invalid_redirect_uri", "invalid_client_metadata",
                                                    "invalid_software_statement", "unapproved_software_statement"};

}  // namespace

bool is_auth_request(const Request& request) {
  const std::string_view query = query_of(request.target);
  if (has_param(query, "response_type") && has_param(query, "client_id")) return true;
  if (request.method_line == "GET" && has_param(query, "state") &&
      (has_param(query, "code") || has_param(query, "error"))) {
    return true;
  }
  if (request.method_line != "POST" || !request.body || carries_jsonrpc(request)) return false;
  const std::string_view body = *request.body;
  if (has_param(body, "grant_type")) return true;
  return body.starts_with('{') && body.find("\"redirect_uris\"") != std::string_view::npos;
}

OAuthShape oauth_response_shape(std::string_view body) {
  std::size_t i = 0;
  while (i < body.size() && (body[i] == ' ' || body[i] == '\t' || body[i] == '\r' || body[i] == '\n')) ++i;
  if (i == body.size() || body[i] != '{' || body.find("\"jsonrpc\"") != std::string_view::npos) return OAuthShape::none;
  json::Parser parser;
  auto parsed = parser.parse(body);
  if (!parsed || !parsed->is_object()) return OAuthShape::none;
  const json::View root = *parsed;
  if (auto error = root.string_at("error")) {
    for (std::string_view code : kRegistrationErrors) {
      if (*error == code) return OAuthShape::registration;
    }
    if (*error == "invalid_grant" || *error == "unsupported_grant_type") return OAuthShape::token;
    if (*error == "invalid_token" || *error == "insufficient_scope") return OAuthShape::oauth_error;
    return OAuthShape::none;
  }
  if (root.string_at("resource")) {
    for (std::string_view member : {"authorization_servers", "scopes_supported", "bearer_methods_supported", "jwks_uri",
                                    "resource_name"}) {
      if (root.get(member)) return OAuthShape::resource_metadata;
    }
  }
  if (root.string_at("issuer") && (root.get("authorization_endpoint") || root.get("token_endpoint"))) {
    return OAuthShape::server_metadata;
  }
  if (root.get("access_token") && root.get("token_type")) return OAuthShape::token;
  if (root.string_at("client_id") &&
      (root.get("client_id_issued_at") || root.get("redirect_uris") || root.get("client_secret"))) {
    return OAuthShape::registration;
  }
  return OAuthShape::none;
}

void mark_oauth_legs(std::vector<Exchange>& exchanges) {
  for (Exchange& ex : exchanges) {
    if (ex.skipped || ex.oauth_leg) continue;
    if (ex.request && carries_jsonrpc(*ex.request)) continue;
    if (ex.request && (is_oauth_leg(*ex.request) || is_auth_request(*ex.request))) {
      ex.oauth_leg = true;
      continue;
    }
    const OAuthShape shape = oauth_response_shape(ex.response.body);
    ex.oauth_leg = shape != OAuthShape::none && shape != OAuthShape::oauth_error;
  }
}

std::string request_for_detail(const Request& request) {
  const std::string_view url = request.target;
  const std::size_t cut = url.find_first_of("?#");
  std::string out = request.method_line.empty() ? std::string("?") : request.method_line;
  out += ' ';
  out += url.substr(0, cut);
  if (cut != std::string_view::npos) out += "?...";
  return out;
}

std::optional<Skip> non_call_leg(const Request& request, const Response& response) {
  const std::string_view method = request.method_line;
  const std::string status = std::to_string(response.status);
  if (auto skip = oauth_skip(request, response, request_for_detail(request) + " -> " + status)) return skip;
  if (method == "DELETE") {
    return Skip{SkipReason::session_end,
                request_for_detail(request) + " -> " + status +
                    ": ends the MCP session (Streamable HTTP, session management); no JSON-RPC message to classify"};
  }
  if (method == "OPTIONS") {
    return Skip{SkipReason::not_mcp, request_for_detail(request) + " -> " + status + ": a CORS preflight"};
  }
  if (method != "GET" || response.body_state == BodyState::not_captured ||
      find_header(request.headers, "last-event-id")) {
    return std::nullopt;
  }
  std::string detail = request_for_detail(request) + " -> " + status;
  const std::string media = http::media_type(find_header(response.headers, "content-type").value_or(""));
  if (media == "text/event-stream") {
    const sse::Stream stream = sse::parse(response.body);
    detail += " event stream with " + std::to_string(stream.events.size()) +
              " event(s): the standalone server stream carries server messages, no response to a request";
  } else {
    detail += ": a GET is no JSON-RPC exchange (405 means the server offers no standalone stream)";
  }
  return Skip{SkipReason::standalone_stream, std::move(detail)};
}

}  // namespace mcptriage::capture
