// Text safety: JSON string escaping, terminal escaping, and redaction of credentials.

#include <array>
#include <cctype>
#include <cstdint>

#include "json/dom.hpp"
#include "mcptriage/render.hpp"
#include "render/text_detail.hpp"

namespace mcptriage {
namespace {

/// Length of the valid UTF-8 sequence at s[i], or 0 when invalid (RFC 3629 §4).
std::size_t utf8_len(std::string_view s, std::size_t i) {
  const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  unsigned char c = b(i);
  if (c < 0x80) return 1;
  std::size_t n = 0;
  std::uint32_t cp = 0;
  if (c >= 0xC2 && c <= 0xDF) { n = 2; cp = c & 0x1Fu; }
  else if (c >= 0xE0 && c <= 0xEF) { n = 3; cp = c & 0x0Fu; }
  else if (c >= 0xF0 && c <= 0xF4) { n = 4; cp = c & 0x07u; }
  else return 0;
  if (i + n > s.size()) return 0;
  for (std::size_t k = 1; k < n; ++k) {
    if ((b(i + k) & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (b(i + k) & 0x3Fu);
  }
  if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10FFFF)) || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return n;
}

constexpr char kHex[] = "0123456789abcdef";

}  // namespace

void detail::append_json_escape(std::string& out, unsigned char c) {
  switch (c) {
    case '"': out += "\\\""; break;
    case '\\': out += "\\\\"; break;
    case '\n': out += "\\n"; break;
    case '\r': out += "\\r"; break;
    case '\t': out += "\\t"; break;
    case '\b': out += "\\b"; break;
    case '\f': out += "\\f"; break;
    default:
      out += "\\u00";
      out += kHex[c >> 4];
      out += kHex[c & 0xF];
  }
}

std::string json_escape(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 8);
  append_json_escaped(out, s);
  return out;
}

bool append_json_escaped(std::string& out, std::string_view s) {
  // Valid UTF-8 (json::valid_utf8, SIMD) is copied as is but for the ASCII escapes; only
  // invalid text stops at every non-ASCII byte to find the bytes that become U+FFFD. Runs that
  // need nothing are found with one table look-up per byte and copied at once.
  static constexpr auto kStop = [](bool stop_non_ascii) {
    std::array<bool, 256> t{};
    for (int c = 0; c < 256; ++c) t[static_cast<std::size_t>(c)] = c < 0x20 || c == 0x7F || c == '"' || c == '\\' || (stop_non_ascii && c >= 0x80);
    return t;
  };
  static constexpr std::array<bool, 256> kStopValid = kStop(false);
  static constexpr std::array<bool, 256> kStopInvalid = kStop(true);
  const bool valid = json::valid_utf8(s);
  const std::array<bool, 256>& stop = valid ? kStopValid : kStopInvalid;
  std::size_t i = 0;
  while (i < s.size()) {
    std::size_t j = i;
    while (j < s.size() && !stop[static_cast<unsigned char>(s[j])]) ++j;
    out.append(s.data() + i, j - i);
    if (j == s.size()) break;
    const auto c = static_cast<unsigned char>(s[j]);
    if (c < 0x80) {
      detail::append_json_escape(out, c);
      i = j + 1;
      continue;
    }
    const std::size_t n = utf8_len(s, j);
    if (n == 0) {
      out += "\\ufffd";
      i = j + 1;
    } else {
      out.append(s.substr(j, n));
      i = j + n;
    }
  }
  return valid;
}

void append_json_string(std::string& out, std::string_view s) {
  out += '"';
  append_json_escaped(out, s);
  out += '"';
}

std::string to_valid_utf8(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    std::size_t n = utf8_len(s, i);
    if (n == 0) {
      out += "\xEF\xBF\xBD";
      ++i;
    } else {
      out.append(s.substr(i, n));
      i += n;
    }
  }
  return out;
}

namespace {

/// The bidirectional formatting control (U+061C, U+200E, U+200F, U+202A..U+202E,
/// U+2066..U+2069; Unicode UAX #9) encoded in the `n` bytes at `i`, or 0.
char32_t bidi_control(std::string_view s, std::size_t i, std::size_t n) {
  const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[i + k]); };
  if (n == 2) return b(0) == 0xD8 && b(1) == 0x9C ? U'\u061C' : 0;
  if (n != 3 || b(0) != 0xE2) return 0;
  const char32_t cp = 0x2000 + ((b(1) & 0x3Fu) << 6) + (b(2) & 0x3Fu);
  const bool bidi = cp == 0x200E || cp == 0x200F || (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069);
  return bidi ? cp : 0;
}

/// The code point in the `n` UTF-8 bytes at `i` that a terminal acts on beyond C0 controls: a
/// C1 control (U+0080..U+009F, C2 80..C2 9F) or a bidirectional formatting control; else 0.
char32_t terminal_control(std::string_view s, std::size_t i, std::size_t n) {
  if (n == 2 && static_cast<unsigned char>(s[i]) == 0xC2 && static_cast<unsigned char>(s[i + 1]) < 0xA0) {
    return static_cast<unsigned char>(s[i + 1]);
  }
  return n >= 2 ? bidi_control(s, i, n) : 0;
}

/// Appends `\uXXXX` for a code point of the Basic Multilingual Plane.
void append_u_escape(std::string& out, char32_t cp) {
  out += "\\u";
  for (int shift = 12; shift >= 0; shift -= 4) out += kHex[(cp >> shift) & 0xF];
}

}  // namespace

std::string detail::escape_terminal_controls_json(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    const std::size_t n = c < 0x80 ? 1 : utf8_len(s, i);
    if (const char32_t cp = terminal_control(s, i, n); cp != 0) {
      append_u_escape(out, cp);
    } else {
      out.append(s.substr(i, n == 0 ? 1 : n));
    }
    i += n == 0 ? 1 : n;
  }
  return out;
}

std::string escape_terminal(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c < 0x20 || c == 0x7F) {
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 0xF];
      ++i;
      continue;
    }
    if (c < 0x80) {
      out += static_cast<char>(c);
      ++i;
      continue;
    }
    std::size_t n = utf8_len(s, i);
    if (n == 0) {
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 0xF];
      ++i;
      continue;
    }
    // C1 controls, and bidirectional formatting controls, which reorder the rest of the line on
    // screen (a capture's U+202E could make a row read backwards; "Trojan Source",
    // CVE-2021-42574): shown escaped.
    if (const char32_t cp = terminal_control(s, i, n); cp != 0) {
      append_u_escape(out, cp);
    } else {
      out.append(s.substr(i, n));
    }
    i += n;
  }
  return out;
}

bool is_valid_utf8(std::string_view s) { return json::valid_utf8(s); }

// redact() and the other redaction functions: src/render/redact.cpp.

}  // namespace mcptriage
