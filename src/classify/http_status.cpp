// The non-2xx statuses (judge.hpp): classification.md "Precedence where layers disagree"
// (transport first; the 2026-07-28 4xx pairs), RFC 9110 §15 for each status, MCP basic/transports
// §Session management (404 after a session id), basic/authorization (401, 403 insufficient_scope).
#include <fmt/format.h>

#include "classify/judge.hpp"
#include "http/tokens.hpp"
#include "jsonrpc/envelope.hpp"
#include "mcp/versions.hpp"
#include "mcptriage/http.hpp"

namespace mcptriage::classify_detail {

using json::View;

void Judgement::judge_non_2xx(Classification& c, bool json_media, const std::string& status_text,
                              std::vector<Classification>& out) {
  const Response& r = ex_.response;
  const int status = r.status;
  // Look for a JSON-RPC error in the body (kept as a detail, or decisive for spec pairs).
  std::optional<std::int64_t> code;
  std::string message;
  bool wellformed_error = false;
  std::string other_id;  ///< the error's id when it answers another request (JSON text)
  if (json_media && r.body_state == BodyState::complete && !r.body.empty()) {
    auto parsed = body_parser().parse_string(r.body);
    if (parsed && parsed->is_object()) {
      const View root = *parsed;
      auto err = root.get("error");
      std::optional<std::int64_t> code_value;
      if (err && err->is_object() && root.string_at("jsonrpc") == std::optional<std::string_view>("2.0") &&
          !root.get("result") && err->get("code") && (code_value = err->get("code")->int64()) &&
          err->string_at("message")) {
        wellformed_error = true;
        code = code_value;
        message = std::string(*err->string_at("message"));
        // Does it answer this request? Its id, or no usable id (null, absent: the server could not
        // read the request's), or no request id known to compare with.
        auto id = root.get("id");
        if (c.request_id && id && !id->is_null() && !jsonrpc::answers(root, *c.request_id)) {
          other_id = json::minified(*id);
        }
      }
    }
  }
  // 2026-07-28 backward compatibility: a server/discover probe refused with 400, 404 or 405 and no
  // recognised modern error is a server of an earlier version (docs/classification.md).
  const bool modern_error = wellformed_error && (*code == -32020 || *code == -32021 || *code == -32022 || *code == -32601);
  if (ctx_.request.method == std::optional<std::string>("server/discover") &&
      (status == 400 || status == 404 || status == 405) && !modern_error) {
    if (wellformed_error) {
      c.error_code = code;
      c.error_message = message;
    }
    set_verdict(c, Reason::legacy_server,
                fmt::format("{}: the server/discover probe was refused without a recognised modern JSON-RPC error "
                            "(-32020, -32021, -32022, -32601): a server of a protocol version before 2026-07-28{}{}",
                            status_text, r.body_state == BodyState::absent ? " (the capture has no body)" : "",
                            wellformed_error ? fmt::format("; JSON-RPC error {}: {}", *code, clipped(message)) : ""));
    out.push_back(std::move(c));
    return;
  }
  if (wellformed_error) {
    const std::int64_t k = *code;
    const bool paired = (status == 400 && (k == -32700 || k == -32600 || k == -32602 || k == -32020 ||
                                           k == -32021 || k == -32022)) ||
                        (status == 404 && k == -32601);
    // The pairs hold under 2026-07-28 rules only, and only for an error that answers this request;
    // otherwise the status decides, as before 2026 (docs/classification.md, HTTP_ERROR).
    const bool in_force = mcp::in_force(mcp::Rule::status_error_pairs, c.protocol_version);
    if (paired && in_force && other_id.empty()) {
      judge_json_body(c, out);
      for (auto& rec : out) {
        rec.warnings.push_back(fmt::format("{} carries a JSON-RPC error the spec pairs with this status", status_text));
      }
      return;
    }
    if (paired && !in_force) {
      c.warnings.push_back(fmt::format(
          "{} carries JSON-RPC error {}, which 2026-07-28 pairs with this status; under protocol version {} the "
          "status decides",
          status_text, k, c.protocol_version.empty() ? std::string(mcp::kAssumedVersion) + " (assumed)" : c.protocol_version));
    } else if (paired) {
      c.warnings.push_back(fmt::format(
          "{} carries JSON-RPC error {} for id {}, not this request's id {}: the status decides", status_text, k,
          other_id, c.request_id->to_json()));
    }
    c.error_code = code;
    c.error_message = message;
  }
  std::string rpc = wellformed_error ? fmt::format("; JSON-RPC error {}: {}", *code, clipped(message)) : "";
  // What the body says of the session decides the advice of a 400, 401 or 404 (the JSON-RPC
  // error's message, else the body's text: a text/plain "Session not found").
  BodyHint hint = BodyHint::none;
  if (status == 400 || status == 401 || status == 404) {
    if (wellformed_error) {
      hint = jsonrpc::error_text_hint(message);
    } else if (r.body_state == BodyState::complete) {
      hint = jsonrpc::error_text_hint(r.body);
    }
  }
  c.body_hint = hint;
  const bool body_names_session = hint == BodyHint::session_gone;
  const char* hint_text = hint == BodyHint::session_gone   ? "; the body says the session is missing, unknown or expired"
                          : hint == BodyHint::not_initialized ? "; the body says the server is not initialized"
                                                              : "";
  Reason reason = Reason::server_error;
  std::string what;
  switch (status) {
    case 400:
      if (body_names_session) {
        reason = Reason::session_invalid;
        what = "the server rejected the session id (missing, unknown or expired)";
      } else if (hint == BodyHint::not_initialized) {
        reason = Reason::bad_request;
        what = "the server is not initialized for this session: initialize first";
      } else if (ctx_.client_response()) {
        reason = Reason::response_rejected;
        what = "the server did not accept it";
      } else {
        reason = Reason::bad_request;
        what = "the server rejected the request";
      }
      break;
    case 401:
      reason = Reason::unauthorized;
      what = fmt::format("authorization needed, or the token is invalid or expired{}", hint_text);
      break;
    case 403: {
      auto auth = find_header(r.headers, "www-authenticate");
      if (auth && http::icontains(*auth, "insufficient_scope")) {
        reason = Reason::insufficient_scope;
        what = "the token lacks a required scope";
      } else {
        reason = Reason::forbidden;
        what = "forbidden (an invalid Origin, or insufficient permissions)";
      }
      break;
    }
    case 404:
      if (ctx_.session_id_sent && mcp::in_force(mcp::Rule::session_404, c.protocol_version)) {
        reason = Reason::session_expired;
        what = "the request carried Mcp-Session-Id and the server no longer knows it: the session ended";
      } else {
        reason = Reason::not_found;
        what = body_names_session
                   ? "the body names a missing session; if the request carried Mcp-Session-Id, the session ended"
               : hint == BodyHint::not_initialized
                   ? "the body says the server is not initialized for this session: initialize first"
                   : "wrong endpoint, a legacy server, or (if the request carried Mcp-Session-Id) an ended session";
      }
      break;
    case 405: reason = Reason::method_not_allowed; what = "the endpoint does not allow this HTTP method"; break;
    case 406: reason = Reason::not_acceptable; what = "the Accept header must list application/json and text/event-stream"; break;
    case 408: reason = Reason::request_timeout; what = "the server timed out waiting for the request"; break;
    case 409: reason = Reason::conflict; what = "conflict"; break;
    case 413: reason = Reason::payload_too_large; what = "the request body is too large"; break;
    case 415: reason = Reason::unsupported_media_type; what = "the request Content-Type must be application/json"; break;
    case 429: reason = Reason::rate_limited; what = "rate limited"; break;
    case 500: reason = Reason::internal_server_error; what = "the server failed while handling the request"; break;
    case 502: reason = Reason::bad_gateway; what = "a gateway or proxy got no valid reply from the server"; break;
    case 503: reason = Reason::service_unavailable; what = "the server is unavailable"; break;
    case 504: reason = Reason::gateway_timeout; what = "a gateway or proxy timed out waiting for the server"; break;
    // Cloudflare's 52x (outside the IANA registry), by their documented meanings.
    case 520: reason = Reason::cdn_origin_error; what = "a CDN got an empty, unknown or unexpected response from the origin server"; break;
    case 521: reason = Reason::cdn_origin_error; what = "a CDN found the origin server down: it refused the connection"; break;
    case 522: reason = Reason::cdn_origin_error; what = "a CDN's connection to the origin server timed out"; break;
    case 523: reason = Reason::cdn_origin_error; what = "a CDN could not reach the origin server"; break;
    case 524: reason = Reason::cdn_origin_error; what = "a CDN connected to the origin server but got no HTTP response in time (a gateway timeout)"; break;
    case 525: reason = Reason::cdn_origin_error; what = "the TLS handshake between a CDN and the origin server failed"; break;
    case 526: reason = Reason::cdn_origin_error; what = "a CDN found the origin server's TLS certificate invalid"; break;
    case 527: reason = Reason::cdn_origin_error; what = "a CDN's Railgun connection to the origin server failed"; break;
    default:
      if (status < 200) {
        reason = Reason::no_final_response_interim;
        what = "only an interim (1xx) response was captured";
      } else if (status < 400) {
        reason = Reason::redirect_not_followed;
        what = "a redirect that was not followed (curl -L follows it)";
      } else if (status < 500) {
        reason = Reason::client_error;
        what = "the server refused the request";
      } else {
        reason = Reason::server_error;
        what = "the server or a proxy failed";
      }
  }
  if (r.body_state == BodyState::absent) what += " (the capture has no body)";
  if (!json_media && !r.body.empty() && !wellformed_error) {
    std::string media = http::media_type(c.content_type);
    if (!media.empty()) what += fmt::format(" (a {} body, not MCP)", clipped(media));
  }
  const std::string answering = ctx_.client_response() ? " answering " + client_response_text() : std::string();
  set_verdict(c, reason, fmt::format("{}{}: {}{}", status_text, answering, what, rpc));
  out.push_back(std::move(c));
}

}  // namespace mcptriage::classify_detail
