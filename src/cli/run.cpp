// A triage run (run.hpp): inputs, the pipeline, sessions, output and the exit code.
#include "cli/run.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <fstream>
#include <iostream>

#include "cli/options.hpp"
#include "cli/session_output.hpp"
#include "io/inputs.hpp"
#include "io/pipeline.hpp"
#include "mcptriage/capture.hpp"
#include "mcptriage/classify.hpp"
#include "mcptriage/render.hpp"
#include "mcptriage/report.hpp"

namespace mcptriage::cli {

namespace {

/// Input errors and walk notes on standard error, as they are found; the failures kept for
/// the reports and the exit code.
class StderrReport final : public io::InputReport {
 public:
  void input_error(std::string_view name, std::string_view why) override {
    std::cerr << "mcptriage: error: " << escape_terminal(redact(name)) << ": " << escape_terminal(redact(why)) << "\n";
    failures.push_back({std::string(name), std::string(why)});
  }
  void skipped(std::string_view path, std::string_view why) override {
    std::cerr << "mcptriage: note: skipped " << escape_terminal(path) << " (" << why << ")\n";
  }
  std::vector<InputFailure> failures;
};

}  // namespace

int guarded(Main command, int argc, char** argv) {
  try {
    return command(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "mcptriage: error: " << escape_terminal(e.what()) << "\n";
  } catch (...) {
    std::cerr << "mcptriage: error: unknown internal error\n";
  }
  return to_int(ExitCode::input_error);
}

int triage_main(int argc, char** argv) {
  auto raw = parse_options(argc, argv);
  if (!raw) {
    std::fwrite(raw.error().out.data(), 1, raw.error().out.size(), stdout);
    std::cerr << raw.error().err;
    return raw.error().code;
  }
  const Env env = Env::from_process();
  auto config = resolve_config(*raw, env);
  if (!config) {
    std::cerr << config.error().text;
    return to_int(ExitCode::usage);
  }
  std::cerr << config->notes;
  return to_int(run(*config, env));
}

ExitCode run(const Config& config, const Env&) {
  set_redaction(config.redact);
  const bool jsonl = config.format == OutputFormat::jsonl;
  const bool table = config.format == OutputFormat::table;
  const long long now = config.now;
  const ContextFlags& flags = config.flags;
  const std::optional<Expectation>& global_expect = config.expect;

  // Collect inputs: files, folders (recursive, sorted), stdin; then the manifest's captures.
  StderrReport report;
  ExitCode exit_code = ExitCode::ok;
  std::vector<io::Input> inputs = io::collect_inputs(config.inputs, report);
  for (std::size_t k = 0; k < config.manifest.size(); ++k) {
    inputs.push_back(io::Input{config.manifest[k].path, config.manifest[k].path, "", std::nullopt, k});
  }
  // curl -v keeps headers and body apart: X-stderr.txt reads its body from X-stdout.txt (or
  // --body FILE), and that body file is then no capture of its own (docs/formats.md).
  if (!config.body_file.empty() && inputs.size() != 1) {
    std::cerr << "mcptriage: error: --body goes with exactly one capture (" << inputs.size() << " given)\n";
    return ExitCode::usage;
  }
  io::pair_bodies(inputs, config.body_file);
  auto input_error = [&](std::string_view name, std::string_view why) { report.input_error(name, why); };

  // The table's rows, printed a page at a time (bounded memory on logs of any size): columns are
  // as wide as the widest cell so far (docs/output.md).
  constexpr std::size_t kTablePageRows = 4096;
  std::vector<TableRow> table_rows;
  TableWidths table_widths = table_header_widths();
  bool table_started = false;
  std::vector<CaseResult> results_for_reports;
  const bool want_reports = !config.report_junit.empty() || !config.report_tap.empty();
  Tally tally;
  const bool show_progress = config.progress.shown(inputs.size());
  auto last_progress = std::chrono::steady_clock::now();
  bool progress_shown = false;
  std::string out_buffer;
  std::string record_text;  // one record's JSON text, reused
  SessionOutput sessions(jsonl, now);  // pairing, sequence, replays, summaries
  std::size_t broken = 0;
  std::size_t records = 0;
  auto flush = [&]() {
    if (!out_buffer.empty()) {
      std::fwrite(out_buffer.data(), 1, out_buffer.size(), stdout);
      out_buffer.clear();
    }
  };
  // Reading, recognising and classifying run on --jobs threads (src/io/pipeline.hpp); the
  // records come back here in input order, so everything below sees them as one thread would.
  io::PipelineOptions pipeline_options;
  pipeline_options.capture = config.capture;
  pipeline_options.jobs = config.jobs > 0 ? config.jobs : io::default_jobs();
  io::Work work;
  work.context = [&](std::size_t i) { return io::context_for(inputs[i], flags); };
  work.records_of = [&](const Exchange& ex, const ContextFlags& file_flags, SourceRef where, std::vector<Record>& out) {
    if (ex.skipped) return out.push_back(skipped_record(ex, where));  // reported, not classified
    ReadAlong along;  // what the session analysis needs, read by the classifier
    auto results = classify(ex, file_flags, now, &along);
    const auto facts = session_facts(ex, results, along);  // for the session analysis (src/session)
    for (std::size_t k = 0; k < results.size(); ++k) {
      // Built in place: a Record holds some twenty strings, each moved again by a temporary.
      Record& made = out.emplace_back();
      made.source = where;
      if (results.size() > 1) made.source.element = k;
      made.format = ex.format;
      made.c = std::move(results[k]);
      made.facts = facts;
      // JSON Lines: the record's text but its source and format, rendered here on the worker.
      if (jsonl) {
        // Rendered in place into room for the largest tail this thread has rendered so far: one
        // allocation per record, no copy (a tail is about half the size of its log line).
        thread_local std::size_t room = 1024;
        Record& rec = out.back();
        rec.jsonl_tail.reserve(room);
        append_jsonl_tail(rec.jsonl_tail, rec);
        room = std::max(room, std::min<std::size_t>(rec.jsonl_tail.size() + 64, 4096));  // bounded: blocks hold their records
      }
    }
  };
  std::string source;  // a record's source text, reused
  io::run_pipeline(inputs, pipeline_options, work, [&](io::Batch&& batch) {
    const std::size_t input_index = batch.input;
    const io::Input& in = inputs[input_index];
    if (batch.first && show_progress) {
      auto t = std::chrono::steady_clock::now();
      if (t - last_progress > std::chrono::milliseconds(100)) {
        last_progress = t;
        progress_shown = true;
        std::string name = escape_terminal(in.name);
        if (name.size() > 60) name = "..." + name.substr(name.size() - 57);
        std::cerr << fmt::format("\r\x1b[K[{}/{}] {}", input_index + 1, inputs.size(), name) << std::flush;
      }
    }
    if (batch.error) {
      input_error(in.name, *batch.error);
      return;
    }
    sessions.begin_batch(input_index, in.name, batch.records, out_buffer);  // may rewrite outcomes
    const Expectation* expect =
        in.manifest_entry ? &config.manifest[*in.manifest_entry].expectation : global_expect ? &*global_expect : nullptr;
    for (Record& rec : batch.records) {
      if (sessions.skip(rec, out_buffer)) {  // a skipped entry is no record
        // A log line that is not JSON at all means the log is damaged (cut short, corrupted):
        // an input error, so that --expect cannot pass over it.
        const auto& skip = rec.facts->skipped;
        if (skip->not_json) {
          input_error(in.name, skip->detail);
        }
        continue;
      }
      ++records;
      source.clear();
      append_source_text(source, in.name, rec.source);
      const Check check = check_expectations(source, rec.c, expect, config.fail_on);
      if (!check.passed) {
        ++broken;
        if (progress_shown) std::cerr << "\r\x1b[K";
        std::cerr << "mcptriage: expectation broken: " << escape_terminal(redact(check.failure)) << "\n";
      }
      if (jsonl) {
        record_text.clear();
        append_jsonl_head(record_text, rec, in.name);
        if (!rec.jsonl_tail.empty() && !sessions.rewritten(rec)) {
          sessions.write_jsonl(rec, record_text, rec.jsonl_tail, out_buffer);  // the worker's tail, not copied
        } else {
          append_jsonl_tail(record_text, rec);
          sessions.write_jsonl(rec, record_text, out_buffer);
        }
        if (out_buffer.size() > (1 << 16)) flush();
      }
      tally.add(rec.c.outcome, check.has_expectation, check.passed);
      if (want_reports) {
        results_for_reports.push_back(CaseResult{source, rec.c, in.name, check.has_expectation, check.passed, check.failure});
      }
      if (table) {
        table_rows.push_back(table_row(rec, in.name));
        if (table_rows.size() >= kTablePageRows) {
          out_buffer += render_table_page(table_rows, config.color, table_widths, !table_started);
          table_started = true;
          table_rows.clear();
          flush();
        }
      }
    }
  });
  if (progress_shown) std::cerr << "\r\x1b[K" << std::flush;
  sessions.finish(out_buffer);
  if (table) {
    if (!table_rows.empty() || !table_started) out_buffer += render_table_page(table_rows, config.color, table_widths, !table_started);
    out_buffer += sessions.table_lines();
  }
  flush();
  std::fflush(stdout);
  if (!report.failures.empty()) exit_code = ExitCode::input_error;
  if ((global_expect || !config.manifest.empty()) && records == 0 && exit_code == ExitCode::ok) {
    std::cerr << "mcptriage: expectation broken: no exchange was read\n";
    broken = 1;
  }
  const std::vector<InputFailure>& input_failures = report.failures;
  auto write_report = [&](const std::string& path, const std::string& text, std::string_view what) {
    if (path == "-") {
      std::fwrite(text.data(), 1, text.size(), stdout);
      std::fflush(stdout);
      return;
    }
    std::ofstream f(path, std::ios::binary);
    f << text;
    if (!f) {
      std::cerr << "mcptriage: error: cannot write " << what << " report " << escape_terminal(path) << "\n";
      exit_code = ExitCode::input_error;
    }
  };
  if (!config.report_junit.empty()) write_report(config.report_junit, junit_report(results_for_reports, input_failures), "JUnit");
  if (!config.report_tap.empty()) write_report(config.report_tap, tap_report(results_for_reports, input_failures), "TAP");
  if (!config.quiet) std::cerr << "mcptriage: " << tally.summary(input_failures.size()) << "\n";
  if (exit_code == ExitCode::ok && broken > 0) exit_code = ExitCode::expectation_broken;
  return exit_code;
}

}  // namespace mcptriage::cli
