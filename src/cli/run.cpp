// A triage run (run.hpp): the inputs collected, the sinks made, the run core driven, the
// reports written and the exit code.
#include "cli/run.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <optional>

#include <array>
#include <chrono>
#include <exception>
#include <iostream>
#include <map>
#include <memory>

#include "cli/options.hpp"
#include "triage/core.hpp"
#include "io/follow_source.hpp"
#include "io/inputs.hpp"
#include "io/live_source.hpp"
#include "io/output.hpp"
#include "io/pipeline.hpp"
#include "mcptriage/render.hpp"
#include "mcptriage/report.hpp"

namespace mcptriage::cli {

using triage::Reporter;
using triage::Triage;
using triage::TriageOptions;

namespace {

/// What the folder walk reports goes to the reporter, and its input errors to the sinks too
/// (a report lists the inputs that could not be read).
class WalkReport final : public io::InputReport {
 public:
  WalkReport(Reporter& reporter, std::span<RecordSink* const> sinks) : reporter_(reporter), sinks_(sinks) {}
  void input_error(std::string_view name, std::string_view why) override {
    reporter_.input_error(name, why);
    for (RecordSink* s : sinks_) s->input_failed(name, why);
  }
  void skipped(std::string_view path, std::string_view why) override { reporter_.skipped(path, why); }

 private:
  Reporter& reporter_;
  std::span<RecordSink* const> sinks_;
};

/// The signal that ended a live wait (0: none), and the pipe its handler writes a byte to, so
/// that the live reader's poll wakes (the self-pipe trick).
volatile std::sig_atomic_t g_signal = 0;
int g_signal_pipe[2] = {-1, -1};

extern "C" void on_live_signal(int sig) {
  if (g_signal != 0) _exit(128 + sig);  // a second signal (Ctrl-C twice): at once
  g_signal = sig;
  const int saved = errno;
  const char byte = 1;
  [[maybe_unused]] const ssize_t n = ::write(g_signal_pipe[1], &byte, 1);
  errno = saved;
}

/// SIGINT, SIGTERM and SIGHUP end the wait of a live read, not the run (issue 16): while it
/// lives they write to the signal pipe; the dispositions before are restored after.
class LiveSignals {
 public:
  LiveSignals() {
    if (::pipe2(g_signal_pipe, O_CLOEXEC | O_NONBLOCK) != 0) return;
    struct sigaction sa {};
    sa.sa_handler = on_live_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    for (std::size_t k = 0; k < kSignals.size(); ++k) ::sigaction(kSignals[k], &sa, &old_[k]);
    installed_ = true;
  }
  ~LiveSignals() {
    restore();
    if (!installed_) return;
    ::close(g_signal_pipe[0]);
    ::close(g_signal_pipe[1]);
    g_signal_pipe[0] = g_signal_pipe[1] = -1;
  }
  LiveSignals(const LiveSignals&) = delete;
  LiveSignals& operator=(const LiveSignals&) = delete;
  int fd() const { return installed_ ? g_signal_pipe[0] : -1; }
  /// The dispositions before, back (the pipe stays until the end).
  void restore() {
    if (!installed_ || restored_) return;
    for (std::size_t k = 0; k < kSignals.size(); ++k) ::sigaction(kSignals[k], &old_[k], nullptr);
    restored_ = true;
  }

 private:
  static constexpr std::array<int, 3> kSignals{SIGINT, SIGTERM, SIGHUP};
  std::array<struct sigaction, 3> old_{};
  bool installed_ = false;
  bool restored_ = false;
};

/// The exit code of a run a signal ended: 128 + its number (docs/exit-codes.md).
std::optional<ExitCode> signal_status() {
  if (g_signal == 0) return std::nullopt;
  return static_cast<ExitCode>(128 + g_signal);
}

}  // namespace

int guarded(Main command, int argc, char** argv) {
  try {
    return command(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "mcptriage: error: " << escape_terminal(e.what()) << "\n";
  } catch (...) {
    std::cerr << "mcptriage: error: unknown internal error\n";
  }
  return to_int(ExitCode::input_error);
}

int said(const OptionsExit& exit) {
  std::cerr << exit.err;
  try {
    io::FdOutput out(STDOUT_FILENO, "standard output");
    out.buffer() = exit.out;
    out.flush();
  } catch (const OutputError& e) {
    if (e.kind() == OutputError::Kind::failed) {
      std::cerr << "mcptriage: error: " << escape_terminal(e.what()) << "\n";
      return to_int(ExitCode::output_error);
    }
  }
  return exit.code;
}

int triage_main(int argc, char** argv, std::span<const Command> commands) {
  auto raw = parse_options(argc, argv, commands);
  if (!raw) return said(raw.error());
  const Env env = Env::from_process();
  auto config = resolve_config(*raw, env);
  if (!config) {
    std::cerr << config.error().text;
    return to_int(ExitCode::usage);
  }
  std::cerr << config->notes;
  return to_int(run(*config, env));
}

ExitCode run(const Config& config, const Env&, const RunOutput& output) {
  set_redaction(config.redact);

  // The outputs: records on standard output, reports to their files (or after the records).
  io::OutputOptions oo;
  oo.jsonl = config.format == OutputFormat::jsonl;
  oo.table = TableOptions{config.color, config.explain, config.verbose};
  oo.records_file = config.records_file;
  oo.make_sink = output.make_sink;
  oo.report_junit = config.report_junit;
  oo.report_tap = config.report_tap;
  oo.report_html = config.report_html;
  oo.report_otlp = config.report_otlp;
  oo.export_har = config.export_har;
  oo.now = config.now;
  io::RunOutputs outputs(std::move(oo));
  const std::span<RecordSink* const> sinks = outputs.sinks();

  // --follow follows one file: a folder is refused before it is walked (config.cpp refuses the rest);
  // a file not there yet is awaited (as tail -F), not an input error.
  bool await_log = false;
  if (config.follow) {
    struct stat st {};
    const bool there = ::stat(config.inputs.front().c_str(), &st) == 0;
    const bool missing = !there && errno == ENOENT;
    if (there && S_ISDIR(st.st_mode)) {
      std::cerr << "mcptriage: error: --follow follows one log, not a folder: " << escape_terminal(config.inputs.front())
                << "\n";
      return ExitCode::usage;
    }
    if (missing) {
      await_log = true;
      std::cerr << "mcptriage: note: " << escape_terminal(config.inputs.front())
                << " does not exist yet: waiting for it to appear (--follow)\n";
    }
  }

  // The inputs: files, folders (recursive, sorted), stdin; then the manifest's captures.
  io::StderrReport reporter;
  WalkReport walk(reporter, sinks);
  std::vector<io::Input> inputs =
      await_log ? std::vector<io::Input>{io::Input{config.inputs.front(), config.inputs.front()}}
                : io::collect_inputs(config.inputs, walk);
  for (std::size_t k = 0; k < config.manifest.size(); ++k) {
    inputs.push_back(io::Input{config.manifest[k].path, config.manifest[k].path, "", std::nullopt, k});
  }
  // curl -v keeps headers and body apart: X-stderr.txt reads its body from X-stdout.txt (or
  // --body FILE), and that body file is then no capture of its own (docs/formats.md).
  if (!config.body_file.empty() && inputs.size() != 1) {
    std::cerr << "mcptriage: error: --body goes with exactly one capture (" << inputs.size() << " given)\n";
    return ExitCode::usage;
  }
  io::pair_bodies(inputs, config.body_file);
  // One session read from the same file twice (a glob and its folder, a name given twice): its
  // exchanges come twice, the second time as repeats of the first. Said, not changed: the inputs
  // are read as given (docs/output.md "Several inputs as one session").
  if (config.one_session && inputs.size() > 1) {
    std::map<std::pair<dev_t, ino_t>, const io::Input*> seen;
    for (const io::Input& in : inputs) {
      struct stat st {};
      if (in.path.empty() || ::stat(in.path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) continue;
      auto [at, fresh] = seen.emplace(std::pair{st.st_dev, st.st_ino}, &in);
      if (!fresh) {
        std::cerr << "mcptriage: note: " << escape_terminal(in.name) << " is the file " << escape_terminal(at->second->name)
                  << " again: in one session (--session) its exchanges are read twice, as if sent again\n";
      }
    }
  }
  // --request/--id/--method describe one call; over several captures they describe each (new-user
  // trial: a folder read with --session and one --request gave every later file a replay). Said
  // once, on standard error (as the --protocol-version note, also under --quiet), so that the
  // records read as meant.
  if (inputs.size() > 1 && (config.flags.request || config.flags.id || config.flags.method)) {
    std::string given = config.flags.request ? "--request" : config.flags.id ? "--id" : "--method";
    std::cerr << "mcptriage: note: " << given << " describes the request of each of the " << inputs.size()
              << " captures that holds none of its own"
              << (config.flags.request ? ", in place of their sidecars NAME.request.json" : "")
              << (config.one_session ? "; in one session (--session) each is a send of that one request" : "")
              << "\n";
  }
  reporter.set_progress(config.progress.shown(inputs.size()));

  io::PipelineOptions pipeline;
  pipeline.capture = config.capture;
  pipeline.jobs = config.jobs > 0 ? config.jobs : io::default_jobs();
  io::FileSource::Sizes sizes = io::file_source_sizes(pipeline);
  sizes.eager = output.rows;
  io::FileSource file_source(inputs, sizes);
  // Standard input from a pipe or a terminal, alone: read live (issue 16, live_source.hpp).
  const bool live = !output.rows && io::LiveSource::applies(inputs);
  std::optional<LiveSignals> signals;
  std::optional<io::LiveSource> live_source;
  if (live) {
    signals.emplace();
    io::LiveSource::Options lo;
    lo.sizes = io::file_source_sizes(pipeline);
    lo.capture = config.capture;
    lo.flags = io::context_for(inputs.front(), config.flags);
    lo.now = config.now;
    lo.idle = config.idle_timeout;
    lo.total = config.timeout;
    lo.signal_fd = signals->fd();
    lo.events = config.events;
    lo.not_live = [&signals] { signals->restore(); };
    live_source.emplace(inputs, std::move(lo));
  }
  // A log followed as it grows (--follow, follow_source.hpp), or awaited until it appears.
  std::optional<io::FollowSource> follow_source;
  if (config.follow && inputs.size() == 1) {
    signals.emplace();
    io::FollowSource::Options fo;
    fo.sizes = io::file_source_sizes(pipeline);
    fo.idle = config.idle_timeout;
    fo.total = config.timeout;
    fo.signal_fd = signals->fd();
    follow_source.emplace(inputs, fo);
  }
  io::Source& source = follow_source ? static_cast<io::Source&>(*follow_source)
                       : live         ? static_cast<io::Source&>(*live_source)
                                      : file_source;
  TriageOptions options;
  options.now = config.now;
  options.flags = config.flags;
  options.tools = config.tools;
  options.one_session = config.one_session;
  options.expect = config.expect;
  for (const ManifestEntry& m : config.manifest) options.manifest.push_back(m.expectation);
  options.fail_on = config.fail_on;
  options.fail_on_auth = config.fail_on_auth;
  options.auth = config.capture.auth;
  options.pipeline = pipeline;
  options.damaged_lines_are_rows = output.rows;
  Triage triage(inputs, std::move(options), sinks, reporter);
  try {
    triage.run(source);
    reporter.end_progress();
    outputs.finish_records();
  } catch (const OutputError& e) {
    // Standard output failed: stop at once (the pipeline stopped reading), no reports and no
    // summary: they would speak of a run whose records are lost or unread.
    reporter.end_progress();
    if (e.kind() == OutputError::Kind::failed) {
      std::cerr << "mcptriage: error: " << escape_terminal(e.what()) << "\n";
      return ExitCode::output_error;
    }
    // The reader went away (`| head`): quietly, with what had failed so far (docs/exit-codes.md).
    const ExitCode status = run_status(reporter.input_errors, triage.broken());
    if (auto sig = signal_status(); sig && !(config.follow && status != ExitCode::ok)) return *sig;
    return status;
  }
  std::size_t broken = triage.broken();
  if ((config.expect || !config.manifest.empty()) && triage.records() == 0 && reporter.input_errors == 0) {
    std::cerr << "mcptriage: expectation broken: no exchange was read\n";
    broken = 1;
  }
  const bool output_failed = !outputs.finish_reports();
  if (!config.quiet && !output.rows) std::cerr << "mcptriage: " << triage.tally().summary(reporter.input_errors) << "\n";
  if (output_failed) return ExitCode::output_error;
  const ExitCode status = run_status(reporter.input_errors, broken);
  // Live standard input: the wait was cut, 130, 143 or 129 over 3 and 1. A follow ends by a
  // signal as a rule: 3 and 1 say what it saw (--fail-on), the signal's status only what is left.
  if (auto sig = signal_status(); sig && !(config.follow && status != ExitCode::ok)) return *sig;
  return status;
}

}  // namespace mcptriage::cli
