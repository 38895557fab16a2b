// The client-behaviour watcher (watcher.hpp).
#include "proxy/watcher.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "mcptriage/render.hpp"

namespace mcptriage::proxy {
namespace {

/// A client that honours Retry-After starts its timer when the response arrives, which may be a
/// little before the proxy wrote the response's last byte.
constexpr double kRetryAfterSlackMs = 50.0;

double ms_between(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

void str(std::string& out, std::string_view s) { append_json_string(out, redact(s)); }

void opt_str(std::string& out, std::string_view s) {
  if (s.empty()) out += "null";
  else str(out, s);
}

std::string human_ms(double ms) {
  if (ms < 1000) return fmt::format("{:.0f} ms", ms);
  return fmt::format("{:.1f} s", ms / 1000);
}

}  // namespace

std::vector<BehaviourReport> Watcher::started(const Started& s) {
  starts_[s.seq] = s.t0;
  for (Watch& w : open_) {
    if (s.t0 <= w.end) continue;
    const double after = ms_between(w.end, s.t0);
    if (!w.next) w.next = Next{s.seq, s.http_method, s.method, s.http_method == "GET" && s.last_event_id, after};
    if (s.method == "initialize" && !w.reinitialized_after_ms) w.reinitialized_after_ms = after;
    if (!w.method.empty() && s.method == w.method && s.tool == w.tool) w.candidates.insert(s.seq);
  }
  return {};
}

std::vector<BehaviourReport> Watcher::completed(const Captured& c, const std::vector<Verdict>& verdicts) {
  std::vector<BehaviourReport> out;
  const auto started = starts_.find(c.seq);
  const Clock::time_point t0 = started != starts_.end() ? started->second : c.t0;
  if (started != starts_.end()) starts_.erase(started);
  // A resend closes the watch of the failure it repeats.
  for (auto it = open_.begin(); it != open_.end();) {
    Watch& w = *it;
    const Verdict* resend = nullptr;
    if (t0 > w.end) {
      w.candidates.erase(c.seq);
      for (const Verdict& v : verdicts) {
        if (v.replay && v.replay->of_source == w.source) resend = &v;
      }
    }
    if (resend) {
      out.push_back(report(w, Clock::now(), resend, ms_between(w.end, t0), c.seq));
      it = open_.erase(it);
    } else {
      ++it;
    }
  }
  // A failure opens a watch.
  for (const Verdict& v : verdicts) {
    if (v.skipped || !v.failure) continue;
    Watch w;
    w.source = v.source;
    w.outcome = v.outcome;
    w.reason = v.reason;
    w.http_status = v.http_status;
    w.method = v.method;
    w.tool = v.tool;
    w.injected = c.injected;
    w.retry_after_ms = v.retry_after_ms;
    w.session_expiry = v.advice == Advice::new_session || c.injected.starts_with("session-expired");
    w.end = c.t0 + std::chrono::duration_cast<Clock::duration>(
                       std::chrono::duration<double, std::milli>(c.timing.end_ms.value_or(0.0)));
    w.deadline = w.end + window_;
    open_.push_back(std::move(w));
    break;  // one watch per exchange (a batch reply's elements share their request)
  }
  return out;
}

std::vector<BehaviourReport> Watcher::tick(Clock::time_point now) {
  std::vector<BehaviourReport> out;
  for (auto it = open_.begin(); it != open_.end();) {
    Watch& w = *it;
    if (w.deadline > now) {
      ++it;
      continue;
    }
    if (!w.candidates.empty() && !w.extended) {
      // A request that may be the resend is still going: wait for it, once more the window.
      w.deadline += window_;
      w.extended = true;
      ++it;
      continue;
    }
    out.push_back(report(w, now, nullptr, 0, 0));
    it = open_.erase(it);
  }
  return out;
}

std::vector<BehaviourReport> Watcher::finish(Clock::time_point now) {
  std::vector<BehaviourReport> out;
  for (const Watch& w : open_) out.push_back(report(w, now, nullptr, 0, 0));
  open_.clear();
  return out;
}

std::optional<Clock::time_point> Watcher::next_deadline() const {
  std::optional<Clock::time_point> d;
  for (const Watch& w : open_) {
    if (!d || w.deadline < *d) d = w.deadline;
  }
  return d;
}

BehaviourReport Watcher::report(const Watch& w, Clock::time_point now, const Verdict* resend, double resend_after_ms,
                                std::uint64_t resend_seq) {
  BehaviourReport r;
  r.action = resend ? "resend" : w.next ? "new_request" : "nothing";
  ++counts_[r.action];
  const double watched = ms_between(w.end, now);
  const bool stopped_early = !resend && now < w.deadline;
  std::string what = fmt::format("{} ({}{})", to_string(w.outcome), w.reason,
                                 w.http_status ? fmt::format(", HTTP {}", w.http_status) : std::string());
  std::string detail;
  if (resend) {
    // The proxy knows only that the client sent it again: an SDK's retry and the application's
    // own code look the same on the wire (retry_origin "client" means: not the proxy).
    detail = fmt::format("the client sent the same call again {} after", human_ms(resend_after_ms));
    if (w.retry_after_ms) {
      const bool honoured = resend_after_ms + kRetryAfterSlackMs >= static_cast<double>(*w.retry_after_ms);
      detail += fmt::format("; Retry-After {} {}", human_ms(static_cast<double>(*w.retry_after_ms)),
                            honoured ? "honoured" : "not honoured");
    }
    detail += fmt::format("; repeating it was {}: {}", to_string(resend->replay->safety), resend->replay->decided_by);
  } else if (w.next) {
    const std::string next = w.next->resume        ? std::string("GET resuming the stream (Last-Event-ID)")
                             : !w.next->method.empty() ? w.next->method
                                                       : w.next->http_method;
    detail = fmt::format("the client sent a new request ({}) {} after, and did not send the call again within {}", next,
                         human_ms(w.next->after_ms), human_ms(watched));
  } else {
    detail = fmt::format("the client sent nothing through the proxy within {}{}", human_ms(watched),
                         stopped_early ? " (the proxy stopped)" : "");
  }
  if (w.session_expiry) {
    detail += w.reinitialized_after_ms ? fmt::format("; it re-initialized {} after", human_ms(*w.reinitialized_after_ms))
                                       : std::string("; it did not re-initialize");
  }
  // The record.
  std::string& j = r.jsonl;
  j = "{\"schema\":1,\"kind\":\"client_behaviour\",\"source\":";
  str(j, w.source);
  j += ",\"after\":{\"outcome\":";
  str(j, to_string(w.outcome));
  j += ",\"reason\":";
  str(j, w.reason);
  j += ",\"http_status\":" + std::to_string(w.http_status) + ",\"method\":";
  opt_str(j, w.method);
  j += ",\"tool\":";
  opt_str(j, w.tool);
  j += ",\"injected\":";
  opt_str(j, w.injected);
  j += ",\"retry_after_ms\":";
  j += w.retry_after_ms ? std::to_string(*w.retry_after_ms) : std::string("null");
  j += "},\"action\":";
  str(j, r.action);
  j += ",\"next_request\":";
  if (w.next) {
    j += fmt::format("{{\"exchange\":{},\"http_method\":", w.next->seq);
    str(j, w.next->http_method);
    j += ",\"method\":";
    opt_str(j, w.next->method);
    j += fmt::format(",\"resume\":{},\"after_ms\":{:.3f}}}", w.next->resume ? "true" : "false", w.next->after_ms);
  } else {
    j += "null";
  }
  j += ",\"resend\":";
  if (resend) {
    j += "{\"source\":";
    str(j, resend->source);
    j += fmt::format(",\"exchange\":{},\"after_ms\":{:.3f},\"same_id\":{},\"retry_origin\":\"client\",\"safety\":",
                     resend_seq, resend_after_ms, resend->replay->same_id ? "true" : "false");
    str(j, to_string(resend->replay->safety));
    j += ",\"decided_by\":";
    str(j, resend->replay->decided_by);
    j += ",\"honoured_retry_after\":";
    if (w.retry_after_ms) {
      j += resend_after_ms + kRetryAfterSlackMs >= static_cast<double>(*w.retry_after_ms) ? "true" : "false";
    } else {
      j += "null";
    }
    j += '}';
  } else {
    j += "null";
  }
  j += ",\"reinitialized\":";
  if (!w.session_expiry) j += "null";
  else j += w.reinitialized_after_ms ? "true" : "false";
  j += fmt::format(",\"watched_ms\":{:.3f},\"detail\":", watched);
  str(j, detail);
  j += '}';
  r.table = "client after " + escape_terminal(redact(w.source)) + " " + escape_terminal(what) +
            (w.injected.empty() ? "" : " injected " + escape_terminal(w.injected)) + ": " +
            escape_terminal(redact(detail));
  return r;
}

}  // namespace mcptriage::proxy
