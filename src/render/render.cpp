// JSON Lines and table renderers (docs/output.md).
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <optional>

#include "mcptriage/http.hpp"
#include "mcptriage/render.hpp"

namespace mcptriage {
namespace {

/// RFC 4648 §4 base64 with padding.
std::string base64(std::string_view bytes) {
  static constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  std::size_t i = 0;
  for (; i + 3 <= bytes.size(); i += 3) {
    const auto v = (static_cast<unsigned char>(bytes[i]) << 16) | (static_cast<unsigned char>(bytes[i + 1]) << 8) |
                   static_cast<unsigned char>(bytes[i + 2]);
    for (int shift : {18, 12, 6, 0}) out += kAlphabet[(v >> shift) & 63];
  }
  if (i < bytes.size()) {
    const bool two = i + 1 < bytes.size();
    const auto v = (static_cast<unsigned char>(bytes[i]) << 16) | (two ? static_cast<unsigned char>(bytes[i + 1]) << 8 : 0);
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
    out += two ? kAlphabet[(v >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

/// `"key":"value"` for a string field (redacted, RFC 8259 escaped); `null` for an empty value
/// when `null_if_empty`. A value that is not UTF-8 is shown with U+FFFD and followed by a
/// sibling `"key_bytes":"<base64 of the raw bytes>"` (docs/output.md, lossless bytes).
std::string kv(std::string_view key, std::string_view value, bool null_if_empty = false) {
  std::string out = fmt::format("\"{}\":", key);
  if (null_if_empty && value.empty()) return out + "null";
  const std::string shown = redact(value);
  out += "\"" + json_escape(shown) + "\"";
  if (!is_valid_utf8(shown)) out += fmt::format(",\"{}_bytes\":\"{}\"", key, base64(shown));
  return out;
}

std::string kv_id(std::string_view key, const std::optional<JsonRpcId>& id) {
  if (!id) return fmt::format("\"{}\":null", key);
  if (id->kind == JsonRpcId::Kind::string) return kv(key, id->text);
  // raw JSON (a float, object...) when not a valid id
  return fmt::format("\"{}\":{}", key, id->kind == JsonRpcId::Kind::other ? id->text : id->to_json());
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
  out += fmt::format("{{\"schema\":{},{},{},\"outcome\":\"{}\",\"layer\":\"{}\",", kSchemaVersion,
                     kv("source", r.source), kv("format", r.format), to_string(c.outcome), to_string(c.layer));
  out += fmt::format("{},{},{},", kv("reason", c.reason), kv("detail", c.detail), kv("pointer", c.pointer, true));
  out += fmt::format("\"http\":{{\"status\":{},{},\"transport_captured\":{}}},", c.http_status,
                     kv("content_type", c.content_type, true), c.transport_captured);
  out += fmt::format("\"jsonrpc\":{{{},{},\"id_checked\":{},\"error\":", kv_id("id", c.response_id),
                     kv_id("request_id", c.request_id), c.id_checked);
  if (c.error_code) {
    out += fmt::format("{{\"code\":{},{}}}}},", *c.error_code, kv("message", c.error_message));
  } else {
    out += "null},";
  }
  out += fmt::format("{},\"method_source\":\"{}\",\"notification\":{},{},", kv("method", c.method, true),
                     to_string(c.method_source), c.notification, kv("result_type", c.result_type, true));
  out += fmt::format("{},{},", kv("protocol_version", c.protocol_version, true),
                     kv("protocol_version_source", c.protocol_version_source, true));
  if (http::media_type(c.content_type) == "text/event-stream" || r.format == "bare-sse") {
    out += fmt::format("\"stream\":{{\"events\":{},\"resumable\":{},\"retry_ms\":{}}},", c.sse_events,
                       c.resumable ? (*c.resumable ? "true" : "false") : "null",
                       c.stream_retry_ms ? std::to_string(*c.stream_retry_ms) : std::string("null"));
  } else {
    out += "\"stream\":null,";
  }
  out += fmt::format("\"retry\":{{\"advice\":\"{}\",{},\"after_ms\":{}}},", to_string(c.retry.advice),
                     kv("detail", c.retry.text), c.retry.after_ms ? std::to_string(*c.retry.after_ms) : std::string("null"));
  // warnings, and `warnings_bytes` (null for each UTF-8 warning) only when one is not UTF-8
  std::string bytes;
  bool any_bytes = false;
  out += "\"warnings\":[";
  for (std::size_t i = 0; i < c.warnings.size(); ++i) {
    const std::string shown = redact(c.warnings[i]);
    const bool valid = is_valid_utf8(shown);
    any_bytes = any_bytes || !valid;
    out += (i ? ",\"" : "\"") + json_escape(shown) + "\"";
    bytes += (i ? "," : "") + (valid ? std::string("null") : "\"" + base64(shown) + "\"");
  }
  out += "]";
  if (any_bytes) out += ",\"warnings_bytes\":[" + bytes + "]";
  out += "}";
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
