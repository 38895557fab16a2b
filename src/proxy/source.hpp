// The proxy as a source of the run core (src/triage): what the network thread hands over (Queue),
// recorded and fed to the core as exchange-log lines; the core's judged entries back to the
// client-behaviour watcher (docs/proxy.md, ARCHITECTURE.md "One exchange through the proxy").
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "io/source.hpp"
#include "proxy/captured.hpp"
#include "proxy/recording.hpp"
#include "proxy/server.hpp"
#include "proxy/watcher.hpp"
#include "triage/core.hpp"

namespace mcptriage::proxy {

/// What the network thread hands to the triage thread, in the order it happened.
using Item = std::variant<Started, Captured>;

class Queue : public ExchangeSink {
 public:
  void started(Started s) override { push(Item(std::move(s))); }
  void completed(Captured c) override { push(Item(std::move(c))); }
  void close() {
    std::lock_guard lock(mu_);
    closed_ = true;
    cv_.notify_one();
  }
  /// Waits until items come, the queue closes, or `until`. Returns false when closed and empty.
  bool wait(std::deque<Item>& out, std::optional<Clock::time_point> until) {
    std::unique_lock lock(mu_);
    auto ready = [&] { return !items_.empty() || closed_; };
    if (until) cv_.wait_until(lock, *until, ready);
    else cv_.wait(lock, ready);
    out.swap(items_);
    return !(closed_ && out.empty());
  }

 private:
  void push(Item item) {
    std::lock_guard lock(mu_);
    items_.push_back(std::move(item));
    cv_.notify_one();
  }
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<Item> items_;
  bool closed_ = false;
};

/// What each proxied exchange came to, counted for the proxy's summary.
struct Counts {
  std::size_t exchanges = 0;
  std::size_t skipped = 0;
  std::size_t made = 0;
  std::map<std::string, std::size_t> injected;
  std::map<std::string, std::size_t> cuts;
};

/// The proxy as a source of the run core (io::Source, triage::EntryObserver): each exchange the
/// network thread completes is recorded (--record), then fed to the core as its exchange-log line
/// (Feed::lines with `follow`: judged at once, with the session rules of one read of the
/// recording, so that `mcptriage RECORDING` gives the same records). The core tells it each entry's
/// records (judged()): it adds the live members (timing, proxy) and tells the client-behaviour
/// watcher, whose records go out as notes. Runs on the triage thread (the core's, with `jobs` 1).
class ProxySource final : public io::Source, public triage::EntryObserver {
 public:
  ProxySource(Queue& queue, Watcher& watcher, RecordBudget& budget, std::vector<std::unique_ptr<Recording>>& recordings,
              std::string input_name, std::function<void()> stop)
      : queue_(queue), watcher_(watcher), budget_(budget), recordings_(recordings), input_name_(std::move(input_name)),
        stop_(std::move(stop)) {
    want_har_ = std::any_of(recordings_.begin(), recordings_.end(),
                            [](const auto& r) { return r->kind() == Recording::Kind::har; });
  }
  void set_core(triage::Triage& core) { core_ = &core; }
  const Counts& counts() const { return counts_; }

  /// Until the queue closes: each Started to the watcher, each Captured recorded and fed (its
  /// records reach the sinks before the call returns), the watcher's reports as notes. Rethrows
  /// the first OutputError of the core at the end (after recording everything that came).
  void produce(io::Feed& feed) override;
  void judged(std::span<Record> records, const SessionAnnotation& annotation) override;

 private:
  /// Runs a call into the core; its first OutputError (standard output closed or failing) stops
  /// the proxy and is kept for the end: the exchanges still coming are recorded, not judged.
  template <typename F>
  void guarded(F&& f) {
    try {
      f();
    } catch (const OutputError&) {
      failed_ = std::current_exception();
      stop_();
    }
  }
  void notes(const std::vector<BehaviourReport>& reports) {
    if (failed_ || core_ == nullptr) return;
    for (const auto& r : reports) guarded([&] { core_->note(Note{r.jsonl, r.table}); });
  }

  Queue& queue_;
  Watcher& watcher_;
  RecordBudget& budget_;
  std::vector<std::unique_ptr<Recording>>& recordings_;
  std::string input_name_;
  std::function<void()> stop_;
  triage::Triage* core_ = nullptr;
  bool want_har_ = false;
  const Captured* current_ = nullptr;  ///< the exchange being fed (judged() runs inside its Feed call)
  std::vector<Verdict> verdicts_;      ///< its records, for the watcher
  Counts counts_;
  std::exception_ptr failed_;
};

}  // namespace mcptriage::proxy
