// The table output (render.hpp, make_table_sink): rows a page at a time, then one block per
// session and the skipped entries (docs/output.md "Table", "Sessions").
#include "mcptriage/auth.hpp"
#include "mcptriage/render.hpp"
#include "mcptriage/session.hpp"
#include "render/table_notes.hpp"

namespace mcptriage {

namespace {

constexpr std::size_t kNoteWidth = 100;  ///< columns of the lines under a row

}  // namespace

std::string table_row_notes(const Record& r, bool explain, bool verbose) {
  std::string notes;
  if (verbose) {
    for (const std::string& w : r.c.warnings) append_wrapped(notes, escape_terminal(redact(w)), 4, "  warning: ", kNoteWidth);
  }
  if (explain) {
    const ReasonEntry& e = reason_entry(r.c.reason);
    append_wrapped(notes, e.explanation, 4, "  why: ", kNoteWidth);
    append_wrapped(notes, e.next_step, 4, "  next: ", kNoteWidth);
    notes += "  spec: ";
    notes += e.spec;
    notes += '\n';
  }
  return notes;
}

namespace {

class TableSink final : public RecordSink {
 public:
  TableSink(Output& out, TableOptions options) : out_(out), options_(options) {}

  void begin_input(const InputInfo& input) override { name_ = input.name; }

  /// A session's skipped entries and notable entries are listed in its block (or, when it held
  /// one entry only, its skipped entries in lines of their own).
  void begin_session(const SessionInfo&) override {
    skipped_.clear();
    notable_.clear();
    skipped_omitted_ = 0;
    notable_omitted_ = 0;
    last_notable_ = nullptr;
  }

  void record(const Record& r, const Check&, std::string_view) override {
    rows_.push_back(table_row(r, name_));
    status_assumed_ = status_assumed_ || rows_.back().status_assumed;
    message_stream_ = message_stream_ || rows_.back().message_stream;
    rows_.back().notes = table_row_notes(r, options_.explain, options_.verbose);
    // Replays and findings are listed once per entry (the records of a batch reply share them),
    // the first kMaxListed, as the summary record caps its arrays.
    if (r.session && r.session != last_notable_ && (r.session->replay || !r.session->findings.empty())) {
      last_notable_ = r.session;
      if (notable_.size() < SessionTracker::kMaxListed) notable_.emplace_back(source_text(name_, r.source), *r.session);
      else ++notable_omitted_;
    }
    if (rows_.size() >= kPageRows) {
      out_.buffer() += render_table_page(rows_, options_.color, widths_, !started_);
      started_ = true;
      rows_.clear();
      out_.flush();
    }
  }

  void skipped(const SkippedEntry& e) override {
    if (skipped_.size() < SessionTracker::kMaxListed) skipped_.emplace_back(source_text(name_, e.source), e.skip);
    else ++skipped_omitted_;
  }

  /// A flow's block goes after its session's block (docs/auth.md "Table").
  void auth_flow(const AuthFlow& flow, const Check&) override { flows_ += render_auth_flow_table(flow); }

  /// An event line goes out at once (the run flushes after it), before its exchange's row.
  void event(const StreamEvent& e) override { out_.buffer() += render_event_line(e); }

  /// After the rows so far; once a session block waits for the end, after it.
  void note(const Note& n) override {
    if (!lines_.empty()) {
      lines_ += n.table;
      lines_ += '\n';
      return;
    }
    if (!rows_.empty()) {
      out_.buffer() += render_table_page(rows_, options_.color, widths_, !started_);
      started_ = true;
      rows_.clear();
    }
    out_.buffer() += n.table;
    out_.buffer() += '\n';
  }

  void end_session(const SessionEnd& end) override {
    if (end.summary != nullptr) {
      lines_ += render_summary_table(end.name, *end.summary, skipped_, notable_, skipped_omitted_, notable_omitted_);
    } else {
      for (const auto& [source, skip] : skipped_) {
        lines_ += "skipped " + escape_terminal(redact(source)) + ": " + escape_terminal(redact(to_string(skip.reason))) +
                  ": " + escape_terminal(redact(skip.detail)) + "\n";
      }
    }
    lines_ += flows_;
    flows_.clear();
  }

  void flush() override {
    if (!rows_.empty()) {
      out_.buffer() += render_table_page(rows_, options_.color, widths_, !started_);
      started_ = true;
      rows_.clear();
    }
    out_.flush();
  }

  void finish() override {
    // No exchange at all (every input failed, or only skipped entries): no empty header.
    if (!rows_.empty()) out_.buffer() += render_table_page(rows_, options_.color, widths_, !started_);
    out_.buffer() += table_legend(status_assumed_, message_stream_);
    out_.buffer() += lines_;
    out_.flush();
  }

 private:
  /// The rows are printed a page at a time (bounded memory on logs of any size): columns are as
  /// wide as the widest cell so far (docs/output.md).
  static constexpr std::size_t kPageRows = 4096;
  Output& out_;
  const TableOptions options_;
  std::string name_;
  std::vector<TableRow> rows_;
  TableWidths widths_ = table_header_widths();
  bool started_ = false;
  bool status_assumed_ = false;  ///< a row so far showed an assumed status: the legend explains it
  bool message_stream_ = false;  ///< a row so far came from a message stream: the legend explains it
  // The current session's skipped entries and entries with replays or findings (the first
  // kMaxListed of each), for its session block.
  std::vector<std::pair<std::string, Skip>> skipped_;
  std::vector<std::pair<std::string, SessionAnnotation>> notable_;
  std::size_t skipped_omitted_ = 0;
  std::size_t notable_omitted_ = 0;
  /// The entry last listed, held so that a later entry's annotation cannot take its address (a
  /// plain pointer to a freed annotation matched a new one at the same address and left that
  /// entry out: seen as output that differed between --jobs 1 and 2).
  std::shared_ptr<const SessionAnnotation> last_notable_;
  std::string lines_;  ///< the session blocks, printed after the table
  std::string flows_;  ///< the current session's auth flow blocks
};

}  // namespace

std::unique_ptr<RecordSink> make_table_sink(Output& out, TableOptions options) {
  return std::make_unique<TableSink>(out, options);
}

}  // namespace mcptriage
