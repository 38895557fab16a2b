// `mcptriage wrap`: options, the child, the relay threads (relay.cpp), the triage thread (the run
// core over WrapSource), signals, the summary and the exit status (docs/wrap.md).
#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cctype>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <iostream>
#include <mutex>
#include <optional>
#include <thread>

#include "io/duration.hpp"
#include "io/process.hpp"
#include "io/run_output.hpp"
#include "mcptriage/redact.hpp"
#include "mcptriage/render.hpp"
#include "proxy/recording.hpp"
#include "triage/core.hpp"
#include "wrap/host_config.hpp"
#include "wrap/inject.hpp"
#include "wrap/relay.hpp"
#include "wrap/source.hpp"
#include "wrap/wrap.hpp"

namespace mcptriage::wrap {
namespace {

enum ExitCode : int {
  kUsage = 2,
  kCannotRun = 3,  ///< the child cannot start, a file cannot be created
};

struct Options {
  std::string out;
  std::string tty;
  std::string format;
  std::string record;
  bool no_redact = false;
  bool summary = false;
  bool explain = false;
  bool verbose = false;
  std::size_t max_line = std::size_t{16} << 20;
  std::string report_junit;
  std::string report_tap;
  std::string report_html;
  std::string report_otlp;
  std::vector<std::string> inject;
  std::string watch = "60s";
  std::vector<std::string> command;
  std::string config;  ///< --config: a host's MCP configuration to edit instead of running a server
  std::string server;
  bool unwrap = false;
  bool dry_run = false;
};

/// The pipe whose read end tells the relay threads to stop (a byte written, never read).
struct StopPipe {
  int fds[2] = {-1, -1};
  StopPipe() {
    if (::pipe2(fds, O_CLOEXEC) != 0) fds[0] = fds[1] = -1;
  }
  ~StopPipe() {
    for (int fd : fds) {
      if (fd >= 0) ::close(fd);
    }
  }
  void stop() {
    const char b = 1;
    [[maybe_unused]] const ssize_t n = ::write(fds[1], &b, 1);
  }
};

std::string human_bytes(std::size_t n) {
  if (n < 1024) return fmt::format("{} B", n);
  if (n < (std::size_t{1} << 20)) return fmt::format("{:.1f} KiB", static_cast<double>(n) / 1024.0);
  return fmt::format("{:.1f} MiB", static_cast<double>(n) / 1048576.0);
}

/// `wrap --config FILE --server NAME [--unwrap] [--dry-run] [OPTIONS]` (docs/wrap.md "In a host's
/// configuration"): the options given besides these go into the entry, paths made absolute (the
/// host starts servers in a directory of its own); --record defaults to
/// $XDG_STATE_HOME/mcptriage/NAME.jsonl (~/.local/state when unset).
template <class Usage>
int config_main(const CLI::App& app, const Options& opt, Usage usage) {
  if (opt.config.empty() || opt.server.empty()) return usage("--config FILE and --server NAME go together");
  if (!opt.command.empty()) {
    return usage("--config takes the server's command from the file: give no command after --");
  }
  if (opt.unwrap) {
    // --unwrap takes no wrapper options: they would be dropped without a word.
    for (const char* name : {"--out", "--tty", "--format", "--record", "--no-redact", "--summary", "--max-line",
                             "--report-junit", "--report-tap", "--report-html", "--report-otlp", "--inject",
                             "--explain", "--verbose"}) {
      if (app.count(name) > 0) return usage(std::string("--unwrap takes no ") + name);
    }
  }
  ConfigRequest req;
  req.path = opt.config;
  req.server = opt.server;
  req.unwrap = opt.unwrap;
  req.dry_run = opt.dry_run;
  if (!opt.unwrap) {
    std::error_code ec;
    const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (ec) return usage("cannot tell where this mcptriage is: " + ec.message());
    req.wrapper = self.string();
    auto absolute = [](const std::string& p) {
      if (p.empty()) return p;
      std::error_code e;
      auto a = std::filesystem::absolute(p, e);
      return e ? p : a.lexically_normal().string();
    };
    std::string record = absolute(opt.record);
    if (record.empty()) {
      const char* state = std::getenv("XDG_STATE_HOME");
      const char* home = std::getenv("HOME");
      std::filesystem::path dir;
      if (state != nullptr && state[0] == '/') {
        dir = std::filesystem::path(state) / "mcptriage";
      } else if (home != nullptr && home[0] == '/') {
        dir = std::filesystem::path(home) / ".local" / "state" / "mcptriage";
      } else {
        return usage("no HOME to put the recording in: give --record FILE.jsonl");
      }
      std::string file;
      for (char c : opt.server) file += std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' ? c : '_';
      record = (dir / (file + ".jsonl")).string();
      if (!opt.dry_run) {
        std::error_code e;
        std::filesystem::create_directories(dir, e);
        if (e) return usage("cannot create " + dir.string() + ": " + e.message());
      }
    }
    auto& a = req.wrap_args;
    a.insert(a.end(), {"--record", record});
    if (!opt.out.empty()) a.insert(a.end(), {"--out", absolute(opt.out)});
    if (!opt.tty.empty()) a.insert(a.end(), {"--tty", opt.tty});
    if (!opt.format.empty()) a.insert(a.end(), {"--format", opt.format});
    if (opt.no_redact) a.emplace_back("--no-redact");
    if (opt.summary) a.emplace_back("--summary");
    if (app.count("--max-line") > 0) a.insert(a.end(), {"--max-line", std::to_string(opt.max_line)});
    const std::pair<const char*, const std::string*> reports[] = {{"--report-junit", &opt.report_junit},
                                                                  {"--report-tap", &opt.report_tap},
                                                                  {"--report-html", &opt.report_html},
                                                                  {"--report-otlp", &opt.report_otlp}};
    for (const auto& [flag, path] : reports) {
      if (!path->empty()) a.insert(a.end(), {flag, absolute(*path)});
    }
    for (const std::string& rule : opt.inject) a.insert(a.end(), {"--inject", rule});
    if (opt.explain) a.emplace_back("--explain");
    if (opt.verbose) a.emplace_back("--verbose");
  }
  const int rc = edit_config_file(req, stdout, stderr);
  if (rc == 0 && !opt.unwrap && !opt.dry_run) {
    std::printf("Read the recording with: mcptriage %s\n",
                escape_terminal(req.wrap_args[1]).c_str());
  }
  return rc;
}

}  // namespace

int wrap_main(int argc, char** argv) {
  std::signal(SIGPIPE, SIG_IGN);
  Options opt;
  // Everything after the first `--` is the command, whatever it looks like.
  int split = argc;
  for (int i = 1; i < argc; ++i) {
    if (std::string_view(argv[i]) == "--") {
      split = i;
      break;
    }
  }
  for (int i = split + 1; i < argc; ++i) opt.command.emplace_back(argv[i]);
  CLI::App app{"mcptriage wrap: runs a stdio MCP server as a child process and sits between it and its host (an IDE,\n"
               "a desktop host, an agent CLI): relays both ways unchanged, judges every message as it passes, records\n"
               "them, and says which call a crash, an exit or a stray stdout line broke.",
               "mcptriage wrap"};
  app.footer(
      "Examples:\n"
      "  mcptriage wrap --record /tmp/everything.jsonl -- npx -y @modelcontextprotocol/server-everything\n"
      "  mcptriage wrap --out /tmp/records.jsonl --summary -- python -m my_server\n"
      "  mcptriage wrap --inject jsonrpc-error=-32603@tool=echo --inject exit=1@call=5 --record /tmp/f.jsonl -- node s.js\n"
      "In a host's configuration, put mcptriage in `command` and `wrap`, the options, `--` and the server's own\n"
      "command in `args` (docs/wrap.md).\n"
      "\n"
      "Standard input and output are the host's protocol channel: mcptriage writes nothing there. The server's\n"
      "standard error passes through to ours.\n"
      "\n"
      "Exit status: the server's (its exit code, or 128 plus the signal that ended it; CODE after --inject exit=CODE);\n"
      "2 usage error; 3 the server or a file cannot be started or created.\n"
      "Docs: docs/wrap.md.");
  app.add_option("--out", opt.out, "Write the records to FILE as they come (JSON Lines; -f table for the table)")
      ->type_name("FILE");
  app.add_option("--tty", opt.tty, "Show the live table on this terminal, e.g. $(tty) of another window")
      ->type_name("TERMINAL");
  app.add_option("-f,--format", opt.format, "Format of --out: jsonl (default) or table")
      ->check(CLI::IsMember({"table", "jsonl"}));
  app.add_option("--record", opt.record,
                 "Write the message stream to FILE.jsonl (timestamps, direction; mode 0600), readable back with "
                 "`mcptriage FILE`")
      ->type_name("FILE");
  app.add_flag("--no-redact", opt.no_redact,
               "Keep credentials in the recording and the records (tokens, API keys, passwords); redacted by default");
  app.add_flag("--summary", opt.summary, "At the end, the session summary and the wrapper's on standard error");
  app.add_option("--max-line", opt.max_line,
                 "Longest line kept in a record, e.g. 64M (default 16M); a longer one is relayed whole, cut in the "
                 "record and judged as no message")
      ->transform(CLI::AsSizeValue(false));
  app.add_option("--report-junit", opt.report_junit, "Write a JUnit XML report to FILE at the end")->type_name("FILE");
  app.add_option("--report-tap", opt.report_tap, "Write a TAP version 13 report to FILE at the end")->type_name("FILE");
  app.add_option("--report-html", opt.report_html, "Write the HTML session report to FILE at the end")->type_name("FILE");
  app.add_option("--report-otlp", opt.report_otlp, "Write the OTLP/JSON trace report to FILE at the end")
      ->type_name("FILE");
  app.add_option("--inject", opt.inject,
                 "Fault injection, repeatable: ACTION[@WHEN]. ACTION: jsonrpc-error=CODE, tool-error, input-required, "
                 "delay=DURATION, drop, garbage-line, exit=CODE, slow-start=DURATION; WHEN: call=N[,M...], "
                 "method=NAME, tool=NAME (docs/wrap.md \"Fault injection\")")
      ->type_name("RULE");
  app.add_option("--config", opt.config,
                 "Instead of running a server: rewrite server --server of this host configuration (Claude Desktop, "
                 "Cursor, VS Code) to run through the wrapper with these options, keeping a backup")
      ->type_name("FILE");
  app.add_option("--server", opt.server, "With --config: the server entry's name")->type_name("NAME");
  app.add_flag("--unwrap", opt.unwrap, "With --config: restore the entry to run without the wrapper");
  app.add_flag("--dry-run", opt.dry_run, "With --config: say what would change, write nothing");
  app.add_option("--watch", opt.watch,
                 "How long a host request may wait for its response, e.g. 30s (default 60s, the TypeScript SDK's "
                 "request timeout): past it, while the server runs, a watch record says so (response_timeout, "
                 "initialize_timeout); and how long the host is watched after each failure (client_behaviour records)")
      ->type_name("DURATION");
  app.add_flag("--explain", opt.explain, "Table: under each row, what the reason means and what to do next");
  app.add_flag("-v,--verbose", opt.verbose, "Table: under each row, the record's warnings");
  auto usage = [](const std::string& why) {
    std::cerr << "mcptriage wrap: error: " << escape_terminal(why) << "\nRun 'mcptriage wrap --help' for usage.\n";
    return kUsage;
  };
  try {
    app.parse(split, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    return usage(e.what());
  }
  const bool config_mode = !opt.config.empty() || !opt.server.empty() || opt.unwrap || opt.dry_run;
  if (opt.command.empty() && !config_mode) {
    return usage("no server to run: write mcptriage wrap [OPTIONS] -- COMMAND [ARGS...]");
  }
  for (const std::string* r : {&opt.report_junit, &opt.report_tap, &opt.report_html, &opt.report_otlp, &opt.out}) {
    if (*r == "-") return usage("standard output is the host's protocol channel: write reports and records to a file");
  }
  if (!opt.out.empty() && !opt.tty.empty()) return usage("--out and --tty: give one");
  if (opt.max_line == 0 || opt.max_line > (std::size_t{1} << 40)) {
    return usage("--max-line must be more than 0 and at most 1T");
  }
  if (!opt.record.empty() && proxy::Recording::kind_of(opt.record) != proxy::Recording::Kind::jsonl) {
    return usage("--record " + opt.record + ": the file name must end in .jsonl (or .ndjson)");
  }
  const auto watch = io::parse_duration(opt.watch);
  if (!watch) return usage("--watch " + opt.watch + " is not a duration: " + std::string(io::duration_grammar()));
  std::vector<proxy::Rule> rules;
  for (const std::string& text : opt.inject) {
    auto rule = proxy::parse_rule(text, proxy::Transport::stdio);
    if (!rule) return usage(rule.error());
    rules.push_back(std::move(*rule));
  }
  if (config_mode) return config_main(app, opt, usage);
  std::optional<Injector> injector;
  if (!rules.empty()) injector.emplace(std::move(rules));
  set_redaction(!opt.no_redact);

  std::unique_ptr<proxy::Recording> recording;
  if (!opt.record.empty()) {
    auto r = proxy::Recording::open(opt.record);
    if (!r) {
      std::cerr << "mcptriage wrap: error: " << escape_terminal(r.error()) << "\n";
      return kCannotRun;
    }
    recording = std::move(*r);
  }

  // The signals the wrapper passes on are taken by one thread (sigwait), in every thread blocked:
  // the mask is set before any thread starts, and the child starts with none (io::Process).
  sigset_t forwarded;
  sigemptyset(&forwarded);
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) sigaddset(&forwarded, sig);
  pthread_sigmask(SIG_BLOCK, &forwarded, nullptr);

  io::ProcessOptions po;
  po.argv = opt.command;
  po.pipe_stdin = po.pipe_stdout = po.pipe_stderr = true;
  po.die_with_parent = true;
  auto spawned = io::Process::spawn(po);
  if (!spawned) {
    std::cerr << "mcptriage wrap: error: " << escape_terminal(spawned.error()) << "\n";
    if (recording) recording->close();
    return kCannotRun;
  }
  io::Process child = std::move(*spawned);
  const pid_t pid = child.pid();
  const auto started = std::chrono::steady_clock::now();

  std::atomic<bool> reaped{false};
  std::atomic<int> got_signal{0};
  std::atomic<bool> signals_done{false};
  std::thread signal_thread([&] {
    const timespec tick{0, 100'000'000};
    while (!signals_done) {
      const int sig = sigtimedwait(&forwarded, nullptr, &tick);
      if (sig <= 0) continue;
      if (got_signal == 0) got_signal = sig;
      if (!reaped) ::kill(pid, sig);  // passed on; the child decides
    }
  });

  // Records: the run core on the triage thread.
  // At most 16 MiB of lines wait for the judging, handed over 1 MiB at a time (docs/wrap.md,
  // "Performance": the peak RSS stays flat with a server that streams 1 GB of notifications).
  EventQueue queue(std::size_t{16} << 20, std::size_t{1} << 20);
  io::OutputOptions oo;
  const std::string records_to = !opt.tty.empty() ? opt.tty : opt.out;
  oo.jsonl = opt.tty.empty() && opt.format != "table";
  oo.records_file = records_to.empty() ? std::string("/dev/null") : records_to;
  const char* no_color = std::getenv("NO_COLOR");
  oo.table.color = !opt.tty.empty() && !(no_color && no_color[0] != '\0');
  oo.table.explain = opt.explain;
  oo.table.verbose = opt.verbose;
  oo.report_junit = opt.report_junit;
  oo.report_tap = opt.report_tap;
  oo.report_html = opt.report_html;
  oo.report_otlp = opt.report_otlp;
  oo.now = static_cast<long long>(std::time(nullptr));
  oo.reports_fail_alone = true;
  oo.program = "mcptriage wrap";
  const std::string input_name = opt.record.empty() ? std::string("wrap") : opt.record;
  triage::TriageOptions topt;
  topt.now = oo.now;
  topt.wall_clock = true;
  topt.pipeline.jobs = 1;
  WrapSource source(queue, recording.get(), input_name, *watch);
  topt.observer = &source;
  std::string triage_error;
  std::string summary_line;
  std::thread triage_thread([&] {
    try {
      io::RunOutputs outputs(oo);
      io::StderrReport reporter;
      const std::vector<io::Input> inputs{io::Input{input_name, ""}};
      triage::Triage core(inputs, topt, outputs.sinks(), reporter);
      source.set_core(core);
      core.run(source);
      outputs.finish_records();
      outputs.finish_reports();
      summary_line = core.tally().summary(reporter.input_errors);
    } catch (const OutputError& e) {
      triage_error = e.what();
      // The records stop; the events still coming are drained, so the relay never waits on them.
      std::deque<Event> rest;
      while (queue.wait(rest)) rest.clear();
    }
  });

  StopPipe stop;
  Tail tail(20, 400);
  std::atomic<bool> server_out_done{false};
  Pump to_server{STDIN_FILENO, child.stdin_fd(), Dir::c2s, &queue, stop.fds[0], opt.max_line};
  Pump to_host{child.stdout_fd(), STDOUT_FILENO, Dir::s2c, &queue, stop.fds[0], opt.max_line};
  // --inject: the host's lines are decided on one by one, and its output is shared by the server's
  // lines and the wrapper's.
  HostOut host_out(STDOUT_FILENO);
  std::mutex exit_mu;
  std::optional<std::pair<int, std::string>> injected_exit;  // exit=CODE: the code and the rule
  if (injector) {
    to_server.injector = to_host.injector = &*injector;
    to_server.host = to_host.host = &host_out;
    if (const proxy::Rule* slow = injector->slow_start()) to_server.hold_until = started + slow->delay;
    to_server.on_exit = [&](int code, const std::string& rule) {
      {
        std::lock_guard lock(exit_mu);
        if (injected_exit) return;
        injected_exit.emplace(code, rule);
      }
      if (!reaped) ::kill(pid, SIGKILL);  // a crash mid-call, as the host sees one
    };
  }
  std::thread in_thread([&] {
    if (to_server.run()) {
      // The host's end of input is the server's: how a host shuts a stdio server down.
      Event e;
      e.kind = Event::Kind::eof;
      e.unix_ns = now_unix_ns();
      queue.push(std::move(e));
      child.close_stdin();
    }
  });
  std::thread out_thread([&] {
    to_host.run();
    server_out_done = true;
  });
  std::thread err_thread([&] { pass_stderr(child.stderr_fd(), stop.fds[0], tail); });

  const io::ExitStatus status = child.wait();
  reaped = true;
  // What the server wrote before it ended is still in the pipe: read to its end, unless a process
  // it left behind holds the pipe open (then 2 s at most).
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(2);
  while (!server_out_done && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  stop.stop();
  out_thread.join();
  err_thread.join();
  in_thread.join();
  // The host's output ends with the server's: after its last byte.
  ::close(STDOUT_FILENO);
  Event exit;
  exit.kind = Event::Kind::exit;
  exit.unix_ns = now_unix_ns();
  exit.status = status;
  exit.stderr_tail = tail.lines();
  std::optional<std::pair<int, std::string>> ended_by;
  {
    std::lock_guard lock(exit_mu);
    ended_by = injected_exit;
  }
  if (ended_by) {
    Injection inj;
    inj.rule = ended_by->second;
    inj.wrapper_exit = ended_by->first;
    inj.warnings.push_back("injected by mcptriage wrap (--inject " + ended_by->second +
                           "): the server did not end on its own: the wrapper killed it (SIGKILL) and exited with "
                           "code " + std::to_string(ended_by->first) + ", the exit the host saw");
    exit.injection = std::move(inj);
  }
  queue.push(std::move(exit));
  queue.close();
  triage_thread.join();
  signals_done = true;
  signal_thread.join();
  if (recording) {
    recording->close();
    if (!recording->error().empty()) {
      std::cerr << "mcptriage wrap: error: --record " << escape_terminal(recording->path()) << ": "
                << recording->error() << "\n";
    }
  }
  if (!triage_error.empty()) std::cerr << "mcptriage wrap: error: " << escape_terminal(triage_error) << "\n";
  if (opt.summary) {
    const Counts& c = source.counts();
    std::cerr << "mcptriage wrap: " << escape_terminal(redact(opt.command.front())) << " " << status.describe()
              << (ended_by ? fmt::format(" (killed by --inject {}; the wrapper exits {})",
                                         escape_terminal(ended_by->second), ended_by->first)
                           : std::string())
              << "; host to server " << c.to_server << " line(s) (" << human_bytes(c.bytes_to_server)
              << "), server to host " << c.to_host << " (" << human_bytes(c.bytes_to_host) << ")"
              << (c.from_wrapper > 0 ? fmt::format(", {} written by the wrapper (--inject)", c.from_wrapper)
                                     : std::string())
              << (c.not_messages > 0 ? fmt::format(", {} no JSON-RPC message", c.not_messages) : std::string())
              << (c.input_closed ? "; the host closed the server's input" : "")
              << (got_signal != 0 ? fmt::format("; passed on signal {}", got_signal.load()) : std::string()) << "\n";
    if (!summary_line.empty()) std::cerr << "mcptriage: " << summary_line << "\n";
    if (c.overdue > 0) {
      std::cerr << "mcptriage wrap: --watch " << escape_terminal(opt.watch) << ": " << c.overdue
                << " request(s) had no response within it while the server ran"
                << (c.answered_late > 0 ? fmt::format("; {} answered late (the longest after {:.1f} s)", c.answered_late,
                                                      c.latest_ms / 1000)
                                        : std::string())
                << "\n";
    }
    if (!source.behaviour_counts().empty()) {
      // The client-behaviour report's counts (the client_behaviour records on --out).
      std::size_t failures = 0;
      std::string each;
      for (const auto& [action, n] : source.behaviour_counts()) {
        failures += n;
        each += fmt::format("{}{} {}", each.empty() ? "" : ", ", n, action);
      }
      std::cerr << "mcptriage wrap: after " << failures << " failure(s), the host: " << each << "\n";
    }
    if (injector) {
      // What each rule did, and what the host did after each fault (the client-behaviour report).
      for (const auto& [rule, n] : injector->applied()) {
        std::cerr << "mcptriage wrap: --inject " << escape_terminal(rule) << " applied " << n << " time(s)"
                  << (n == 0 ? ": no request of the host matched it" : "") << "\n";
      }
      const std::string end = ended_by        ? "the wrapper ended the server"
                              : c.input_closed ? "the host closed the server's input"
                                               : "the server ended";
      for (const std::string& line : injector->behaviour(now_unix_ns(), end)) {
        std::cerr << "mcptriage wrap: " << escape_terminal(line) << "\n";
      }
    }
  }
  if (ended_by) return ended_by->first;  // exit=CODE: what the host sees the server exit with
  if (status.signal != 0) return 128 + status.signal;
  return status.code < 0 ? 1 : status.code;
}

}  // namespace mcptriage::wrap
