// A run's outputs (run_output.hpp): the stderr reporter, the records' sink and the reports.
#include "io/run_output.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <iostream>

#include "mcptriage/report.hpp"

namespace mcptriage::io {

void StderrReport::input_error(std::string_view name, std::string_view why) {
  std::cerr << "mcptriage: error: " << escape_terminal(redact(name)) << ": " << escape_terminal(redact(why)) << "\n";
  ++input_errors;
}

void StderrReport::skipped(std::string_view path, std::string_view why) {
  std::cerr << "mcptriage: note: skipped " << escape_terminal(path) << " (" << why << ")\n";
}

void StderrReport::expectation_broken(std::string_view failure) {
  if (progress_shown_) std::cerr << "\r\x1b[K";
  std::cerr << "mcptriage: expectation broken: " << escape_terminal(redact(failure)) << "\n";
}

void StderrReport::progress(std::size_t index, std::size_t count, std::string_view input) {
  if (!show_progress_) return;
  const auto t = std::chrono::steady_clock::now();
  if (t - last_progress_ <= std::chrono::milliseconds(100)) return;
  last_progress_ = t;
  progress_shown_ = true;
  std::string name = escape_terminal(input);
  if (name.size() > 60) name = "..." + name.substr(name.size() - 57);
  std::cerr << fmt::format("\r\x1b[K[{}/{}] {}", index + 1, count, name) << std::flush;
}

void StderrReport::end_progress() {
  if (progress_shown_) std::cerr << "\r\x1b[K" << std::flush;
}

namespace {

/// A report sink that fails alone (OutputOptions::reports_fail_alone): the first OutputError
/// of its sink is said on standard error, the sink is dropped and the run goes on.
class FailsAlone final : public RecordSink {
 public:
  FailsAlone(std::unique_ptr<RecordSink> inner, std::string_view program, std::string_view what, bool& failed)
      : inner_(std::move(inner)), program_(program), what_(what), failed_(failed) {}
  bool prepares() const override { return false; }
  bool wants_views() const override { return inner_->wants_views(); }
  bool wants_har() const override { return inner_->wants_har(); }
  void begin_input(const InputInfo& input) override { call([&](RecordSink& s) { s.begin_input(input); }); }
  void record(const Record& r, const Check& check, std::string_view) override {
    call([&](RecordSink& s) { s.record(r, check, {}); });
  }
  void skipped(const SkippedEntry& entry) override { call([&](RecordSink& s) { s.skipped(entry); }); }
  void end_input(const InputEnd& end) override { call([&](RecordSink& s) { s.end_input(end); }); }
  void begin_session(const SessionInfo& session) override { call([&](RecordSink& s) { s.begin_session(session); }); }
  void end_session(const SessionEnd& end) override { call([&](RecordSink& s) { s.end_session(end); }); }
  void input_failed(std::string_view name, std::string_view why) override {
    call([&](RecordSink& s) { s.input_failed(name, why); });
  }
  void auth_flow(const AuthFlow& flow, const Check& check) override {
    call([&](RecordSink& s) { s.auth_flow(flow, check); });
  }
  void event(const StreamEvent& e) override { call([&](RecordSink& s) { s.event(e); }); }
  void note(const Note& n) override { call([&](RecordSink& s) { s.note(n); }); }
  void flush() override { call([&](RecordSink& s) { s.flush(); }); }
  void finish() override { call([&](RecordSink& s) { s.finish(); }); }
  bool alive() const { return inner_ != nullptr; }

 private:
  template <typename F>
  void call(F&& f) {
    if (!inner_) return;
    try {
      f(*inner_);
    } catch (const OutputError& e) {
      std::cerr << program_ << ": error: " << escape_terminal(e.what()) << " (the " << what_ << " report stops)\n";
      inner_.reset();
      failed_ = true;
    }
  }
  std::unique_ptr<RecordSink> inner_;
  std::string_view program_;
  std::string_view what_;
  bool& failed_;
};

}  // namespace

/// A report sink and the file it writes (null for standard output).
struct RunOutputs::Report {
  std::unique_ptr<FileOutput> file;
  /// `-`: the report is kept here and written to standard output after the records (a sink
  /// writing into standard output's own buffer would interleave its bytes with the records).
  std::unique_ptr<StringOutput> held;
  std::unique_ptr<RecordSink> sink;
  const FailsAlone* alone = nullptr;  ///< `sink` itself, when reports fail alone
  std::string_view what;  ///< "JUnit", "TAP"
  std::string path;
};

RunOutputs::RunOutputs(OutputOptions options)
    : options_(std::move(options)), standard_output_(STDOUT_FILENO, "standard output") {
  if (!options_.records_file.empty()) records_file_ = std::make_unique<FileOutput>(options_.records_file, "records");
  Output& records_output = records_file_ ? static_cast<Output&>(*records_file_) : static_cast<Output&>(standard_output_);
  records_sink_ = options_.make_sink ? options_.make_sink(records_output)
                  : options_.jsonl   ? make_jsonl_sink(records_output)
                                     : make_table_sink(records_output, options_.table);
  auto add = [&](const std::string& path, std::string_view what, auto make) {
    if (path.empty()) return;
    auto r = std::make_unique<Report>();
    r->what = what;
    r->path = path;
    if (path != "-") r->file = std::make_unique<FileOutput>(path, std::string(what) + " report");
    else r->held = std::make_unique<StringOutput>();
    r->sink = make(r->file ? static_cast<Output&>(*r->file) : static_cast<Output&>(*r->held), r->file != nullptr);
    if (options_.reports_fail_alone) {
      auto alone = std::make_unique<FailsAlone>(std::move(r->sink), options_.program, r->what, report_failed_);
      r->alone = alone.get();
      r->sink = std::move(alone);
    }
    reports_.push_back(std::move(r));
  };
  add(options_.report_junit, "JUnit", [](Output& o, bool) { return make_junit_sink(o); });
  add(options_.report_tap, "TAP", [](Output& o, bool) { return make_tap_sink(o); });
  // A file of its own is written as the records come; into standard output, after them.
  add(options_.report_html, "HTML", [](Output& o, bool file) { return make_html_sink(o, file); });
  const long long now = options_.now;
  add(options_.report_otlp, "OTLP", [now](Output& o, bool file) { return make_otlp_sink(o, file, now); });
  add(options_.export_har, "HAR", [](Output& o, bool) { return make_har_sink(o); });
  sinks_.push_back(records_sink_.get());
  for (const auto& r : reports_) sinks_.push_back(r->sink.get());
}

RunOutputs::~RunOutputs() = default;

void RunOutputs::finish_records() {
  records_sink_->finish();
  if (records_file_) records_file_->close();
}

bool RunOutputs::finish_reports() {
  bool ok = !report_failed_;
  for (auto& r : reports_) {
    try {
      r->sink->finish();
      if (r->alone != nullptr && !r->alone->alive()) continue;  // it failed, and said so
      if (r->file) r->file->close();
      if (r->held) {
        r->held->flush();
        standard_output_.buffer() += r->held->text;
        r->held.reset();
        standard_output_.flush();
      }
    } catch (const OutputError& e) {
      if (e.kind() == OutputError::Kind::closed && !r->file) continue;  // `--report-tap -` into a closed pipe
      std::cerr << options_.program << ": error: " << escape_terminal(e.what()) << "\n";
      ok = false;
    }
  }
  return ok && !report_failed_;
}

}  // namespace mcptriage::io
