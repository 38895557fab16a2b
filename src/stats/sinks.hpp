// The sinks of `mcptriage stats` (docs/stats.md): the summary of a run (StatsSink) and row mode
// (RowSink, docs/scale.md: one output line per input line of a JSON Lines exchange log). Both
// take the run core's final records (mcptriage/output.hpp) like every other output.
#pragma once

#include <chrono>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>

#include "mcptriage/output.hpp"
#include "stats/summary.hpp"

namespace mcptriage::stats {

enum class Format { table, json };

struct StatsSinkOptions {
  Format format = Format::json;
  bool color = false;
  WriteOptions write;
  /// `--follow --interval D`: the summary so far is written when D has passed since the last
  /// one, at a flush (a block of the log read); nullopt: once, at the end.
  std::optional<std::chrono::milliseconds> interval;
};

/// Counts every record, skipped entry, input error and replay of the run into a Summary and
/// writes it at finish() (and on each interval with --follow).
class StatsSink final : public RecordSink {
 public:
  StatsSink(Output& out, StatsSinkOptions options);
  void begin_input(const InputInfo& input) override;
  void record(const Record& r, const Check& check, std::string_view prepared) override;
  void skipped(const SkippedEntry& entry) override;
  void input_failed(std::string_view name, std::string_view why) override;
  void flush() override;
  void finish() override;
  Summary& summary() { return summary_; }

 private:
  void write();
  Output& out_;
  StatsSinkOptions options_;
  Summary summary_;
  std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};

/// Row mode: one line of JSON per entry of the log, in order, with no summary, flushed after
/// each block of input (RecordSink::flush): a record's verdict, or a skipped line's reason. A
/// row's members (docs/scale.md "Rows"): line, key (`--key-field`), outcome, layer, reason,
/// failed, method, tool, server, http_status, error_code, latency_ms; or line, key, skipped,
/// detail. A batch reply gives one row, the verdict of its first element, and `elements`.
class RowSink final : public RecordSink {
 public:
  explicit RowSink(Output& out) : out_(out) {}
  void record(const Record& r, const Check& check, std::string_view prepared) override;
  void skipped(const SkippedEntry& entry) override;
  void flush() override { out_.flush(); }
  void finish() override { out_.flush(); }

 private:
  Output& out_;
};

}  // namespace mcptriage::stats
