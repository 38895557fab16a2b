// The client-behaviour report (docs/proxy.md "What the client did"): after each failure, what
// the client did next through the proxy: nothing, a new request, or a resend of the same call
// (same method and params but `_meta`), after how long, whether it honoured Retry-After, whether
// it re-initialized after a session expiry, and whether repeating was safe by the tool's
// annotations. Runs on the triage thread; fed in the order things happened on the network thread.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "proxy/captured.hpp"
#include "proxy/server.hpp"
#include "mcptriage/classify.hpp"
#include "mcptriage/session.hpp"

namespace mcptriage::proxy {

/// What the rest of the proxy needs of one record of an exchange.
struct Verdict {
  std::string source;                  ///< `input#N` (and `[k]` for a batch element)
  bool skipped = false;                ///< not an MCP exchange (skip_reason says why)
  std::string skip_reason;
  Outcome outcome = Outcome::NOT_CAPTURED;
  std::string reason;
  int http_status = 0;
  bool failure = false;                ///< is_failure(outcome) (session.hpp)
  Advice advice = Advice::none;
  std::optional<long long> retry_after_ms;  ///< the response's Retry-After, in ms
  // The request, as the session analysis read it.
  std::string http_method;
  std::string method;
  std::string tool;
  std::uint64_t params_hash = 0;
  std::optional<std::string> request_id;
  bool notification = false;
  bool session_id = false;             ///< the request carried Mcp-Session-Id
  std::optional<Replay> replay;        ///< it repeats an earlier failed request (SessionTracker)
};


/// One report, final.
struct BehaviourReport {
  std::string action;  ///< "nothing", "new_request", "resend"
  std::string jsonl;   ///< the `client_behaviour` record
  std::string table;   ///< its line in the table view
};

class Watcher {
 public:
  /// `window`: how long after a failure the client is watched (--watch).
  explicit Watcher(std::chrono::milliseconds window) : window_(window) {}

  /// A request began (Started, from the network thread).
  std::vector<BehaviourReport> started(const Started& s);
  /// An exchange ended and was triaged: its verdicts, and the proxy's facts of it.
  std::vector<BehaviourReport> completed(const Captured& c, const std::vector<Verdict>& verdicts);
  /// Reports whose window has passed by `now`.
  std::vector<BehaviourReport> tick(Clock::time_point now);
  /// The proxy stops: every open watch reported as of `now`.
  std::vector<BehaviourReport> finish(Clock::time_point now);
  /// When tick() should next run, if a watch is open.
  std::optional<Clock::time_point> next_deadline() const;

  /// Reports made so far, by action.
  const std::map<std::string, std::size_t>& counts() const { return counts_; }

 private:
  struct Next {
    std::uint64_t seq = 0;
    std::string http_method;
    std::string method;
    bool resume = false;
    double after_ms = 0;
  };
  struct Watch {
    std::string source;
    Outcome outcome = Outcome::HTTP_ERROR;
    std::string reason;
    int http_status = 0;
    std::string method;
    std::string tool;
    std::string injected;
    std::optional<long long> retry_after_ms;
    bool session_expiry = false;
    Clock::time_point end{};
    Clock::time_point deadline{};
    bool extended = false;
    std::optional<Next> next;
    std::optional<double> reinitialized_after_ms;
    std::set<std::uint64_t> candidates;  ///< requests after it with its method and tool, not yet ended
  };

  BehaviourReport report(const Watch& w, Clock::time_point now, const Verdict* resend, double resend_after_ms,
                         std::uint64_t resend_seq);

  std::chrono::milliseconds window_;
  std::vector<Watch> open_;
  std::map<std::uint64_t, Clock::time_point> starts_;  ///< requests begun and not yet ended
  std::map<std::string, std::size_t> counts_;
};

}  // namespace mcptriage::proxy
