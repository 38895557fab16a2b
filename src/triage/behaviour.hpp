// The client-behaviour report, one engine for every front door that sees a client live
// (docs/proxy.md "What the client did", docs/wrap.md "What the host did"): after each failure, what
// the client did next: nothing, a new request, a resend of the same call (same method and params
// but `_meta`), or (stdio) closing the server's input; after how long, whether it honoured
// Retry-After, whether it re-initialized after a session expiry, and whether repeating was safe by
// the tool's annotations. Pure: no clock of its own (every time is given), no I/O; one thread.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "mcptriage/classify.hpp"
#include "mcptriage/session.hpp"

namespace mcptriage::triage {

using BehaviourClock = std::chrono::steady_clock;

/// Which front door watches, and so the words and the members of its records.
enum class WatchedTransport {
  http,   ///< mcptriage proxy: the client, its requests through the proxy (HTTP methods and statuses)
  stdio,  ///< mcptriage wrap: the host, its messages to the server's standard input (no HTTP)
};

/// What the watcher needs of one record of an exchange.
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
  std::optional<bool> retry_safe;      ///< the record's `retry.safe` (stdio records say it in `after`)
  std::string retry_safe_source;       ///< the record's `retry.safe_source`
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

/// A request (or, on stdio, a notification) the client began: `seq` its number in the order the
/// client sent them, from 1 (the proxy's `proxy.exchange`; the host's message number on stdio).
struct RequestBegun {
  std::uint64_t seq = 0;
  BehaviourClock::time_point t0{};
  std::string http_method;  ///< "POST", "GET"; "" on stdio
  std::string method;       ///< the JSON-RPC method ("" for a GET)
  std::string tool;         ///< params.name of a tools/call
  bool resume = false;      ///< a GET with Last-Event-ID: resumes a stream
};

/// An exchange that ended and was judged: its request's number and start, when its response
/// ended (the last byte the client got, or the server's end), and the fault rule applied to it.
struct ExchangeEnded {
  std::uint64_t seq = 0;
  BehaviourClock::time_point t0{};
  BehaviourClock::time_point end{};
  BehaviourClock::time_point judged{};  ///< when it was judged: the report of a watch it resends is made then
  std::string injected;  ///< the --inject rule, "" for none
};

/// One report, final.
struct BehaviourReport {
  std::string action;  ///< "nothing", "new_request", "resend"; stdio also "closed_input"
  std::string jsonl;   ///< the `client_behaviour` record
  std::string table;   ///< its line in the table view
};

/// Watches the client after each failure for `window`. Calls come in the order things happened.
class BehaviourWatcher {
 public:
  /// At most this many failures are watched at once: each event is checked against every open
  /// watch, so a flood of failures would cost time and memory in their square. Past it, the
  /// oldest watch is reported at once, with what came after it so far and a word that it ended
  /// early.
  static constexpr std::size_t kMaxOpenWatches = 256;

  /// `window`: how long after a failure's end the client is watched (--watch).
  BehaviourWatcher(std::chrono::milliseconds window, WatchedTransport transport)
      : window_(window), transport_(transport) {}

  /// A request began.
  std::vector<BehaviourReport> started(const RequestBegun& s);
  /// An exchange ended and was judged: its records. A failure opens a watch (one per exchange); a
  /// resend (the session analysis's replay of a watched failure) reports that watch.
  std::vector<BehaviourReport> completed(const ExchangeEnded& e, const std::vector<Verdict>& verdicts);
  /// stdio: the host closed the server's input at `at` (how a host shuts a stdio server down, or
  /// gives up): every open watch is reported, as `closed_input` when nothing came after the failure;
  /// a failure that ends later (a call in flight the server then left unanswered) is reported at
  /// once, `closed_input` with a negative `closed_input_after_ms`.
  std::vector<BehaviourReport> input_closed(BehaviourClock::time_point at);
  /// Reports whose window has passed by `now`.
  std::vector<BehaviourReport> tick(BehaviourClock::time_point now);
  /// The front door stops (the proxy) or the server ended (stdio): every open watch reported as of `now`.
  std::vector<BehaviourReport> finish(BehaviourClock::time_point now);
  /// When tick() should next run, if a watch is open.
  std::optional<BehaviourClock::time_point> next_deadline() const;

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
    std::optional<bool> retry_safe;
    std::string retry_safe_source;
    bool session_expiry = false;
    BehaviourClock::time_point end{};
    BehaviourClock::time_point deadline{};
    bool extended = false;
    std::optional<Next> next;
    std::optional<double> reinitialized_after_ms;
    std::optional<double> closed_after_ms;  ///< stdio: the host closed the server's input this long after
    std::set<std::uint64_t> candidates;  ///< requests after it with its method and tool, not yet ended
    bool crowded = false;                ///< reported early: kMaxOpenWatches were open
  };

  BehaviourReport report(const Watch& w, BehaviourClock::time_point now, const Verdict* resend, double resend_after_ms,
                         std::uint64_t resend_seq);

  std::chrono::milliseconds window_;
  WatchedTransport transport_;
  std::vector<Watch> open_;
  std::map<std::uint64_t, BehaviourClock::time_point> starts_;  ///< requests begun and not yet ended
  std::map<std::string, std::size_t> counts_;
  std::optional<BehaviourClock::time_point> input_closed_at_;  ///< stdio: the host closed the server's input
};

}  // namespace mcptriage::triage
