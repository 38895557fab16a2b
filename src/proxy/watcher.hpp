// The proxy's side of the client-behaviour report (docs/proxy.md "What the client did"): its
// network facts (Started, Captured) handed to the one engine that the stdio wrapper shares
// (triage/behaviour.hpp). Runs on the triage thread; fed in the order things happened on the
// network thread.
#pragma once

#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "proxy/captured.hpp"
#include "proxy/server.hpp"
#include "triage/behaviour.hpp"

namespace mcptriage::proxy {

using triage::BehaviourReport;
using triage::Verdict;

class Watcher {
 public:
  /// `window`: how long after a failure the client is watched (--watch).
  explicit Watcher(std::chrono::milliseconds window) : engine_(window, triage::WatchedTransport::http) {}

  /// A request began (Started, from the network thread).
  std::vector<BehaviourReport> started(const Started& s) {
    return engine_.started(
        triage::RequestBegun{s.seq, s.t0, s.http_method, s.method, s.tool, s.http_method == "GET" && s.last_event_id});
  }
  /// An exchange ended and was triaged: its verdicts, and the proxy's facts of it (its end: the
  /// response's last byte forwarded, `timing.end_ms` after its start).
  std::vector<BehaviourReport> completed(const Captured& c, const std::vector<Verdict>& verdicts) {
    const Clock::time_point end = c.t0 + std::chrono::duration_cast<Clock::duration>(
                                             std::chrono::duration<double, std::milli>(c.timing.end_ms.value_or(0.0)));
    return engine_.completed(triage::ExchangeEnded{c.seq, c.t0, end, Clock::now(), c.injected}, verdicts);
  }
  /// Reports whose window has passed by `now`.
  std::vector<BehaviourReport> tick(Clock::time_point now) { return engine_.tick(now); }
  /// The proxy stops: every open watch reported as of `now`.
  std::vector<BehaviourReport> finish(Clock::time_point now) { return engine_.finish(now); }
  /// When tick() should next run, if a watch is open.
  std::optional<Clock::time_point> next_deadline() const { return engine_.next_deadline(); }
  /// Reports made so far, by action.
  const std::map<std::string, std::size_t>& counts() const { return engine_.counts(); }

 private:
  triage::BehaviourWatcher engine_;
};

}  // namespace mcptriage::proxy
