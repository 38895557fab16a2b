// io::Process (src/io/process.hpp): real children (cat, sh, sleep), real pipes and signals.
#include "io/process.hpp"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <optional>
#include <string>
#include <thread>

using namespace mcptriage::io;
using namespace std::chrono_literals;

namespace {

/// Whether `pid` is a child of ours that has not been reaped (a zombie or still running).
bool unreaped_child(pid_t pid) {
  siginfo_t info{};
  return ::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0;
}

Process start(std::vector<std::string> argv, bool pipe_stderr = false) {
  ProcessOptions o;
  o.argv = std::move(argv);
  o.pipe_stderr = pipe_stderr;
  auto p = Process::spawn(o);
  if (!p) ADD_FAILURE() << p.error();
  return std::move(*p);
}

}  // namespace

TEST(Process, PipesBothWaysAndEndsOnEndOfFile) {
  ::signal(SIGPIPE, SIG_IGN);
  Process cat = start({"cat"});
  ASSERT_TRUE(write_all(cat.stdin_fd(), "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n"));
  cat.close_stdin();
  EXPECT_EQ(read_to_end(cat.stdout_fd()), "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n");
  const ExitStatus s = cat.wait();
  EXPECT_TRUE(s.exited());
  EXPECT_EQ(s.code, 0);
  EXPECT_EQ(s.describe(), "exit 0");
  EXPECT_EQ(cat.wait().code, 0);  // once reaped, the same status again
}

TEST(Process, ExitCodesAndStandardError) {
  Process sh = start({"sh", "-c", "echo out; echo err >&2; exit 3"}, true);
  EXPECT_EQ(read_to_end(sh.stdout_fd()), "out\n");
  EXPECT_EQ(read_to_end(sh.stderr_fd()), "err\n");
  const ExitStatus s = sh.wait();
  EXPECT_EQ(s.code, 3);
  EXPECT_EQ(s.signal, 0);
  EXPECT_EQ(s.describe(), "exit 3");
}

TEST(Process, AProgramThatIsNotThereIsAnErrorNotAChild) {
  ProcessOptions o;
  o.argv = {"mcptriage-no-such-program-xyz"};
  auto p = Process::spawn(o);
  ASSERT_FALSE(p);
  EXPECT_NE(p.error().find("cannot start mcptriage-no-such-program-xyz"), std::string::npos) << p.error();
  EXPECT_NE(p.error().find("No such file or directory"), std::string::npos) << p.error();
  EXPECT_FALSE(Process::spawn(ProcessOptions{}));  // no argv
}

TEST(Process, SignalAndWaitFor) {
  Process sleeper = start({"sleep", "30"});
  EXPECT_FALSE(sleeper.try_wait());
  EXPECT_FALSE(sleeper.wait_for(50ms));
  ASSERT_TRUE(sleeper.signal(SIGTERM));
  const auto s = sleeper.wait_for(5s);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->signal, SIGTERM);
  EXPECT_FALSE(s->exited());
  EXPECT_EQ(s->describe().rfind("signal 15 (", 0), 0u) << s->describe();
  EXPECT_FALSE(sleeper.signal(SIGTERM));  // reaped: no signal to a pid that may be reused
}

TEST(Process, TerminateKillsAChildThatIgnoresSigterm) {
  // The shell ignores TERM and says so once the trap is set; then only SIGKILL ends it.
  Process stubborn = start({"sh", "-c", "trap '' TERM; echo ready; while :; do sleep 1; done"});
  char buf[6] = {};
  ASSERT_EQ(::read(stubborn.stdout_fd(), buf, 6), 6);
  const auto started = std::chrono::steady_clock::now();
  const ExitStatus s = stubborn.terminate(200ms);
  EXPECT_EQ(s.signal, SIGKILL);
  EXPECT_LT(std::chrono::steady_clock::now() - started, 5s);
}

TEST(Process, DestructionReapsSoNoZombieIsLeft) {
  pid_t pid = -1;
  {
    Process sleeper = start({"sleep", "30"});
    pid = sleeper.pid();
    ASSERT_TRUE(unreaped_child(pid));
  }
  EXPECT_FALSE(unreaped_child(pid));  // neither running nor a zombie: reaped
  EXPECT_EQ(::kill(pid, 0) == 0 ? 0 : errno, ESRCH);
  // A child that ended by itself is reaped too.
  {
    Process quick = start({"true"});
    pid = quick.pid();
    ASSERT_TRUE(quick.wait_for(5s));
  }
  EXPECT_FALSE(unreaped_child(pid));
}

TEST(Process, MovedFromHoldsNothingAndTheNewOwnerReaps) {
  Process a = start({"sleep", "30"});
  const pid_t pid = a.pid();
  Process b = std::move(a);
  EXPECT_EQ(a.pid(), -1);
  EXPECT_EQ(a.stdin_fd(), -1);
  EXPECT_FALSE(a.signal(SIGTERM));
  EXPECT_EQ(b.pid(), pid);
  b = start({"true"});  // the old child is ended and reaped first
  EXPECT_FALSE(unreaped_child(pid));
  EXPECT_EQ(b.wait().code, 0);
}

TEST(Process, WritingToAChildThatIsGoneFailsWithoutASignal) {
  ::signal(SIGPIPE, SIG_IGN);
  Process quick = start({"true"});
  quick.wait();
  const std::string big(1 << 20, 'x');
  EXPECT_FALSE(write_all(quick.stdin_fd(), big));  // EPIPE, not a dead test process
}

TEST(Process, PipesAreNotInheritedByTheNextChild) {
  // The first child's stdin pipe stays open only in us: a second child started meanwhile must
  // not hold it, or the first would never see end of file when we close it.
  Process cat = start({"cat"});
  Process other = start({"sleep", "30"});
  cat.close_stdin();
  const auto s = cat.wait_for(5s);  // before reading: a leaked pipe would block the read for ever
  ASSERT_TRUE(s) << "cat never saw end of file: its pipe leaked into the second child";
  EXPECT_EQ(s->code, 0);
  EXPECT_EQ(read_to_end(cat.stdout_fd()), "");
}

// die_with_parent (the stdio wrapper's child): the fork path pipes and reports like posix_spawn,
// and the child gets SIGTERM when the thread that spawned it ends.
TEST(ProcessDieWithParent, PipesExitCodesAndAMissingProgram) {
  ProcessOptions o;
  o.argv = {"sh", "-c", "read l; echo \"got $l\"; echo err >&2; exit 4"};
  o.pipe_stderr = true;
  o.die_with_parent = true;
  auto p = Process::spawn(o);
  ASSERT_TRUE(p) << p.error();
  ASSERT_TRUE(write_all(p->stdin_fd(), "x\n"));
  EXPECT_EQ(read_to_end(p->stdout_fd()), "got x\n");
  EXPECT_EQ(read_to_end(p->stderr_fd()), "err\n");
  EXPECT_EQ(p->wait().code, 4);
  o.argv = {"mcptriage-no-such-program-xyz"};
  auto missing = Process::spawn(o);
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().find("cannot start mcptriage-no-such-program-xyz: No such file or directory"),
            std::string::npos)
      << missing.error();
  o.argv = {"/etc/hostname"};  // no program: execve's error comes back through the pipe
  auto not_exec = Process::spawn(o);
  ASSERT_FALSE(not_exec);
  // EACCES (no x bit), or as root (who may execute it) ENOEXEC.
  EXPECT_TRUE(not_exec.error() == "cannot start /etc/hostname: Permission denied" ||
              not_exec.error() == "cannot start /etc/hostname: Exec format error")
      << not_exec.error();
}

TEST(ProcessDieWithParent, TheChildGetsSigtermWhenTheSpawningThreadEnds) {
  // The parent here is a thread: PR_SET_PDEATHSIG fires when it ends (as when the process is killed).
  pid_t pid = -1;
  std::optional<Process> child;
  std::thread spawner([&] {
    ProcessOptions o;
    o.argv = {"sleep", "30"};
    o.die_with_parent = true;
    auto p = Process::spawn(o);
    ASSERT_TRUE(p) << p.error();
    pid = p->pid();
    child.emplace(std::move(*p));
  });
  spawner.join();
  ASSERT_TRUE(child);
  const auto s = child->wait_for(5s);
  ASSERT_TRUE(s) << "sleep " << pid << " outlived the thread that started it";
  EXPECT_EQ(s->signal, SIGTERM);
}
