// Header and token helpers (tokens.hpp): case, white space, field lines, lists, Content-Length.
#include "http/tokens.hpp"

#include <algorithm>

namespace mcptriage::http {

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (ascii_lower(a[i]) != ascii_lower(b[i])) return false;
  }
  return true;
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = ascii_lower(c);
  return out;
}

bool icontains(std::string_view hay, std::string_view needle) {
  if (needle.size() > hay.size()) return false;
  const auto eq = [](char a, char b) { return ascii_lower(a) == ascii_lower(b); };
  return std::search(hay.begin(), hay.end(), needle.begin(), needle.end(), eq) != hay.end() || needle.empty();
}

bool all_space(std::string_view s) { return std::all_of(s.begin(), s.end(), is_space); }

std::string_view trim_ows(std::string_view s) {
  const auto edge = [](char c) { return is_ows(c) || c == '\r' || c == '\n'; };
  while (!s.empty() && edge(s.front())) s.remove_prefix(1);
  while (!s.empty() && edge(s.back())) s.remove_suffix(1);
  return s;
}

bool is_token(std::string_view s) { return !s.empty() && std::all_of(s.begin(), s.end(), is_tchar); }

std::string_view field_line_name(std::string_view line) {
  std::size_t i = 0;
  while (i < line.size() && is_tchar(line[i])) ++i;
  if (i == 0 || i >= line.size() || line[i] != ':') return {};
  return line.substr(0, i);
}

std::optional<Header> parse_field_line(std::string_view line) {
  const std::string_view name = field_line_name(line);
  if (name.empty()) return std::nullopt;
  return Header{std::string(name), std::string(trim_ows(line.substr(name.size() + 1)))};
}

std::vector<std::string_view> list_items(std::string_view value) {
  std::vector<std::string_view> out;
  while (true) {
    const std::size_t comma = value.find(',');
    const std::string_view item = trim_ows(value.substr(0, comma));
    if (!item.empty()) out.push_back(item);
    if (comma == std::string_view::npos) break;
    value.remove_prefix(comma + 1);
  }
  return out;
}

bool list_has(std::string_view value, std::string_view token) {
  for (std::string_view item : list_items(value)) {
    if (iequals(trim_ows(item.substr(0, item.find(';'))), token)) return true;
  }
  return false;
}

std::optional<std::size_t> parse_content_length(std::string_view value) {
  value = trim_ows(value);
  if (value.empty() || value.size() > 18) return std::nullopt;
  std::size_t n = 0;
  for (char c : value) {
    if (c < '0' || c > '9') return std::nullopt;
    n = n * 10 + static_cast<std::size_t>(c - '0');
  }
  return n;
}

std::optional<std::size_t> content_length(const Headers& headers) {
  std::optional<std::size_t> out;
  for (const Header& h : headers) {
    if (!iequals(h.name, "Content-Length")) continue;
    // "42, 42" (a combined field) is the same length twice; an empty element is no length.
    std::string_view v = h.value;
    while (true) {
      const std::size_t comma = v.find(',');
      const auto n = parse_content_length(v.substr(0, comma));
      if (!n || (out && *out != *n)) return std::nullopt;
      out = n;
      if (comma == std::string_view::npos) break;
      v.remove_prefix(comma + 1);
    }
  }
  return out;
}

std::optional<std::string> invalid_content_length(const Headers& headers) {
  std::optional<std::string> values;
  for (const Header& h : headers) {
    if (!iequals(h.name, "Content-Length")) continue;
    values = values ? *values + ", " + h.value : h.value;
  }
  if (!values || content_length(headers)) return std::nullopt;
  return values;
}

}  // namespace mcptriage::http
