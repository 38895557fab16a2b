#include "io/process.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <thread>

extern char** environ;

namespace mcptriage::io {

namespace {

ExitStatus from_wait_status(int ws) {
  ExitStatus s;
  if (WIFEXITED(ws)) s.code = WEXITSTATUS(ws);
  else if (WIFSIGNALED(ws)) s.signal = WTERMSIG(ws);
  return s;
}

void close_fd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

/// A pipe whose both ends are close-on-exec: the child gets its end through dup2, which clears
/// the flag on the copy.
bool make_pipe(int fds[2]) { return ::pipe2(fds, O_CLOEXEC) == 0; }

/// The file execvp would run for `name`: `name` itself when it holds a slash, else the first
/// executable regular file of that name in PATH (default "/bin:/usr/bin"); errno set when none.
std::optional<std::string> program_path(const std::string& name) {
  if (name.find('/') != std::string::npos) return name;
  const char* env = std::getenv("PATH");
  const std::string_view path = env != nullptr ? env : "/bin:/usr/bin";
  int last_error = ENOENT;
  for (std::size_t from = 0; from <= path.size();) {
    std::size_t to = path.find(':', from);
    if (to == std::string_view::npos) to = path.size();
    std::string dir(path.substr(from, to - from));
    if (dir.empty()) dir = ".";
    const std::string candidate = dir + "/" + name;
    struct stat st {};
    if (::stat(candidate.c_str(), &st) == 0 && S_ISREG(st.st_mode)) {
      if (::access(candidate.c_str(), X_OK) == 0) return candidate;
      last_error = EACCES;
    }
    from = to + 1;
  }
  errno = last_error;
  return std::nullopt;
}

/// fork and execve, for what posix_spawn cannot do (PR_SET_PDEATHSIG). The child calls only
/// async-signal-safe functions; an execve failure comes back through a close-on-exec pipe.
/// Returns the pid, or -1 with the error in `error`.
pid_t fork_exec(const std::string& path, const std::vector<char*>& argv, const int in[2], const int out[2],
                const int err[2], const ProcessOptions& options, int& error) {
  int report[2];
  if (::pipe2(report, O_CLOEXEC) != 0) {
    error = errno;
    return -1;
  }
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) {
    error = errno;
    ::close(report[0]);
    ::close(report[1]);
    return -1;
  }
  if (pid == 0) {
    struct sigaction dfl {};
    dfl.sa_handler = SIG_DFL;
    for (int sig = 1; sig < NSIG; ++sig) ::sigaction(sig, &dfl, nullptr);
    sigset_t none;
    sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    int e = 0;
    if (::prctl(PR_SET_PDEATHSIG, SIGTERM) != 0) e = errno;
    if (e == 0 && ::getppid() != parent) ::_exit(127);  // the parent died before the prctl
    if (e == 0 && options.pipe_stdin && ::dup2(in[0], STDIN_FILENO) < 0) e = errno;
    if (e == 0 && !options.pipe_stdin) {
      const int null = ::open("/dev/null", O_RDONLY);
      if (null < 0 || ::dup2(null, STDIN_FILENO) < 0) e = errno;
    }
    if (e == 0 && options.pipe_stdout && ::dup2(out[1], STDOUT_FILENO) < 0) e = errno;
    if (e == 0 && options.pipe_stderr && ::dup2(err[1], STDERR_FILENO) < 0) e = errno;
    if (e == 0) {
      ::execve(path.c_str(), argv.data(), environ);
      e = errno;
    }
    [[maybe_unused]] const ssize_t w = ::write(report[1], &e, sizeof e);
    ::_exit(127);
  }
  ::close(report[1]);
  int e = 0;
  ssize_t n;
  do n = ::read(report[0], &e, sizeof e);
  while (n < 0 && errno == EINTR);
  ::close(report[0]);
  if (n == static_cast<ssize_t>(sizeof e)) {  // the exec failed: reap the child, report why
    int ws = 0;
    while (::waitpid(pid, &ws, 0) < 0 && errno == EINTR) {
    }
    error = e;
    return -1;
  }
  return pid;
}

}  // namespace

std::string ExitStatus::describe() const {
  if (signal != 0) return "signal " + std::to_string(signal) + " (" + ::strsignal(signal) + ")";
  return "exit " + std::to_string(code);
}

std::expected<Process, std::string> Process::spawn(const ProcessOptions& options) {
  if (options.argv.empty() || options.argv.front().empty()) return std::unexpected(std::string("no program to start"));
  int in[2] = {-1, -1}, out[2] = {-1, -1}, err[2] = {-1, -1};
  auto fail = [&](std::string what, int e) {
    for (int* p : {in, out, err}) {
      close_fd(p[0]);
      close_fd(p[1]);
    }
    return std::unexpected(what + ": " + std::strerror(e));
  };
  if ((options.pipe_stdin && !make_pipe(in)) || (options.pipe_stdout && !make_pipe(out)) ||
      (options.pipe_stderr && !make_pipe(err))) {
    return fail("cannot make a pipe for " + options.argv.front(), errno);
  }
  std::vector<char*> argv;
  argv.reserve(options.argv.size() + 1);
  for (const std::string& a : options.argv) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  // The child is running: its ends of the pipes are ours no more.
  auto started = [&](pid_t pid) {
    Process p;
    p.pid_ = pid;
    close_fd(in[0]);
    close_fd(out[1]);
    close_fd(err[1]);
    p.in_ = in[1];
    p.out_ = out[0];
    p.err_ = err[0];
    return p;
  };
  if (options.die_with_parent) {
    auto path = program_path(options.argv.front());
    if (!path) return fail("cannot start " + options.argv.front(), errno);
    int error = 0;
    const pid_t pid = fork_exec(*path, argv, in, out, err, options, error);
    if (pid < 0) return fail("cannot start " + options.argv.front(), error);
    return started(pid);
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  if (options.pipe_stdin) posix_spawn_file_actions_adddup2(&actions, in[0], STDIN_FILENO);
  else posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  if (options.pipe_stdout) posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
  if (options.pipe_stderr) posix_spawn_file_actions_adddup2(&actions, err[1], STDERR_FILENO);
  // The child starts with default signal dispositions and an empty mask, whatever the parent
  // ignores or blocks (SIGPIPE above all: a server must see EPIPE as a signal if it expects to).
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t all, none;
  sigfillset(&all);
  sigemptyset(&none);
  posix_spawnattr_setsigdefault(&attr, &all);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);

  pid_t pid = -1;
  const int rc = ::posix_spawnp(&pid, argv[0], &actions, &attr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  if (rc != 0) return fail("cannot start " + options.argv.front(), rc);
  return started(pid);
}

Process::Process(Process&& other) noexcept
    : pid_(other.pid_), in_(other.in_), out_(other.out_), err_(other.err_), status_(other.status_) {
  other.pid_ = -1;
  other.in_ = other.out_ = other.err_ = -1;
}

Process& Process::operator=(Process&& other) noexcept {
  if (this != &other) {
    if (pid_ > 0 && !status_) terminate();
    close_pipes();
    pid_ = other.pid_;
    in_ = other.in_;
    out_ = other.out_;
    err_ = other.err_;
    status_ = other.status_;
    other.pid_ = -1;
    other.in_ = other.out_ = other.err_ = -1;
  }
  return *this;
}

Process::~Process() {
  close_pipes();
  if (pid_ > 0 && !status_) terminate();
}

void Process::close_pipes() {
  close_fd(in_);
  close_fd(out_);
  close_fd(err_);
}

void Process::close_stdin() { close_fd(in_); }

bool Process::signal(int sig) {
  if (pid_ <= 0 || status_) return false;
  return ::kill(pid_, sig) == 0;
}

std::optional<ExitStatus> Process::try_wait() {
  if (status_) return status_;
  if (pid_ <= 0) return std::nullopt;
  int ws = 0;
  pid_t r;
  do r = ::waitpid(pid_, &ws, WNOHANG);
  while (r < 0 && errno == EINTR);
  if (r == pid_) status_ = from_wait_status(ws);
  else if (r < 0) status_ = ExitStatus{};  // ECHILD: reaped elsewhere (a SIGCHLD handler set to ignore)
  return status_;
}

ExitStatus Process::wait() {
  if (status_) return *status_;
  if (pid_ <= 0) return ExitStatus{};
  int ws = 0;
  pid_t r;
  do r = ::waitpid(pid_, &ws, 0);
  while (r < 0 && errno == EINTR);
  status_ = r == pid_ ? from_wait_status(ws) : ExitStatus{};
  return *status_;
}

std::optional<ExitStatus> Process::wait_for(std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  auto pause = std::chrono::milliseconds(1);
  while (true) {
    if (auto s = try_wait()) return s;
    const auto now = std::chrono::steady_clock::now();
    if (now >= deadline) return std::nullopt;
    std::this_thread::sleep_for(std::min<std::chrono::steady_clock::duration>(pause, deadline - now));
    pause = std::min(pause * 2, std::chrono::milliseconds(50));
  }
}

ExitStatus Process::terminate(std::chrono::milliseconds grace) {
  if (auto s = try_wait()) return *s;
  signal(SIGTERM);
  if (auto s = wait_for(grace)) return *s;
  signal(SIGKILL);
  return wait();
}

bool write_all(int fd, std::string_view data) {
  while (!data.empty()) {
    const ssize_t n = ::write(fd, data.data(), data.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    data.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

std::optional<std::string> read_to_end(int fd, std::size_t max_bytes) {
  std::string out;
  char buf[65536];
  while (out.size() < max_bytes) {
    const ssize_t n = ::read(fd, buf, std::min(sizeof buf, max_bytes - out.size()));
    if (n < 0) {
      if (errno == EINTR) continue;
      return std::nullopt;
    }
    if (n == 0) break;
    out.append(buf, static_cast<std::size_t>(n));
  }
  return out;
}

}  // namespace mcptriage::io
