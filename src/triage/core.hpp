// The run core (src/triage/, below every front door): what the CLI, the live pipe and the proxy all drive. It takes the exchanges a
// source feeds (src/io), has them classified on the pipeline's workers, walks each session's
// entries (an input's, or with --session every input's) through the session analysis
// (src/session), applies its amendments, checks the run's expectations and hands every record,
// final, to the sinks (mcptriage/output.hpp).
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "io/inputs.hpp"
#include "io/pipeline.hpp"
#include "io/run_output.hpp"
#include "mcptriage/auth.hpp"
#include "mcptriage/output.hpp"
#include "mcptriage/report.hpp"

namespace mcptriage::triage {

/// What the run core tells as it goes, beside its records (io::StderrReport: standard error).
using Reporter = io::RunReport;

/// Told of every entry (the records of one exchange) as soon as it is judged: session walk,
/// amendments, retry safety and authorization applied, before it is held or given to the sinks.
/// Runs on the thread that consumes the run (with `jobs` 1, inside the source's Feed call that fed
/// the entry). The proxy uses it to set Record::live_members and to tell its client-behaviour
/// watcher what each exchange was.
class EntryObserver {
 public:
  virtual ~EntryObserver() = default;
  /// `records`: the entry's records (a skipped entry: one, with `facts->skipped`), which the
  /// observer may complete; `annotation`: what the session walk said of it.
  virtual void judged(std::span<Record> records, const SessionAnnotation& annotation) = 0;
};

struct TriageOptions {
  long long now = 0;                    ///< the run's clock (HTTP-date Retry-After), seconds since the epoch
  ContextFlags flags;                   ///< the request context of every input (io::context_for adds sidecars)
  std::vector<ToolDefinition> tools;    ///< `--tools FILE`: given to every input's session tracker
  std::optional<Expectation> expect;    ///< `--expect`, for inputs without a manifest line
  std::vector<Expectation> manifest;    ///< by io::Input::manifest_entry
  std::vector<Outcome> fail_on;         ///< `--fail-on`
  std::vector<AuthVerdict> fail_on_auth;  ///< `--fail-on`'s flow verdicts
  bool auth = true;                     ///< `--auth on`: authorization triage (src/auth, docs/auth.md)
  /// `--session`: the inputs, in their order, are one session (one session walk, one summary);
  /// false: each input is a session of its own.
  bool one_session = false;
  /// Row mode (`stats --rows`): a log line that is not JSON is a row (a skipped entry) and no
  /// input error, so that the run ends cleanly and standard error stays quiet.
  bool damaged_lines_are_rows = false;
  io::PipelineOptions pipeline;
  /// A long-running front door (the proxy): each exchange is judged at the wall clock's time when
  /// it is classified (an HTTP-date Retry-After), not at `now`.
  bool wall_clock = false;
  EntryObserver* observer = nullptr;  ///< told of each judged entry; must outlive the Triage
};

/// One triage run over `inputs`. Usage: run(source), then finish the sinks.
class Triage {
 public:
  /// `inputs`, `sinks` and `reporter` must outlive the Triage. At most one sink prepares
  /// (RecordSink::prepares): its text is made on the workers.
  Triage(std::span<const io::Input> inputs, TriageOptions options, std::span<RecordSink* const> sinks,
         Reporter& reporter);
  ~Triage();
  Triage(const Triage&) = delete;
  Triage& operator=(const Triage&) = delete;

  /// Runs what `source` feeds to its end, the records through the sinks, and ends the last
  /// input. An OutputError from a sink stops the run at once and leaves here.
  void run(io::Source& source);

  /// A record of the front door's own (RecordSink::note), given to the sinks in its place: at once
  /// (flushed), or while a session's first entry is held, right after that entry. Call it on the
  /// thread that consumes the run (the source's, with `jobs` 1), or after run().
  void note(Note n);

  /// The input `name` could not be read (`why`): told to the reporter and every sink.
  void input_error(std::string_view name, std::string_view why);

  std::size_t records() const { return records_; }  ///< exchange records given to the sinks
  std::size_t broken() const { return broken_; }    ///< records that broke an expectation
  const Tally& tally() const { return tally_; }

 private:
  struct SessionState;
  struct Entry;

  void records_of(const Exchange& ex, const ContextFlags& flags, SourceRef where, std::vector<Record>& out,
                  std::vector<std::string>& prepared) const;
  void consume(io::Batch&& batch);
  /// Gives the records of one entry (`prepared`: their texts, or empty) to the sinks.
  void dispatch(std::span<Record> records, std::span<std::string> prepared,
                const std::shared_ptr<const SessionAnnotation>& annotation);
  /// Input `input`'s first batch: starts a session unless one goes on (--session), and the
  /// sinks' input (at once, or after the held first entry of the session).
  void begin_input(std::size_t input);
  /// Moves the sinks to `input` (end_input of theirs, begin_input of it) unless they are on it.
  void sinks_to(std::size_t input);
  /// The current input is over: without --session, so is its session.
  void end_input();
  /// The authorization triage of an entry (its first record's auth_leg): the `auth` member of its
  /// record and, for an AUTH_LEG record, the leg's verdict (its prepared text dropped if it changed).
  void judge_auth(std::span<Record> records, std::span<std::string> prepared);
  /// The held entry out, the sinks' input ended, the summary to the sinks.
  void end_session();
  /// The notes that waited for the held first entry, to the sinks.
  void release_notes();
  /// The run's clock: `now`, or with `wall_clock` the time now.
  long long now() const;

  std::span<const io::Input> inputs_;
  TriageOptions options_;
  bool views_ = false;  ///< some sink reads Record::view
  bool har_ = false;    ///< some sink reads Record::har
  std::span<RecordSink* const> sinks_;
  const RecordSink* preparer_ = nullptr;
  Reporter& reporter_;
  std::unique_ptr<SessionState> current_;
  std::size_t records_ = 0;
  std::size_t broken_ = 0;
  Tally tally_;
  std::string source_;  ///< a record's source text, reused
  std::vector<Note> notes_;  ///< notes that came while a first entry was held
};

}  // namespace mcptriage::triage
