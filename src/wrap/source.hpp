// The wrapper as a source of the run core (src/triage): each line the relay saw becomes a line of
// the recording (record_line.hpp), written to --record and fed to the core as a line of a JSON
// Lines log followed as it grows, so that the records are those `mcptriage RECORDING` gives. Live
// only, beside them: the --watch deadline of each host request (a `watch` line in the recording
// and a `watch` record) and the client-behaviour report after each failure (triage/behaviour.hpp,
// `client_behaviour` records), both as notes of the core.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <limits>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "io/source.hpp"
#include "json/dom.hpp"
#include "proxy/recording.hpp"
#include "triage/behaviour.hpp"
#include "triage/core.hpp"
#include "wrap/relay.hpp"

namespace mcptriage::wrap {

/// What went through the wrapper, for its summary.
struct Counts {
  std::size_t to_server = 0;     ///< lines from the host to the server
  std::size_t to_host = 0;       ///< lines from the server to the host
  std::size_t not_messages = 0;  ///< lines of either that are no JSON-RPC message
  std::size_t from_wrapper = 0;  ///< lines --inject wrote to the host in the server's place
  std::size_t bytes_to_server = 0;
  std::size_t bytes_to_host = 0;
  bool input_closed = false;     ///< the host closed the server's input
  std::size_t overdue = 0;       ///< host requests unanswered at their --watch deadline (watch records)
  std::size_t answered_late = 0; ///< of those, answered later
  double latest_ms = 0;          ///< the longest wait of a request answered late, milliseconds
};

/// Runs on the triage thread (the core's, with `jobs` 1): until the queue closes, every event's
/// recording line is written (`recording`, may be null) and fed; all the events of one wake-up
/// are fed as one block of lines. An OutputError of the core (the records' output failing) stops
/// the judging, not the recording; it is rethrown at the end.
///
/// `watch` (--watch): a host request with no response this long after it was sent, while the
/// server runs, gets a `watch` line in the recording (stdio_watch_line) and a `watch` record
/// (reason `response_timeout`, or `initialize_timeout` for initialize) when the deadline passes;
/// after each failure the host is watched this long (the `client_behaviour` records). The core's
/// judged entries come back through judged() (TriageOptions::observer); set_core() before run.
class WrapSource final : public io::Source, public triage::EntryObserver {
 public:
  WrapSource(EventQueue& queue, proxy::Recording* recording, std::string input_name, std::chrono::milliseconds watch)
      : queue_(queue), recording_(recording), input_name_(std::move(input_name)), watch_(watch),
        behaviour_(watch, triage::WatchedTransport::stdio) {}
  void set_core(triage::Triage& core) { core_ = &core; }
  void produce(io::Feed& feed) override;
  void judged(std::span<Record> records, const SessionAnnotation& annotation) override;
  const Counts& counts() const { return counts_; }
  /// The client-behaviour reports made, by action (`nothing`, `new_request`, `resend`, `closed_input`).
  const std::map<std::string, std::size_t>& behaviour_counts() const { return behaviour_.counts(); }

 private:
  /// A request of the host, from its line until its entry was judged.
  struct HostRequest {
    std::uint64_t seq = 0;        ///< the host's message number (requests and notifications), from 1
    std::int64_t sent_ns = 0;     ///< its line's time
    std::size_t line = 0;         ///< its line in the fed log (the recording), from 1
    std::string method;
    std::string tool;
    std::string injected;         ///< the --inject rule applied to it
    std::optional<std::int64_t> answered_ns;   ///< its response's line time
    std::optional<std::int64_t> cancelled_ns;  ///< the host's notifications/cancelled naming it
    bool overdue = false;         ///< its watch record was written
  };
  /// One thing the watcher hears, held until nothing judged later can come before it (time order).
  struct Step {
    enum class Kind { begun, completed, input_closed } kind = Kind::begun;
    std::int64_t at_ns = 0;       ///< when it happened: a request's line, an exchange's end, the eof line
    std::uint64_t order = 0;      ///< ties keep the order they were heard in
    triage::RequestBegun begun;
    triage::ExchangeEnded ended;  ///< completed
    std::vector<triage::Verdict> verdicts;
  };
  /// What the line `e` says to the watch and the watcher (a host request, a response, a
  /// cancellation, the end of the host's input): recorded in requests_, deadlines_ and steps_.
  void see(const Event& e, std::size_t line);
  void step(Step s);
  /// The requests whose deadline passed by `now_ns` with no response: their watch lines (appended
  /// to `block`) and records (to `notes`).
  void overdue(std::int64_t now_ns, std::string& block, std::vector<Note>& notes);
  /// Gives the watcher, in time order, the steps no entry still to be judged can come before:
  /// those up to the send time of the oldest host request the core has not judged (its end may
  /// come before later requests: a cancelled call the server never answered); all of them when
  /// `all` (the server ended). Then the watches whose window passed.
  void tell_watcher(std::int64_t now_ns, bool all);
  void notes(const std::vector<triage::BehaviourReport>& reports);
  void note(Note n);

  EventQueue& queue_;
  proxy::Recording* recording_;
  std::string input_name_;
  std::chrono::milliseconds watch_;
  triage::BehaviourWatcher behaviour_;
  triage::Triage* core_ = nullptr;
  json::Parser parser_;
  Counts counts_;
  std::exception_ptr failed_;
  std::uint64_t seq_ = 0;
  std::size_t lines_ = 0;  ///< lines fed so far
  bool server_ended_ = false;
  std::optional<std::int64_t> exit_ns_;
  std::map<std::string, HostRequest> requests_;  ///< by id (as JSON text), until the core judged it
  std::set<std::pair<std::int64_t, std::string>> unjudged_;  ///< (sent_ns, id) of requests_, oldest first
  /// The send time of the oldest request not judged when the watcher was last told: no step
  /// after it was told, nor a watch of the host ended (BehaviourWatcher::tick).
  std::int64_t frontier_ = std::numeric_limits<std::int64_t>::max();
  std::deque<std::pair<std::string, std::int64_t>> deadlines_;  ///< (id, deadline), in the order sent
  std::multimap<std::int64_t, Step> steps_;  ///< by time, not yet told to the watcher
  std::uint64_t step_order_ = 0;
};

}  // namespace mcptriage::wrap
