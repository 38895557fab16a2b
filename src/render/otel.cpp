// OpenTelemetry semantic-convention attributes of a record (render.hpp, otel_attributes).
// Source: open-telemetry/semantic-conventions docs/gen-ai/mcp.md as of commit 04f1672 (MCP client span) and
// docs/http/http-spans.md (http.response.status_code).
#include <fmt/format.h>

#include "mcptriage/render.hpp"
#include "mcptriage/session.hpp"

namespace mcptriage {

std::uint64_t fnv1a64(std::string_view bytes, std::uint64_t seed) {
  std::uint64_t h = seed;
  for (char ch : bytes) {
    h ^= static_cast<unsigned char>(ch);
    h *= 0x100000001b3ULL;
  }
  return h;
}

std::vector<OtelAttribute> otel_attributes(const Record& r) {
  const Classification& c = r.c;
  std::vector<OtelAttribute> out;
  auto text = [&](std::string_view key, std::string_view value) {
    out.push_back(OtelAttribute{key, to_valid_utf8(redact(value)), false});
  };
  if (!c.method.empty()) text("mcp.method.name", c.method);
  if (c.method == "tools/call") out.push_back(OtelAttribute{"gen_ai.operation.name", "execute_tool", false});
  if (!c.tool.empty()) text("gen_ai.tool.name", c.tool);
  const std::optional<JsonRpcId>& id = c.request_id ? c.request_id : c.response_id;
  if (id && !c.notification && id->kind != JsonRpcId::Kind::null) text("jsonrpc.request.id", id->text);
  if (r.facts && !r.facts->session_id.empty()) {
    // Hashed as printed (redact_header: its first 8 characters and an ellipsis), so that a live
    // record and the same exchange read back from a redacted recording carry the same value.
    const std::string shown = redact_header("Mcp-Session-Id", r.facts->session_id);
    out.push_back(OtelAttribute{"mcp.session.id", fmt::format("fnv1a-{:016x}", fnv1a64(shown)), false});
  }
  if (!c.protocol_version.empty() && c.protocol_version_source != "assumed") {
    text("mcp.protocol.version", c.protocol_version);
  }
  if (c.error_code) out.push_back(OtelAttribute{"rpc.response.status_code", std::to_string(*c.error_code), false});
  if (c.transport_captured) {
    out.push_back(OtelAttribute{"http.response.status_code", std::to_string(c.http_status), true});
  }
  // NOT_CAPTURED is no failure of the call, but no success either: a span must not read as one.
  if (is_failure(c.outcome) || c.outcome == Outcome::NOT_CAPTURED) {
    std::string type;
    if (c.outcome == Outcome::TOOL_ERROR) type = "tool_error";
    else if (c.error_code) type = std::to_string(*c.error_code);
    else if (c.outcome == Outcome::HTTP_ERROR && c.transport_captured) type = std::to_string(c.http_status);
    else type = std::string(to_string(c.outcome));
    out.push_back(OtelAttribute{"error.type", std::move(type), false});
  }
  return out;
}

void append_otel_member(std::string& out, const Record& r) {
  out += "\"otel\":{";
  bool first = true;
  for (const OtelAttribute& a : otel_attributes(r)) {
    if (!first) out += ',';
    first = false;
    out += '"';
    out += a.key;
    out += "\":";
    if (a.integer) {
      out += a.value;
    } else {
      append_json_string(out, a.value);
    }
  }
  out += '}';
}

}  // namespace mcptriage
