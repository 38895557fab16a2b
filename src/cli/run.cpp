// A triage run (run.hpp): inputs, the pipeline, sessions, output and the exit code.
#include "cli/run.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <unordered_set>

#include "cli/body_pairing.hpp"
#include "cli/options.hpp"
#include "cli/pipeline.hpp"
#include "cli/read_limited.hpp"
#include "cli/session_output.hpp"
#include "mcptriage/capture.hpp"
#include "mcptriage/classify.hpp"
#include "mcptriage/render.hpp"
#include "mcptriage/report.hpp"

namespace mcptriage::cli {

namespace {

namespace fs = std::filesystem;

struct Input {
  std::string name;     ///< display name
  std::string path;     ///< "" for stdin
  std::optional<Expectation> expectation;  ///< from the manifest
  std::string body_path = {};  ///< curl -v: the body saved apart (`--body`, or X-stdout.txt beside X-stderr.txt)
  /// For a file found by a folder walk: its request sidecar (sidecar_for) as the walk saw it,
  /// "" for none, so that a folder of many files costs no extra file-system lookup per file.
  std::optional<std::string> walked_sidecar = std::nullopt;
};

/// A whole file, or stdin for "", read with a size limit (`--max-input`; src/cli/read_limited.hpp).
std::expected<std::string, std::string> read_file(const std::string& path, std::size_t limit = kDefaultMaxInput) {
  auto data = path.empty() ? read_fd_limited(STDIN_FILENO, limit) : read_file_limited(path, limit);
  if (!data) return std::unexpected(std::move(data.error().message));
  return std::move(*data);
}

bool is_request_sidecar(const fs::path& p) { return p.filename().string().ends_with(".request.json"); }

/// Files inside a folder that are not captures: documentation and manifests (docs/formats.md).
bool is_not_capture(const fs::path& p) {
  const std::string ext = p.extension().string();
  return ext == ".md" || ext == ".manifest";
}

/// `X.request.json` beside capture `X.<ext>` gives that capture's request (docs/formats.md).
std::optional<fs::path> sidecar_for(const fs::path& p) {
  fs::path side = p;
  side.replace_extension(".request.json");
  std::error_code ec;
  if (side != p && fs::is_regular_file(side, ec)) return side;
  return std::nullopt;
}

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

  // Collect inputs: files, folders (recursive, sorted), stdin.
  std::vector<Input> inputs;
  ExitCode exit_code = ExitCode::ok;
  std::vector<InputFailure> early_failures;
  auto input_error = [&](std::string_view name, std::string_view why) {
    std::cerr << "mcptriage: error: " << escape_terminal(redact(name)) << ": " << escape_terminal(redact(why)) << "\n";
    early_failures.push_back({std::string(name), std::string(why)});
    exit_code = ExitCode::input_error;
  };
  for (const auto& arg : config.inputs) {
    if (arg == "-") {
      inputs.push_back({"stdin", "", std::nullopt});
      continue;
    }
    std::error_code ec;
    fs::file_status st = fs::status(arg, ec);
    if (ec && ec != std::errc::no_such_file_or_directory && ec != std::errc::not_a_directory) {
      input_error(arg, ec.message());  // "Permission denied", not "no such file"
      continue;
    }
    if (ec || !fs::exists(st)) {
      input_error(arg, "no such file or folder");
      continue;
    }
    if (fs::is_directory(st)) {
      std::vector<std::string> files;
      std::unordered_set<std::string> sidecars;  // the request sidecars the walk found
      std::vector<std::pair<std::string, const char*>> skipped;  // (path, why): noted after the walk
      // Folder by folder, so that a folder that cannot be read is an input error of its own (exit
      // 3) and the walk goes on; recursive_directory_iterator could only skip it silently or
      // stop. Symbolic links to folders are not followed (as that iterator's default).
      std::vector<fs::path> folders{fs::path(arg)};
      bool walk_failed = false;  // reported already: no "holds no capture files" besides
      while (!folders.empty()) {
        const fs::path folder = std::move(folders.back());
        folders.pop_back();
        fs::directory_iterator it(folder, ec), end;
        if (ec) {
          input_error(folder.string(), ec.message());
          walk_failed = true;
          continue;
        }
        for (; it != end; it.increment(ec)) {
          if (ec) {
            input_error(folder.string(), ec.message());
            walk_failed = true;
            break;
          }
          std::error_code fec;
          // Hidden files and folders (".git", ".gitattributes", ".DS_Store") are version control
          // and desktop files, not captures, as in other tools that walk folders: a note each,
          // and a hidden folder is not entered. A hidden path given as an argument is read.
          if (const std::string name = it->path().filename().string(); name.starts_with('.')) {
            skipped.emplace_back(it->path().string(), it->is_directory(fec) ? "hidden folder" : "hidden file");
            continue;
          }
          if (it->is_directory(fec) && !it->is_symlink(fec)) {
            folders.push_back(it->path());
            continue;
          }
          if (!it->is_regular_file(fec)) continue;
          if (is_request_sidecar(it->path())) {
            sidecars.insert(it->path().string());
            continue;
          }
          if (is_not_capture(it->path())) {
            skipped.emplace_back(it->path().string(), "documentation or manifest, not a capture");
            continue;
          }
          files.push_back(it->path().string());
        }
      }
      // In the order of fs::path's comparison (component by component: "a/b" before "a-b"),
      // compared as strings with the separator lowest: path::compare splits both paths into
      // components at every call, 14% of the run for a folder of 2,000 captures.
      auto path_less = [](const std::string& x, const std::string& y) {
        const std::size_t n = std::min(x.size(), y.size());
        const std::size_t at = static_cast<std::size_t>(std::mismatch(x.begin(), x.begin() + n, y.begin()).first - x.begin());
        if (at == n) return x.size() < y.size();
        auto key = [](char ch) { return ch == '/' ? 0 : static_cast<int>(static_cast<unsigned char>(ch)) + 1; };
        return key(x[at]) < key(y[at]);
      };
      std::sort(files.begin(), files.end(), path_less);
      // The notes in the same order (directory order differs between file systems).
      std::sort(skipped.begin(), skipped.end(), [&](const auto& x, const auto& y) { return path_less(x.first, y.first); });
      for (const auto& [path, why] : skipped) {
        std::cerr << "mcptriage: note: skipped " << escape_terminal(path) << " (" << why << ")\n";
      }
      if (files.empty() && !walk_failed) input_error(arg, "folder holds no capture files");
      for (auto& f : files) {
        std::string side_name;
        if (!sidecars.empty()) {
          fs::path side = f;
          side.replace_extension(".request.json");
          if (side.string() != f && sidecars.contains(side.string())) side_name = side.string();
        }
        inputs.push_back({f, f, std::nullopt, "", std::move(side_name)});
      }
      continue;
    }
    inputs.push_back({arg, arg, std::nullopt});
  }

  for (const ManifestEntry& m : config.manifest) inputs.push_back({m.path, m.path, m.expectation});
  // curl -v keeps headers and body apart: X-stderr.txt reads its body from X-stdout.txt (or
  // --body FILE), and that body file is then no capture of its own (docs/formats.md).
  if (!config.body_file.empty() && inputs.size() != 1) {
    std::cerr << "mcptriage: error: --body goes with exactly one capture (" << inputs.size() << " given)\n";
    return ExitCode::usage;
  }
  std::unordered_set<std::string> body_files;
  for (Input& in : inputs) {
    if (!config.body_file.empty()) in.body_path = config.body_file;
    else if (!in.path.empty()) in.body_path = paired_body_path(in.path).value_or("");
    if (!in.body_path.empty()) body_files.insert(fs::path(in.body_path).lexically_normal().string());
  }
  if (!body_files.empty()) {
    std::erase_if(inputs, [&](const Input& in) {
      return !in.path.empty() && body_files.count(fs::path(in.path).lexically_normal().string()) > 0;
    });
  }

  // The table's rows, printed a page at a time (bounded memory on logs of any size): columns are
  // as wide as the widest cell so far (docs/output.md).
  constexpr std::size_t kTablePageRows = 4096;
  std::vector<TableRow> table_rows;
  TableWidths table_widths = table_header_widths();
  bool table_started = false;
  std::vector<CaseResult> results_for_reports;
  std::vector<InputFailure> input_failures;
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
  // Reading, recognising and classifying run on --jobs threads (src/cli/pipeline.hpp); the
  // records come back here in input order, so everything below sees them as one thread would.
  std::vector<PipelineInput> pipeline_inputs;
  pipeline_inputs.reserve(inputs.size());
  for (const Input& in : inputs) pipeline_inputs.push_back({in.name, in.path, in.body_path});
  PipelineOptions pipeline_options;
  pipeline_options.capture = config.capture;
  pipeline_options.jobs = config.jobs > 0 ? config.jobs : default_jobs();
  auto flags_for = [&](std::size_t i) {
    ContextFlags file_flags = flags;
    const Input& in = inputs[i];
    if (!in.path.empty()) {
      std::optional<fs::path> side;
      if (in.walked_sidecar) {
        if (!in.walked_sidecar->empty()) side = *in.walked_sidecar;
      } else {
        side = sidecar_for(in.path);
      }
      if (side && !flags.request_body) {
        if (auto body = read_file(side->string())) {
          file_flags.request_body = *body;
          file_flags.request_origin = "request sidecar " + side->filename().string();
        } else {
          // Not silently: the exchange is judged without its request, and the record says why.
          file_flags.warnings.push_back(fmt::format("request sidecar {} could not be read ({}): judged without it",
                                                    side->filename().string(), body.error()));
        }
      }
    }
    return file_flags;
  };
  auto records_of = [&](const Exchange& ex, const ContextFlags& file_flags, std::vector<Record>& out) {
    if (ex.skipped) return out.push_back(skipped_record(ex));  // reported, not classified
    ReadAlong along;  // what the session analysis needs, read by the classifier
    auto results = classify(ex, file_flags, now, &along);
    const auto facts = session_facts(ex, results, along);  // for the session analysis (src/session)
    for (std::size_t k = 0; k < results.size(); ++k) {
      // Built in place: a Record holds some twenty strings, each moved again by a temporary.
      Record& made = out.emplace_back();
      made.source = results.size() > 1 ? fmt::format("{}[{}]", ex.source, k) : ex.source;
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
  run_pipeline(pipeline_inputs, pipeline_options, flags_for, records_of, [&](Batch&& batch) {
    const std::size_t input_index = batch.input;
    const Input& in = inputs[input_index];
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
    const std::optional<Expectation>& expect = in.expectation ? in.expectation : global_expect;
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
      const Check check = check_expectations(rec.source, rec.c, expect ? &*expect : nullptr, config.fail_on);
      if (!check.passed) {
        ++broken;
        if (progress_shown) std::cerr << "\r\x1b[K";
        std::cerr << "mcptriage: expectation broken: " << escape_terminal(redact(check.failure)) << "\n";
      }
      if (jsonl) {
        record_text.clear();
        append_jsonl_head(record_text, rec);
        if (!rec.jsonl_tail.empty() && !sessions.rewritten(rec)) {
          sessions.write_jsonl(rec, record_text, rec.jsonl_tail, out_buffer);  // the worker's tail, not copied
        } else {
          append_jsonl_tail(record_text, rec);
          sessions.write_jsonl(rec, record_text, out_buffer);
        }
        if (out_buffer.size() > (1 << 16)) flush();
      }
      tally.add(rec.c.outcome, check.has_expectation, check.passed);
      if (want_reports) results_for_reports.push_back(CaseResult{rec, in.name, check.has_expectation, check.passed, check.failure});
      if (table) {
        table_rows.push_back(table_row(rec));
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
  if ((global_expect || !config.manifest.empty()) && records == 0 && exit_code == ExitCode::ok) {
    std::cerr << "mcptriage: expectation broken: no exchange was read\n";
    broken = 1;
  }
  for (auto& f : early_failures) input_failures.push_back(std::move(f));
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
