// `mcptriage wrap --inject ACTION[@WHEN]` (docs/wrap.md "Fault injection"): what the wrapper does
// with each line the host writes, decided by the proxy's rules (proxy/inject.hpp, parsed with
// Transport::stdio), and what the host did after each fault (the client-behaviour lines of
// --summary). Pure: no file descriptors and no clock (times are given); thread-safe (the host's
// lines and the server's come from two threads).
#pragma once

#include <chrono>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "proxy/inject.hpp"

namespace mcptriage::wrap {

/// What the wrapper does with one line of the host (Injector::on_host_line).
struct Decision {
  const proxy::Rule* rule = nullptr;  ///< the rule applied; null: the line is forwarded as it came
  bool forward = true;                ///< pass the line to the server (false: drop, exit, a reply made here)
  std::string reply;                  ///< a JSON-RPC response (one line, no newline) the host gets in the server's place
  std::string garbage;                ///< garbage-line: a line that is no message, written to the host first
  std::chrono::milliseconds hold{0};  ///< delay: how long the line waits before it is forwarded
  std::optional<int> exit_code;       ///< exit: kill the server (SIGKILL) and exit with this code
  std::vector<std::string> notes;     ///< where the reply departs from the session's version (input-required)
  /// The record's warning for the request (the recording's `warnings`): what was done to it.
  std::string warning;
};

/// Decides, line by line, which rule applies to the host's messages and what the wrapper does.
/// Requests are counted for `call=N` (initialize is 1; notifications and the host's answers to
/// server requests are not counted). The negotiated version (for the forms of the replies) is
/// the request's own `_meta` version, else what the server answered to initialize.
class Injector {
 public:
  /// `rules`: parsed with proxy::Transport::stdio. A slow-start rule is kept apart (slow_start()).
  explicit Injector(std::vector<proxy::Rule> rules);

  /// The host's line `line` (no newline, a last CR removed), read at `unix_ns`.
  Decision on_host_line(std::string_view line, std::int64_t unix_ns);
  /// A line of the server, while wants_server_lines(): learns the version initialize negotiated.
  void on_server_line(std::string_view line);
  /// Whether the server's lines are still of use (an initialize answer is awaited).
  bool wants_server_lines() const;
  /// The slow-start rule, or null: the host's lines wait until its duration after the server's start.
  const proxy::Rule* slow_start() const { return slow_start_ ? &*slow_start_ : nullptr; }

  /// The client-behaviour lines for --summary: per fault, what the host did next (the same call
  /// again, another request, nothing) and after how long, ended at `unix_ns` by `end` ("the host
  /// closed the server's input", "the server ended").
  std::vector<std::string> behaviour(std::int64_t unix_ns, std::string_view end);
  /// How many times each rule was applied, in the order given (rule text, count); rules never
  /// applied count 0.
  std::vector<std::pair<std::string, std::size_t>> applied() const;

 private:
  struct Fault {
    std::string rule;
    std::string method;
    std::string tool;
    std::int64_t unix_ns = 0;
    std::string next;  ///< what the host did next; "" while nothing was seen
  };
  void see_request(const proxy::Peek& m, std::int64_t unix_ns);

  mutable std::mutex mu_;
  std::vector<proxy::Rule> rules_;
  std::vector<std::size_t> counts_;
  std::optional<proxy::Rule> slow_start_;
  std::size_t calls_ = 0;
  std::string init_id_;   ///< the id of the initialize awaiting its answer, "" when none
  std::string version_;   ///< the negotiated version, "" while unknown
  std::vector<Fault> faults_;
};

/// The line `garbage-line` writes: no JSON, as a server's stray log line would be.
std::string garbage_line_text(std::string_view rule);

}  // namespace mcptriage::wrap
