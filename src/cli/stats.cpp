// `mcptriage stats` (stats.hpp): its options on top of the triage options, then a triage run
// whose records go to a stats sink (src/stats), or a merge of summary files.
#include "cli/stats.hpp"

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cli/config.hpp"
#include "cli/options.hpp"
#include "cli/run.hpp"
#include "io/duration.hpp"
#include "io/output.hpp"
#include "io/read_limited.hpp"
#include "mcptriage/render.hpp"
#include "stats/diff.hpp"
#include "stats/sinks.hpp"
#include "stats/summary.hpp"

namespace mcptriage::cli {

namespace {

/// A summary file is small (its cells are bounded, docs/stats.md "Bounds"): larger is no summary.
constexpr std::size_t kMaxSummaryBytes = std::size_t{256} << 20;

struct StatsOptions {
  std::string format;  ///< "", "table" or "json"
  bool merge = false;
  bool rows = false;
  std::string key_field;
  std::string interval;
  std::size_t top = 10;
};

int usage(std::string_view why) {
  std::cerr << "mcptriage stats: error: " << why << "\nRun with --help for usage.\n";
  return to_int(ExitCode::usage);
}

/// `--merge`: every summary read and checked before anything is written; one that cannot be
/// read, of another schema version or damaged is an input error (exit 3) and nothing is merged.
int merge(const std::vector<std::string>& paths, stats::Format format, bool color, const stats::WriteOptions& write) {
  if (paths.empty() || (paths.size() == 1 && paths.front() == "-")) return usage("--merge needs the summary files to merge");
  stats::Summary all;
  for (const std::string& path : paths) {
    auto text = io::read_file_limited(path, kMaxSummaryBytes);
    if (!text) {
      std::cerr << "mcptriage: error: " << escape_terminal(path) << ": " << escape_terminal(text.error().message) << "\n";
      return to_int(ExitCode::input_error);
    }
    auto summary = stats::from_json(*text);
    if (!summary) {
      std::cerr << "mcptriage: error: " << escape_terminal(path) << ": " << escape_terminal(summary.error())
                << "; nothing merged\n";
      return to_int(ExitCode::input_error);
    }
    all.merge(*summary);
  }
  io::FdOutput out(STDOUT_FILENO, "standard output");
  try {
    out.buffer() = format == stats::Format::json ? stats::to_json(all, write) : stats::to_table(all, color, write);
    out.flush();
  } catch (const OutputError& e) {
    if (e.kind() == OutputError::Kind::closed) return 0;
    std::cerr << "mcptriage: error: " << escape_terminal(e.what()) << "\n";
    return to_int(ExitCode::output_error);
  }
  return 0;
}

}  // namespace

int stats_main(int argc, char** argv) {
  StatsOptions so;
  auto extend = [&so](CLI::App& app) {
    app.name("mcptriage stats");
    app.description(
        "mcptriage stats: one summary of every exchange read, grouped by server, method, tool, layer, outcome,\n"
        "reason and JSON-RPC error code: counts, failure rates, latency p50/p90/p99/max where captures carry\n"
        "timings, replays and resends, the top failing tools and reasons (docs/stats.md). Takes the options of a\n"
        "triage run. --merge adds up summaries made apart; --rows gives one JSON line per input line of a JSON\n"
        "Lines exchange log, for ClickHouse, Spark and the like (docs/scale.md).");
    app.footer(
        "Examples:\n"
        "  mcptriage stats gateway.jsonl                        # a table on a terminal, else JSON\n"
        "  mcptriage stats --format json part1/ > a.json; mcptriage stats --merge a.json b.json\n"
        "  mcptriage stats --follow --interval 60s gateway.jsonl  # a summary each minute\n"
        "  mcptriage stats --rows --key-field id < gateway.jsonl  # one verdict row per line\n"
        "Exit codes: 0 ok; 1 --fail-on or --expect broken; 2 usage; 3 an input (or a summary to merge) could not\n"
        "be read; 4 the output could not be written.");
    app.remove_option(app.get_option("--format"));
    for (const char* name : {"--explain", "--verbose", "--events"}) app.remove_option(app.get_option(name));
    app.add_option("-f,--format", so.format, "Output: table or json (default: table on a terminal, else json)")
        ->check(CLI::IsMember({"table", "json"}));
    app.add_flag("--merge", so.merge,
                 "The inputs are summaries (stats --format json) to add up: counts exact, quantiles within the "
                 "sketch's 1%; one of another schema version or damaged is an input error (exit 3), nothing merged");
    app.add_flag("--rows", so.rows,
                 "Row mode: one JSON line per line of a JSON Lines exchange log, in order, no summary, flushed per "
                 "block read (docs/scale.md)");
    app.add_option("--key-field", so.key_field, "Row mode: copy this member of each input line to its row's \"key\"")
        ->type_name("NAME");
    app.add_option("--interval", so.interval, "With --follow: write the summary so far every DURATION (e.g. 60s)")
        ->type_name("DURATION");
    app.add_option("--top", so.top, "Entries of the top failing tools and reasons (default 10)")->type_name("N")->check(
        CLI::Range(1u, 1000u));
  };
  auto raw = parse_options(argc, argv, {}, extend);
  if (!raw) return said(raw.error());
  const Env env = Env::from_process();
  const stats::Format format = so.format == "table"  ? stats::Format::table
                               : so.format == "json" ? stats::Format::json
                               : env.stdout_tty      ? stats::Format::table
                                                     : stats::Format::json;
  if (so.rows && so.merge) return usage("--rows and --merge do not go together");
  if (!so.key_field.empty() && !so.rows) return usage("--key-field goes with --rows");
  if (!so.interval.empty() && !raw->follow) return usage("--interval goes with --follow");
  if (so.rows && !so.format.empty()) return usage("--rows writes JSON lines: no --format");
  std::optional<std::chrono::milliseconds> interval;
  if (!so.interval.empty()) {
    interval = io::parse_duration(so.interval);
    if (!interval) return usage("--interval: not a duration (a number and ms, s, m or h): " + escape_terminal(so.interval));
  }
  auto config = resolve_config(*raw, env);
  if (!config) {
    std::cerr << config.error().text;
    return to_int(ExitCode::usage);
  }
  stats::WriteOptions write;
  write.top = so.top;
  if (so.merge) return merge(raw->inputs, format, config->color, write);
  std::cerr << config->notes;
  config->quiet = true;  // the summary is the output
  RunOutput output;
  if (so.rows) {
    output.rows = true;
    config->capture.rows = true;
    config->capture.key_field = so.key_field;
    output.make_sink = [](Output& out) { return std::make_unique<stats::RowSink>(out); };
  } else {
    stats::StatsSinkOptions options{format, config->color, write, interval};
    output.make_sink = [options](Output& out) { return std::make_unique<stats::StatsSink>(out, options); };
  }
  return to_int(run(*config, env, output));
}

int diff_main(int argc, char** argv) {
  std::string format_name;
  bool fail_on_regression = false;
  auto extend = [&](CLI::App& app) {
    app.name("mcptriage diff");
    app.description(
        "mcptriage diff BEFORE AFTER: two captures, recordings or logs compared per method and tool: failure\n"
        "rates before and after, failing reasons that are new, and the exchanges whose outcome changed where the\n"
        "same request (method and canonical params) is on both sides (docs/stats.md \"diff\"). Takes the options\n"
        "of a triage run, applied to each side.");
    app.footer(
        "Exit codes: 0 ok (or no regression); 1 --fail-on-regression and a failure rate rose or a new failing\n"
        "reason appeared; 2 usage; 3 an input could not be read; 4 the output could not be written.");
    app.remove_option(app.get_option("--format"));
    for (const char* name : {"--explain", "--verbose", "--events", "--follow", "--session"})
      app.remove_option(app.get_option(name));
    app.add_option("-f,--format", format_name, "Output: table or json (default: table on a terminal, else json)")
        ->check(CLI::IsMember({"table", "json"}));
    app.add_flag("--fail-on-regression", fail_on_regression,
                 "Exit 1 when a method and tool's failure rate rose or a failing reason appeared that BEFORE did not have");
  };
  auto raw = parse_options(argc, argv, {}, extend);
  if (!raw) return said(raw.error());
  if (raw->inputs.size() != 2) {
    std::cerr << "mcptriage diff: error: give two inputs, BEFORE and AFTER (" << raw->inputs.size() << " given)\nRun with --help for usage.\n";
    return to_int(ExitCode::usage);
  }
  const Env env = Env::from_process();
  const bool json = format_name == "json" || (format_name.empty() && !env.stdout_tty);
  stats::DiffSide sides[2];
  ExitCode status = ExitCode::ok;
  bool color = false;
  for (int k = 0; k < 2; ++k) {
    RawOptions one = *raw;
    one.inputs = {raw->inputs[static_cast<std::size_t>(k)]};
    auto config = resolve_config(one, env);
    if (!config) {
      std::cerr << config.error().text;
      return to_int(ExitCode::usage);
    }
    color = config->color;
    config->quiet = true;
    RunOutput output;
    stats::DiffSide* side = &sides[k];
    output.make_sink = [side](Output&) { return std::make_unique<stats::DiffSink>(*side); };
    const ExitCode s = run(*config, env, output);
    if (s == ExitCode::output_error) return to_int(s);
    if (s != ExitCode::ok) status = s;
  }
  const stats::Diff d = stats::compare(sides[0], sides[1]);
  io::FdOutput out(STDOUT_FILENO, "standard output");
  try {
    out.buffer() = json ? stats::diff_json(d) : stats::diff_table(d, color);
    out.flush();
  } catch (const OutputError& e) {
    if (e.kind() == OutputError::Kind::failed) {
      std::cerr << "mcptriage: error: " << escape_terminal(e.what()) << "\n";
      return to_int(ExitCode::output_error);
    }
  }
  if (status != ExitCode::ok) return to_int(status);
  return fail_on_regression && d.regressed ? to_int(ExitCode::expectation_broken) : 0;
}

}  // namespace mcptriage::cli
