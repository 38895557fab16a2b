// OpenTelemetry semantic-convention attributes of a record (render.hpp, otel_attributes).
// Source: open-telemetry/semantic-conventions docs/gen-ai/mcp.md as of commit 04f1672 (MCP client span) and
// docs/http/http-spans.md (http.response.status_code).
#include <fmt/format.h>

#include <charconv>

#include "mcptriage/render.hpp"
#include "mcptriage/session.hpp"
#include "render/redact_detail.hpp"

namespace mcptriage {

std::uint64_t fnv1a64(std::string_view bytes, std::uint64_t seed) {
  std::uint64_t h = seed;
  for (char ch : bytes) {
    h ^= static_cast<unsigned char>(ch);
    h *= 0x100000001b3ULL;
  }
  return h;
}

namespace {

/// Calls `put(key, value, kind)` for each attribute of otel_attributes(), in its order. A
/// `text` value is the capture's own (untrusted) text, to be redacted and made valid UTF-8;
/// `literal` and `integer` values are made here (ASCII). One walk behind both the vector and
/// the record member, so the two cannot disagree.
enum class ValueKind { text, literal, integer };

template <class Put>
void for_each_otel_attribute(const Record& r, Put&& put) {
  const Classification& c = r.c;
  if (!c.method.empty()) put("mcp.method.name", c.method, ValueKind::text);
  if (c.method == "tools/call") put("gen_ai.operation.name", "execute_tool", ValueKind::literal);
  if (!c.tool.empty()) put("gen_ai.tool.name", c.tool, ValueKind::text);
  const std::optional<JsonRpcId>& id = c.request_id ? c.request_id : c.response_id;
  if (id && !c.notification && id->kind != JsonRpcId::Kind::null) put("jsonrpc.request.id", id->text, ValueKind::text);
  if (r.facts && !r.facts->session_id.empty()) {
    // Hashed as printed (redact_header: its first 8 characters and an ellipsis), so that a live
    // record and the same exchange read back from a redacted recording carry the same value.
    const std::string shown = redact_header("Mcp-Session-Id", r.facts->session_id);
    put("mcp.session.id", fmt::format("fnv1a-{:016x}", fnv1a64(shown)), ValueKind::literal);
  }
  if (!c.protocol_version.empty() && c.protocol_version_source != "assumed") {
    put("mcp.protocol.version", c.protocol_version, ValueKind::text);
  }
  // Numbers are written into a buffer of their own: a 64-bit integer has at most 20 digits.
  char digits[24];
  auto decimal = [&digits](auto value) {
    return std::string_view(digits, static_cast<std::size_t>(std::to_chars(digits, digits + sizeof digits, value).ptr - digits));
  };
  if (c.error_code) put("rpc.response.status_code", decimal(*c.error_code), ValueKind::literal);
  if (c.transport_captured) put("http.response.status_code", decimal(c.http_status), ValueKind::integer);
  // NOT_CAPTURED is no failure of the call, but no success either: a span must not read as one.
  if (is_failure(c.outcome) || c.outcome == Outcome::NOT_CAPTURED) {
    std::string_view type;
    if (c.outcome == Outcome::TOOL_ERROR) type = "tool_error";
    else if (c.error_code) type = decimal(*c.error_code);
    else if (c.outcome == Outcome::HTTP_ERROR && c.transport_captured) type = decimal(c.http_status);
    else type = to_string(c.outcome);
    put("error.type", type, ValueKind::literal);
  }
}

}  // namespace

std::vector<OtelAttribute> otel_attributes(const Record& r) {
  std::vector<OtelAttribute> out;
  for_each_otel_attribute(r, [&out](std::string_view key, std::string_view value, ValueKind kind) {
    out.push_back(OtelAttribute{key, kind == ValueKind::text ? to_valid_utf8(redact(value)) : std::string(value),
                                kind == ValueKind::integer});
  });
  return out;
}

void append_otel_member(std::string& out, const Record& r) {
  // Runs once per record: no attribute vector, and the capture's text goes through the
  // renderers' one-pass path (detail::append_plain_escaped) unless it needs redacting or repair.
  out += "\"otel\":{";
  bool first = true;
  for_each_otel_attribute(r, [&out, &first](std::string_view key, std::string_view value, ValueKind kind) {
    out += first ? "\"" : ",\"";
    first = false;
    out += key;
    out += "\":";
    if (kind == ValueKind::integer) {
      out += value;
      return;
    }
    out += '"';
    if (kind == ValueKind::literal) {
      out += value;  // made here: ASCII letters, digits, '.', '_' and '-', nothing to escape
    } else if (!detail::append_plain_escaped(out, value)) {
      append_json_escaped(out, to_valid_utf8(redact(value)));
    }
    out += '"';
  });
  out += '}';
}

}  // namespace mcptriage
