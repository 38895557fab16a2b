// The HAR 1.2 writer (har_write.hpp).
#include "render/har_write.hpp"

#include <fmt/format.h>

#include <ctime>
#include <iterator>
#include <utility>

#include "mcptriage/render.hpp"

#ifndef MCPTRIAGE_VERSION
#error "MCPTRIAGE_VERSION is set by CMakeLists.txt (the project's VERSION)"
#endif

namespace mcptriage {
namespace {

/// Headers as HAR 1.2 writes them, `[{"name":...,"value":...},...]`, values redacted.
void headers_json(std::string& out, const Headers* hs) {
  out += '[';
  bool first = true;
  if (hs != nullptr) {
    for (const Header& h : *hs) {
      if (!first) out += ',';
      first = false;
      out += "{\"name\":";
      append_json_string(out, h.name);
      out += ",\"value\":";
      append_json_string(out, redact_header(h.name, h.value));
      out += '}';
    }
  }
  out += ']';
}

/// Microseconds as HAR's milliseconds, `12.345`; -1 as `-1` (not measured).
void micros(std::string& out, long long us) {
  if (us < 0) {
    out += "-1";
    return;
  }
  fmt::format_to(std::back_inserter(out), "{}.{:03}", us / 1000, us % 1000);
}

void text_member(std::string& out, const HarText& t) {
  out += ",\"text\":";
  append_json_string(out, t.text);
  if (t.base64) out += ",\"encoding\":\"base64\"";
}

}  // namespace

std::string_view tool_version() { return MCPTRIAGE_VERSION; }

std::string har_iso_time(std::chrono::system_clock::time_point t) {
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

std::string har_iso_time_ns(std::int64_t unix_ns) {
  return har_iso_time(std::chrono::system_clock::time_point(
      std::chrono::duration_cast<std::chrono::system_clock::duration>(std::chrono::nanoseconds(unix_ns))));
}

void append_har_entry(std::string& out, const HarEntry& e) {
  out += "{\"startedDateTime\":";
  append_json_string(out, e.started);
  out += ",\"time\":";
  micros(out, e.time_us);
  out += ",\"request\":{\"method\":";
  append_json_string(out, e.method);
  out += ",\"url\":";
  append_json_string(out, redact_url(e.url));
  out += ",\"httpVersion\":";
  append_json_string(out, e.request_http_version);
  out += ",\"cookies\":[],\"headers\":";
  headers_json(out, e.request_headers);
  out += ",\"queryString\":[]";
  if (e.post) {
    out += ",\"postData\":{\"mimeType\":";
    const Headers none;
    append_json_string(out, find_header(e.request_headers ? *e.request_headers : none, "Content-Type").value_or(""));
    text_member(out, *e.post);
    out += '}';
  }
  out += ",\"headersSize\":-1,\"bodySize\":" + std::to_string(e.request_body_size);
  out += "},\"response\":{\"status\":" + std::to_string(e.status) + ",\"statusText\":";
  append_json_string(out, e.status_text);
  out += ",\"httpVersion\":";
  append_json_string(out, e.response_http_version);
  out += ",\"cookies\":[],\"headers\":";
  headers_json(out, e.response_headers);
  const Headers none;
  const Headers& response_headers = e.response_headers ? *e.response_headers : none;
  out += ",\"content\":{\"size\":" + std::to_string(e.content_size) + ",\"mimeType\":";
  append_json_string(out, find_header(response_headers, "Content-Type").value_or(e.content_mime));
  if (e.content) {
    text_member(out, *e.content);
  } else if (!e.content_comment.empty()) {
    out += ",\"comment\":";
    append_json_string(out, e.content_comment);
  }
  out += "},\"redirectURL\":";
  append_json_string(out, redact_url(find_header(response_headers, "Location").value_or("")));
  out += ",\"headersSize\":-1,\"bodySize\":" + std::to_string(e.response_body_size) + "},\"cache\":{},\"timings\":";
  for (const auto& [name, us] : {std::pair{"{\"blocked\":", e.blocked_us}, std::pair{",\"dns\":", e.dns_us},
                                 std::pair{",\"connect\":", e.connect_us}, std::pair{",\"send\":", e.send_us},
                                 std::pair{",\"wait\":", e.wait_us}, std::pair{",\"receive\":", e.receive_us},
                                 std::pair{",\"ssl\":", e.ssl_us}}) {
    out += name;
    micros(out, us);
  }
  out += '}';
  if (!e.custom.empty()) {
    out += ",\"_mcptriage\":{";
    out += e.custom;
    out += '}';
  }
  out += '}';
}

std::string har_log_head(std::string_view creator) {
  std::string out = "{\"log\":{\"version\":\"1.2\",\"creator\":{\"name\":";
  append_json_string(out, creator);
  out += ",\"version\":";
  append_json_string(out, tool_version());
  out += "},\"pages\":[],\"entries\":[\n";
  return out;
}

std::string har_log_tail(bool any_entry, std::string_view comment) {
  std::string out = any_entry ? "\n]" : "]";
  if (!comment.empty()) {
    out += ",\"comment\":";
    append_json_string(out, comment);
  }
  out += "}}\n";
  return out;
}

}  // namespace mcptriage
