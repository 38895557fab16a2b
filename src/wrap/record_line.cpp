// The lines of a `mcptriage wrap` recording (record_line.hpp).
#include "wrap/record_line.hpp"

#include <fmt/format.h>
#include <signal.h>

#include <cstring>
#include <ctime>

#include "mcptriage/redact.hpp"
#include "mcptriage/render.hpp"

namespace mcptriage::wrap {

namespace {

void head(std::string& out, std::string_view dir, std::int64_t unix_ns) {
  out += "{\"transport\":\"stdio\"";
  if (!dir.empty()) {
    out += ",\"dir\":\"";
    out += dir;
    out += '"';
  }
  out += ",\"t\":\"";
  out += iso_time_us(unix_ns);
  out += '"';
}

std::string_view dir_name(Dir d) { return d == Dir::c2s ? "c2s" : "s2c"; }

void string_member(std::string& out, std::string_view name, std::string_view value) {
  out += ",\"";
  out += name;
  out += "\":\"";
  out += json_escape(value);
  out += '"';
}

/// The members --inject adds, last: `"injected":...,"made_by":"wrapper","forwarded":false,...`.
void injection_members(std::string& out, const Injection* inj) {
  if (inj == nullptr || inj->rule.empty()) return;
  string_member(out, "injected", inj->rule);
  if (inj->made_by_wrapper) out += ",\"made_by\":\"wrapper\"";
  if (!inj->forwarded) out += ",\"forwarded\":false";
  if (inj->wrapper_exit >= 0) out += ",\"wrapper_exit\":" + std::to_string(inj->wrapper_exit);
  if (!inj->warnings.empty()) {
    out += ",\"warnings\":[";
    for (std::size_t i = 0; i < inj->warnings.size(); ++i) {
      if (i > 0) out += ',';
      out += '"';
      out += json_escape(inj->warnings[i]);
      out += '"';
    }
    out += ']';
  }
}

}  // namespace

std::string iso_time_us(std::int64_t unix_ns) {
  const std::int64_t secs = unix_ns >= 0 ? unix_ns / 1'000'000'000 : (unix_ns - 999'999'999) / 1'000'000'000;
  const std::int64_t micros = (unix_ns - secs * 1'000'000'000) / 1000;
  const std::time_t tt = static_cast<std::time_t>(secs);
  std::tm tm{};
  gmtime_r(&tt, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
  return fmt::format("{}.{:06d}Z", buf, micros);
}

std::string stdio_message_line(Dir dir, std::int64_t unix_ns, std::string_view bytes, bool cut, std::size_t size,
                               json::Parser& parser, bool& message, const Injection* injection) {
  std::string out;
  out.reserve(bytes.size() + 96);
  head(out, dir_name(dir), unix_ns);
  message = false;
  if (!cut) {
    const std::string padded = json::padded_copy(bytes);
    if (auto root = parser.parse(std::string_view(padded.data(), bytes.size()), true)) {
      message = root->is_array() || (root->is_object() && root->get("jsonrpc").has_value());
    }
  }
  if (message) {
    out += ",\"message\":";
    // Still JSON once redacted (redact_body keeps a JSON body JSON); no byte of it is a newline.
    out += redact_body(bytes);
  } else {
    out += ",\"line\":\"";
    out += json_escape(redact(bytes));
    out += '"';
    if (cut) out += ",\"cut\":true";
    out += ",\"bytes\":" + std::to_string(size);
  }
  injection_members(out, injection);
  out += '}';
  return out;
}

std::string stdio_eof_line(std::int64_t unix_ns) {
  std::string out;
  head(out, "c2s", unix_ns);
  out += ",\"eof\":true}";
  return out;
}

std::string stdio_watch_line(std::int64_t unix_ns, std::string_view id_json, std::string_view method, long long after_ms) {
  std::string out;
  head(out, "", unix_ns);
  out += ",\"watch\":{\"id\":";
  out += id_json;  // minified JSON from the host's message: a number or a string, already JSON
  out += ",\"method\":\"";
  out += json_escape(method);
  out += "\",\"after_ms\":" + std::to_string(after_ms) + "}}";
  return out;
}

std::string stdio_exit_line(std::int64_t unix_ns, const io::ExitStatus& status, const std::vector<std::string>& stderr_tail,
                            const Injection* injection) {
  std::string out;
  head(out, "", unix_ns);
  if (status.signal != 0) {
    const char* abbrev = sigabbrev_np(status.signal);
    out += fmt::format(",\"exit\":{{\"signal\":{},\"signal_name\":\"SIG{}\"}}", status.signal, abbrev ? abbrev : "?");
  } else {
    out += fmt::format(",\"exit\":{{\"code\":{}}}", status.code);
  }
  out += ",\"stderr\":[";
  bool first = true;
  for (const std::string& l : stderr_tail) {
    if (!first) out += ',';
    first = false;
    out += '"';
    out += json_escape(redact(l));
    out += '"';
  }
  out += ']';
  injection_members(out, injection);
  out += '}';
  return out;
}

}  // namespace mcptriage::wrap
