// A child process with pipes to its standard streams: spawn, write, read, signal, wait, reap.
// The piece the stdio wrapper (issue 28) stands on: it starts an MCP server as a child, speaks to
// it over its standard input and output, and must never leave a zombie or an orphan behind.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <expected>
#include <optional>
#include <string>
#include <vector>

namespace mcptriage::io {

/// How a child ended: an exit code (`exited()`), or the signal that ended it.
struct ExitStatus {
  int code = -1;   ///< the exit code (0-255) when the child exited, else -1
  int signal = 0;  ///< the signal number that ended it (SIGKILL is 9), else 0
  bool exited() const { return signal == 0 && code >= 0; }
  /// "exit 0", "exit 3", "signal 15 (Terminated)".
  std::string describe() const;
};

/// What to start.
struct ProcessOptions {
  /// The program and its arguments; argv[0] is looked up in PATH as execvp does.
  std::vector<std::string> argv;
  bool pipe_stdin = true;   ///< else the child reads /dev/null
  bool pipe_stdout = true;  ///< else the child's standard output is ours
  bool pipe_stderr = false; ///< else the child's standard error is ours
  /// The child gets SIGTERM when the thread that spawned it ends, the process with it, even by
  /// SIGKILL (Linux prctl PR_SET_PDEATHSIG, kept across execve): no orphan when the parent is
  /// killed (the stdio wrapper, issue 28). Spawn from the thread that lives longest (main).
  bool die_with_parent = false;
};

/// A running (or ended, not yet reaped) child. Move-only. The parent's pipe ends are
/// close-on-exec, so a second child never holds the first one's pipes open.
///
/// Destruction never leaves a zombie: a child still running gets SIGTERM, then SIGKILL after
/// `kill_grace` (default 2 s), and is reaped; the pipes are closed first, so a child blocked on
/// them sees end of file or EPIPE.
class Process {
 public:
  /// Starts `options.argv` with posix_spawnp. Errors (with the system's reason): an empty argv,
  /// a program that is not found or not executable ("cannot start NAME: No such file or
  /// directory"), no pipes or processes left.
  static std::expected<Process, std::string> spawn(const ProcessOptions& options);

  Process(Process&& other) noexcept;
  Process& operator=(Process&& other) noexcept;
  Process(const Process&) = delete;
  Process& operator=(const Process&) = delete;
  ~Process();

  pid_t pid() const { return pid_; }
  /// The parent's pipe ends: write to stdin_fd, read from stdout_fd and stderr_fd; -1 when that
  /// stream is not piped (or was closed).
  int stdin_fd() const { return in_; }
  int stdout_fd() const { return out_; }
  int stderr_fd() const { return err_; }
  /// Closes our end of the child's standard input: the child reads end of file.
  void close_stdin();

  /// Sends `sig` (kill(2)); false when the child is already reaped or kill fails.
  bool signal(int sig);
  /// Whether the child has ended, without waiting (waitpid WNOHANG); reaps it when it has.
  std::optional<ExitStatus> try_wait();
  /// Waits for the child to end and reaps it (EINTR retried). Once reaped, returns the same
  /// status again.
  ExitStatus wait();
  /// Waits at most `timeout`; nullopt when the child is still running then.
  std::optional<ExitStatus> wait_for(std::chrono::milliseconds timeout);
  /// SIGTERM, then SIGKILL when the child has not ended within `grace`; reaps it.
  ExitStatus terminate(std::chrono::milliseconds grace = std::chrono::milliseconds(2000));

 private:
  Process() = default;
  void close_pipes();
  pid_t pid_ = -1;
  int in_ = -1, out_ = -1, err_ = -1;
  std::optional<ExitStatus> status_;  ///< set once reaped
};

/// Writes all of `data` to `fd` (EINTR retried); false on an error (EPIPE: the reader is gone).
/// SIGPIPE must be ignored or blocked by the caller, as the proxy and the live reader do.
bool write_all(int fd, std::string_view data);

/// Reads `fd` to end of file (EINTR retried), at most `max_bytes`; nullopt on a read error.
std::optional<std::string> read_to_end(int fd, std::size_t max_bytes = std::size_t(64) << 20);

}  // namespace mcptriage::io
