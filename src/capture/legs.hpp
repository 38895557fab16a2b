// The HTTP legs of Streamable HTTP that are no JSON-RPC call (a session DELETE, the standalone GET
// stream, a CORS preflight), told apart the same way in every reader that sees HTTP requests
// (HAR entries, JSON Lines exchange logs). docs/formats.md "Entries that are not MCP".
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "mcptriage/exchange.hpp"

namespace mcptriage::capture {

/// The request line for a detail: the method ("?" when unknown) and the target without its query
/// and fragment (they may hold tokens): `GET http://h/mcp?...`.
std::string request_for_detail(const Request& request);

/// The request is an OAuth or discovery leg of MCP authorization
/// (https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization): protected
/// resource metadata (`/.well-known/oauth-protected-resource`, RFC 9728), authorization server
/// metadata (`/.well-known/oauth-authorization-server`, RFC 8414, or
/// `/.well-known/openid-configuration`), dynamic client registration (a POST to `.../register`,
/// RFC 7591), a token request (a form body with `grant_type=`, or a POST to `.../token`, RFC 6749
/// §3.2) or an authorization request (a GET of `.../authorize`).
bool is_oauth_leg(const Request& request);

/// The request is a leg of MCP authorization that is_oauth_leg does not name by its path alone
/// (shared/auth-triage.md §1.1): an authorization request by its query (`response_type=code` and
/// `client_id`), a callback to the redirect URI (a GET whose query has `state` and `code` or
/// `error`), a token request by its form body (`grant_type=`), or a registration by its JSON body
/// (`redirect_uris`). Only with authorization triage on (`--auth on`), so that `--auth off`
/// keeps the older recognition.
bool is_auth_request(const Request& request);

/// What a response body alone says it is, by its JSON members (shared/auth-triage.md §1.1, "response
/// side"): never when it has `jsonrpc`.
enum class OAuthShape {
  none,
  resource_metadata,   ///< a string `resource` and `authorization_servers` or another RFC 9728 §2 member
  server_metadata,     ///< a string `issuer` and `authorization_endpoint` or `token_endpoint` (RFC 8414 §2)
  registration,        ///< `client_id` with `client_id_issued_at`, `redirect_uris` or `client_secret`, or an RFC 7591 §3.2.2 `error`
  token,               ///< `access_token` and `token_type` (RFC 6749 §5.1), or an RFC 6749 §5.2 `error`
  oauth_error,         ///< `error` `invalid_token` or `insufficient_scope` (RFC 6750 §3.1): a challenge's body
};
/// The shape of `body` (a JSON object without `jsonrpc`), or none. Cheap when the body holds `"jsonrpc"`
/// or does not start with `{`: no parse.
OAuthShape oauth_response_shape(std::string_view body);

/// The exchanges of `exchanges` that are legs of MCP authorization, marked (Exchange::oauth_leg)
/// for authorization triage: a request that is_oauth_leg or is_auth_request names and carries no
/// JSON-RPC message, or, with no request or no JSON-RPC message in it, a response whose shape is
/// one (oauth_response_shape; a challenge's bare error body stays what it is). Skipped entries are
/// left alone.
void mark_oauth_legs(std::vector<Exchange>& exchanges);

/// The skip of an exchange whose request is no JSON-RPC call, or nullopt when it is one (or may
/// be one). Read from `request` (method, `Last-Event-ID`) and `response` (status, Content-Type,
/// body and its state):
/// - an OAuth or discovery leg (is_oauth_leg): `not_mcp`, with what its response says (the
///   resource and its authorization servers, the issuer and endpoints, the client_id, an access
///   token issued or the OAuth error code such as `invalid_grant`; never a token or a secret);
/// - `DELETE`: `session_end` (2025-11-25 transports, "Session Management": the client ends the
///   session with an HTTP DELETE carrying `Mcp-Session-Id`);
/// - `OPTIONS`: `not_mcp` (a CORS preflight, Fetch standard);
/// - `GET` without `Last-Event-ID` whose response was captured (events, none, or a 405):
///   `standalone_stream` (2025-11-25 transports, "Listening for Messages from the Server": the
///   stream carries server messages, no response to a request; 405 means the server offers none).
///   A GET with `Last-Event-ID` resumes a POST's stream and is judged; a GET whose response was
///   not captured is left to be judged `NOT_CAPTURED`.
std::optional<Skip> non_call_leg(const Request& request, const Response& response);

}  // namespace mcptriage::capture
