// A run's outputs, made once for every front door (the triage run, `stats`, `bundle`, the proxy):
// the records' sink on standard output (or a file), the report sinks (`--report-junit`,
// `--report-tap`, `--report-html`, `--report-otlp`, `--export-har`), and what a run tells on
// standard error as it goes (input errors, broken expectations, the progress line).
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "io/inputs.hpp"
#include "io/output.hpp"
#include "mcptriage/output.hpp"
#include "mcptriage/render.hpp"

namespace mcptriage::io {

/// What a run tells as it goes, beside its records (the CLI and the proxy: standard error).
class RunReport : public InputReport {
 public:
  /// A record broke an expectation: `failure` as Check::failure.
  virtual void expectation_broken(std::string_view failure) = 0;
  /// Input `index` (of `count`, named `name`) starts.
  virtual void progress(std::size_t index, std::size_t count, std::string_view name) {
    (void)index;
    (void)count;
    (void)name;
  }
};

/// RunReport on standard error, as it comes: "mcptriage: error: NAME: WHY" (redacted, escaped),
/// "mcptriage: note: skipped PATH (WHY)", "mcptriage: expectation broken: FAILURE", and with
/// `show_progress` a `[3/40] name` line over itself at most ten times a second.
class StderrReport final : public RunReport {
 public:
  explicit StderrReport(bool show_progress = false) : show_progress_(show_progress) {}
  void set_progress(bool show) { show_progress_ = show; }

  void input_error(std::string_view name, std::string_view why) override;
  void skipped(std::string_view path, std::string_view why) override;
  void expectation_broken(std::string_view failure) override;
  void progress(std::size_t index, std::size_t count, std::string_view input) override;
  /// Clears the progress line, if it showed.
  void end_progress();

  std::size_t input_errors = 0;  ///< input_error() calls so far

 private:
  bool show_progress_;
  bool progress_shown_ = false;
  std::chrono::steady_clock::time_point last_progress_ = std::chrono::steady_clock::now();
};

/// What a run writes, and where.
struct OutputOptions {
  bool jsonl = false;     ///< records as JSON Lines; false: the table
  TableOptions table;     ///< the table's colours, `--explain`, `-v`
  /// The records into this file instead of standard output (`mcptriage bundle`); "" for none.
  std::string records_file;
  /// Makes the records' sink in place of the table or JSON Lines (`mcptriage stats`); null: those.
  std::function<std::unique_ptr<RecordSink>(Output&)> make_sink;
  // Reports: a path, "-" (standard output, after the records) or "" (none).
  std::string report_junit;
  std::string report_tap;
  std::string report_html;
  std::string report_otlp;
  std::string export_har;
  long long now = 0;  ///< the run's clock (the OTLP report's times), seconds since the epoch
  /// A long-running front door (the proxy): a report that cannot be written stops alone (said once
  /// on standard error, `finish_reports` then fails) and the records go on; false: its
  /// OutputError leaves the sink call and stops the run, as any output's.
  bool reports_fail_alone = false;
  std::string_view program = "mcptriage";  ///< the prefix of the messages on standard error
};

/// The sinks of one run: the records' sink first, then one per report. The report files are
/// created when first written (io::FileOutput); a report into standard output ("-") is held and
/// written after the records.
class RunOutputs {
 public:
  explicit RunOutputs(OutputOptions options);
  ~RunOutputs();
  RunOutputs(const RunOutputs&) = delete;
  RunOutputs& operator=(const RunOutputs&) = delete;

  /// Every sink, for triage::Triage: the records' sink, then the reports in the order above.
  std::span<RecordSink* const> sinks() const { return sinks_; }
  /// The records' sink.
  RecordSink& records() { return *sinks_.front(); }

  /// The records' sink finished (the table's last page) and its file closed. Throws OutputError.
  void finish_records();
  /// Each report finished and closed, or written to standard output after the records. A failure
  /// is said on standard error ("PROGRAM: error: cannot write ..."); a report into a closed
  /// standard output is left quietly. Returns false when a report could not be written (exit 4).
  bool finish_reports();

 private:
  struct Report;
  OutputOptions options_;
  FdOutput standard_output_;
  std::unique_ptr<FileOutput> records_file_;
  std::unique_ptr<RecordSink> records_sink_;
  std::vector<std::unique_ptr<Report>> reports_;
  std::vector<RecordSink*> sinks_;
  bool report_failed_ = false;  ///< a report that fails alone failed during the run
};

}  // namespace mcptriage::io
