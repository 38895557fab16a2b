// mcptriage entry point: options, inputs (files, folders, stdin), output, exit codes.
#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>
#include <unordered_set>

#include "cli/body_pairing.hpp"
#include "cli/explain.hpp"
#include "cli/pipeline.hpp"
#include "cli/read_limited.hpp"
#include "cli/session_output.hpp"
#include "mcptriage/capture.hpp"
#include "mcptriage/classify.hpp"
#include "mcptriage/render.hpp"
#include "mcptriage/report.hpp"
#include "proxy/proxy.hpp"

namespace fs = std::filesystem;

#ifdef MCPTRIAGE_WITH_JEMALLOC
// jemalloc's options, read when it starts (jemalloc(3), "malloc_conf"): one arena per CPU, each
// thread allocating from the arena of the CPU it runs on. jemalloc's default (four arenas per
// CPU) costs peak RSS; one arena for all threads (this project's setting until session 4) can
// make the `--jobs` workers wait for each other on its lock (docs/performance.md, "What was
// fixed": 0.77 s against 0.70 s in one round, no difference in later ones). MALLOC_CONF in the
// environment still overrides it.
extern "C" {
// NOLINTNEXTLINE: the name jemalloc looks for
const char* malloc_conf = "percpu_arena:percpu";
}
#endif
using namespace mcptriage;

namespace {

/// Exit codes (docs/exit-codes.md).
enum ExitCode : int {
  kOk = 0,              ///< every input read, every --expect held
  kExpectFailed = 1,    ///< some exchange broke --expect
  kUsage = 2,           ///< bad flags
  kInputError = 3,      ///< some input could not be read or recognised (others were still classified)
};

struct Options {
  std::vector<std::string> inputs;
  std::string format;  // "", "table", "jsonl"
  std::string color = "auto";
  std::string id;
  std::string method;
  std::string request_file;
  std::string protocol_version;
  std::string body_file;
  int status = 200;
  std::vector<std::string> expect;
  std::vector<std::string> fail_on;
  std::string manifest;
  std::string report_junit;
  std::string report_tap;
  bool quiet = false;
  bool progress = false;
  std::size_t max_input = kDefaultMaxInput;
  std::size_t max_body = kDefaultMaxBody;
  bool no_redact = false;
  unsigned jobs = 0;  ///< 0: one per core (cli::default_jobs)
};

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
  auto data = path.empty() ? cli::read_fd_limited(STDIN_FILENO, limit) : cli::read_file_limited(path, limit);
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

bool env_set(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr && v[0] != '\0';
}

}  // namespace

int main(int argc, char** argv) {
  // `mcptriage proxy ...` (src/proxy, docs/proxy.md): a subcommand with options of its own.
  if (argc > 1 && std::string_view(argv[1]) == "proxy") return mcptriage::proxy::proxy_main(argc - 1, argv + 1);
  std::signal(SIGPIPE, SIG_IGN);
  if (argc > 1 && std::string_view(argv[1]) == "explain") return cli::explain_main(argc - 1, argv + 1);
  Options opt;
  CLI::App app{"mcptriage: tells why an MCP call over HTTP failed.\n"
               "Reads captured HTTP exchanges (curl -i output, raw HTTP, HTTPie -v, bare JSON or SSE bodies) from\n"
               "files, folders or stdin and classifies each layer by layer: HTTP transport, JSON-RPC envelope,\n"
               "tool result. Prints a table (on a terminal) or JSON Lines (otherwise), with retry advice.",
               "mcptriage"};
  app.footer(
      "Examples:\n"
      "  curl -si -X POST http://127.0.0.1:3001/mcp -H 'Content-Type: application/json' \\\n"
      "       -H 'Accept: application/json, text/event-stream' -d @call.json | mcptriage --id 2\n"
      "  mcptriage --format jsonl captures/            # every capture under a folder\n"
      "  mcptriage --expect TOOL_SUCCESS reply.txt     # CI: exit 1 unless every exchange is TOOL_SUCCESS\n"
      "  mcptriage --manifest captures/suite.manifest --report-junit junit.xml   # a suite of captures\n"
      "  mcptriage --fail-on HTTP_ERROR,STREAM_INCOMPLETE prod-captures/        # alert on production captures\n"
      "\n"
      "Exit codes: 0 ok; 1 an --expect or --fail-on was broken; 2 usage error; 3 an input could not be read or\n"
      "recognised.\n"
      "Docs: man mcptriage; docs/output.md (JSON Lines schema), docs/classification.md (outcomes and reasons).");
  app.set_version_flag("--version", std::string("mcptriage 0.1.0"));
  app.add_option("inputs", opt.inputs, "Capture files or folders (recursive); '-' or nothing reads stdin")
      ->type_name("PATH");
  app.add_option("-f,--format", opt.format, "Output format: table or jsonl (default: table on a terminal, else jsonl)")
      ->check(CLI::IsMember({"table", "jsonl"}));
  app.add_option("--color", opt.color, "Colour in the table: auto, always or never (NO_COLOR disables it)")
      ->check(CLI::IsMember({"auto", "always", "never"}));
  app.add_option("--id", opt.id, "The request's JSON-RPC id, type-exact: 1 is the integer, '\"1\"' the string")
      ->type_name("ID");
  app.add_option("--method", opt.method, "The request's method (tools/call, initialize, notifications/initialized, ...)")
      ->type_name("METHOD");
  app.add_option("--body", opt.body_file,
                 "The response body saved apart from a curl -v capture (its stdout); X-stderr.txt finds "
                 "X-stdout.txt by itself")
      ->type_name("FILE");
  app.add_option("--request", opt.request_file, "A file holding the JSON-RPC request body that was sent")
      ->type_name("FILE");
  app.add_option("--protocol-version", opt.protocol_version, "MCP protocol version whose rules apply, e.g. 2025-11-25")
      ->type_name("VERSION");
  app.add_option("--status", opt.status, "Status code assumed for bare bodies (no status line captured)")
      ->check(CLI::Range(100, 599));
  app.add_option("--expect", opt.expect, "Exit 1 unless every exchange has one of these outcomes (comma-separated)")
      ->type_name("OUTCOME[,...]")
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  app.add_option("--fail-on", opt.fail_on, "Exit 1 if any exchange has one of these outcomes (comma-separated)")
      ->type_name("OUTCOME[,...]")
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  app.add_option("--manifest", opt.manifest,
                 "Run the captures listed in FILE, each against its expected outcome (docs/ci.md)")
      ->type_name("FILE");
  app.add_option("--report-junit", opt.report_junit, "Write a JUnit XML report to FILE (one testcase per exchange)")
      ->type_name("FILE");
  app.add_option("--report-tap", opt.report_tap, "Write a TAP version 13 report to FILE ('-' for stdout)")
      ->type_name("FILE");
  app.add_flag("-q,--quiet", opt.quiet, "No summary line on stderr at the end");
  app.add_flag("--progress", opt.progress, "Show a progress line on stderr even when it would be hidden");
  // Sizes: a number with an optional K/M/G unit; negative or zero limits make no sense.
  const CLI::Validator kPositiveSize(
      [](std::string& v) -> std::string {
        if (!v.empty() && v.front() == '-') return "a size cannot be negative";
        const std::size_t nonzero = v.find_first_not_of('0');  // "0", "00", "0K": all zero
        if (nonzero == std::string::npos || !std::isdigit(static_cast<unsigned char>(v[nonzero])))
          return "a size must be more than 0";
        return std::string();
      },
      "SIZE");
  app.add_option("--max-input", opt.max_input,
                 "Largest input read from one file or stdin, e.g. 2G (default 512M); a larger one is an input error")
      ->check(kPositiveSize)
      ->transform(CLI::AsSizeValue(false));
  app.add_option("--max-body", opt.max_body,
                 "Largest response body kept, e.g. 1G (default 256M); a longer one is cut and never judged a success")
      ->check(kPositiveSize)
      ->transform(CLI::AsSizeValue(false));
  app.add_option("-j,--jobs", opt.jobs,
                 "Threads that read and classify (default: one per core); output order is the same for any N")
      ->type_name("N")
      ->check(CLI::Range(1u, 1024u));
  app.add_flag("--no-redact", opt.no_redact,
               "Print credentials as captured (Authorization, cookies, API keys, tokens); redacted by default");
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "mcptriage: error: " << escape_terminal(e.what()) << "\nRun with --help for usage.\n";
    return kUsage;
  }
  set_redaction(!opt.no_redact);

  ContextFlags flags;
  if (app.count("--id") > 0) {  // `--id ''` too: an empty id is no JSON value, not "no id"
    flags.id = jsonrpc::parse_id(opt.id);
    if (!flags.id) {
      std::cerr << "mcptriage: error: --id " << escape_terminal(opt.id)
                << " is neither a JSON integer (64-bit, no leading zeros) nor a JSON string (write --id 1 or --id '\"abc\"')\n";
      return kUsage;
    }
  }
  if (!opt.method.empty()) flags.method = opt.method;
  if (app.count("--protocol-version") > 0) {
    // Rules are picked by comparing versions as text: `2025-6-18` or `latest` would pick some.
    if (!is_protocol_version(opt.protocol_version)) {
      std::cerr << "mcptriage: error: --protocol-version " << escape_terminal(opt.protocol_version)
                << " is not a protocol version: write a date YYYY-MM-DD such as 2025-11-25\n";
      return kUsage;
    }
    if (!is_known_protocol_version(opt.protocol_version)) {
      std::cerr << "mcptriage: note: --protocol-version " << opt.protocol_version
                << " is not a published MCP version (2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25, 2026-07-28): "
                   "the rules of the latest one before it apply\n";
    }
    flags.protocol_version = opt.protocol_version;
  }
  if (!opt.request_file.empty()) {
    auto body = read_file(opt.request_file);
    if (!body) {
      std::cerr << "mcptriage: error: --request " << escape_terminal(opt.request_file) << ": " << body.error() << "\n";
      return kUsage;
    }
    flags.request = jsonrpc::read_request(*body);
  }
  std::optional<Expectation> global_expect;
  if (!opt.expect.empty()) {
    auto list = parse_outcome_list(opt.expect);
    if (!list) {
      std::cerr << "mcptriage: error: --expect: " << escape_terminal(list.error()) << " (see docs/classification.md)\n";
      return kUsage;
    }
    global_expect = Expectation{*list, std::nullopt, std::nullopt};
  }
  std::vector<Outcome> fail_on;
  if (!opt.fail_on.empty()) {
    auto list = parse_outcome_list(opt.fail_on);
    if (!list) {
      std::cerr << "mcptriage: error: --fail-on: " << escape_terminal(list.error()) << " (see docs/classification.md)\n";
      return kUsage;
    }
    fail_on = *list;
  }
  std::vector<Input> manifest_inputs;
  if (!opt.manifest.empty()) {
    auto text = read_file(opt.manifest);
    if (!text) {
      std::cerr << "mcptriage: error: --manifest " << escape_terminal(opt.manifest) << ": " << text.error() << "\n";
      return kUsage;
    }
    auto m = parse_manifest(*text);
    if (!m) {
      std::cerr << "mcptriage: error: --manifest " << escape_terminal(opt.manifest) << ": " << escape_terminal(m.error()) << "\n";
      return kUsage;
    }
    if (m->entries.empty()) {
      std::cerr << "mcptriage: error: --manifest " << opt.manifest << ": the manifest lists no capture\n";
      return kUsage;
    }
    const fs::path base = fs::path(opt.manifest).parent_path();
    for (auto& [path, e] : m->entries) {
      fs::path p = fs::path(path).is_absolute() ? fs::path(path) : base / path;
      manifest_inputs.push_back({p.lexically_normal().string(), p.lexically_normal().string(), e});
    }
  }

  const bool stdout_tty = isatty(STDOUT_FILENO) != 0;
  const std::string format = opt.format.empty() ? (stdout_tty ? "table" : "jsonl") : opt.format;
  const bool no_color_env = env_set("NO_COLOR");
  const char* term = std::getenv("TERM");
  const bool dumb = term != nullptr && std::string_view(term) == "dumb";
  const bool color = format == "table" && !no_color_env &&
                     (opt.color == "always" || (opt.color == "auto" && stdout_tty && !dumb));
  long long now = static_cast<long long>(std::time(nullptr));
  if (const char* fixed = std::getenv("MCPTRIAGE_NOW"); fixed != nullptr && fixed[0] != '\0') now = std::atoll(fixed);

  // Collect inputs: files, folders (recursive, sorted), stdin.
  std::vector<Input> inputs;
  int exit_code = kOk;
  std::vector<InputFailure> early_failures;
  auto input_error = [&](std::string_view name, std::string_view why) {
    std::cerr << "mcptriage: error: " << escape_terminal(redact(name)) << ": " << escape_terminal(redact(why)) << "\n";
    early_failures.push_back({std::string(name), std::string(why)});
    exit_code = kInputError;
  };
  if (opt.inputs.empty() && !manifest_inputs.empty()) {
    // Only the manifest's captures.
  } else if (opt.inputs.empty()) {
    if (isatty(STDIN_FILENO)) {
      std::cerr << "mcptriage: error: no input: give capture files or folders, or pipe a capture into stdin\n"
                   "Run with --help for usage.\n";
      return kUsage;
    }
    opt.inputs.push_back("-");
  }
  for (const auto& arg : opt.inputs) {
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

  for (auto& mi : manifest_inputs) inputs.push_back(std::move(mi));
  // curl -v keeps headers and body apart: X-stderr.txt reads its body from X-stdout.txt (or
  // --body FILE), and that body file is then no capture of its own (docs/formats.md).
  if (!opt.body_file.empty() && inputs.size() != 1) {
    std::cerr << "mcptriage: error: --body goes with exactly one capture (" << inputs.size() << " given)\n";
    return kUsage;
  }
  std::unordered_set<std::string> body_files;
  for (Input& in : inputs) {
    if (!opt.body_file.empty()) in.body_path = opt.body_file;
    else if (!in.path.empty()) in.body_path = cli::paired_body_path(in.path).value_or("");
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
  const bool want_reports = !opt.report_junit.empty() || !opt.report_tap.empty();
  Tally tally;
  const bool show_progress = opt.progress || (isatty(STDERR_FILENO) && !env_set("CI") && inputs.size() >= 20);
  auto last_progress = std::chrono::steady_clock::now();
  bool progress_shown = false;
  std::string out_buffer;
  std::string record_text;  // one record's JSON text, reused
  cli::SessionOutput sessions(format == "jsonl", now);  // pairing, sequence, replays, summaries
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
  std::vector<cli::PipelineInput> pipeline_inputs;
  pipeline_inputs.reserve(inputs.size());
  for (const Input& in : inputs) pipeline_inputs.push_back({in.name, in.path, in.body_path});
  cli::PipelineOptions pipeline_options;
  pipeline_options.capture.assumed_status = opt.status;
  pipeline_options.capture.max_input = opt.max_input;
  pipeline_options.capture.max_body = opt.max_body;
  pipeline_options.jobs = opt.jobs > 0 ? opt.jobs : cli::default_jobs();
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
      if (side && !flags.request) {
        if (auto body = read_file(side->string())) {
          file_flags.request = jsonrpc::read_request(*body);
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
    if (ex.skipped) return out.push_back(cli::skipped_record(ex));  // reported, not classified
    ReadAlong along;  // what the session analysis needs, read by the classifier
    auto results = classify(ex, file_flags, now, &along);
    const auto facts = cli::session_facts(ex, results, along);  // for the session analysis (src/session)
    for (std::size_t k = 0; k < results.size(); ++k) {
      // Built in place: a Record holds some twenty strings, each moved again by a temporary.
      Record& made = out.emplace_back();
      made.source = results.size() > 1 ? fmt::format("{}[{}]", ex.source, k) : ex.source;
      made.format = ex.format;
      made.c = std::move(results[k]);
      made.facts = facts;
      // JSON Lines: the record's text but its source and format, rendered here on the worker.
      if (format == "jsonl") {
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
  cli::run_pipeline(pipeline_inputs, pipeline_options, flags_for, records_of, [&](cli::Batch&& batch) {
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
      CaseResult result{Record{}, in.name, false, true, ""};
      if (expect) {
        result.has_expectation = true;
        if (!expect->holds(rec.c)) {
          result.passed = false;
          result.failure = fmt::format("{} is {} ({}, layer {}), expected {}", rec.source, to_string(rec.c.outcome),
                                       to_string(rec.c.reason), to_string(rec.c.layer), expect->describe());
        }
      }
      if (std::find(fail_on.begin(), fail_on.end(), rec.c.outcome) != fail_on.end()) {
        result.has_expectation = true;
        result.passed = false;
        result.failure = fmt::format("{} is {} ({}), listed in --fail-on", rec.source, to_string(rec.c.outcome),
                                     to_string(rec.c.reason));
      }
      if (!result.passed) {
        ++broken;
        if (progress_shown) std::cerr << "\r\x1b[K";
        std::cerr << "mcptriage: expectation broken: " << escape_terminal(redact(result.failure)) << "\n";
      }
      if (format == "jsonl") {
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
      tally.add(rec.c.outcome, result.has_expectation, result.passed);
      if (want_reports) {
        result.record = rec;
        results_for_reports.push_back(std::move(result));
      }
      if (format == "table") {
        table_rows.push_back(table_row(rec));
        if (table_rows.size() >= kTablePageRows) {
          out_buffer += render_table_page(table_rows, color, table_widths, !table_started);
          table_started = true;
          table_rows.clear();
          flush();
        }
      }
    }
  });
  if (progress_shown) std::cerr << "\r\x1b[K" << std::flush;
  sessions.finish(out_buffer);
  if (format == "table") {
    if (!table_rows.empty() || !table_started) out_buffer += render_table_page(table_rows, color, table_widths, !table_started);
    out_buffer += sessions.table_lines();
  }
  flush();
  std::fflush(stdout);
  if ((global_expect || !manifest_inputs.empty()) && records == 0 && exit_code == kOk) {
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
      exit_code = kInputError;
    }
  };
  if (!opt.report_junit.empty()) write_report(opt.report_junit, junit_report(results_for_reports, input_failures), "JUnit");
  if (!opt.report_tap.empty()) write_report(opt.report_tap, tap_report(results_for_reports, input_failures), "TAP");
  if (!opt.quiet) std::cerr << "mcptriage: " << tally.summary(input_failures.size()) << "\n";
  if (exit_code == kOk && broken > 0) exit_code = kExpectFailed;
  return exit_code;
}
