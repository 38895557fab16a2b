// The JSON-RPC 2.0 response envelope and JSON-RPC error codes (envelope.hpp): JSON-RPC 2.0 §5,
// §5.1; MCP basic §Responses, §Error responses.
#include "jsonrpc/envelope.hpp"

#include <fmt/format.h>

#include "http/tokens.hpp"

namespace mcptriage::jsonrpc {

namespace {

std::unexpected<Finding> finding(Reason reason, std::string detail, std::string pointer) {
  return std::unexpected(Finding{reason, std::move(detail), std::move(pointer)});
}

}  // namespace

std::expected<Envelope, Finding> check_envelope(json::View msg, const std::string& prefix) {
  if (!msg.is_object()) return finding(Reason::not_an_object, "the JSON-RPC response is not a JSON object", prefix);
  if (auto dup = json::first_duplicate_member(msg, prefix)) {
    const std::string& d = *dup;
    const bool in_result = d.starts_with(prefix + "/result/");
    return finding(in_result ? Reason::duplicate_member_result : Reason::duplicate_member_envelope,
                   fmt::format("duplicate member name at {}: the meaning is ambiguous", d), d);
  }
  auto jsonrpc = msg.get("jsonrpc");
  if (!jsonrpc || jsonrpc->string() != std::optional<std::string_view>("2.0")) {
    return finding(Reason::jsonrpc_version,
                   jsonrpc ? fmt::format("\"jsonrpc\" is {}, not \"2.0\"", clipped(json::minified(*jsonrpc)))
                           : "\"jsonrpc\": \"2.0\" is missing",
                   prefix + "/jsonrpc");
  }
  Envelope env;
  env.id = msg.get("id");
  if (auto method = msg.get("method")) {
    return finding(Reason::not_a_response,
                   fmt::format("a JSON-RPC {} (\"method\": {}), not a response", env.id ? "request" : "notification",
                               clipped(json::minified(*method))),
                   prefix + "/method");
  }
  env.result = msg.get("result");
  env.error = msg.get("error");
  if (env.result && env.error) {
    return finding(Reason::result_and_error, "the response has both \"result\" and \"error\"", prefix);
  }
  if (!env.result && !env.error) {
    return finding(Reason::no_result_or_error, "the response has neither \"result\" nor \"error\"", prefix);
  }
  if (env.id && !env.id->is_string() && !env.id->is_integer() && !json::is_big_integer(*env.id) && !env.id->is_null()) {
    return finding(Reason::id_invalid_type,
                   fmt::format("\"id\" is {}: a JSON-RPC id is a string or an integer", clipped(json::minified(*env.id))),
                   prefix + "/id");
  }
  if (env.error) {
    const json::View error = *env.error;
    if (!error.is_object()) {
      return finding(Reason::error_not_object, fmt::format("\"error\" is {}, not an object", json::type_phrase(error)),
                     prefix + "/error");
    }
    auto code = error.get("code");
    const std::optional<std::int64_t> code_int = code ? code->int64() : std::nullopt;
    if (!code_int) {
      return finding(Reason::error_code_not_integer,
                     code ? fmt::format("\"error.code\" is {}: it must be an integer", clipped(json::minified(*code)))
                          : "\"error.code\" is missing",
                     prefix + "/error/code");
    }
    auto message = error.string_at("message");
    if (!message) {
      return finding(Reason::error_message_not_string, "\"error.message\" is missing or not a string",
                     prefix + "/error/message");
    }
    env.error_code = *code_int;
    env.error_message = *message;
    env.error_data = error.get("data");
    return env;
  }
  // A result: its id must be there (and match, pair_id).
  if (!env.id) return finding(Reason::id_missing, "a result without \"id\" cannot be paired with a request", prefix);
  if (env.id->is_null()) {
    return finding(Reason::id_null, "a result with \"id\": null cannot be paired with a request", prefix + "/id");
  }
  return env;
}

BodyHint error_text_hint(std::string_view text) {
  text = text.substr(0, kHintTextMax);
  for (std::string_view w : {"not initialized", "not yet initialized", "uninitialized", "not been initialized"}) {
    if (http::icontains(text, w)) return BodyHint::not_initialized;
  }
  if (!http::icontains(text, "session")) return BodyHint::none;
  for (std::string_view w : {"not found", "unknown", "invalid", "no valid", "expired", "missing", "required",
                             "terminated", "does not exist", "no such", "no longer"}) {
    if (http::icontains(text, w)) return BodyHint::session_gone;
  }
  return BodyHint::none;
}

Reason error_reason(std::int64_t code) {
  switch (code) {
    case -32700: return Reason::parse_error;
    case -32600: return Reason::invalid_request;
    case -32601: return Reason::method_not_found;
    case -32602: return Reason::invalid_params;
    case -32603: return Reason::internal_error;
    case -32002: return Reason::resource_not_found;
    case -32042: return Reason::url_elicitation_required;
    case -32020: return Reason::header_mismatch;
    case -32021: return Reason::missing_client_capability;
    case -32022: return Reason::unsupported_protocol_version;
    case -32001: return Reason::session_not_found;
    default: break;
  }
  if (code >= -32099 && code <= -32000) return Reason::server_defined_error;
  if (code >= -32768 && code <= -32000) return Reason::reserved_error_code;
  return Reason::application_error;
}

Reason error_reason(std::int64_t code, std::string_view message, std::string_view method) {
  const BodyHint hint = error_text_hint(message);
  if (hint == BodyHint::not_initialized) return Reason::server_not_initialized;
  // -32001 has no fixed meaning: the TypeScript SDK's server sends it for "Session not found", its
  // client and gateways for "Request timed out". Only a message naming the session blames it.
  if (code == -32001 && hint != BodyHint::session_gone) return Reason::server_defined_error;
  if (code == -32002 && !method.empty() && !method.starts_with("resources/") &&
      !http::icontains(message.substr(0, kHintTextMax), "resource")) {
    return Reason::server_not_initialized;
  }
  return error_reason(code);
}

}  // namespace mcptriage::jsonrpc
