// HTTP text reader's parts (http_text_parts.hpp): lines, request lines, header blocks and the
// body helpers (trailers, statuses without content, a header file alone).

#include "capture/http_text_parts.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "http/tokens.hpp"
#include "json/dom.hpp"
#include "mcptriage/http.hpp"

namespace mcptriage::capture::http_text_parts {

namespace {
constexpr std::size_t kMaxTrailerNames = 16;
}  // namespace

// ---------------------------------------------------------------------------------------
// Small text helpers

using http::all_space;
using http::field_line_name;
using http::iequals;
using http::is_ows;
using http::parse_field_line;
using http::trim_ows;

Line line_at(std::string_view s, std::size_t begin) {
  Line line;
  line.begin = begin;
  const std::size_t lf = s.find('\n', begin);
  const std::size_t end = lf == npos ? s.size() : lf;
  line.content = s.substr(begin, end - begin);
  line.next = lf == npos ? s.size() : lf + 1;
  line.terminated = lf != npos;
  while (!line.content.empty() && line.content.back() == '\r') line.content.remove_suffix(1);
  return line;
}

bool is_method_char(char c) { return (c >= 'A' && c <= 'Z') || c == '-' || c == '_'; }

/// RFC 9112 §3: method SP request-target SP HTTP-version. Methods are upper-case tokens here.
std::optional<RequestLine> parse_request_line(std::string_view line) {
  std::size_t i = 0;
  while (i < line.size() && i <= 24 && is_method_char(line[i])) ++i;
  if (i == 0 || i >= line.size() || line[i] != ' ') return std::nullopt;
  const std::size_t target_begin = i + 1;
  const std::size_t sp = line.find(' ', target_begin);
  if (sp == npos || sp == target_begin) return std::nullopt;
  for (std::size_t k = target_begin; k < sp; ++k) {
    if (static_cast<unsigned char>(line[k]) <= 0x20 || line[k] == 0x7f) return std::nullopt;
  }
  const std::string_view version = line.substr(sp + 1);
  const bool ok = version.size() >= 6 && version.substr(0, 5) == "HTTP/" &&
                  (version.size() == 6 || version.size() == 8) && version[5] >= '0' &&
                  version[5] <= '9' &&
                  (version.size() == 6 ||
                   (version[6] == '.' && version[7] >= '0' && version[7] <= '9'));
  if (!ok) return std::nullopt;
  return RequestLine{std::string(line.substr(0, i)),
                     std::string(line.substr(target_begin, sp - target_begin)),
                     std::string(version)};
}

std::string status_text(int status, std::string_view reason) {
  std::string out = std::to_string(status);
  if (!reason.empty()) {
    out += ' ';
    out += reason;
  }
  return out;
}

/// True when `bytes` is exactly one JSON value (surrounding whitespace allowed).
bool holds_one_json_value(std::string_view bytes) {
  return json::is_one_value(bytes);
}

// ---------------------------------------------------------------------------------------
// Header blocks

/// Reads the field lines after a start line (RFC 9112 §5). obs-fold continuation lines are
/// joined to the previous value with one space (§5.2).
Block read_header_block(std::string_view text, std::size_t pos) {
  Block block;
  while (true) {
    if (pos >= text.size()) {
      block.end = BlockEnd::eof;
      block.body_start = text.size();
      return block;
    }
    const Line line = line_at(text, pos);
    if (!line.terminated) {
      block.end = BlockEnd::eof;
      block.body_start = text.size();
      block.partial_line_dropped = !line.content.empty();
      return block;
    }
    if (line.content.empty()) {
      block.end = BlockEnd::blank;
      block.body_start = line.next;
      return block;
    }
    if (is_ows(line.content.front()) && !block.headers.empty()) {
      const std::string_view more = trim_ows(line.content);
      if (!more.empty()) {
        std::string& value = block.headers.back().value;
        if (!value.empty()) value += ' ';
        value += more;
      }
    } else if (auto h = parse_field_line(line.content)) {
      block.headers.push_back(std::move(*h));
    } else {
      block.end = BlockEnd::non_field;
      block.body_start = line.begin;
      return block;
    }
    pos = line.next;
  }
}
// Body helpers

/// Removes trailer fields that curl prints straight after the body (`...}}X-Checksum: x\r\n`)
/// when a `Trailer` header announced them (RFC 9110 §6.6.2). Returns the body without them.
std::string_view strip_trailers(std::string_view body, std::string_view announced,
                                std::vector<std::string>& warnings) {
  std::vector<std::string> names;
  for (std::string_view item : http::list_items(announced)) {
    if (names.size() == kMaxTrailerNames) break;
    names.push_back(http::lower(item));
  }
  if (names.empty()) return body;

  std::vector<bool> used(names.size(), false);
  std::vector<std::string> removed;
  std::size_t cut = npos;
  std::size_t end = body.size();
  bool first = true;
  auto announced_index = [&](std::string_view name) -> std::size_t {
    for (std::size_t k = 0; k < names.size(); ++k) {
      if (!used[k] && iequals(names[k], name)) return k;
    }
    return npos;
  };
  for (std::size_t step = 0; step <= names.size() + 1; ++step) {
    if (end == 0 || body[end - 1] != '\n') break;
    const std::size_t lf = end - 1;
    const std::size_t prev_lf = lf == 0 ? npos : body.rfind('\n', lf - 1);
    const std::size_t begin = prev_lf == npos ? 0 : prev_lf + 1;
    std::string_view content = body.substr(begin, lf - begin);
    while (!content.empty() && content.back() == '\r') content.remove_suffix(1);
    if (content.empty()) {
      if (!first) break;
      first = false;  // the empty line that may end curl's trailer section
      end = begin;
      continue;
    }
    first = false;
    if (const std::string_view name = field_line_name(content); !name.empty()) {
      if (const std::size_t k = announced_index(name); k != npos) {
        used[k] = true;
        removed.emplace_back(name);
        cut = begin;
        end = begin;
        continue;
      }
    }
    if (std::all_of(used.begin(), used.end(), [](bool u) { return u; })) break;
    // The first trailer is glued to the last body byte: find the last "name:" in this line.
    const std::string lowered = http::lower(content);
    std::size_t best = npos;
    std::size_t best_k = npos;
    for (std::size_t k = 0; k < names.size(); ++k) {
      if (used[k]) continue;
      const std::size_t at = lowered.rfind(names[k] + ":");
      if (at != npos && at > 0 && (best == npos || at > best)) {
        best = at;
        best_k = k;
      }
    }
    if (best != npos) {
      removed.emplace_back(content.substr(best, names[best_k].size()));
      cut = begin + best;
    }
    break;
  }
  if (cut == npos) return body;
  std::string note = "trailer fields printed after the body removed:";
  for (std::size_t k = removed.size(); k-- > 0;) {
    note += ' ';
    note += removed[k];
  }
  warnings.push_back(std::move(note));
  return body.substr(0, cut);
}

/// Statuses whose responses never have content (RFC 9110 §6.4.1).
bool status_has_no_body(int status) { return status < 200 || status == 204 || status == 304; }

/// True when a response with nothing after its header block and no framing header (neither
/// `Content-Length` nor `Transfer-Encoding`) shows no body at all rather than an empty one: a
/// `curl -D` header file alone (docs/classification.md `body_absent`). A 2xx but 202 carries
/// content (RFC 9110 §15.3); a 202 with nothing after it is the empty reply to a notification,
/// and an event stream ended by closing the connection (RFC 9112 §6.3) may have sent nothing
/// (`empty_stream`). Other statuses are judged by their status alone, so they are left as they are.
bool unframed_body_absent(const Response& response, std::string_view body) {
  const auto type = find_header(response.headers, "Content-Type");
  return response.status >= 200 && response.status < 300 && response.status != 202 && all_space(body) &&
         !(type && http::media_type_is(*type, "text/event-stream")) &&
         !find_header(response.headers, "Content-Length") && !find_header(response.headers, "Transfer-Encoding");
}


}  // namespace mcptriage::capture::http_text_parts
