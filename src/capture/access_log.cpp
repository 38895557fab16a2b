// Server access logs: the Common Log Format and the Combined Log Format (Apache's `common` and
// `combined`, nginx's default `combined`), one request per line:
//   127.0.0.1 - - [05/Dec/2026:09:12:01 +0000] "POST /mcp HTTP/1.1" 401 87 "-" "node"
// A line holds the method, the target, the status, the time and (combined) the referrer and the
// user agent: no headers, no bodies. So every exchange's body is not captured, and what can be
// judged is what the status and the path say (issue 26 item 3): the authorization legs by their
// paths (docs/auth.md), and a call's HTTP status.
#include <array>
#include <charconv>
#include <limits>
#include <string>

#include "capture/json_message.hpp"
#include "capture/legs.hpp"
#include "capture/readers.hpp"

namespace mcptriage::capture {

namespace {

struct LogLine {
  std::string_view method, target, version, time, referer, agent;
  int status = 0;
};

bool is_digit(char c) { return c >= '0' && c <= '9'; }

/// One CLF/combined line, or nullopt. Fields: host ident user [time] "request" status bytes
/// ["referer" "user-agent"]; a quoted field may hold \" escapes (nginx writes \x22).
std::optional<LogLine> parse_line(std::string_view s) {
  if (!s.empty() && s.back() == '\r') s.remove_suffix(1);
  LogLine l;
  std::size_t i = 0;
  for (int field = 0; field < 3; ++field) {  // host, ident, user: no spaces
    const std::size_t sp = s.find(' ', i);
    if (sp == std::string_view::npos || sp == i) return std::nullopt;
    i = sp + 1;
  }
  if (i >= s.size() || s[i] != '[') return std::nullopt;
  const std::size_t close = s.find(']', i);
  if (close == std::string_view::npos) return std::nullopt;
  l.time = s.substr(i + 1, close - i - 1);
  i = close + 1;
  auto quoted = [&](std::string_view& out) {
    if (i + 1 >= s.size() || s[i] != ' ' || s[i + 1] != '"') return false;
    std::size_t k = i + 2;
    while (k < s.size() && s[k] != '"') k += s[k] == '\\' ? 2 : 1;
    if (k >= s.size()) return false;
    out = s.substr(i + 2, k - i - 2);
    i = k + 1;
    return true;
  };
  std::string_view request;
  if (!quoted(request)) return std::nullopt;
  // "METHOD TARGET VERSION" (VERSION absent in HTTP/0.9 lines)
  const std::size_t a = request.find(' ');
  if (a == std::string_view::npos || a == 0) return std::nullopt;
  l.method = request.substr(0, a);
  for (char c : l.method) {
    if (c < 'A' || c > 'Z') return std::nullopt;
  }
  const std::size_t b = request.find(' ', a + 1);
  l.target = request.substr(a + 1, b == std::string_view::npos ? std::string_view::npos : b - a - 1);
  if (b != std::string_view::npos) l.version = request.substr(b + 1);
  if (l.target.empty()) return std::nullopt;
  // status: three digits
  if (i + 4 > s.size() || s[i] != ' ' || !is_digit(s[i + 1]) || !is_digit(s[i + 2]) || !is_digit(s[i + 3])) {
    return std::nullopt;
  }
  l.status = (s[i + 1] - '0') * 100 + (s[i + 2] - '0') * 10 + (s[i + 3] - '0');
  i += 4;
  if (i < s.size() && s[i] != ' ') return std::nullopt;
  // bytes: digits or '-'
  if (i < s.size()) {
    ++i;
    const std::size_t sp = s.find(' ', i);
    const std::string_view bytes = s.substr(i, sp == std::string_view::npos ? std::string_view::npos : sp - i);
    if (bytes != "-") {
      for (char c : bytes) {
        if (!is_digit(c)) return std::nullopt;
      }
    }
    i = sp == std::string_view::npos ? s.size() : sp;
    std::string_view referer, agent;
    if (quoted(referer) && quoted(agent)) {
      l.referer = referer;
      l.agent = agent;
    }
  }
  return l;
}

/// `05/Dec/2026:09:12:01 +0000` as nanoseconds since the Unix epoch, or nullopt.
std::optional<std::int64_t> clf_time(std::string_view t) {
  static constexpr std::array<std::string_view, 12> kMonths = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                                               "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  if (t.size() != 26 || t[2] != '/' || t[6] != '/' || t[11] != ':' || t[14] != ':' || t[17] != ':' || t[20] != ' ') {
    return std::nullopt;
  }
  auto num = [&](std::size_t at, std::size_t n) -> std::optional<int> {
    int v = 0;
    const auto r = std::from_chars(t.data() + at, t.data() + at + n, v);
    if (r.ec != std::errc() || r.ptr != t.data() + at + n) return std::nullopt;
    return v;
  };
  int month = -1;
  for (std::size_t k = 0; k < kMonths.size(); ++k) {
    if (t.substr(3, 3) == kMonths[k]) month = static_cast<int>(k) + 1;
  }
  const auto d = num(0, 2), y = num(7, 4), h = num(12, 2), mi = num(15, 2), se = num(18, 2), zh = num(22, 2), zm = num(24, 2);
  if (month < 0 || !d || !y || !h || !mi || !se || !zh || !zm || (t[21] != '+' && t[21] != '-') || *y < 1970) {
    return std::nullopt;
  }
  // Days from the civil date (proleptic Gregorian), Howard Hinnant's algorithm.
  const int yy = *y - (month <= 2 ? 1 : 0);
  const int era = yy / 400;
  const int yoe = yy - era * 400;
  const int mp = (month + 9) % 12;
  const int doy = (153 * mp + 2) / 5 + *d - 1;
  const int doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  const std::int64_t days = static_cast<std::int64_t>(era) * 146097 + doe - 719468;
  std::int64_t secs = days * 86400 + *h * 3600 + *mi * 60 + *se;
  const int offset = (*zh * 60 + *zm) * 60;
  secs -= t[21] == '+' ? offset : -offset;
  // 64-bit nanoseconds end on 2262-04-11 (as iso8601_unix_ns): a later year is no time we keep.
  constexpr std::int64_t kMaxSeconds = std::numeric_limits<std::int64_t>::max() / 1'000'000'000;
  if (secs < 0 || secs > kMaxSeconds) return std::nullopt;
  return secs * 1'000'000'000;
}

}  // namespace

bool sniff_access_log(std::string_view text) {
  std::size_t pos = 0;
  return parse_line(take_line(text, pos)).has_value();
}

std::expected<std::vector<Exchange>, CaptureError> read_access_log(std::string_view bytes, std::string_view name,
                                                                   const CaptureOptions& options) {
  std::vector<Exchange> out;
  std::size_t pos = 0, line_no = 0;
  while (pos < bytes.size()) {
    const std::string_view text = take_line(bytes, pos);
    ++line_no;
    if (text.empty() || text == "\r") continue;
    Exchange ex;
    ex.source = source_name(name, out.size() + 1);
    ex.format = CaptureFormat::access_log;
    ex.line = line_no;
    const auto l = parse_line(text);
    if (!l) {
      out.push_back(skipped_exchange(std::move(ex), SkipReason::invalid_line,
                            "line " + std::to_string(line_no) + " is no Common or Combined Log Format line"));
      continue;
    }
    ex.time.started_unix_ns = clf_time(l->time);
    Request request;
    request.method_line = std::string(l->method);
    request.target = std::string(l->target);
    if (!l->agent.empty() && l->agent != "-") add_header(request.headers, "User-Agent", l->agent);
    Response& r = ex.response;
    r.status = l->status;
    r.http_version = l->version.empty() ? std::string() : std::string(l->version);
    r.transport_captured = true;
    r.body_state = BodyState::not_captured;
    ex.warnings.push_back("an access log line: the status, method and path only (no headers, no body)");
    const std::string what = request_for_detail(request) + " -> " + std::to_string(l->status);
    const bool auth = is_oauth_leg(request) || (options.auth && is_auth_request(request));
    if (!auth) {
      // No body and no headers: a POST may be an MCP call; a GET cannot be told from a page or an
      // asset (nor a standalone stream from one), so it is no call as far as the log shows.
      if (auto skip = non_call_leg(request, r); skip && l->method != "GET") {
        ex.request = std::move(request);
        out.push_back(skipped_exchange(std::move(ex), skip->reason, what + ": " + skip->detail));
        continue;
      }
      if (l->method != "POST") {
        out.push_back(skipped_exchange(std::move(ex), SkipReason::not_mcp,
                              what + ": an access log shows no body, so only a POST may be an MCP call"));
        continue;
      }
    }
    ex.request = std::move(request);
    out.push_back(std::move(ex));
  }
  if (out.empty()) return std::unexpected(CaptureError{"the access log holds no line"});
  return out;
}

}  // namespace mcptriage::capture
