// The wrapper's relay (docs/wrap.md "How it relays"): one thread per stream copies bytes as they
// come, host to server and server to host, and hands each line it saw to the triage thread
// through an EventQueue; the server's standard error passes through, its last lines kept.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <limits>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "io/process.hpp"
#include "wrap/record_line.hpp"

namespace mcptriage::wrap {

/// Something the relay saw, in the order it saw it (per stream).
struct Event {
  enum class Kind { line, eof, exit };
  Kind kind = Kind::line;
  Dir dir = Dir::c2s;
  std::int64_t unix_ns = 0;  ///< when it was relayed (the system clock)
  std::string bytes;         ///< a line: its bytes, without its newline (at most the record bound)
  bool cut = false;          ///< a line longer than the record bound: `bytes` is its start
  std::size_t size = 0;      ///< the line's whole length as relayed (its newline and a last CR aside)
  io::ExitStatus status;     ///< exit: how the server ended
  std::vector<std::string> stderr_tail;  ///< exit: its last standard error lines
  std::optional<Injection> injection;    ///< what --inject did to the line (or the exit)
};

/// Events from the relay threads to the triage thread. Bounded: a push waits while `max_bytes` of
/// events (their lines and the events themselves) wait to be judged (the relay has already
/// forwarded them; only their records wait), and one wait() hands over at most `max_take` of them,
/// so that memory stays flat whatever the server streams: what the triage thread holds at once
/// (the events, the block of recording lines made of them, its entries and records) follows
/// `max_take` (default: all that waits), not how far the judging is behind the relay.
class EventQueue {
 public:
  explicit EventQueue(std::size_t max_bytes, std::size_t max_take = std::numeric_limits<std::size_t>::max())
      : max_bytes_(max_bytes), max_take_(max_take) {}
  void push(Event e);
  /// No more events: wait() returns false once the queue is empty.
  void close();
  /// Waits for events (or the close), or until the system clock reads `until_unix_ns`
  /// (nanoseconds since the Unix epoch) when given; moves the oldest into `out`, at least one and at
  /// most `max_take` bytes of them (none when the time came first). False when closed and empty.
  bool wait(std::deque<Event>& out, std::optional<std::int64_t> until_unix_ns = std::nullopt);

 private:
  std::mutex mu_;
  std::condition_variable ready_;
  std::condition_variable room_;
  std::deque<Event> events_;
  std::size_t bytes_ = 0;
  std::size_t max_bytes_;
  std::size_t max_take_;
  bool closed_ = false;
};

/// The last lines a stream held, each cut at `max_line` bytes: the server's standard error, for
/// the verdict of a call it never answered. Thread-safe.
class Tail {
 public:
  Tail(std::size_t lines, std::size_t max_line) : lines_(lines), max_line_(max_line) {}
  void add(std::string_view bytes);  ///< a chunk as read; lines end at LF
  std::vector<std::string> lines() const;  ///< the last lines (a partial last line included)

 private:
  mutable std::mutex mu_;
  std::deque<std::string> done_;
  std::string partial_;
  std::size_t lines_;
  std::size_t max_line_;
};

/// The host's standard output when --inject rules are given: the server's bytes (written as
/// they come) and the lines the wrapper writes in the server's place (an injected reply, a garbage
/// line) share it, and a line of the wrapper goes only between two lines of the server, never
/// inside one. Thread-safe.
class HostOut {
 public:
  explicit HostOut(int fd) : fd_(fd) {}
  /// The server's bytes as read. False once a write failed (the host is gone).
  bool write_chunk(std::string_view chunk);
  /// One line of the wrapper (`line` and a newline): waits while the server's output stands
  /// inside a line, then writes. False once a write failed.
  bool write_line(std::string_view line);
  /// The server's output ended: a line of the wrapper no longer waits for the end of its line.
  void server_done();

 private:
  std::mutex mu_;
  std::condition_variable at_line_end_;
  int fd_;
  bool mid_line_ = false;
  bool server_done_ = false;
  bool failed_ = false;
};

class Injector;

/// Copies `from` to `to` until `from` ends, `stop_fd` becomes readable, or reading fails; each
/// chunk is written on as soon as it is read (no line is held back), after the lines it ends went
/// to `queue`, each as an Event (bytes past `max_line` dropped, `cut` set; a last line without its
/// newline too): what the other side sends in answer is queued after them. `to` failing (EPIPE: the reader is gone) stops the writing, not the reading, so that the
/// rest is still recorded. Returns true when `from` ended (end of file), false when stopped.
/// `close_to_at_end`: closes `to` at the end of `from` (the child's standard input: it reads end of file).
struct Pump {
  int from = -1;
  int to = -1;
  Dir dir = Dir::c2s;
  EventQueue* queue = nullptr;
  int stop_fd = -1;
  std::size_t max_line = 0;
  bool run();
  bool to_failed = false;  ///< a write to `to` failed
  /// With --inject rules (docs/wrap.md "Fault injection"). Host to server (`dir` c2s): each whole
  /// line (up to `max_line`; a longer one is forwarded as it comes, no rule applied) is decided on
  /// by `injector` before it is forwarded: held, not forwarded, answered through `host`, or
  /// followed by the wrapper's exit (`on_exit`, called with the code). Server to host (s2c): the
  /// bytes go through `host`, and the lines to `injector` while it wants them.
  Injector* injector = nullptr;
  HostOut* host = nullptr;
  std::function<void(int code, const std::string& rule)> on_exit{};
  /// slow-start: no line of the host is forwarded before this time (steady clock).
  std::optional<std::chrono::steady_clock::time_point> hold_until{};

 private:
  bool run_injecting();
  /// One whole line of the host: `line` without its newline and last CR, `raw` with the CR,
  /// `newline`: it ended with one (forwarded with it).
  void inject_line(std::string_view line, std::string_view raw, std::int64_t read_ns, bool newline);
  /// Waits `d`, or until `stop_fd` is readable (false).
  bool pause(std::chrono::milliseconds d) const;
};

/// Copies the child's standard error to ours as it comes, keeping its tail; returns at end of
/// file or when `stop_fd` becomes readable.
void pass_stderr(int from, int stop_fd, Tail& tail);

/// The system clock now, in nanoseconds since the Unix epoch.
std::int64_t now_unix_ns();

}  // namespace mcptriage::wrap
