// The client-behaviour report (behaviour.hpp).
#include "triage/behaviour.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "mcptriage/render.hpp"

namespace mcptriage::triage {
namespace {

/// A client that honours Retry-After starts its timer when the response arrives, which may be a
/// little before the proxy wrote the response's last byte.
constexpr double kRetryAfterSlackMs = 50.0;

double ms_between(BehaviourClock::time_point a, BehaviourClock::time_point b) {
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

std::vector<BehaviourReport> BehaviourWatcher::started(const RequestBegun& s) {
  starts_[s.seq] = s.t0;
  for (Watch& w : open_) {
    if (s.t0 <= w.end) continue;
    const double after = ms_between(w.end, s.t0);
    if (!w.next) w.next = Next{s.seq, s.http_method, s.method, s.resume, after};
    if (s.method == "initialize" && !w.reinitialized_after_ms) w.reinitialized_after_ms = after;
    if (!w.method.empty() && s.method == w.method && s.tool == w.tool) w.candidates.insert(s.seq);
  }
  return {};
}

std::vector<BehaviourReport> BehaviourWatcher::completed(const ExchangeEnded& e, const std::vector<Verdict>& verdicts) {
  std::vector<BehaviourReport> out;
  const auto started = starts_.find(e.seq);
  const BehaviourClock::time_point t0 = started != starts_.end() ? started->second : e.t0;
  if (started != starts_.end()) starts_.erase(started);
  // A resend closes the watch of the failure it repeats.
  for (auto it = open_.begin(); it != open_.end();) {
    Watch& w = *it;
    const Verdict* resend = nullptr;
    if (t0 > w.end) {
      w.candidates.erase(e.seq);
      for (const Verdict& v : verdicts) {
        if (v.replay && v.replay->of_source == w.source) resend = &v;
      }
    }
    if (resend) {
      out.push_back(report(w, e.judged, resend, ms_between(w.end, t0), e.seq));
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
    w.injected = e.injected;
    w.retry_after_ms = v.retry_after_ms;
    w.retry_safe = v.retry_safe;
    w.retry_safe_source = v.retry_safe_source;
    w.session_expiry = v.advice == Advice::new_session || e.injected.starts_with("session-expired");
    w.end = e.end;
    w.deadline = w.end + window_;
    if (input_closed_at_) {
      // stdio: the host had closed the server's input already; it can send nothing more.
      w.closed_after_ms = ms_between(w.end, *input_closed_at_);
      out.push_back(report(w, std::max(e.end, *input_closed_at_), nullptr, 0, 0));
      break;
    }
    if (open_.size() >= kMaxOpenWatches) {
      // A flood of failures (a client hammering a failing server, a mock with nothing recorded):
      // every event is checked against every open watch, so their number is bounded; the oldest
      // is reported now with what came after it so far.
      open_.front().crowded = true;
      out.push_back(report(open_.front(), e.end, nullptr, 0, 0));
      open_.erase(open_.begin());
    }
    open_.push_back(std::move(w));
    break;  // one watch per exchange (a batch reply's elements share their request)
  }
  return out;
}

std::vector<BehaviourReport> BehaviourWatcher::input_closed(BehaviourClock::time_point at) {
  input_closed_at_ = at;
  std::vector<BehaviourReport> out;
  for (Watch& w : open_) {
    w.closed_after_ms = ms_between(w.end, at);
    out.push_back(report(w, at, nullptr, 0, 0));
  }
  open_.clear();
  return out;
}

std::vector<BehaviourReport> BehaviourWatcher::tick(BehaviourClock::time_point now) {
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

std::vector<BehaviourReport> BehaviourWatcher::finish(BehaviourClock::time_point now) {
  std::vector<BehaviourReport> out;
  for (const Watch& w : open_) out.push_back(report(w, now, nullptr, 0, 0));
  open_.clear();
  return out;
}

std::optional<BehaviourClock::time_point> BehaviourWatcher::next_deadline() const {
  std::optional<BehaviourClock::time_point> d;
  for (const Watch& w : open_) {
    if (!d || w.deadline < *d) d = w.deadline;
  }
  return d;
}

BehaviourReport BehaviourWatcher::report(const Watch& w, BehaviourClock::time_point now, const Verdict* resend,
                                         double resend_after_ms, std::uint64_t resend_seq) {
  const bool stdio = transport_ == WatchedTransport::stdio;
  const std::string_view party = stdio ? "host" : "client";
  BehaviourReport r;
  r.action = resend ? "resend" : w.next ? "new_request" : w.closed_after_ms ? "closed_input" : "nothing";
  ++counts_[r.action];
  const double watched = std::max(0.0, ms_between(w.end, now));
  const bool stopped_early = !resend && now < w.deadline;
  std::string what = fmt::format("{} ({}{})", to_string(w.outcome), w.reason,
                                 w.http_status ? fmt::format(", HTTP {}", w.http_status) : std::string());
  std::string detail;
  if (resend) {
    // The front door knows only that the client sent it again: an SDK's retry and the
    // application's own code look the same on the wire (retry_origin "client" means: not us).
    detail = fmt::format("the {} sent the same call again {} after", party, human_ms(resend_after_ms));
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
    detail = stdio ? fmt::format("the host sent a new message ({}) {} after, and did not send the call again within {}",
                                 next, human_ms(w.next->after_ms), human_ms(watched))
                   : fmt::format("the client sent a new request ({}) {} after, and did not send the call again within {}",
                                 next, human_ms(w.next->after_ms), human_ms(watched));
    if (w.closed_after_ms) detail += fmt::format("; it closed the server's input {} after", human_ms(*w.closed_after_ms));
  } else if (w.closed_after_ms && *w.closed_after_ms < 0) {
    detail = fmt::format("the host had closed the server's input {} before this failure ended (it gave up, or shut "
                         "the server down, with the call in flight)",
                         human_ms(-*w.closed_after_ms));
  } else if (w.closed_after_ms) {
    detail = fmt::format("the host sent nothing more and closed the server's input {} after (it gave up, or shut "
                         "the server down)",
                         human_ms(*w.closed_after_ms));
  } else if (stdio) {
    detail = fmt::format("the host sent nothing to the server within {}{}", human_ms(watched),
                         stopped_early ? " (the server ended)" : "");
  } else {
    detail = fmt::format("the client sent nothing through the proxy within {}{}", human_ms(watched),
                         stopped_early ? " (the proxy stopped)" : "");
  }
  if (w.crowded) {
    detail += fmt::format("; reported early: more than {} failures were watched at once", kMaxOpenWatches);
  }
  if (w.session_expiry) {
    detail += w.reinitialized_after_ms ? fmt::format("; it re-initialized {} after", human_ms(*w.reinitialized_after_ms))
                                       : std::string("; it did not re-initialize");
  }
  if (stdio && !resend && !w.retry_safe_source.empty()) {
    detail += fmt::format("; resending it {}: {}",
                          !w.retry_safe ? "may not be safe" : *w.retry_safe ? "was safe" : "was not safe",
                          w.retry_safe_source);
  }
  // The record.
  std::string& j = r.jsonl;
  j = "{\"schema\":1,\"kind\":\"client_behaviour\",\"source\":";
  str(j, w.source);
  j += ",\"after\":{\"outcome\":";
  str(j, to_string(w.outcome));
  j += ",\"reason\":";
  str(j, w.reason);
  j += ",\"http_status\":" + (stdio ? std::string("null") : std::to_string(w.http_status)) + ",\"method\":";
  opt_str(j, w.method);
  j += ",\"tool\":";
  opt_str(j, w.tool);
  j += ",\"injected\":";
  opt_str(j, w.injected);
  j += ",\"retry_after_ms\":";
  j += w.retry_after_ms ? std::to_string(*w.retry_after_ms) : std::string("null");
  if (stdio) {
    j += ",\"safe\":";
    j += !w.retry_safe ? "null" : *w.retry_safe ? "true" : "false";
    j += ",\"safe_source\":";
    opt_str(j, w.retry_safe_source);
  }
  j += "},\"action\":";
  str(j, r.action);
  j += ",\"next_request\":";
  if (w.next) {
    j += fmt::format("{{\"exchange\":{},\"http_method\":", w.next->seq);
    if (stdio) j += "null";
    else str(j, w.next->http_method);
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
  if (stdio) {
    j += ",\"closed_input_after_ms\":";
    j += w.closed_after_ms ? fmt::format("{:.3f}", *w.closed_after_ms) : std::string("null");
  }
  j += fmt::format(",\"watched_ms\":{:.3f},\"detail\":", watched);
  str(j, detail);
  j += '}';
  r.table = std::string(party) + " after " + escape_terminal(redact(w.source)) + " " + escape_terminal(what) +
            (w.injected.empty() ? "" : " injected " + escape_terminal(w.injected)) + ": " +
            escape_terminal(redact(detail));
  return r;
}

}  // namespace mcptriage::triage
