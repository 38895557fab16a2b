// Header and token helpers for every module that reads HTTP text or header values (capture
// readers, the classifier, redaction): ASCII case and white space, tokens, field lines, lists,
// Content-Length. ASCII only and locale-free (header names and tokens are ASCII, RFC 9110 §5.6.2),
// so a byte outside ASCII is never folded; nothing allocates unless it returns a string.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "mcptriage/exchange.hpp"

namespace mcptriage::http {

/// `c` lower-cased when it is an ASCII capital letter, else `c`.
constexpr char ascii_lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

/// ASCII case-insensitive equality (header names, tokens, RFC 9110 §5.1).
bool iequals(std::string_view a, std::string_view b);

/// `s` with its ASCII capital letters lower-cased.
std::string lower(std::string_view s);

/// True when `needle` occurs in `hay`, ASCII case-insensitively ("" occurs everywhere).
bool icontains(std::string_view hay, std::string_view needle);

/// OWS: space or horizontal tab (RFC 9110 §5.6.3).
constexpr bool is_ows(char c) { return c == ' ' || c == '\t'; }

/// White space as C's isspace in the "C" locale: space, tab, LF, VT, FF, CR.
constexpr bool is_space(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

/// True when every byte of `s` is is_space (true for "").
bool all_space(std::string_view s);

/// `s` without OWS, CR and LF at either end (a header value or a list item as captured).
std::string_view trim_ows(std::string_view s);

/// tchar (RFC 9110 §5.6.2): a letter, a digit or one of ``!#$%&'*+-.^_`|~``.
constexpr bool is_tchar(char c) {
  if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) return true;
  return std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos;
}

/// True when `s` is a token: one or more tchar (RFC 9110 §5.6.2).
bool is_token(std::string_view s);

/// The field name of a field line `name: value` (RFC 9112 §5.1: a token, then a colon with no
/// white space before it), or "" when `line` is not one.
std::string_view field_line_name(std::string_view line);

/// A field line `name: value` (RFC 9112 §5.1; `line` without its line end): the name as
/// written, the value without OWS (trim_ows). nullopt when `line` is not a field line.
std::optional<Header> parse_field_line(std::string_view line);

/// The elements of a comma-separated list (RFC 9110 §5.6.1), each trim_ows'd, empty ones left
/// out (a recipient ignores them); views into `value`, parameters kept (`gzip;q=1`).
std::vector<std::string_view> list_items(std::string_view value);

/// True when the list `value` holds `token` (case-insensitive), its parameters (`;...`) ignored:
/// `Transfer-Encoding: gzip, Chunked` holds "chunked".
bool list_has(std::string_view value, std::string_view token);

/// A Content-Length value (RFC 9110 §8.6: 1*DIGIT; OWS, CR and LF around it ignored; at most
/// 18 digits, so that it fits any size_t). nullopt otherwise.
std::optional<std::size_t> parse_content_length(std::string_view value);

/// The message's Content-Length when every Content-Length field, and every element of a
/// combined field (`42, 42`), gives the same valid length (RFC 9112 §6.3 rule 5); nullopt when
/// there is none or they disagree.
std::optional<std::size_t> content_length(const Headers& headers);

/// The Content-Length field values as sent (several fields joined by ", ") when the message has
/// a Content-Length that gives no one valid length: not 1*DIGIT (`abc`, `+75`, empty), more
/// than 18 digits, or values that disagree (`75, 500`, or two fields). RFC 9112 §6.3 rule 5:
/// the framing of such a message is invalid, and a user agent must discard the response.
/// nullopt when there is no Content-Length or it is valid.
std::optional<std::string> invalid_content_length(const Headers& headers);

}  // namespace mcptriage::http
