// JSON Lines and table renderers (docs/output.md).
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <optional>

#include "mcptriage/http.hpp"
#include "mcptriage/render.hpp"

namespace mcptriage {
namespace {

std::string jstr(std::string_view s) { return "\"" + json_escape(redact(s)) + "\""; }
std::string jstr_or_null(std::string_view s) { return s.empty() ? std::string("null") : jstr(s); }
std::string jid(const std::optional<JsonRpcId>& id) {
  if (!id) return "null";
  if (id->kind == JsonRpcId::Kind::string) return jstr(id->text);
  if (id->kind == JsonRpcId::Kind::other) return jstr(id->text);  // shown as text: not a valid id
  return id->to_json();
}

/// Display width of UTF-8 text in columns (one per code point; good enough for alignment).
std::size_t width(std::string_view s) {
  std::size_t w = 0;
  for (unsigned char ch : s) {
    if ((ch & 0xC0) != 0x80) ++w;
  }
  return w;
}

std::string_view color_of(Outcome o) {
  switch (o) {
    case Outcome::TOOL_SUCCESS:
    case Outcome::RPC_SUCCESS:
    case Outcome::ACCEPTED: return "\x1b[32m";
    case Outcome::INPUT_REQUIRED:
    case Outcome::TASK_CREATED:
    case Outcome::NOT_CAPTURED: return "\x1b[33m";
    default: return "\x1b[31m";
  }
}

}  // namespace

std::string render_jsonl(const Record& r) {
  const Classification& c = r.c;
  std::string out;
  out.reserve(512);
  out += fmt::format("{{\"schema\":{},\"source\":{},\"format\":{},\"outcome\":\"{}\",\"layer\":\"{}\",", kSchemaVersion,
                     jstr(r.source), jstr(r.format), to_string(c.outcome), to_string(c.layer));
  out += fmt::format("\"reason\":{},\"detail\":{},\"pointer\":{},", jstr(c.reason), jstr(c.detail), jstr_or_null(c.pointer));
  out += fmt::format("\"http\":{{\"status\":{},\"content_type\":{},\"transport_captured\":{}}},", c.http_status,
                     jstr_or_null(c.content_type), c.transport_captured);
  out += fmt::format("\"jsonrpc\":{{\"id\":{},\"request_id\":{},\"id_checked\":{},\"error\":", jid(c.response_id),
                     jid(c.request_id), c.id_checked);
  if (c.error_code) {
    out += fmt::format("{{\"code\":{},\"message\":{}}}}},", *c.error_code, jstr(c.error_message));
  } else {
    out += "null},";
  }
  out += fmt::format("\"method\":{},\"method_source\":\"{}\",\"notification\":{},\"result_type\":{},",
                     jstr_or_null(c.method), to_string(c.method_source), c.notification, jstr_or_null(c.result_type));
  out += fmt::format("\"protocol_version\":{},\"protocol_version_source\":{},", jstr_or_null(c.protocol_version),
                     jstr_or_null(c.protocol_version_source));
  if (http::media_type(c.content_type) == "text/event-stream" || r.format == "bare-sse") {
    out += fmt::format("\"stream\":{{\"events\":{},\"resumable\":{},\"retry_ms\":{}}},", c.sse_events,
                       c.resumable ? (*c.resumable ? "true" : "false") : "null",
                       c.stream_retry_ms ? std::to_string(*c.stream_retry_ms) : std::string("null"));
  } else {
    out += "\"stream\":null,";
  }
  out += fmt::format("\"retry\":{{\"advice\":\"{}\",\"detail\":{},\"after_ms\":{}}},", to_string(c.retry.advice),
                     jstr(c.retry.text), c.retry.after_ms ? std::to_string(*c.retry.after_ms) : std::string("null"));
  out += "\"warnings\":[";
  for (std::size_t i = 0; i < c.warnings.size(); ++i) {
    if (i) out += ',';
    out += jstr(c.warnings[i]);
  }
  out += "]}";
  return out;
}

std::string render_table(const std::vector<Record>& records, bool color) {
  static constexpr std::size_t kCols = 7;
  const std::array<std::string, kCols> head{"SOURCE", "HTTP", "ID", "OUTCOME", "LAYER", "REASON", "RETRY"};
  std::vector<std::array<std::string, kCols>> rows;
  rows.reserve(records.size());
  for (const auto& r : records) {
    const Classification& c = r.c;
    std::string media = http::media_type(c.content_type);
    if (media.empty()) media = c.transport_captured ? "-" : (r.format == "bare-sse" ? "(sse)" : "(json)");
    std::string http = c.transport_captured ? fmt::format("{} {}", c.http_status, media)
                                            : fmt::format("{}? {}", c.http_status, media);
    std::string id = c.response_id ? c.response_id->to_json() : (c.request_id ? c.request_id->to_json() : "-");
    rows.push_back({escape_terminal(redact(r.source)), escape_terminal(http), escape_terminal(id),
                    std::string(to_string(c.outcome)), std::string(to_string(c.layer)), escape_terminal(c.reason),
                    std::string(to_string(c.retry.advice))});
  }
  std::array<std::size_t, kCols> w{};
  for (std::size_t k = 0; k < kCols; ++k) w[k] = width(head[k]);
  for (const auto& row : rows) {
    for (std::size_t k = 0; k < kCols; ++k) w[k] = std::max(w[k], width(row[k]));
  }
  auto line = [&](const std::array<std::string, kCols>& cells, std::optional<Outcome> outcome) {
    std::string out;
    for (std::size_t k = 0; k < kCols; ++k) {
      const bool last = k + 1 == kCols;
      std::string cell = cells[k];
      std::string pad = last ? "" : std::string(w[k] - width(cell) + 2, ' ');
      if (color && outcome && k == 3) out += fmt::format("{}{}\x1b[0m{}", color_of(*outcome), cell, pad);
      else out += cell + pad;
    }
    out += '\n';
    return out;
  };
  std::string out = line(head, std::nullopt);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    out += line(rows[i], records[i].c.outcome);
    out += "  " + escape_terminal(redact(records[i].c.detail)) + "\n";
    if (records[i].c.retry.advice != Advice::none) {
      out += "  retry: " + escape_terminal(redact(records[i].c.retry.text)) + "\n";
    }
  }
  return out;
}

}  // namespace mcptriage
