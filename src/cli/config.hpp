// A triage run's configuration: the command line (RawOptions) resolved against the environment
// (Env: terminals, NO_COLOR, TERM, CI, the clock) and the files the flags name (--request,
// --manifest). Env is a plain value, so that a unit test can build any environment.
#pragma once

#include <chrono>

#include <cstddef>
#include <expected>
#include <optional>
#include <string>
#include <vector>

#include "cli/options.hpp"
#include "mcptriage/capture.hpp"
#include "mcptriage/classify.hpp"
#include "mcptriage/report.hpp"
#include "mcptriage/session.hpp"

namespace mcptriage::cli {

/// What a run takes from its process: which standard streams are terminals, the environment
/// variables it reads, and the time it starts.
struct Env {
  bool stdin_tty = false;
  bool stdout_tty = false;
  bool stderr_tty = false;
  std::optional<std::string> no_color;       ///< NO_COLOR (no-color.org: any non-empty value)
  std::optional<std::string> term;           ///< TERM
  std::optional<std::string> ci;             ///< CI
  std::optional<std::string> mcptriage_now;  ///< MCPTRIAGE_NOW: a fixed clock, seconds since the epoch (tests)
  long long clock = 0;                       ///< the system's time at the start, seconds since the epoch

  /// This process's environment (isatty(3) of fds 0-2, getenv(3), time(2)).
  static Env from_process();
};

enum class OutputFormat { table, jsonl };

/// When the progress line shows on standard error: with `--progress`, or on a terminal without
/// CI set for a run of 20 inputs or more.
struct Progress {
  bool forced = false;   ///< `--progress`
  bool allowed = false;  ///< standard error is a terminal and CI is not set
  static constexpr std::size_t kMinInputs = 20;
  bool shown(std::size_t inputs) const { return forced || (allowed && inputs >= kMinInputs); }
};

/// One capture listed in a manifest, its path resolved against the manifest's folder.
struct ManifestEntry {
  std::string path;  ///< lexically normal
  Expectation expectation;
};

/// Everything a triage run needs to know, resolved.
struct Config {
  std::vector<std::string> inputs;     ///< PATH arguments in order; "-" is standard input
  std::vector<ManifestEntry> manifest;  ///< the manifest's captures, after the inputs
  OutputFormat format = OutputFormat::jsonl;
  bool color = false;                  ///< ANSI colour in the table
  bool explain = false;                ///< `--explain`: the reason's entry under each table row
  bool verbose = false;                ///< `-v`: the record's warnings under each table row
  /// Each event of a stream read live is shown: `--events`, or a table on a terminal.
  bool events = false;
  ContextFlags flags;                  ///< the request context of every input (--id, --method, --request, ...)
  std::vector<ToolDefinition> tools;   ///< `--tools FILE`: tool definitions for every input's session
  bool one_session = false;            ///< `--session`: the inputs, in order, are one session
  std::optional<Expectation> expect;   ///< `--expect`
  std::vector<Outcome> fail_on;        ///< `--fail-on`
  std::vector<AuthVerdict> fail_on_auth;  ///< `--fail-on`'s AUTH_FAILED, AUTH_INCOMPLETE (auth_flow records)
  std::string body_file;               ///< `--body`
  std::string report_junit;            ///< "" for none
  std::string report_tap;              ///< "" for none, "-" for standard output
  std::string report_html;             ///< `--report-html`: "" for none, "-" for standard output
  std::string report_otlp;             ///< `--report-otlp`: "" for none, "-" for standard output
  std::string export_har;              ///< `--export-har`: "" for none, "-" for standard output
  /// The records go to this file instead of standard output (`mcptriage bundle`); "" for standard output.
  std::string records_file;
  bool quiet = false;
  Progress progress;
  CaptureOptions capture;              ///< --status, --max-input, --max-body
  unsigned jobs = 0;                   ///< 0: one per core
  bool redact = true;
  long long now = 0;                   ///< the clock of the run (HTTP-date Retry-After), seconds since the epoch
  /// `--follow`: the one input, a JSON Lines log, is followed as it grows (io/follow_source.hpp).
  bool follow = false;
  std::optional<std::chrono::milliseconds> idle_timeout;  ///< `--idle-timeout` (live standard input, `--follow`)
  std::optional<std::chrono::milliseconds> timeout;       ///< `--timeout` (live standard input, `--follow`)
  std::string notes;                   ///< "mcptriage: note: ..." lines for standard error, before the run
};

/// A command line that cannot run: the lines for standard error (notes before the error too).
struct UsageError {
  std::string text;
};

/// Resolves `raw` against `env`: the output format and colour from the terminals, NO_COLOR and
/// TERM; the clock; the request context (`--id`, `--method`, `--protocol-version`, the
/// `--request` file read whole); `--expect`, `--fail-on`, the `--manifest` file read and parsed;
/// standard input as the input when none is given. Errors (exit 2) name the flag and why, in
/// the words of docs/exit-codes.md.
std::expected<Config, UsageError> resolve_config(const RawOptions& raw, const Env& env);

}  // namespace mcptriage::cli
