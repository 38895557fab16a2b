// The CLI's session glue: attaches session facts to records on the workers, then runs the
// session analysis over each input's records in order and writes skipped records, `session`
// members and summaries (docs/output.md "Sessions").
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "mcptriage/exchange.hpp"
#include "mcptriage/record.hpp"
#include "mcptriage/render.hpp"
#include "mcptriage/session.hpp"

namespace mcptriage::cli {

/// The facts of one classified exchange, to attach to each of its records (worker threads).
std::shared_ptr<const SessionFacts> session_facts(const Exchange& exchange, const std::vector<Classification>& records,
                                                  const ReadAlong& along);

/// The placeholder record of a skipped entry (Exchange::skipped) found at `where`:
/// `facts->skipped` set, `c` meaningless (NOT_CAPTURED, the default reason).
Record skipped_record(const Exchange& exchange, SourceRef where);

/// Session analysis and output across the batches of a run, on the consuming thread. Call, for
/// each batch in order: begin_batch, then for each record skip() and, when it returns false,
/// write_jsonl() (JSON Lines) or nothing (table); at the end finish() and, for the table,
/// table_lines(). Inputs with more than one entry (exchanges and skipped entries) get a
/// `session` member on their records and a summary; single-entry inputs print as before.
class SessionOutput {
 public:
  SessionOutput(bool jsonl, long long now_unix_seconds);

  /// Runs the analysis over `records` (rewriting outcomes the outputSchema check rejects) and,
  /// when `input` differs from the previous batch's, ends the previous input into `out`.
  void begin_batch(std::size_t input, std::string_view name, std::vector<Record>& records, std::string& out);

  /// True when `rec` stands for a skipped entry: its line is written (JSON Lines) or kept for
  /// the table's session lines; the caller must not count or print it as a record.
  bool skip(const Record& rec, std::string& out);

  /// Writes an exchange record's JSON text (render_jsonl(rec)), with its `session` member
  /// when its input has more than one entry, and a newline.
  void write_jsonl(const Record& rec, std::string_view text, std::string& out);
  /// The same for a text in two pieces, `head` then `tail` (append_jsonl_head, then
  /// append_jsonl_tail): appended straight to `out`, never joined first.
  void write_jsonl(const Record& rec, std::string_view head, std::string_view tail, std::string& out);

  /// True when begin_batch() may have changed `rec.c` (its outputSchema was checked): text
  /// rendered before then is stale.
  bool rewritten(const Record& rec) const;

  /// Ends the last input.
  void finish(std::string& out);

  /// The table view's session lines (every input with more than one entry, and skipped entries).
  const std::string& table_lines() const { return table_; }

 private:
  struct Held {
    std::string text;
    std::optional<SessionAnnotation> annotation;  ///< for exchange records
  };
  struct InputState {
    std::size_t input = 0;
    std::string name;
    CaptureFormat format = CaptureFormat::curl_i;
    SessionTracker tracker;
    std::size_t entries = 0;
    bool multi = false;
    std::vector<Held> held;
    std::vector<std::pair<std::string, Skip>> skipped;
    std::vector<std::pair<std::string, SessionAnnotation>> notable;
    std::size_t skipped_omitted = 0;  ///< skipped entries past the first kMaxListed
    std::size_t notable_omitted = 0;  ///< entries with replays or findings past the first kMaxListed
    InputState(long long now, std::string input_name) : tracker(now, std::move(input_name)) {}
  };

  void end_input(std::string& out);
  void emit(std::string_view head, std::string_view tail, const SessionAnnotation* annotation, std::string& out);

  bool jsonl_;
  long long now_;
  std::optional<InputState> current_;
  /// This batch's entries in order, with the facts their records share; looked up from a cursor,
  /// as the records are written in order (annotation()).
  std::vector<std::pair<const SessionFacts*, SessionAnnotation>> annotations_;
  mutable std::size_t cursor_ = 0;
  std::vector<Classification*> entry_records_;  ///< reused for each entry (begin_batch)
  /// The annotation of the entry whose facts are `facts`, or null.
  const SessionAnnotation* annotation(const SessionFacts* facts) const;
  std::string table_;
};

}  // namespace mcptriage::cli
