// Retry safety (advice.hpp RetrySafety): the one rule for the records' `retry.safe` and the
// session's replay safety. MCP 2025-11-25 schema `ToolAnnotations` and server/tools §Tool
// annotations (hints, untrusted from untrusted servers); docs/output.md "Retry safety".
#include <fmt/format.h>

#include "mcptriage/advice.hpp"

namespace mcptriage {

namespace {

/// Methods that only read (MCP: list, get and read requests, ping, completion, discovery):
/// repeating them has no effect on the server.
bool read_only_method(std::string_view m) {
  for (std::string_view r : {"ping", "tools/list", "prompts/list", "prompts/get", "resources/list",
                             "resources/templates/list", "resources/read", "completion/complete", "server/discover",
                             "tasks/get", "tasks/list", "tasks/result"}) {
    if (m == r) return true;
  }
  return false;
}

}  // namespace

RetrySafety method_retry_safety(std::string_view method, std::string_view tool) {
  RetrySafety s;
  if (method.empty()) {
    s.source = "the method is unknown";
  } else if (method == "tools/call") {
    s.source = tool.empty() ? std::string("the request is not in the capture: which tool was called is unknown")
                            : fmt::format("no tools/list result earlier in the session defines tool \"{}\"", tool);
  } else if (read_only_method(method)) {
    s.safe = true;
    s.source = fmt::format("{} only reads (MCP list, get and read requests)", method);
    s.claim = fmt::format("{} only reads", method);
  } else if (method == "initialize") {
    // MCP basic/lifecycle §Initialization: a repeat opens another session and changes no data.
    s.safe = true;
    s.source = "initialize only opens a session (MCP lifecycle): a repeat opens another";
    s.claim = "initialize only opens a session";
  } else {
    s.source = fmt::format("no annotation says whether {} is safe to repeat", method);
  }
  return s;
}

RetrySafety client_response_retry_safety(std::string_view server_request_id) {
  // JSON-RPC 2.0 §5: a response answers one request by its id; it asks nothing of the server.
  // A server that already has the answer has no pending request of that id to resolve again.
  RetrySafety s;
  s.safe = true;
  s.source = fmt::format("a JSON-RPC response (the client's answer to the server's request id {}), not a call: "
                         "sending it again executes nothing",
                         server_request_id);
  s.claim = "the client's JSON-RPC response executes nothing";
  return s;
}

RetrySafety tool_retry_safety(std::string_view name, std::optional<bool> read_only_hint,
                              std::optional<bool> destructive_hint, std::optional<bool> idempotent_hint,
                              std::string_view defined_in) {
  RetrySafety s;
  if (read_only_hint == true) {
    s.safe = true;
    s.source = fmt::format("readOnlyHint: true ({})", defined_in);
    s.claim = fmt::format("`{}` is read-only", name);
  } else if (idempotent_hint == true) {
    s.safe = true;
    s.source = fmt::format("idempotentHint: true ({})", defined_in);
    s.claim = fmt::format("`{}` is idempotent", name);
  } else if (destructive_hint == true) {
    s.safe = false;
    s.source = fmt::format("destructiveHint: true and not idempotent ({})", defined_in);
    s.claim = fmt::format("`{}` is destructive", name);
  } else if (destructive_hint == false) {
    s.safe = false;
    s.source = fmt::format("idempotentHint {}: a repeat may add its effect again ({})",
                           idempotent_hint ? "false" : "absent (default false)", defined_in);
    s.claim = fmt::format("`{}` is not idempotent", name);
  } else {
    s.safe = false;
    s.source = fmt::format(
        "no readOnlyHint or idempotentHint: by the MCP defaults the tool may be destructive and is not idempotent ({})",
        defined_in);
    s.claim = fmt::format("`{}` may be destructive (no annotations: the MCP defaults)", name);
  }
  return s;
}

void apply_retry_safety(RetryAdvice& a, const RetrySafety& s) {
  a.safe = s.safe;
  a.safe_source = s.source;
  if (!s.safe) return;
  const bool conditional = a.advice == Advice::retry_if_idempotent || a.advice == Advice::retry_once_if_idempotent ||
                           a.advice == Advice::resend_if_idempotent;
  if (!conditional) return;
  const std::string after = a.after_ms && a.advice != Advice::resend_if_idempotent
                                ? fmt::format(" (Retry-After: {} ms)", *a.after_ms)
                                : std::string();
  if (!*s.safe) {
    a.text = fmt::format("{}: do not retry automatically; check whether the call took effect first", s.claim);
    return;
  }
  switch (a.advice) {
    case Advice::retry_if_idempotent:
      a.text = fmt::format("{}: safe to retry with bounded attempts, exponential backoff with jitter from about 200 ms{}",
                           s.claim, after);
      break;
    case Advice::retry_once_if_idempotent:
      a.text = fmt::format("the server failed: {}: safe to retry once after backoff{}", s.claim, after);
      break;
    default:
      a.text = fmt::format("{}: safe to resend under a new id", s.claim);
      break;
  }
}

}  // namespace mcptriage
