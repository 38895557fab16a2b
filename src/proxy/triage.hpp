// The proxy's triage adapter: a recorded exchange-log line in, records out. The one place where
// the proxy meets the classifier, the session analysis, the renderers and the reports, through
// today's library API (read_lines_block, classify, SessionTracker, render_jsonl, render_table,
// junit_report, and the HTML and OTLP report sinks: make_html_sink, make_otlp_sink). When the run core's RecordSink lands, this file is what changes: the network
// code (server.cpp) and the client-behaviour watcher (watcher.cpp) only see Triage and Verdict.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "mcptriage/classify.hpp"
#include "mcptriage/report.hpp"
#include "mcptriage/session.hpp"

namespace mcptriage::proxy {

struct TriageOptions {
  std::string format = "jsonl";   ///< "table" or "jsonl"
  bool color = false;             ///< table colours
  bool explain = false;           ///< table: `--explain`, the reason's entry under each row (as the triage run)
  bool verbose = false;           ///< table: `-v`, the record's warnings under each row (as the triage run)
  std::string input_name = "proxy";  ///< records are `input_name#N`: the --record file, so that reading it gives the same sources
  std::optional<Expectation> expect;  ///< --expect
  std::vector<Outcome> fail_on;       ///< --fail-on
  std::string report_junit;           ///< --report-junit FILE
  std::string report_tap;             ///< --report-tap FILE ('-': stdout)
  std::string report_html;            ///< --report-html FILE ('-': stdout, at the end)
  std::string report_otlp;            ///< --report-otlp FILE ('-': stdout, at the end)
  bool quiet = false;                 ///< no summary line on stderr
};

/// What the rest of the proxy needs of one record of an exchange.
struct Verdict {
  std::string source;                  ///< `input#N` (and `[k]` for a batch element)
  bool skipped = false;                ///< not an MCP exchange (skip_reason says why)
  std::string skip_reason;
  Outcome outcome = Outcome::NOT_CAPTURED;
  std::string reason;
  int http_status = 0;
  bool failure = false;                ///< is_failure(outcome) (session.hpp)
  Advice advice = Advice::none;
  std::optional<long long> retry_after_ms;  ///< the response's Retry-After, in ms
  // The request, as the session analysis read it.
  std::string http_method;
  std::string method;
  std::string tool;
  std::uint64_t params_hash = 0;
  std::optional<std::string> request_id;
  bool notification = false;
  bool session_id = false;             ///< the request carried Mcp-Session-Id
  std::optional<Replay> replay;        ///< it repeats an earlier failed request (SessionTracker)
};

class Triage {
 public:
  /// Writes records to `out` (stdout). Opens the session reports' sinks (--report-html,
  /// --report-otlp): a report file is created when first written (at the end at the latest).
  Triage(TriageOptions options, std::FILE* out);
  ~Triage();
  Triage(const Triage&) = delete;
  Triage& operator=(const Triage&) = delete;

  /// One exchange: its recorded line (exchange_line(), no newline) and its entry number `n` (from
  /// 1, the line's number in a JSON Lines recording). `live_members(verdict)` gives members of
  /// the live record only (`"timing":{...},"proxy":{...}`, no surrounding comma) for each record.
  /// Classifies it, updates the session, writes its records and checks expectations.
  std::vector<Verdict> add(std::string_view line, std::size_t n,
                           const std::function<std::string(const Verdict&)>& live_members);

  /// A record of the proxy's own (client behaviour): one JSON object, or one table line.
  void note(std::string_view jsonl, std::string_view table_line);

  /// The end of the run: held records, the session summary record (or table block), `extra`
  /// records or lines of the proxy's own after it, the reports, and the summary line on stderr
  /// (`mcptriage: N exchanges: ...`). Returns 4 when a report file could not be created or
  /// written (each said on stderr), else 1 when an expectation was broken, else 0.
  int finish(std::string_view extra_jsonl, std::string_view extra_table);

  /// Standard output was closed (EPIPE) or could not be written: the caller should stop.
  bool output_failed() const { return output_failed_; }
  /// Records written, and how many broke an expectation so far.
  std::size_t records() const { return records_; }
  std::size_t broken() const { return broken_; }

 private:
  void write(std::string_view text);
  struct Report;
  struct HeldEntry;
  /// Gives one record or skipped entry to every session report (held while the first entry is
  /// the only one, as the CLI does: its records get a session member only once a second comes).
  void to_reports(HeldEntry entry);
  void report_call(Report& r, const std::function<void(RecordSink&)>& call);
  void emit_jsonl(std::string text, const std::optional<SessionAnnotation>& annotation);

  TriageOptions opt_;
  std::FILE* out_;
  SessionTracker tracker_;
  std::size_t entries_ = 0;
  struct Held {
    std::string text;
    std::optional<SessionAnnotation> annotation;
  };
  std::vector<Held> held_;  ///< the first entry's records, until a second entry says they get session members
  std::string pending_notes_;  ///< note() lines that came while records were held
  std::vector<std::pair<std::string, SessionAnnotation>> notable_;  ///< replays and findings, for the table
  std::size_t notable_omitted_ = 0;
  std::string format_name_ = "exchange-log";
  struct Table;
  std::unique_ptr<Table> table_;
  std::vector<CaseResult> cases_;
  Tally tally_;
  std::vector<std::unique_ptr<Report>> reports_;
  std::vector<HeldEntry> held_reports_;
  std::size_t records_ = 0;
  std::size_t broken_ = 0;
  bool output_failed_ = false;
  bool report_failed_ = false;  ///< a report file could not be created or written
};

}  // namespace mcptriage::proxy
