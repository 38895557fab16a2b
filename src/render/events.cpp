// Event records and lines (render.hpp): one event of a stream read live, as a JSON Lines record
// (`--events`, docs/output.md "Event records") or a short line of the table.
#include <fmt/format.h>

#include "mcptriage/render.hpp"

namespace mcptriage {

namespace {

/// Event texts are clipped: a line or a record per event, not the event's data.
constexpr std::size_t kEventText = 200;

std::string clip(std::string_view s) {
  if (s.size() <= kEventText) return std::string(s);
  std::size_t n = kEventText;
  while (n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80) --n;  // not inside a UTF-8 sequence
  return std::string(s.substr(0, n)) + "...";
}

std::string jstr(std::string_view s) { return "\"" + json_escape(redact(clip(s))) + "\""; }
std::string jstr_or_null(std::string_view s) { return s.empty() ? std::string("null") : jstr(s); }
std::string num_or_null(const std::optional<double>& v) { return v ? fmt::format("{}", *v) : std::string("null"); }

}  // namespace

std::string render_event_jsonl(std::string_view source, const StreamEvent& e) {
  return fmt::format(
      "{{\"schema\":{},\"kind\":\"event\",\"source\":{},\"event\":{},\"type\":{},\"id\":{},\"ms\":{:.3f},\"what\":\"{}\","
      "\"method\":{},\"jsonrpc_id\":{},\"progress\":{},\"total\":{},\"level\":{},\"message\":{}}}",
      kSchemaVersion, jstr(source), e.number == 0 ? std::string("null") : std::to_string(e.number), jstr(e.type),
      jstr_or_null(e.id), e.ms, e.what, jstr_or_null(e.method), e.rpc_id.empty() ? std::string("null") : jstr(e.rpc_id),
      num_or_null(e.progress), num_or_null(e.total), jstr_or_null(e.level), jstr_or_null(e.message));
}

std::string render_event_line(const StreamEvent& e) {
  std::string what;
  if (e.what == "progress") {
    what = "progress";
    if (e.progress) what += fmt::format(" {}", *e.progress);
    if (e.total) what += fmt::format("/{}", *e.total);
    if (!e.message.empty()) what += " " + clip(e.message);
  } else if (e.what == "log") {
    what = fmt::format("log {}: {}", e.level.empty() ? "?" : e.level, clip(e.message));
  } else if (e.what == "request" || e.what == "notification") {
    what = fmt::format("{} {}", e.what == "request" ? "server request" : "notification", clip(e.method));
    if (!e.rpc_id.empty()) what += " id " + clip(e.rpc_id);
  } else if (e.what == "response") {
    what = "response";
    if (!e.rpc_id.empty()) what += " id " + clip(e.rpc_id);
    if (!e.message.empty()) what += " " + e.message;
  } else if (e.what == "priming") {
    what = "priming event";
  } else {
    what = e.what == "not_json" ? "data that is not JSON" : e.what;
  }
  if (e.type != "message") what += fmt::format(" (event type {})", clip(e.type));
  if (!e.id.empty()) what += " [id " + clip(e.id) + "]";
  return fmt::format("  event {:>4} {:>10.0f} ms  {}\n", e.number == 0 ? std::string("-") : std::to_string(e.number), e.ms,
                     escape_terminal(redact(what)));
}

}  // namespace mcptriage
