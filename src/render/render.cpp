// JSON Lines and table renderers (docs/output.md).
#include <locale.h>
#include <wchar.h>

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <iterator>
#include <optional>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "mcptriage/http.hpp"
#include "mcptriage/render.hpp"
#include "render/redact_detail.hpp"
#include "render/text_detail.hpp"

namespace mcptriage {

namespace {

/// The first index from `i` (at least 1: the byte before is read) at which `s` (of size `n`) has
/// a byte that append_plain_escaped must look at, 16 bytes at a time: a control byte, DEL, `"`,
/// `\\`, `:`, `=`, a space after a `c` or an `r` (the ends of `basic` and `bearer`), and a non-ASCII
/// byte unless `non_ascii_plain`. May stop early (at the last 15 bytes); never skips such a byte.
/// The records' text is the one long run of bytes the renderer scans (docs/performance.md).
std::size_t skip_plain(const char* s, std::size_t i, std::size_t n, bool non_ascii_plain) {
#if defined(__SSE2__)
  const __m128i below_space = _mm_set1_epi8(0x1F);
  const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\'), colon = _mm_set1_epi8(':');
  const __m128i equals = _mm_set1_epi8('='), del = _mm_set1_epi8(0x7F), space = _mm_set1_epi8(' ');
  const __m128i lower = _mm_set1_epi8(0x20), c = _mm_set1_epi8('c'), r = _mm_set1_epi8('r');
  for (; i + 16 <= n; i += 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + i));
    const __m128i before = _mm_or_si128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(s + i - 1)), lower);
    __m128i m = _mm_cmpeq_epi8(_mm_min_epu8(v, below_space), v);  // below 0x20, unsigned
    m = _mm_or_si128(m, _mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash)));
    m = _mm_or_si128(m, _mm_or_si128(_mm_cmpeq_epi8(v, colon), _mm_cmpeq_epi8(v, equals)));
    m = _mm_or_si128(m, _mm_cmpeq_epi8(v, del));
    m = _mm_or_si128(m, _mm_and_si128(_mm_cmpeq_epi8(v, space),
                                      _mm_or_si128(_mm_cmpeq_epi8(before, c), _mm_cmpeq_epi8(before, r))));
    auto mask = static_cast<unsigned>(_mm_movemask_epi8(m));
    if (!non_ascii_plain) mask |= static_cast<unsigned>(_mm_movemask_epi8(v));
    if (mask != 0) return i + static_cast<std::size_t>(__builtin_ctz(mask));
  }
#else
  (void)s, (void)n, (void)non_ascii_plain;
#endif
  return i;
}

}  // namespace

/// The common case of a printed string in one pass: valid UTF-8 in which no redaction rule can
/// fire, appended JSON-escaped to `out` (as append_redacted, then append_json_escaped, would).
/// Returns false, with `out` as it was, when the text needs the general path: it is not UTF-8
/// (U+FFFD and a `_bytes` sibling), or it may hold a credential (detail::credential_trigger).
bool detail::append_plain_escaped(std::string& out, std::string_view s) {
  enum : unsigned char { kPlain, kEscape, kTrigger, kSpace, kNonAscii };
  static constexpr auto kClasses = [](bool utf8_checked) {
    std::array<unsigned char, 256> t{};
    for (int c = 0; c < 256; ++c) {
      auto& k = t[static_cast<std::size_t>(c)];
      if (c >= 0x80) k = utf8_checked ? kPlain : kNonAscii;
      else if (c < 0x20 || c == 0x7F || c == '"' || c == '\\') k = kEscape;
      else if (c == ' ') k = kSpace;
      else if (c == ':' || c == '=') k = kTrigger;
    }
    return t;
  };
  static constexpr std::array<unsigned char, 256> kAscii = kClasses(false);
  static constexpr std::array<unsigned char, 256> kUtf8 = kClasses(true);
  const std::array<unsigned char, 256>* cls = &kAscii;
  const bool redacting = redaction_enabled();
  // White space (a space, or an escaped tab or line end) fires only after "basic" or "bearer"
  // (credential_trigger), so only a 'c' or an 'r' before it is worth the call: the commonest byte.
  auto ends_scheme = [&](std::size_t i) {
    return redacting && i >= 5 && ((s[i - 1] | 0x20) == 'c' || (s[i - 1] | 0x20) == 'r') &&
           detail::credential_trigger(s, i);
  };
  const std::size_t start = out.size();
  const std::size_t n = s.size();
  std::size_t run = 0;
  std::size_t i = 0;
  for (;;) {
    if (i > 0) i = skip_plain(s.data(), i, n, cls == &kUtf8);
    while (i < n && (*cls)[static_cast<unsigned char>(s[i])] == kPlain) ++i;
    if (i == n) break;
    const auto c = static_cast<unsigned char>(s[i]);
    switch ((*cls)[c]) {
      case kSpace:
        if (ends_scheme(i)) {
          out.resize(start);
          return false;
        }
        ++i;
        continue;
      case kTrigger:
        if (redacting && detail::credential_trigger(s, i)) {
          out.resize(start);
          return false;
        }
        ++i;
        continue;
      case kNonAscii:
        // The first non-ASCII byte: the whole text is checked once (simdjson, SIMD).
        if (!is_valid_utf8(s)) {
          out.resize(start);
          return false;
        }
        cls = &kUtf8;
        continue;
      default:
        if (c >= '\t' && c <= '\r' && ends_scheme(i)) {  // escaped white space
          out.resize(start);
          return false;
        }
        break;
    }
    out.append(s.data() + run, i - run);
    detail::append_json_escape(out, c);
    run = ++i;
  }
  out.append(s.data() + run, n - run);
  return true;
}

std::string base64_encode(std::string_view bytes) {
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

namespace {

using detail::append_plain_escaped;


std::string base64(std::string_view bytes) { return base64_encode(bytes); }

/// Appends `"key":"value"` for a string field (redacted, RFC 8259 escaped); `null` for an empty
/// value when `null_if_empty`. A value that is not UTF-8 is shown with U+FFFD and followed by a
/// sibling `"key_bytes":"<base64 of the raw bytes>"` (docs/output.md, lossless bytes).
/// `open` is the member's start as one literal, `"key":"` (appended at once: this runs some
/// twenty times per record).
void append_kv(std::string& out, std::string_view open, std::string_view value, bool null_if_empty = false) {
  if (null_if_empty && value.empty()) {
    out.append(open.data(), open.size() - 1);  // without the value's opening quote
    out += "null";
    return;
  }
  out += open;
  if (append_plain_escaped(out, value)) {
    out += '"';
    return;
  }
  // Text the redaction filter lets through is escaped straight from `value`; the rest is
  // redacted into one scratch buffer per thread first (no allocation per field).
  std::string_view shown = value;
  if (redaction_enabled() && detail::may_hold_credential(value)) {
    thread_local std::string redacted;
    redacted.clear();
    detail::append_redacted_scan(redacted, value);
    shown = redacted;
  }
  const bool valid = append_json_escaped(out, shown);
  out += '"';
  if (!valid) {
    out += ",\"";
    out += open.substr(1, open.size() - 4);  // the key
    out += "_bytes\":\"";
    out += base64(shown);
    out += '"';
  }
}

void append_kv_id(std::string& out, std::string_view open, const std::optional<JsonRpcId>& id) {
  if (id && id->kind == JsonRpcId::Kind::string) return append_kv(out, open, id->text);
  out.append(open.data(), open.size() - 1);
  if (!id) {
    out += "null";
  } else if (id->kind == JsonRpcId::Kind::integer || id->kind == JsonRpcId::Kind::other) {
    out += id->text;  // digits, or raw JSON (a float, object...) when not a valid id
  } else {
    out += id->to_json();
  }
}

/// Columns a code point takes on a terminal: glibc's wcwidth() (Unicode East Asian Width:
/// wide characters and emoji take 2, combining marks 0) under the C.UTF-8 locale, which the
/// program itself does not run in; 1 when that locale is missing or wcwidth() does not know it.
int columns_of(char32_t cp) {
  static const locale_t utf8 = newlocale(LC_CTYPE_MASK, "C.UTF-8", static_cast<locale_t>(0));
  if (utf8 == static_cast<locale_t>(0)) return 1;
  const locale_t before = uselocale(utf8);
  const int w = wcwidth(static_cast<wchar_t>(cp));
  uselocale(before);
  return w < 0 ? 1 : w;
}

/// Display width of UTF-8 text in terminal columns (a table cell, escaped already: no control
/// characters, valid UTF-8; a byte that does not decode counts as one column).
std::size_t width(std::string_view s) {
  std::size_t w = 0;
  for (std::size_t i = 0; i < s.size();) {
    const auto b = static_cast<unsigned char>(s[i]);
    if (b < 0x80) {
      ++w;
      ++i;
      continue;
    }
    const std::size_t n = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC0 ? 2 : 1;
    if (n == 1 || i + n > s.size()) {
      ++w;
      ++i;
      continue;
    }
    char32_t cp = b & (n == 2 ? 0x1F : n == 3 ? 0x0F : 0x07);
    for (std::size_t k = 1; k < n; ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
    w += static_cast<std::size_t>(columns_of(cp));
    i += n;
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

std::string render_jsonl(const Record& r, std::string_view input) {
  std::string out;
  out.reserve(1024);
  append_jsonl(out, r, input);
  return out;
}

void append_jsonl(std::string& out, const Record& r, std::string_view input) {
  append_jsonl_head(out, r, input);
  append_jsonl_tail(out, r);
}

namespace {

/// `"source":"NAME#N",` (source_text), on the output thread once per record: the escaped
/// "NAME#" is kept while the name stays the same. Only a name that needs no redaction and is
/// UTF-8 is kept; then "NAME#" + digits (and "[k]") needs none either, as no credential rule
/// fires on '#', digits or brackets (detail::may_hold_credential), and the rest is escaped as
/// append_kv would.
void append_source(std::string& out, std::string_view input, const SourceRef& ref) {
  struct Kept {
    std::string name;     ///< the input name
    std::string escaped;  ///< the JSON escape of "NAME#", or "" when it may not be kept
  };
  thread_local Kept kept;
  if (ref.exchange != 0) {
    if (input != kept.name) {
      // append_plain_escaped refuses text that is not UTF-8 or that a redaction rule may change.
      kept.name.assign(input);
      kept.escaped.clear();
      std::string prefix(input);
      prefix += '#';
      if (!append_plain_escaped(kept.escaped, prefix)) kept.escaped.clear();
    }
    if (!kept.escaped.empty()) {
      out += "\"source\":\"";
      out += kept.escaped;
      append_source_number(out, ref);
      out += '"';
      return;
    }
  }
  thread_local std::string text;
  text.clear();
  append_source_text(text, input, ref);
  append_kv(out, "\"source\":\"", text);
}

}  // namespace

void append_jsonl_head(std::string& out, const Record& r, std::string_view input) {
  out += "{\"schema\":";
  char digits[16];
  out.append(digits, static_cast<std::size_t>(std::to_chars(digits, digits + sizeof digits, kSchemaVersion).ptr - digits));
  out += ",\"kind\":\"exchange\",";
  append_source(out, input, r.source);
  out += ',';
  append_kv(out, "\"format\":\"", to_string(r.format));
  out += ',';
}

void append_retry_member(std::string& out, const RetryAdvice& retry) {
  out += "\"retry\":{\"advice\":\"";
  out += to_string(retry.advice);
  out += "\",";
  append_kv(out, "\"detail\":\"", retry.text);
  out += ",\"after_ms\":";
  if (retry.after_ms) fmt::format_to(std::back_inserter(out), "{}", *retry.after_ms);
  else out += "null";
  out += ",\"safe\":";
  out += retry.safe ? (*retry.safe ? "true" : "false") : "null";
  out += ',';
  append_kv(out, "\"safe_source\":\"", retry.safe_source);
  out += '}';
}

bool replace_retry_member(std::string& tail, const RetryAdvice& retry) {
  // Inside a JSON string every '"' follows a backslash, so `,"retry":{"advice":"` and
  // `},"warnings":[` (a quote after a comma) can only be the members themselves.
  static constexpr std::string_view kStart = ",\"retry\":{\"advice\":\"";
  static constexpr std::string_view kNext = "},\"warnings\":[";
  const std::size_t start = tail.find(kStart);
  if (start == std::string::npos) return false;
  const std::size_t next = tail.find(kNext, start + kStart.size());
  if (next == std::string::npos) return false;
  thread_local std::string member;
  member.clear();
  append_retry_member(member, retry);
  tail.replace(start + 1, next + 1 - (start + 1), member);
  return true;
}

void append_jsonl_tail(std::string& out, const Record& r) {
  // Appended to in order, into the caller's buffer: this runs once per exchange (docs/performance.md).
  const Classification& c = r.c;
  // Inlined: as an outlined call, the fixed punctuation alone cost 1% of a run (callgrind).
  auto put = [&out](auto&&... parts) __attribute__((always_inline)) { (out.append(std::string_view(parts)), ...); };
  auto num = [&out](auto value) { fmt::format_to(std::back_inserter(out), "{}", value); };
  auto boolean = [](bool b) { return b ? std::string_view("true") : std::string_view("false"); };
  put("\"outcome\":\"", to_string(c.outcome), "\",\"layer\":\"", to_string(c.layer), "\",\"failed\":",
      boolean(c.outcome == Outcome::AUTH_LEG ? c.reason == Reason::auth_leg_failed : !is_success(c.outcome)), ",");
  append_kv(out, "\"reason\":\"", to_string(c.reason));
  // The reason's spec section (the catalogue): plain ASCII with nothing to escape (Catalogue.* checks).
  put(",\"spec\":\"", reason_entry(c.reason).spec, "\",");
  append_kv(out, "\"detail\":\"", c.detail);
  put(",");
  append_kv(out, "\"pointer\":\"", c.pointer, true);
  put(",\"http\":{\"status\":");
  num(c.http_status);
  put(",");
  append_kv(out, "\"content_type\":\"", c.content_type, true);
  put(",\"transport_captured\":", boolean(c.transport_captured), "},\"jsonrpc\":{");
  append_kv_id(out, "\"id\":\"", c.response_id);
  put(",");
  append_kv_id(out, "\"request_id\":\"", c.request_id);
  put(",\"id_checked\":", boolean(c.id_checked), ",\"error\":");
  if (c.error_code) {
    put("{\"code\":");
    num(*c.error_code);
    put(",");
    append_kv(out, "\"message\":\"", c.error_message);
    put("}},");
  } else {
    put("null},");
  }
  append_kv(out, "\"method\":\"", c.method, true);
  put(",");
  append_kv(out, "\"tool\":\"", c.tool, true);
  put(",\"method_source\":\"", to_string(c.method_source), "\",\"notification\":", boolean(c.notification), ",");
  append_kv(out, "\"result_type\":\"", c.result_type, true);
  put(",");
  append_kv(out, "\"protocol_version\":\"", c.protocol_version, true);
  put(",");
  append_kv(out, "\"protocol_version_source\":\"", c.protocol_version_source, true);
  put(",");
  if (http::media_type_is(c.content_type, "text/event-stream") || r.format == CaptureFormat::bare_sse) {
    put("\"stream\":{\"events\":");
    num(c.sse_events);
    put(",\"resumable\":", c.resumable ? boolean(*c.resumable) : std::string_view("null"), ",\"retry_ms\":");
    if (c.stream_retry_ms) num(*c.stream_retry_ms);
    else put("null");
    put("},");
  } else {
    put("\"stream\":null,");
  }
  append_retry_member(out, c.retry);
  put(",");
  // warnings, and `warnings_bytes` (null for each UTF-8 warning) only when one is not UTF-8
  std::string bytes;
  bool any_bytes = false;
  put("\"warnings\":[");
  for (std::size_t i = 0; i < c.warnings.size(); ++i) {
    put(i ? ",\"" : "\"");
    if (append_plain_escaped(out, c.warnings[i])) {
      put("\"");
      bytes += i ? ",null" : "null";
      continue;
    }
    const std::string shown = redact(c.warnings[i]);
    const bool valid = append_json_escaped(out, shown);
    put("\"");
    any_bytes = any_bytes || !valid;
    bytes += (i ? "," : "") + (valid ? std::string("null") : "\"" + base64(shown) + "\"");
  }
  put("]");
  if (any_bytes) put(",\"warnings_bytes\":[", bytes, "]");
  // The OpenTelemetry semantic-convention attributes (docs/output.md "otel").
  put(",");
  append_otel_member(out, r);
  put("}");
}

TableRow table_row(const Record& r, std::string_view input) {
  const Classification& c = r.c;
  std::string media = http::media_type(c.content_type);
  const bool messages = r.format == CaptureFormat::jsonrpc_messages;
  if (media.empty()) {
    media = c.transport_captured ? "-" : messages ? "(messages)" : (r.format == CaptureFormat::bare_sse ? "(sse)" : "(json)");
  }
  std::string http = c.transport_captured ? fmt::format("{} {}", c.http_status, media)
                                          : fmt::format("{}? {}", c.http_status, media);
  // The response's id, as the record's `jsonrpc.id` has it (`null` for `"id": null`); "-" when
  // the response has none (no JSON-RPC response, or an id left out), never the request's id.
  std::string id = c.response_id ? c.response_id->to_json() : "-";
  // An id is untrusted text: redacted like every printed string, and cut to kTableIdMax bytes
  // (at a UTF-8 boundary, then "…") so that one long id cannot widen every row of the table.
  constexpr std::size_t kTableIdMax = 40;
  id = redact(id);
  if (id.size() > kTableIdMax) {
    std::size_t cut = kTableIdMax;
    while (cut > 0 && (static_cast<unsigned char>(id[cut]) & 0xC0) == 0x80) --cut;
    id.resize(cut);
    id += "\xE2\x80\xA6";
  }
  TableRow row;
  row.cells = {escape_terminal(redact(source_text(input, r.source))), escape_terminal(http), escape_terminal(id),
               std::string(to_string(c.outcome)), std::string(to_string(c.layer)), escape_terminal(to_string(c.reason)),
               std::string(to_string(c.retry.advice))};
  row.outcome = c.outcome;
  row.detail = escape_terminal(redact(c.detail));
  if (c.retry.advice != Advice::none) row.retry = escape_terminal(redact(c.retry.text));
  row.message_stream = !c.transport_captured && messages;
  row.status_assumed = !c.transport_captured && !messages;
  return row;
}

std::string table_legend(bool status_assumed, bool message_stream) {
  std::string out;
  if (status_assumed) {
    out += "legend: 200? = status assumed, not captured (curl -s saves no status line or headers: use curl -si, "
           "or give --status N)\n";
  }
  if (message_stream) {
    out += "legend: (messages) = a JSON-RPC message stream (stdio, a message log): no HTTP layer, so no status "
           "(200 assumed)\n";
  }
  return out;
}

std::string render_table(const std::vector<Record>& records, std::string_view input, bool color) {
  std::vector<TableRow> rows;
  rows.reserve(records.size());
  for (const auto& r : records) rows.push_back(table_row(r, input));
  return render_table(rows, color);
}

namespace {
const std::array<std::string, TableRow::kColumns> kTableHead{"SOURCE", "HTTP", "ID", "OUTCOME", "LAYER", "REASON", "RETRY"};
}  // namespace

TableWidths table_header_widths() {
  TableWidths w{};
  for (std::size_t k = 0; k < TableRow::kColumns; ++k) w[k] = width(kTableHead[k]);
  return w;
}

std::string render_table(const std::vector<TableRow>& rows, bool color) {
  TableWidths w = table_header_widths();
  return render_table_page(rows, color, w, true);
}

std::string render_table_page(const std::vector<TableRow>& rows, bool color, TableWidths& w, bool header) {
  constexpr std::size_t kCols = TableRow::kColumns;
  for (const auto& row : rows) {
    for (std::size_t k = 0; k < kCols; ++k) w[k] = std::max(w[k], width(row.cells[k]));
  }
  std::string out;
  auto line = [&](const std::array<std::string, kCols>& cells, std::optional<Outcome> outcome) {
    for (std::size_t k = 0; k < kCols; ++k) {
      const std::string& cell = cells[k];
      if (color && outcome && k == 3) {
        out += color_of(*outcome);
        out += cell;
        out += "\x1b[0m";
      } else {
        out += cell;
      }
      if (k + 1 < kCols) out.append(w[k] - width(cell) + 2, ' ');
    }
    out += '\n';
  };
  if (header) line(kTableHead, std::nullopt);
  for (const TableRow& row : rows) {
    line(row.cells, row.outcome);
    out += "  ";
    out += row.detail;
    out += '\n';
    if (!row.retry.empty()) {
      out += "  retry: ";
      out += row.retry;
      out += '\n';
    }
    out += row.notes;
  }
  return out;
}

void append_wrapped(std::string& out, std::string_view text, std::size_t indent, std::string_view lead,
                    std::size_t width) {
  std::string line = lead.empty() ? std::string(indent, ' ') : std::string(lead);
  bool line_has_word = false;
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t end = text.find(' ', pos);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view word = text.substr(pos, end - pos);
    pos = end + 1;
    if (word.empty()) continue;
    if (line_has_word && line.size() + 1 + word.size() > width) {
      out += line;
      out += '\n';
      line.assign(indent, ' ');
      line_has_word = false;
    }
    if (line_has_word) line += ' ';
    line += word;
    line_has_word = true;
  }
  out += line;
  out += '\n';
}

}  // namespace mcptriage
