// redact_body (render.hpp): credentials in a captured body, hidden without breaking its JSON.
// Used by the proxy's recordings (src/proxy/capture_line.cpp) and --export-har
// (src/report/har_export.cpp).
#include <optional>
#include <string>
#include <string_view>

#include "json/dom.hpp"
#include "mcptriage/render.hpp"

namespace mcptriage {

std::string redact_body(std::string_view body) {
  if (!redaction_enabled() || body.empty()) return std::string(body);
  json::Parser parser;
  // The value of one JSON string literal (with its quotes), or nullopt when it is not one.
  auto string_value = [&parser](std::string_view lit) -> std::optional<std::string> {
    auto v = parser.parse(lit);
    if (!v || !v->is_string()) return std::nullopt;
    return std::string(v->string().value_or(""));
  };
  const std::size_t first = body.find_first_not_of(" \t\r\n");
  const bool structured = first != std::string_view::npos &&
                          (body[first] == '{' || body[first] == '[' || body.substr(first).starts_with("data:") ||
                           body.substr(first).starts_with("event:") || body.substr(first).starts_with("id:") ||
                           body.substr(first).starts_with("retry:") || body[first] == ':');
  if (!structured) return redact(body);
  std::string out;
  out.reserve(body.size() + 16);
  // The end (one past the closing quote) of the string literal that opens at `i`, or npos.
  auto literal_end = [&](std::size_t i) {
    for (std::size_t k = i + 1; k < body.size(); ++k) {
      if (body[k] == '\\') ++k;
      else if (body[k] == '"') return k + 1;
    }
    return std::string_view::npos;
  };
  // One string literal, redacted as the text it holds (escapes undone, so that a `\n` ends a
  // line for the rules that run to a line's end): the literal as it was when nothing is hidden.
  auto literal = [&](std::string_view lit) {
    const auto value = string_value(lit);
    if (!value) return append_redacted(out, lit);
    const std::string hidden = redact(*value);
    if (hidden == *value) {
      out.append(lit);
    } else {
      out += '"';
      out += json_escape(hidden);
      out += '"';
    }
  };
  std::size_t i = 0;
  while (i < body.size()) {
    const std::size_t q = body.find('"', i);
    if (q == std::string_view::npos) {
      out.append(body.substr(i));
      break;
    }
    out.append(body.substr(i, q - i));
    const std::size_t end = literal_end(q);
    if (end == std::string_view::npos) {
      append_redacted(out, body.substr(q));  // an unterminated string: the rest as free text
      break;
    }
    // `"name": "value"`: a member whose name the rules call secret (`"password": "..."`) has
    // its value hidden whole.
    std::size_t k = end;
    while (k < body.size() && (body[k] == ' ' || body[k] == '\t')) ++k;
    if (k < body.size() && body[k] == ':') {
      std::size_t v = k + 1;
      while (v < body.size() && (body[v] == ' ' || body[v] == '\t')) ++v;
      if (v < body.size() && body[v] == '"') {
        const std::size_t vend = literal_end(v);
        const auto name = string_value(body.substr(q, end - q));
        if (vend != std::string_view::npos && name) {
          const std::string probe = "\"" + *name + "\": \"x\"";
          if (redact(probe) != probe) {
            out.append(body.substr(q, v - q));
            out += "\"[REDACTED]\"";
          } else {
            out.append(body.substr(q, v - q));
            literal(body.substr(v, vend - v));
          }
          i = vend;
          continue;
        }
      }
    }
    literal(body.substr(q, end - q));
    i = end;
  }
  return out;
}

}  // namespace mcptriage
