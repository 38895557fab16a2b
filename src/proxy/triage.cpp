// The triage adapter (triage.hpp): line -> Exchange -> classify -> session -> record -> output.
#include "proxy/triage.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <ctime>
#include <fstream>
#include <iostream>

#include "mcptriage/advice.hpp"
#include "mcptriage/capture.hpp"
#include "mcptriage/http.hpp"
#include "mcptriage/render.hpp"
#include "io/output.hpp"
#include "render/table_notes.hpp"

namespace mcptriage::proxy {

/// The live table: one row per record as it comes, columns as wide as the widest cell so far.
struct Triage::Table {
  TableWidths widths = table_header_widths();
  bool started = false;
};

/// A session report (--report-html, --report-otlp): its sink and where it goes. A write error
/// ends the report (said once on stderr), never the proxy.
struct Triage::Report {
  std::string path;
  std::string what;                        ///< "HTML", "OTLP"
  std::unique_ptr<io::FileOutput> file;    ///< null for "-"
  StringOutput text;                       ///< "-": written to stdout at the end
  std::unique_ptr<RecordSink> sink;        ///< null once it failed
};

/// A record or a skipped entry on its way to the reports.
struct Triage::HeldEntry {
  std::optional<Record> record;
  Check check;
  std::optional<Skip> skip;                ///< a skipped entry: its source and format below
  SourceRef source;
  CaptureFormat format = CaptureFormat::exchange_log;
  std::shared_ptr<const SessionAnnotation> annotation;  ///< set on the record once a second entry came
};

Triage::Triage(TriageOptions options, std::FILE* out)
    : opt_(std::move(options)), out_(out), tracker_(opt_.input_name),
      table_(std::make_unique<Table>()) {
  const long long now = static_cast<long long>(std::time(nullptr));
  auto add = [&](const std::string& path, std::string what, bool html) {
    if (path.empty()) return;
    auto r = std::make_unique<Report>();
    r->path = path;
    r->what = std::move(what);
    if (path != "-") r->file = std::make_unique<io::FileOutput>(path, r->what + " report");
    Output& o = r->file ? static_cast<Output&>(*r->file) : static_cast<Output&>(r->text);
    const bool stream = r->file != nullptr;
    r->sink = html ? make_html_sink(o, stream) : make_otlp_sink(o, stream, now);
    reports_.push_back(std::move(r));
  };
  add(opt_.report_html, "HTML", true);
  add(opt_.report_otlp, "OTLP", false);
  const std::string name = opt_.input_name;
  for (auto& r : reports_) {
    report_call(*r, [&](RecordSink& s) {
      s.begin_session(SessionInfo{name, 1});
      s.begin_input(InputInfo{0, name});
    });
  }
}

Triage::~Triage() = default;

void Triage::report_call(Report& r, const std::function<void(RecordSink&)>& call) {
  if (!r.sink) return;
  try {
    call(*r.sink);
  } catch (const OutputError& e) {
    std::cerr << "mcptriage proxy: error: " << escape_terminal(e.what()) << " (the " << r.what << " report stops)\n";
    r.sink.reset();
    report_failed_ = true;
  }
}

void Triage::to_reports(HeldEntry entry) {
  if (reports_.empty()) return;
  auto give = [this](HeldEntry& e) {
    for (auto& r : reports_) {
      report_call(*r, [&](RecordSink& s) {
        if (e.skip) {
          s.skipped(SkippedEntry{e.source, e.format, *e.skip});
        } else if (e.record) {
          s.record(*e.record, e.check, {});
        }
      });
    }
  };
  if (entries_ <= 1) {  // whether the first entry's records get a session member is known with the second
    held_reports_.push_back(std::move(entry));
    return;
  }
  for (HeldEntry& h : held_reports_) {
    if (h.record && h.annotation) h.record->session = h.annotation;
    give(h);
  }
  held_reports_.clear();
  give(entry);
}

void Triage::write(std::string_view text) {
  if (output_failed_ || text.empty()) return;
  if (std::fwrite(text.data(), 1, text.size(), out_) != text.size() || std::fflush(out_) != 0) output_failed_ = true;
}

void Triage::emit_jsonl(std::string text, const std::optional<SessionAnnotation>& annotation) {
  if (entries_ <= 1) {  // whether the first entry's records get a session member is known with the second
    held_.push_back(Held{std::move(text), annotation});
    return;
  }
  std::string out;
  for (Held& h : held_) {
    if (h.annotation) append_with_session_member(out, h.text, *h.annotation);
    else out += h.text;
    out += '\n';
  }
  held_.clear();
  out += pending_notes_;
  pending_notes_.clear();
  if (annotation) append_with_session_member(out, text, *annotation);
  else out += text;
  out += '\n';
  write(out);
}

std::vector<Verdict> Triage::add(std::string_view line, std::size_t n,
                                 const std::function<std::string(const Verdict&)>& live_members) {
  std::vector<Verdict> verdicts;
  const long long now = static_cast<long long>(std::time(nullptr));
  auto block = read_lines_block(line, opt_.input_name, n - 1, CaptureOptions{}, n - 1);
  if (!block || block->exchanges.empty()) {
    // Cannot happen for a line exchange_line() wrote; said rather than dropped.
    std::cerr << "mcptriage proxy: error: exchange " << n << " could not be read back: "
              << escape_terminal(block ? std::string("no exchange") : block.error().message) << "\n";
    return verdicts;
  }
  const bool jsonl = opt_.format == "jsonl";
  std::size_t index = n - 1;  // the block's exchanges are numbered from n (read_lines_block)
  for (Exchange& ex : block->exchanges) {
    ++entries_;
    const SourceRef ex_ref{0, ++index};
    format_name_ = std::string(to_string(ex.format));
    std::string source_text;  // "input#N"
    append_source_text(source_text, opt_.input_name, ex_ref);
    if (ex.skipped) {
      SessionFacts facts;
      facts.skipped = ex.skipped;
      tracker_.add(facts, {}, ex_ref);
      Verdict v;
      v.source = source_text;
      v.skipped = true;
      v.skip_reason = std::string(to_string(ex.skipped->reason));
      v.http_method = ex.request ? ex.request->method_line : "";
      if (jsonl) {
        emit_jsonl(render_skipped_jsonl(source_text, to_string(ex.format), *ex.skipped), std::nullopt);
      } else {
        write("skipped " + escape_terminal(redact(source_text)) + ": " + escape_terminal(redact(to_string(ex.skipped->reason))) +
              ": " + escape_terminal(redact(ex.skipped->detail)) + "\n");
      }
      verdicts.push_back(std::move(v));
      if (!reports_.empty()) {
        HeldEntry held;
        held.skip = *ex.skipped;
        held.source = ex_ref;
        held.format = ex.format;
        to_reports(std::move(held));
      }
      continue;
    }
    ReadAlong along;
    std::vector<Classification> results = classify(ex, ContextFlags{}, now, &along);
    const SessionFacts facts = extract_session_facts(ex, results, along);
    std::vector<std::string> sources;
    std::vector<SourceRef> refs;
    for (std::size_t k = 0; k < results.size(); ++k) {
      // Built member by member: copying ex_ref trips g++ 12's -Wmaybe-uninitialized on the
      // optional (a false positive under -Werror).
      SourceRef ref{ex_ref.input, ex_ref.exchange, results.size() > 1 ? std::optional<std::size_t>(k) : std::nullopt};
      refs.push_back(ref);
      std::string text;
      append_source_text(text, opt_.input_name, ref);
      sources.push_back(std::move(text));
    }
    std::vector<const Classification*> ptrs;
    for (const Classification& c : results) ptrs.push_back(&c);
    SessionAnnotation annotation = tracker_.add(facts, ptrs, ex_ref);
    if (annotation.amendment && !results.empty()) {  // the outputSchema check, applied before any output
      annotation.amendment->apply(results.front());
      if (annotation.amendment->verdict) results.front().retry = advise(results.front(), Headers{}, now);
      annotation.amendment.reset();
    }
    if (annotation.retry_safety) {  // the tool's annotations decide its records' retry safety
      for (Classification& c : results) apply_retry_safety(c.retry, *annotation.retry_safety);
    }
    if ((annotation.replay || !annotation.findings.empty()) && !jsonl) {
      if (notable_.size() < SessionTracker::kMaxListed) notable_.emplace_back(sources.front(), annotation);
      else ++notable_omitted_;
    }
    std::shared_ptr<const ExchangeView> view;
    std::shared_ptr<const SessionAnnotation> shared_annotation;
    std::shared_ptr<const SessionFacts> shared_facts;
    if (!reports_.empty()) {
      view = std::make_shared<const ExchangeView>(make_exchange_view(ex));
      shared_annotation = std::make_shared<const SessionAnnotation>(annotation);
      shared_facts = std::make_shared<const SessionFacts>(facts);
    }
    std::optional<long long> retry_after;
    if (auto h = find_header(ex.response.headers, "Retry-After")) retry_after = http::retry_after_ms(*h, now);
    for (std::size_t k = 0; k < results.size(); ++k) {
      Record rec;
      rec.source = refs[k];
      rec.format = ex.format;
      rec.c = std::move(results[k]);
      Verdict v;
      v.source = sources[k];
      v.outcome = rec.c.outcome;
      v.reason = std::string(to_string(rec.c.reason));
      v.http_status = rec.c.http_status;
      v.failure = is_failure(rec.c.outcome);
      v.advice = rec.c.retry.advice;
      v.retry_after_ms = retry_after;
      v.http_method = facts.http_method;
      const RequestInfo* sent = facts.request ? &*facts.request : nullptr;
      v.method = sent && sent->method && !sent->method->empty() ? *sent->method : rec.c.method;
      if (sent) {
        v.tool = sent->tool_name;
        v.params_hash = sent->params_hash;
        if (sent->id) v.request_id = sent->id->to_json();
        v.notification = sent->notification;
      }
      v.session_id = !facts.session_id.empty();
      v.replay = annotation.replay;
      // Expectations, checked as the CLI checks them (report.hpp check_expectations, docs/ci.md):
      // under --fail-on every record counts as checked, one not listed holds.
      const Check check = check_expectations(sources[k], rec.c, opt_.expect ? &*opt_.expect : nullptr, opt_.fail_on);
      CaseResult result{sources[k], {}, opt_.input_name, check.has_expectation, check.passed, check.failure};
      if (!result.passed) {
        ++broken_;
        std::cerr << "mcptriage: expectation broken: " << escape_terminal(redact(result.failure)) << "\n";
      }
      ++records_;
      tally_.add(rec.c.outcome, result.has_expectation, result.passed);
      if (jsonl) {
        rec.facts = std::make_shared<const SessionFacts>(facts);  // for the otel member (mcp.session.id)
        std::string text = render_jsonl(rec, opt_.input_name);
        const std::string extra = live_members ? live_members(v) : std::string();
        if (!extra.empty() && !text.empty() && text.back() == '}') {
          text.pop_back();
          text += ',';
          text += extra;
          text += '}';
        }
        emit_jsonl(std::move(text), annotation);
      } else {
        std::vector<TableRow> rows{table_row(rec, opt_.input_name)};
        rows.front().notes = table_row_notes(rec, opt_.explain, opt_.verbose);
        write(render_table_page(rows, opt_.color, table_->widths, !table_->started));
        table_->started = true;
      }
      if (!reports_.empty()) {
        HeldEntry held;
        held.record = Record{};
        held.record->source = rec.source;
        held.record->format = rec.format;
        held.record->c = rec.c;
        held.record->facts = shared_facts;
        held.record->view = view;
        if (entries_ > 1) held.record->session = shared_annotation;
        held.annotation = shared_annotation;
        held.check = Check{result.has_expectation, result.passed, result.failure};
        to_reports(std::move(held));
      }
      if (!opt_.report_junit.empty() || !opt_.report_tap.empty()) {
        result.c = std::move(rec.c);
        cases_.push_back(std::move(result));
      }
      verdicts.push_back(std::move(v));
    }
  }
  return verdicts;
}

void Triage::note(std::string_view jsonl, std::string_view table_line) {
  if (opt_.format == "jsonl") {
    std::string out(jsonl);
    out += '\n';
    if (!held_.empty()) pending_notes_ += out;  // after the held first entry, so that records stay in order
    else write(out);
  } else {
    std::string line(table_line);
    line += '\n';
    write(line);
  }
}

int Triage::finish(std::string_view extra_jsonl, std::string_view extra_table) {
  const SessionSummary summary = tracker_.summary();
  std::string out;
  if (opt_.format == "jsonl") {
    for (Held& h : held_) {
      out += h.text;  // one entry only: no session member, as before sessions existed
      out += '\n';
    }
    held_.clear();
    out += pending_notes_;
    pending_notes_.clear();
    if (entries_ > 1) {
      out += render_summary_jsonl(opt_.input_name, format_name_, summary);
      out += '\n';
    }
    if (!extra_jsonl.empty()) {
      out += extra_jsonl;
      out += '\n';
    }
  } else {
    if (!table_->started) {
      std::vector<TableRow> none;
      out += render_table_page(none, opt_.color, table_->widths, true);
    }
    if (entries_ > 1) out += render_summary_table(opt_.input_name, summary, {}, notable_, 0, notable_omitted_);
    out += extra_table;
  }
  write(out);
  if (opt_.expect && records_ == 0) {
    std::cerr << "mcptriage: expectation broken: no exchange was read\n";  // as offline: nothing was checked
    ++broken_;
  }
  int status = broken_ > 0 ? 1 : 0;
  auto write_report = [&](const std::string& path, const std::string& text, std::string_view what) {
    if (path == "-") {
      write(text);
      return;
    }
    std::ofstream f(path, std::ios::binary);
    f << text;
    if (!f) {
      std::cerr << "mcptriage proxy: error: cannot write " << what << " report " << escape_terminal(path) << "\n";
      report_failed_ = true;
    }
  };
  if (!opt_.report_junit.empty()) write_report(opt_.report_junit, junit_report(cases_, {}), "JUnit");
  if (!opt_.report_tap.empty()) write_report(opt_.report_tap, tap_report(cases_, {}), "TAP");
  // The session reports: the first entry's records if it stayed the only one (no session member,
  // as offline), the input's end with its session summary, then each report closed.
  for (HeldEntry& h : held_reports_) {
    for (auto& r : reports_) {
      report_call(*r, [&](RecordSink& s) {
        if (h.skip) s.skipped(SkippedEntry{h.source, h.format, *h.skip});
        else if (h.record) s.record(*h.record, h.check, {});
      });
    }
  }
  held_reports_.clear();
  for (auto& r : reports_) {
    report_call(*r, [&](RecordSink& s) {
      // Every proxied exchange is read back from its exchange-log line (exchange_line()).
      s.end_input(InputEnd{opt_.input_name, CaptureFormat::exchange_log});
      s.end_session(SessionEnd{opt_.input_name, CaptureFormat::exchange_log, entries_ > 1 ? &summary : nullptr});
      s.finish();
    });
    if (!r->sink) continue;
    if (r->file) {
      try {
        r->file->close();
      } catch (const OutputError& e) {
        std::cerr << "mcptriage proxy: error: " << escape_terminal(e.what()) << "\n";
        report_failed_ = true;
      }
    } else {
      write(r->text.text);
    }
  }
  if (!opt_.quiet) std::cerr << "mcptriage: " << tally_.summary(0) << "\n";
  return report_failed_ ? 4 : status;
}

}  // namespace mcptriage::proxy
