// The written forms of an exchange the proxy saw: the JSON Lines line and the HAR entry.
#include "proxy/captured.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <iterator>

#include "capture/body.hpp"
#include "render/har_write.hpp"
#include "mcptriage/capture.hpp"
#include "mcptriage/http.hpp"
#include "mcptriage/render.hpp"
#include "proxy/json_peek.hpp"

namespace mcptriage::proxy {
namespace {

std::string base64(std::string_view bytes) { return base64_encode(bytes); }

void str(std::string& out, std::string_view s) { append_json_string(out, s); }

void ms(std::string& out, const std::optional<double>& v) {
  if (v) out += fmt::format("{:.3f}", *v);
  else out += "null";
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

/// Headers as the exchange log writes them, `[["name","value"],...]`, values redacted (the HAR
/// entry's are written by append_har_entry).
void headers_json(std::string& out, const Headers& hs) {
  out += '[';
  bool first = true;
  for (const Header& h : hs) {
    if (!first) out += ',';
    first = false;
    out += '[';
    str(out, h.name);
    out += ',';
    str(out, redact_header(h.name, h.value));
    out += ']';
  }
  out += ']';
}

void timing_member(std::string& out, const Captured& c) {
  out += "{\"started\":";
  str(out, har_iso_time(c.started));
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
  headers_json(out, c.request_headers);
  out += ",\"body\":";
  if (c.request_body.empty() && c.method != "POST" && c.method != "PUT" && c.method != "PATCH") out += "null";
  else str(out, request_body);
  out += "},\"response\":{\"status\":" + std::to_string(c.status) + ",\"reason\":";
  str(out, c.reason);
  out += ",\"headers\":";
  headers_json(out, c.response_headers);
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

std::string har_entry(const Captured& c) {
  const RecordBody rb = record_body(c);
  bool request_base64 = false;
  std::string request_body = record_request_body(c, request_base64);
  HarEntry e;
  e.started = har_iso_time(c.started);
  e.method = c.method;
  e.url = c.url;
  e.request_headers = &c.request_headers;
  if (!c.request_body.empty()) e.post = HarText{std::move(request_body), request_base64};
  e.request_body_size = static_cast<long long>(c.request_body.size());
  e.status = c.status;
  e.status_text = c.reason;
  e.response_headers = &c.response_headers;
  e.content_size = rb.bytes.size();
  if (c.status != 0 && rb.state != "not_captured") {
    e.content = HarText{rb.base64 ? base64(rb.bytes) : rb.bytes, rb.base64};
  } else if (rb.state == "not_captured") {
    e.content_comment = rb.notes.empty() ? std::string("the proxy kept no body") : rb.notes.back();
  }
  e.response_body_size = static_cast<long long>(c.body_bytes);
  const HarTimings timings = har_timings(c.timing);
  e.time_us = timings.send + timings.blocked + timings.connect + timings.wait + timings.receive;
  e.blocked_us = timings.blocked;
  e.connect_us = timings.connect_measured ? timings.connect : -1;
  e.send_us = timings.send;
  e.wait_us = timings.wait;
  e.receive_us = timings.receive;
  e.custom = "\"timing\":";
  timing_member(e.custom, c);
  e.custom += ",\"proxy\":";
  proxy_member(e.custom, c, rb, request_base64, std::nullopt);
  std::string out;
  out.reserve(rb.bytes.size() + request_body.size() + 1024);
  append_har_entry(out, e);
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
  std::string har = har_log_head("mcptriage proxy");
  har += har_entry_text;
  har += har_log_tail(true);
  auto read = read_capture(har, "proxy");
  if (!read || read->empty()) return std::nullopt;
  return read->front().skipped;
}

}  // namespace mcptriage::proxy
