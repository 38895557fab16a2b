// The written forms of an exchange the proxy saw: the JSON Lines line and the HAR entry.
#include "proxy/captured.hpp"

#include <boost/beast/core/detail/base64.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <ctime>
#include <iterator>

#include "capture/body.hpp"
#include "mcptriage/capture.hpp"
#include "mcptriage/http.hpp"
#include "mcptriage/render.hpp"
#include "proxy/json_peek.hpp"

namespace mcptriage::proxy {
namespace {

std::string base64(std::string_view bytes) {
  std::string out(boost::beast::detail::base64::encoded_size(bytes.size()), '\0');
  out.resize(boost::beast::detail::base64::encode(out.data(), bytes.data(), bytes.size()));
  return out;
}

void str(std::string& out, std::string_view s) { append_json_string(out, s); }

void ms(std::string& out, const std::optional<double>& v) {
  if (v) out += fmt::format("{:.3f}", *v);
  else out += "null";
}

/// ISO 8601 UTC with milliseconds (HAR 1.2 startedDateTime).
std::string iso_time(std::chrono::system_clock::time_point t) {
  const auto since = t.time_since_epoch();
  const auto secs = std::chrono::duration_cast<std::chrono::seconds>(since);
  const auto millis = std::chrono::duration_cast<std::chrono::milliseconds>(since - secs).count();
  const std::time_t tt = static_cast<std::time_t>(secs.count());
  std::tm tm{};
  gmtime_r(&tt, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
  return fmt::format("{}.{:03d}Z", buf, millis);
}

/// What the record keeps of the response body.
struct RecordBody {
  std::string bytes;
  bool base64 = false;
  std::string state = "complete";  ///< proxy.body: complete, cut, cut_at_limit, not_captured
  std::vector<std::string> notes;
};

RecordBody record_body(const Captured& c) {
  RecordBody rb;
  rb.bytes = c.body;
  bool cut = c.end != BodyEnd::complete;
  if (c.end == BodyEnd::cut_limit) {
    rb.state = "cut_at_limit";
    rb.notes.push_back(fmt::format("the record keeps the first {} of the {} body bytes (the proxy's bound of {} bytes per "
                                   "record): judged as cut short; the client got them all",
                                   c.body.size(), c.body_bytes, c.record_bound));
  } else if (cut) {
    rb.state = "cut";
  }
  // A content coding: decoded for the record, as HAR exporters and the client's HTTP library do,
  // by the readers' own body step (capture::decode_body: gzip, deflate, br, zstd), bounded by the
  // record's bound.
  if (auto coding = find_header(c.response_headers, "Content-Encoding"); coding && !rb.bytes.empty()) {
    Response coded;
    coded.headers = c.response_headers;
    coded.body = std::move(rb.bytes);
    std::vector<std::string> warnings;
    capture::decode_body(coded, warnings, c.record_bound);  // the bytes as they came on the wire
    rb.bytes = std::move(coded.body);
    if (!coded.undecoded_coding.empty()) {
      // Not decoded (a coding no reader decodes, or bytes not in it): a cut body could not be.
      rb.notes.push_back(cut ? "Content-Encoding: " + std::string(*coding) + " body cut before its end could not be "
                                   "decoded (" + warnings.back() + "): the record keeps no body"
                             : "Content-Encoding: " + std::string(*coding) + ": the proxy cannot decode it (" +
                                   warnings.back() + "), so the record keeps no body; the client got " +
                                   std::to_string(c.body_bytes) + " bytes");
      rb.bytes.clear();
      rb.state = "not_captured";
    } else if (coded.cut_at_max_body) {
      rb.state = "cut_at_limit";
      rb.notes.push_back(fmt::format("the record keeps the first {} bytes of the body once decoded ({}), the proxy's "
                                     "bound per record: judged as cut short", c.record_bound, std::string(*coding)));
    }
  }
  if (!is_valid_utf8(rb.bytes)) {
    rb.base64 = true;
  } else {
    rb.bytes = redact_body(rb.bytes);
  }
  return rb;
}

std::string record_request_body(const Captured& c, bool& base64_out) {
  base64_out = !is_valid_utf8(c.request_body);
  if (base64_out) return base64(c.request_body);
  return redact_body(c.request_body);
}

/// The warnings the proxy adds to the record: what it did and how the exchange ended.
std::vector<std::string> proxy_notes(const Captured& c, const RecordBody& rb) {
  std::vector<std::string> out;
  if (c.made_by_proxy) out.push_back("the proxy made this response: " + c.made_why);
  if (!c.injected.empty()) {
    if (c.end == BodyEnd::cut_rule) {
      out.push_back(fmt::format("injected by mcptriage proxy (--inject {}): the stream was closed after {} event(s), "
                                "before the final response", c.injected, c.events));
    } else if (c.injected.starts_with("delay=")) {
      out.push_back("injected by mcptriage proxy (--inject " + c.injected +
                    "): the request was held before it was forwarded; the response is the server's");
    } else {
      out.push_back("injected by mcptriage proxy (--inject " + c.injected +
                    "): the upstream server never saw this request; the client got this response");
    }
  }
  switch (c.end) {
    case BodyEnd::cut_upstream:
      out.push_back(fmt::format("the upstream connection ended after {} body byte(s), before the body was complete ({}): "
                                "the client's connection was cut the same way", c.body_bytes, c.end_detail));
      break;
    case BodyEnd::cut_client:
      out.push_back(fmt::format("the client closed its connection after {} body byte(s) ({} event(s)){}: the proxy "
                                "closed the upstream connection", c.body_bytes, c.events,
                                c.end_detail.empty() ? "" : " (" + c.end_detail + ")"));
      break;
    case BodyEnd::cut_shutdown:
      out.push_back(fmt::format("the proxy stopped ({}) while the response was still coming, after {} body byte(s)",
                                c.end_detail.empty() ? "shutdown" : c.end_detail, c.body_bytes));
      break;
    case BodyEnd::complete:
    case BodyEnd::cut_limit:
    case BodyEnd::cut_rule:
      break;
  }
  if (c.request_body_cut) {
    out.push_back(fmt::format("the request body was cut in the record: it keeps its first {} bytes",
                              c.request_body.size()));
  }
  for (const std::string& n : rb.notes) out.push_back(n);
  for (const std::string& n : c.notes) out.push_back(n);
  return out;
}

/// Headers as a JSON array: `[["name","value"],...]` (the exchange log) or
/// `[{"name":...,"value":...},...]` (HAR 1.2), values redacted.
void headers_json(std::string& out, const Headers& hs, bool har) {
  out += '[';
  bool first = true;
  for (const Header& h : hs) {
    if (!first) out += ',';
    first = false;
    out += har ? "{\"name\":" : "[";
    str(out, h.name);
    out += har ? ",\"value\":" : ",";
    str(out, redact_header(h.name, h.value));
    out += har ? '}' : ']';
  }
  out += ']';
}

void timing_member(std::string& out, const Captured& c) {
  out += "{\"started\":";
  str(out, iso_time(c.started));
  out += ",\"request_ms\":";
  ms(out, c.timing.request_ms);
  out += ",\"response_ms\":";
  ms(out, c.timing.response_ms);
  out += ",\"first_event_ms\":";
  ms(out, c.timing.first_event_ms);
  out += ",\"final_ms\":";
  ms(out, c.timing.final_ms);
  out += ",\"end_ms\":";
  ms(out, c.timing.end_ms);
  out += '}';
}

/// `"proxy"` when the proxy made the response the client got (injected, or it could not forward).
std::string_view made_by(const Captured& c) { return response_made_by_proxy(c) ? "\"proxy\"" : "\"upstream\""; }

/// The first members of the proxy member: `{"exchange":N,"client":...,"injected":...,"made_by":...`
/// (left open for the members that follow).
void proxy_head(std::string& out, const Captured& c) {
  out += "{\"exchange\":" + std::to_string(c.seq) + ",\"client\":";
  str(out, c.client);
  out += ",\"injected\":";
  if (c.injected.empty()) out += "null";
  else str(out, c.injected);
  out += ",\"made_by\":";
  out += made_by(c);
}

void proxy_member(std::string& out, const Captured& c, const RecordBody& rb, bool request_base64,
                  const std::optional<Skip>& skipped) {
  proxy_head(out, c);
  out += ",\"body\":";
  str(out, rb.state);
  out += ",\"body_bytes\":" + std::to_string(c.body_bytes) + ",\"events\":" + std::to_string(c.events);
  if (rb.base64) out += ",\"body_encoding\":\"base64\"";
  if (request_base64) out += ",\"request_body_encoding\":\"base64\"";
  if (c.retry_origin_client) out += ",\"retry_origin\":\"client\"";
  if (skipped) {
    out += ",\"skipped\":{\"reason\":";
    str(out, to_string(skipped->reason));
    out += ",\"detail\":";
    str(out, skipped->detail);
    out += '}';
  }
  out += ",\"warnings\":[";
  bool first = true;
  for (const std::string& n : proxy_notes(c, rb)) {
    if (!first) out += ',';
    first = false;
    str(out, n);
  }
  out += "]}";
}

}  // namespace

bool response_made_by_proxy(const Captured& c) {
  const bool forwarded = c.injected.empty() || c.injected.starts_with("delay=") || c.end == BodyEnd::cut_rule ||
                         c.injected.starts_with("cut-after-events=");
  return c.made_by_proxy || !forwarded;
}

std::string redact_body(std::string_view body) {
  if (!redaction_enabled() || body.empty()) return std::string(body);
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
    const auto value = json_string_value(lit);
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
        const auto name = json_string_value(body.substr(q, end - q));
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

std::string exchange_line(const Captured& c, const std::optional<Skip>& skipped) {
  const RecordBody rb = record_body(c);
  bool request_base64 = false;
  const std::string request_body = record_request_body(c, request_base64);
  std::string out;
  out.reserve(rb.bytes.size() + request_body.size() + 1024);
  out += "{\"request\":{\"method\":";
  str(out, c.method);
  out += ",\"url\":";
  str(out, redact_url(c.url));
  out += ",\"headers\":";
  headers_json(out, c.request_headers, false);
  out += ",\"body\":";
  if (c.request_body.empty() && c.method != "POST" && c.method != "PUT" && c.method != "PATCH") out += "null";
  else str(out, request_body);
  out += "},\"response\":{\"status\":" + std::to_string(c.status) + ",\"reason\":";
  str(out, c.reason);
  out += ",\"headers\":";
  headers_json(out, c.response_headers, false);
  out += ",\"body\":";
  if (rb.base64) str(out, base64(rb.bytes));
  else str(out, rb.bytes);
  out += "},\"timing\":";
  timing_member(out, c);
  out += ",\"proxy\":";
  proxy_member(out, c, rb, request_base64, skipped);
  out += '}';
  return out;
}

HarTimings har_timings(const Timing& t) {
  // The checkpoints in order, each at least the one before (a missing one takes its place), in
  // whole microseconds so that the parts add up to the entry's time exactly.
  auto us = [](std::optional<double> v, long long floor) {
    return v ? std::max(floor, static_cast<long long>(std::llround(*v * 1000.0))) : floor;
  };
  const long long read = us(t.request_ms, 0);
  const long long forward = us(t.forward_ms, read);
  const long long connected = us(t.connected_ms, forward);
  const long long sent = us(t.sent_ms, connected);
  const long long first = us(t.response_ms, sent);
  const long long end = us(t.end_ms, first);
  HarTimings h;
  h.send = read + (sent - connected);
  h.blocked = forward - read;
  h.connect = connected - forward;
  h.connect_measured = t.connected_ms.has_value();
  h.wait = first - sent;
  h.receive = end - first;
  return h;
}

static void micros(std::string& out, long long us) { fmt::format_to(std::back_inserter(out), "{}.{:03}", us / 1000, us % 1000); }

std::string har_entry(const Captured& c) {
  const RecordBody rb = record_body(c);
  bool request_base64 = false;
  const std::string request_body = record_request_body(c, request_base64);
  std::string out;
  out.reserve(rb.bytes.size() + request_body.size() + 1024);
  out += "{\"startedDateTime\":";
  str(out, iso_time(c.started));
  const HarTimings timings = har_timings(c.timing);
  out += ",\"time\":";
  micros(out, timings.send + timings.blocked + timings.connect + timings.wait + timings.receive);
  out += ",\"request\":{\"method\":";
  str(out, c.method);
  out += ",\"url\":";
  str(out, redact_url(c.url));
  out += ",\"httpVersion\":\"HTTP/1.1\",\"cookies\":[],\"headers\":";
  headers_json(out, c.request_headers, true);
  out += ",\"queryString\":[]";
  if (!c.request_body.empty()) {
    out += ",\"postData\":{\"mimeType\":";
    str(out, find_header(c.request_headers, "Content-Type").value_or(""));
    out += ",\"text\":";
    str(out, request_body);
    if (request_base64) out += ",\"encoding\":\"base64\"";
    out += '}';
  }
  out += ",\"headersSize\":-1,\"bodySize\":" + std::to_string(c.request_body.size());
  out += "},\"response\":{\"status\":" + std::to_string(c.status) + ",\"statusText\":";
  str(out, c.reason);
  out += ",\"httpVersion\":\"HTTP/1.1\",\"cookies\":[],\"headers\":";
  headers_json(out, c.response_headers, true);
  out += ",\"content\":{\"size\":" + std::to_string(rb.bytes.size()) + ",\"mimeType\":";
  str(out, find_header(c.response_headers, "Content-Type").value_or(""));
  if (c.status != 0 && rb.state != "not_captured") {
    out += ",\"text\":";
    if (rb.base64) {
      str(out, base64(rb.bytes));
      out += ",\"encoding\":\"base64\"";
    } else {
      str(out, rb.bytes);
    }
  } else if (rb.state == "not_captured") {
    out += ",\"comment\":";
    str(out, rb.notes.empty() ? std::string("the proxy kept no body") : rb.notes.back());
  }
  out += "},\"redirectURL\":";
  str(out, redact_url(find_header(c.response_headers, "Location").value_or("")));
  out += ",\"headersSize\":-1,\"bodySize\":" + std::to_string(c.body_bytes) + "},\"cache\":{},\"timings\":{\"blocked\":";
  micros(out, timings.blocked);
  out += ",\"dns\":-1,\"connect\":";
  if (timings.connect_measured) micros(out, timings.connect);
  else out += "-1";
  out += ",\"send\":";
  micros(out, timings.send);
  out += ",\"wait\":";
  micros(out, timings.wait);
  out += ",\"receive\":";
  micros(out, timings.receive);
  out += ",\"ssl\":-1}";
  out += ",\"_mcptriage\":{\"timing\":";
  timing_member(out, c);
  out += ",\"proxy\":";
  proxy_member(out, c, rb, request_base64, std::nullopt);
  out += "}}";
  return out;
}

std::string live_members(const Captured& c, bool resend) {
  std::string out = "\"timing\":";
  timing_member(out, c);
  out += ",\"proxy\":";
  proxy_head(out, c);
  if (resend) out += ",\"retry_origin\":\"client\"";
  out += '}';
  return out;
}

std::optional<Skip> skip_of(std::string_view har_entry_text) {
  // The HAR reader's rule (docs/formats.md, "Entries that are not MCP"), on the very entry a
  // .har recording would hold: one rule for both recordings.
  std::string har = R"({"log":{"version":"1.2","creator":{"name":"mcptriage proxy","version":"1"},"entries":[)";
  har += har_entry_text;
  har += "]}}";
  auto read = read_capture(har, "proxy");
  if (!read || read->empty()) return std::nullopt;
  return read->front().skipped;
}

}  // namespace mcptriage::proxy
