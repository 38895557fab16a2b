// HTTP helpers: status lines, header lookup, media types, chunked coding, Retry-After.
#include "mcptriage/http.hpp"

#include <algorithm>
#include <array>
#include <climits>
#include <cstdint>
#include <ctime>
#include <limits>
#include <utility>

#include "http/tokens.hpp"
#include "mcptriage/exchange.hpp"

namespace mcptriage {

std::optional<std::string_view> find_header(const Headers& headers, std::string_view name) {
  for (const Header& h : headers) {
    if (http::iequals(h.name, name)) return std::string_view(h.value);
  }
  return std::nullopt;
}

}  // namespace mcptriage

namespace mcptriage::http {

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/// One line of `s` starting at `pos`: content without its line end, and where the next
/// line starts. A line ends at LF (a CR before it is dropped); `terminated` is false at EOF.
struct RawLine {
  std::string_view content;
  std::size_t next = 0;
  bool terminated = false;
};

RawLine raw_line_at(std::string_view s, std::size_t pos) {
  RawLine line;
  const std::size_t lf = s.find('\n', pos);
  if (lf == std::string_view::npos) {
    line.content = s.substr(pos);
    line.next = s.size();
    line.terminated = false;
  } else {
    line.content = s.substr(pos, lf - pos);
    line.next = lf + 1;
    line.terminated = true;
  }
  if (!line.content.empty() && line.content.back() == '\r') line.content.remove_suffix(1);
  return line;
}

}  // namespace

std::optional<StatusLine> parse_status_line(std::string_view line) {
  while (!line.empty() && (line.back() == '\r' || line.back() == '\n')) line.remove_suffix(1);
  constexpr std::string_view kPrefix = "HTTP/";
  if (line.substr(0, kPrefix.size()) != kPrefix) return std::nullopt;
  std::size_t i = kPrefix.size();
  // HTTP-version: "HTTP/" DIGIT [ "." DIGIT ] (curl writes "HTTP/2" and "HTTP/3" for h2/h3).
  if (i >= line.size() || !is_digit(line[i])) return std::nullopt;
  ++i;
  if (i < line.size() && line[i] == '.') {
    if (i + 1 >= line.size() || !is_digit(line[i + 1])) return std::nullopt;
    i += 2;
  }
  StatusLine out;
  out.version = std::string(line.substr(0, i));
  if (i >= line.size() || line[i] != ' ') return std::nullopt;
  ++i;
  if (i + 3 > line.size() || !is_digit(line[i]) || !is_digit(line[i + 1]) ||
      !is_digit(line[i + 2])) {
    return std::nullopt;
  }
  out.status = (line[i] - '0') * 100 + (line[i + 1] - '0') * 10 + (line[i + 2] - '0');
  if (out.status < 100) return std::nullopt;
  i += 3;
  if (i < line.size()) {
    if (line[i] != ' ') return std::nullopt;  // "HTTP/1.1 2000" is not a status line
    std::string_view reason = line.substr(i + 1);
    for (char c : reason) {
      const auto u = static_cast<unsigned char>(c);
      if ((u < 0x20 && c != '\t') || u == 0x7f) return std::nullopt;
    }
    out.reason = std::string(trim_ows(reason));
  }
  return out;
}

std::string media_type(std::string_view content_type) {
  return lower(trim_ows(content_type.substr(0, content_type.find(';'))));
}

bool media_type_is(std::string_view content_type, std::string_view type) {
  const std::string_view own = trim_ows(content_type.substr(0, content_type.find(';')));
  if (own.size() != type.size()) return false;
  for (std::size_t i = 0; i < own.size(); ++i) {
    if (ascii_lower(own[i]) != type[i]) return false;
  }
  return true;
}

std::optional<Dechunked> dechunk(std::string_view body) {
  // RFC 9112 §7.1: chunk = chunk-size [ chunk-ext ] CRLF chunk-data CRLF; last-chunk = 1*"0"
  // [ chunk-ext ] CRLF; then trailer-section CRLF. A bare LF is accepted as a line end.
  // Past this a further hex digit would overflow size_t (16^15 on 64-bit).
  constexpr std::size_t kSizeLimit = std::size_t{1} << (sizeof(std::size_t) * 8 - 4);
  Dechunked out;
  std::size_t pos = 0;
  bool first = true;
  while (true) {
    if (pos >= body.size()) {
      if (first) return std::nullopt;
      out.complete = false;  // ends before the last chunk
      out.consumed = body.size();
      return out;
    }
    // chunk-size
    std::size_t size = 0;
    std::size_t digits = 0;
    std::size_t i = pos;
    while (i < body.size() && hex_value(body[i]) >= 0) {
      size = size * 16 + static_cast<std::size_t>(hex_value(body[i]));
      ++i;
      ++digits;
      // Leading zeros keep size at 0; more than 15 significant hex digits cannot be real and
      // would overflow size_t on the next digit.
      if (size >= kSizeLimit) return std::nullopt;
    }
    if (digits == 0) return std::nullopt;  // no chunk-size: not (or no longer) chunk framing
    // optional chunk-ext: BWS ";" ... up to the line end; no control bytes besides HT.
    const RawLine size_line = raw_line_at(body, pos);
    std::string_view rest = size_line.content.substr(i - pos);
    {
      std::string_view r = rest;
      while (!r.empty() && is_ows(r.front())) r.remove_prefix(1);
      if (!r.empty() && r.front() != ';') return std::nullopt;
      for (char c : r) {
        const auto u = static_cast<unsigned char>(c);
        if ((u < 0x20 && c != '\t') || u == 0x7f) return std::nullopt;
      }
    }
    if (!size_line.terminated) {
      if (first) return std::nullopt;  // a lone hex number is no framing
      out.complete = false;
      out.consumed = body.size();
      return out;
    }
    first = false;
    pos = size_line.next;
    if (size == 0) {
      // last-chunk: trailer fields up to an empty line. A missing final CRLF still counts as
      // complete: all data is there.
      while (pos < body.size()) {
        const RawLine t = raw_line_at(body, pos);
        if (t.content.empty()) {
          pos = t.next;
          break;
        }
        if (t.content.find(':') == std::string_view::npos) break;  // not a trailer field
        pos = t.next;
      }
      out.consumed = pos;
      out.complete = true;
      return out;
    }
    if (body.size() - pos < size) {
      out.body.append(body.substr(pos));
      out.complete = false;
      out.consumed = body.size();
      return out;
    }
    out.body.append(body.substr(pos, size));
    pos += size;
    // CRLF (or LF) after chunk-data
    if (pos == body.size()) {
      out.complete = false;
      out.consumed = pos;
      return out;
    }
    if (body[pos] == '\r') {
      if (pos + 1 == body.size()) {
        out.complete = false;
        out.consumed = body.size();
        return out;
      }
      if (body[pos + 1] != '\n') return std::nullopt;
      pos += 2;
    } else if (body[pos] == '\n') {
      pos += 1;
    } else {
      return std::nullopt;
    }
  }
}

namespace {

constexpr std::array<std::string_view, 12> kMonths = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                                      "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
constexpr std::array<std::string_view, 7> kShortDays = {"Mon", "Tue", "Wed", "Thu",
                                                        "Fri", "Sat", "Sun"};
constexpr std::array<std::string_view, 7> kLongDays = {
    "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"};

/// Cursor over an HTTP-date with small exact-match helpers.
struct DateCursor {
  std::string_view s;
  std::size_t i = 0;

  bool lit(std::string_view t) {
    if (s.substr(i, t.size()) != t) return false;
    i += t.size();
    return true;
  }
  bool number(std::size_t min_digits, std::size_t max_digits, int& out) {
    std::size_t n = 0;
    int v = 0;
    while (i < s.size() && is_digit(s[i]) && n < max_digits) {
      v = v * 10 + (s[i] - '0');
      ++i;
      ++n;
    }
    if (n < min_digits) return false;
    if (i < s.size() && is_digit(s[i])) return false;  // too many digits
    out = v;
    return true;
  }
  bool month(int& out) {
    for (std::size_t m = 0; m < kMonths.size(); ++m) {
      if (s.substr(i, 3) == kMonths[m]) {
        i += 3;
        out = static_cast<int>(m);
        return true;
      }
    }
    return false;
  }
  template <std::size_t N>
  bool one_of(const std::array<std::string_view, N>& names) {
    for (std::string_view n : names) {
      if (lit(n)) return true;
    }
    return false;
  }
  bool time_of_day(std::tm& tm) {
    return number(2, 2, tm.tm_hour) && lit(":") && number(2, 2, tm.tm_min) && lit(":") &&
           number(2, 2, tm.tm_sec);
  }
  bool at_end() const { return i == s.size(); }
};

bool valid_tm(const std::tm& tm) {
  return tm.tm_mday >= 1 && tm.tm_mday <= 31 && tm.tm_hour <= 23 && tm.tm_min <= 59 &&
         tm.tm_sec <= 60 && tm.tm_year >= 0;
}

/// RFC 9110 §5.6.7 HTTP-date: IMF-fixdate, or the obsolete RFC 850 and asctime forms.
std::optional<long long> parse_http_date(std::string_view s, long long now_unix_seconds) {
  std::tm tm{};
  bool ok = false;
  {
    // IMF-fixdate: Sun, 06 Nov 1994 08:49:37 GMT
    DateCursor c{s};
    int year = 0;
    if (c.one_of(kShortDays) && c.lit(", ") && c.number(2, 2, tm.tm_mday) && c.lit(" ") &&
        c.month(tm.tm_mon) && c.lit(" ") && c.number(4, 4, year) && c.lit(" ") &&
        c.time_of_day(tm) && c.lit(" GMT") && c.at_end()) {
      tm.tm_year = year - 1900;
      ok = true;
    }
  }
  if (!ok) {
    // RFC 850: Sunday, 06-Nov-94 08:49:37 GMT
    DateCursor c{s};
    int yy = 0;
    if (c.one_of(kLongDays) && c.lit(", ") && c.number(2, 2, tm.tm_mday) && c.lit("-") &&
        c.month(tm.tm_mon) && c.lit("-") && c.number(2, 2, yy) && c.lit(" ") &&
        c.time_of_day(tm) && c.lit(" GMT") && c.at_end()) {
      // A two-digit year more than 50 years in the future means the most recent past year
      // with the same last two digits (RFC 9110 §5.6.7).
      std::time_t now = static_cast<std::time_t>(now_unix_seconds);
      std::tm now_tm{};
      gmtime_r(&now, &now_tm);
      const int now_year = now_tm.tm_year + 1900;
      int year = (now_year / 100) * 100 + yy;
      if (year > now_year + 50) year -= 100;
      tm.tm_year = year - 1900;
      ok = true;
    }
  }
  if (!ok) {
    // asctime: Sun Nov  6 08:49:37 1994
    DateCursor c{s};
    int year = 0;
    if (c.one_of(kShortDays) && c.lit(" ") && c.month(tm.tm_mon) && c.lit(" ")) {
      if (c.i < s.size() && s[c.i] == ' ') ++c.i;  // day is "SP DIGIT" or "2DIGIT"
      if (c.number(1, 2, tm.tm_mday) && c.lit(" ") && c.time_of_day(tm) && c.lit(" ") &&
          c.number(4, 4, year) && c.at_end()) {
        tm.tm_year = year - 1900;
        ok = true;
      }
    }
  }
  if (!ok || !valid_tm(tm)) return std::nullopt;
  const std::time_t t = timegm(&tm);
  if (t == static_cast<std::time_t>(-1)) return std::nullopt;
  return static_cast<long long>(t);
}

}  // namespace

std::optional<long long> http_date_unix_seconds(std::string_view value, long long now_unix_seconds) {
  return parse_http_date(trim_ows(value), now_unix_seconds);
}

std::optional<long long> retry_after_ms(std::string_view value, long long now_unix_seconds) {
  value = trim_ows(value);
  if (value.empty()) return std::nullopt;
  // A wait longer than 2^31 seconds (68 years) is read as 2^31 seconds, as RFC 9111 §1.2.2 has
  // caches read an over-large delta-seconds: a JSON number a JavaScript reader keeps exactly,
  // where the int64 maximum it saturated at before is not.
  constexpr long long kMaxSeconds = 2147483648LL;
  if (std::all_of(value.begin(), value.end(), is_digit)) {
    long long seconds = 0;
    for (char c : value) {
      seconds = seconds * 10 + (c - '0');
      if (seconds >= kMaxSeconds) return kMaxSeconds * 1000;
    }
    return seconds * 1000;
  }
  const auto date = parse_http_date(value, now_unix_seconds);
  if (!date) return std::nullopt;
  if (*date <= now_unix_seconds) return 0;
  return std::min(*date - now_unix_seconds, kMaxSeconds) * 1000;
}


std::optional<std::string> challenge_marker(int status, const Headers& headers, std::string_view body) {
  struct HeaderMarker {
    std::string_view vendor, name, value;
  };
  static constexpr std::array<HeaderMarker, 4> kHeaders{{
      {"Cloudflare", "cf-mitigated", "challenge"},
      {"AWS WAF", "x-amzn-waf-action", "challenge"},
      {"AWS WAF", "x-amzn-waf-action", "captcha"},
      {"Vercel", "x-vercel-mitigated", "challenge"},
  }};
  for (const auto& m : kHeaders) {
    for (const auto& h : headers) {
      if (iequals(h.name, m.name) && iequals(trim_ows(h.value), m.value)) {
        return std::string(m.vendor) + ": " + std::string(m.name) + ": " + std::string(m.value);
      }
    }
  }
  if (status != 403 && status != 429 && status != 503) return std::nullopt;
  auto ct = find_header(headers, "content-type");
  if (!ct || !media_type_is(*ct, "text/html")) return std::nullopt;
  static constexpr std::array<std::string_view, 5> kBody{
      "/cdn-cgi/challenge-platform/", "_cf_chl_opt", "__cf_chl_", "cf-chl-", "<title>Just a moment...</title>"};
  const std::string_view head = body.substr(0, 64 * 1024);
  for (std::string_view marker : kBody) {
    if (icontains(head, marker)) return "Cloudflare: " + std::string(marker) + " in the HTML page";
  }
  return std::nullopt;
}

}  // namespace mcptriage::http
