// Retry advice: the table in shared/classification.md §Retry advice, as a pure function.
#include "mcptriage/advice.hpp"

#include <fmt/format.h>

#include <cctype>

#include "mcptriage/http.hpp"

namespace mcptriage {
namespace {

/// Value of auth-param `name` in a WWW-Authenticate challenge (RFC 9110 §11.2), unquoted.
std::string auth_param(std::string_view header, std::string_view name) {
  std::size_t pos = 0;
  while ((pos = header.find(name, pos)) != std::string_view::npos) {
    const bool word_start = pos == 0 || header[pos - 1] == ' ' || header[pos - 1] == ',';
    std::size_t eq = pos + name.size();
    while (eq < header.size() && header[eq] == ' ') ++eq;
    if (word_start && eq < header.size() && header[eq] == '=') {
      std::size_t v = eq + 1;
      while (v < header.size() && header[v] == ' ') ++v;
      if (v < header.size() && header[v] == '"') {
        std::size_t end = header.find('"', v + 1);
        return std::string(header.substr(v + 1, end == std::string_view::npos ? std::string_view::npos : end - v - 1));
      }
      std::size_t end = header.find_first_of(", ", v);
      return std::string(header.substr(v, end == std::string_view::npos ? std::string_view::npos : end - v));
    }
    pos += name.size();
  }
  return {};
}

/// The time (Unix seconds) an HTTP-date `Retry-After` counts from: the response's own `Date`
/// (RFC 9110 §10.2.3 and §6.6.1: the time the message was generated), so that a capture read
/// later gives the wait the server asked for; `now_unix_seconds` when there is no valid `Date`.
long long retry_after_origin(const Headers& response_headers, long long now_unix_seconds) {
  if (auto date = find_header(response_headers, "date")) {
    if (auto t = http::http_date_unix_seconds(*date, now_unix_seconds)) return *t;
  }
  return now_unix_seconds;
}

/// The advice text when the server says it is not initialized (MCP basic/lifecycle §Initialization:
/// initialize, then notifications/initialized, before any other request).
constexpr const char* kInitializeAgain =
    "the server is not initialized for this session: initialize again (initialize, then notifications/initialized), "
    "then resend; the request itself need not change";

/// The advice text for a server of a version before 2026-07-28 that refused a server/discover probe
/// (MCP 2026-07-28 basic/transports/streamable-http §Backward Compatibility).
constexpr const char* kFallBackToInitialize =
    "the server speaks a protocol version before 2026-07-28: fall back to initialize (then "
    "notifications/initialized) and use that version for later requests to this server; do not probe again";

}  // namespace

namespace {
RetryAdvice advise_outcome(const Classification& c, const Headers& response_headers, long long now_unix_seconds) {
  RetryAdvice a;
  // -32601 to a server/discover probe: every 2026-07-28 server implements it, so the server is of
  // an earlier version (MCP 2026-07-28 basic/versioning, backward compatibility), whatever the status.
  if (c.method == "server/discover" && c.error_code == -32601 &&
      (c.outcome == Outcome::JSONRPC_ERROR || c.outcome == Outcome::HTTP_ERROR)) {
    a.advice = Advice::fall_back_to_initialize;
    a.text = std::string("-32601 to server/discover: ") + kFallBackToInitialize;
    return a;
  }
  std::optional<long long> retry_after;
  if (auto ra = find_header(response_headers, "retry-after")) {
    retry_after = http::retry_after_ms(*ra, retry_after_origin(response_headers, now_unix_seconds));
  }
  auto with_after = [&](std::string text) {
    if (retry_after) text += fmt::format(" (Retry-After: {} ms)", *retry_after);
    return text;
  };
  switch (c.outcome) {
    case Outcome::TOOL_SUCCESS:
    case Outcome::RPC_SUCCESS:
    case Outcome::ACCEPTED:
      a.advice = Advice::none;
      a.text = "none: the exchange succeeded";
      return a;
    case Outcome::AUTH_LEG:
      // A leg of authorization (docs/auth.md): none when it passed, else look at its flow's rule.
      if (c.reason == Reason::auth_leg_failed || c.reason == Reason::auth_not_judged) {
        a.advice = Advice::investigate;
        a.text = "read the flow's auth_flow record: mcptriage explain on this leg's auth.reason says what to fix";
      } else {
        a.advice = Advice::none;
        a.text = "none: a leg of the authorization flow";
      }
      return a;
    case Outcome::TOOL_ERROR:
      a.advice = Advice::hand_error_to_model;
      a.text = "depends on the tool: hand the error text to the model; do not replay blindly";
      return a;
    case Outcome::INPUT_REQUIRED:
      if (c.reason == Reason::server_request_pending) {  // 2025 versions: the call goes on on its stream
        a.advice = Advice::answer_server_request;
        a.text = "not a failure: answer the server's request (POST its JSON-RPC response) and keep reading this "
                 "stream for the call's response; do not resend the call";
        return a;
      }
      a.advice = Advice::resend_with_input;
      a.text = "not a failure: gather the inputs and resend under a new id with inputResponses (echo requestState)";
      return a;
    case Outcome::TASK_CREATED:
      a.advice = Advice::poll_task;
      a.after_ms = c.stream_retry_ms;
      a.text = "poll the task with tasks/get after its poll interval";
      return a;
    case Outcome::STREAM_INCOMPLETE:
      if (c.reason == Reason::event_type_not_message) {
        a.advice = Advice::do_not_retry;
        a.text = "resending gets the same stream: fix the server to send the response as a `message` event";
      } else if (c.resumable.value_or(false)) {
        a.advice = Advice::resume_stream;
        a.after_ms = c.stream_retry_ms;
        a.text = "reconnect with GET and Last-Event-ID after the stream's retry delay";
      } else {
        a.advice = Advice::resend_if_idempotent;
        a.text = "resend under a new id only if the call is read-only or idempotent";
      }
      return a;
    case Outcome::MALFORMED_JSON:
      if (c.reason == Reason::cut_at_limit) {
        a.advice = Advice::investigate;
        a.text = "the body was cut at --max-body: raise the limit and classify again";
        return a;
      }
      [[fallthrough]];
    case Outcome::INVALID_ENVELOPE:
    case Outcome::INVALID_TOOL_RESULT:
    case Outcome::INVALID_RESULT:
    case Outcome::INVALID_HTTP_RESPONSE:
      a.advice = Advice::do_not_retry;
      a.text = "do not replay; keep the redacted raw response, request id and protocol version for investigation";
      return a;
    case Outcome::NOT_CAPTURED:
      a.advice = Advice::investigate;
      a.text = "nothing captured to judge: capture the response body and classify again";
      return a;
    case Outcome::JSONRPC_ERROR: {
      // A version error first: before 2026-07-28 it is -32602 listing `data.supported`
      // (LIFE/2025-* §Error Handling), which must not read as an ordinary invalid-params error.
      if (c.reason == Reason::unsupported_protocol_version || !c.supported_versions.empty()) {
        a.advice = Advice::retry_with_supported_version;
        std::string list;
        for (const auto& v : c.supported_versions) list += (list.empty() ? "" : ", ") + v;
        a.text = list.empty() ? "retry with a protocol version the server supports"
                              : fmt::format("retry with a supported protocol version: {}", list);
        return a;
      }
      // A second response for the same id followed (a gateway's own error, then the server's late
      // answer): the error is not the whole story, and only a message naming the session blames it.
      if (c.second_response_event && c.reason != Reason::session_not_found) {
        a.advice = Advice::investigate;
        a.text = fmt::format(
            "a second response for this id followed in event {} (see the warnings): this error may be a gateway's or "
            "proxy's own (a timeout) while the server went on; read that response before resending anything",
            *c.second_response_event);
        return a;
      }
      // The reason names the error code (classify's error_reason).
      switch (c.reason) {
        case Reason::invalid_params:
        case Reason::invalid_request:
        case Reason::parse_error:
        case Reason::method_not_found:
        case Reason::header_mismatch:
        case Reason::missing_client_capability:
        case Reason::resource_not_found:
          a.advice = Advice::fix_request;
          a.text = c.reason == Reason::missing_client_capability
                       ? "declare the required client capability, then send again; do not resend as is"
                       : "fix the request (method, parameters or headers); do not resend the same call";
          break;
        case Reason::internal_error:
          a.advice = Advice::retry_once_if_idempotent;
          a.text = "the server failed: at most one retry, and only if the call is idempotent";
          break;
        case Reason::session_not_found:
          a.advice = Advice::new_session;
          a.text = "start a new session (initialize again)";
          if (c.second_response_event) {
            a.text += fmt::format("; a second response for this id followed in event {} (see the warnings)",
                                  *c.second_response_event);
          }
          break;
        case Reason::server_not_initialized:
          a.advice = Advice::new_session;
          a.text = kInitializeAgain;
          break;
        default:  // url_elicitation_required, server_defined_error, reserved_error_code, application_error
          if (c.body_hint == BodyHint::session_gone) {  // "Session not found" under a code of no fixed meaning
            a.advice = Advice::new_session;
            a.text = "the error names the session: start a new session (initialize again), then resend";
            break;
          }
          a.advice = Advice::investigate;
          a.text = "read the error message; do not resend the same call unchanged";
          break;
      }
      return a;
    }
    case Outcome::HTTP_ERROR:
      break;
  }
  // HTTP_ERROR: the reason names the status (classify's status switch).
  switch (c.reason) {
    case Reason::session_invalid:
    case Reason::session_expired:
      a.advice = Advice::new_session;
      a.text = "start a new session (initialize again), then resend";
      break;
    case Reason::not_found:
      if (c.body_hint == BodyHint::not_initialized) {
        a.advice = Advice::new_session;
        a.text = kInitializeAgain;
      } else if (c.error_code == -32001 || c.body_hint == BodyHint::session_gone) {  // the body names the session
        a.advice = Advice::new_session;
        a.text = "start a new session (initialize again), then resend";
      } else {
        a.advice = Advice::investigate;
        a.text = "check the endpoint URL; if the request carried Mcp-Session-Id, the session ended: initialize again";
      }
      break;
    case Reason::cdn_origin_error:
      if (c.http_status == 525 || c.http_status == 526) {  // TLS between the CDN and the origin
        a.advice = Advice::investigate;
        a.text = "the CDN cannot talk TLS to the origin server (a handshake or certificate fault): retrying gets the "
                 "same page; the origin's operator must fix its TLS set-up";
        break;
      }
      [[fallthrough]];  // 520-524, 527: as 502 and 504
    case Reason::bad_gateway:
    case Reason::service_unavailable:
    case Reason::gateway_timeout:
    case Reason::request_timeout:
      a.advice = Advice::retry_if_idempotent;
      a.after_ms = retry_after;
      a.text = with_after(
          "retry only if the call is read-only or idempotent: bounded attempts, exponential backoff with jitter from "
          "about 200 ms; stop when side effects are unknown");
      break;
    case Reason::internal_server_error:
      a.advice = Advice::retry_once_if_idempotent;
      a.after_ms = retry_after;
      a.text = with_after("the server failed while handling it: at most one retry, and only if idempotent");
      break;
    case Reason::rate_limited:
      a.advice = Advice::wait_retry_after;
      a.after_ms = retry_after;
      a.text = retry_after ? fmt::format("wait {} ms (Retry-After), then retry; never work around the limit", *retry_after)
                           : "back off (no usable Retry-After), then retry; never work around the limit";
      break;
    case Reason::unauthorized:
      if (c.body_hint != BodyHint::none) {
        // The body names the session, the status the credentials: say both.
        a.advice = Advice::new_session;
        a.text = c.body_hint == BodyHint::session_gone
                     ? "the body says the session is gone: start a new session (initialize again); the 401 also asks "
                       "for credentials: re-authorize if the token is missing, invalid or expired"
                     : "the body says the server is not initialized: initialize again; the 401 also asks for "
                       "credentials: re-authorize if the token is missing, invalid or expired";
        break;
      }
      a.advice = Advice::reauthorize;
      a.text = "re-authorize (OAuth): read WWW-Authenticate for resource_metadata and scope";
      break;
    case Reason::insufficient_scope:
      a.advice = Advice::step_up_authorization;
      a.text = "step-up authorization with the scopes named in WWW-Authenticate, then retry a few times at most";
      break;
    case Reason::bad_request:
      if (c.body_hint == BodyHint::not_initialized) {
        a.advice = Advice::new_session;
        a.text = kInitializeAgain;
        break;
      }
      a.advice = Advice::fix_request;
      a.text = "fix the request (headers, media types, method); do not resend it unchanged";
      break;
    case Reason::legacy_server:
      a.advice = Advice::fall_back_to_initialize;
      a.text = kFallBackToInitialize;
      break;
    case Reason::cdn_challenge:
      a.advice = Advice::do_not_retry;
      a.text = "a CDN or WAF challenge stopped the request before the MCP server: do not retry automatically (the same "
               "request gets the same page); have the client allow-listed, or use an endpoint path that is not challenged";
      break;
    case Reason::response_rejected:
      a.advice = Advice::investigate;
      a.text = "do not resend the same response: read the error; the server request it answers may have expired, or "
               "its id is not one the server sent";
      break;
    case Reason::forbidden:
    case Reason::method_not_allowed:
    case Reason::not_acceptable:
    case Reason::conflict:
    case Reason::payload_too_large:
    case Reason::unsupported_media_type:
    case Reason::client_error:
      a.advice = Advice::fix_request;
      a.text = "fix the request (headers, media types, method); do not resend it unchanged";
      break;
    default:  // server_error, redirect_not_followed, no_final_response_interim
      a.advice = Advice::investigate;
      a.after_ms = retry_after;
      a.text = "not a Streamable HTTP reply to retry as is: investigate the endpoint";
      break;
  }
  const int s = c.http_status;
  // Concrete WWW-Authenticate parameters for 401/403.
  if (s == 401 || s == 403) {
    if (auto h = find_header(response_headers, "www-authenticate")) {
      std::string scope = auth_param(*h, "scope");
      std::string rm = auth_param(*h, "resource_metadata");
      if (!rm.empty()) a.text += fmt::format("; resource_metadata={}", rm);
      if (!scope.empty()) a.text += fmt::format("; scope={}", scope);
    }
  }
  return a;
}

}  // namespace

RetryAdvice advise(const Classification& c, const Headers& response_headers, long long now_unix_seconds) {
  RetryAdvice a = advise_outcome(c, response_headers, now_unix_seconds);
  apply_retry_safety(a, c.client_response_id ? client_response_retry_safety(c.client_response_id->to_json())
                                             : method_retry_safety(c.method, c.tool));
  return a;
}

}  // namespace mcptriage
