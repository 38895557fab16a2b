// mcptriage entry point: options, inputs (files, folders, stdin), output, exit codes.
#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
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

#include "mcptriage/capture.hpp"
#include "mcptriage/classify.hpp"
#include "mcptriage/render.hpp"

namespace fs = std::filesystem;
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
  int status = 200;
  std::vector<std::string> expect;
};

struct Input {
  std::string name;     ///< display name
  std::string path;     ///< "" for stdin
};

std::string read_stream(std::istream& in) {
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

std::expected<std::string, std::string> read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return std::unexpected(std::strerror(errno));
  std::string data = read_stream(f);
  if (f.bad()) return std::unexpected("read error");
  return data;
}

bool is_request_sidecar(const fs::path& p) { return p.filename().string().ends_with(".request.json"); }

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
  std::signal(SIGPIPE, SIG_IGN);
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
      "\n"
      "Exit codes: 0 ok; 1 an --expect was broken; 2 usage error; 3 an input could not be read or recognised.\n"
      "Docs: docs/output.md (JSON Lines schema), docs/classification.md (outcomes and reasons).");
  app.set_version_flag("--version", std::string("mcptriage 0.1.0"));
  app.add_option("inputs", opt.inputs, "Capture files or folders (recursive); '-' or nothing reads stdin");
  app.add_option("-f,--format", opt.format, "Output format: table or jsonl (default: table on a terminal, else jsonl)")
      ->check(CLI::IsMember({"table", "jsonl"}));
  app.add_option("--color", opt.color, "Colour in the table: auto, always or never (NO_COLOR disables it)")
      ->check(CLI::IsMember({"auto", "always", "never"}));
  app.add_option("--id", opt.id, "The request's JSON-RPC id, type-exact: 1 is the integer, '\"1\"' the string");
  app.add_option("--method", opt.method, "The request's method (tools/call, initialize, notifications/initialized, ...)");
  app.add_option("--request", opt.request_file, "A file holding the JSON-RPC request body that was sent");
  app.add_option("--protocol-version", opt.protocol_version, "MCP protocol version whose rules apply, e.g. 2025-11-25");
  app.add_option("--status", opt.status, "Status code assumed for bare bodies (no status line captured)")
      ->check(CLI::Range(100, 599));
  app.add_option("--expect", opt.expect, "Exit 1 unless every exchange has one of these outcomes (comma-separated)")
      ->delimiter(',');
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "mcptriage: error: " << e.what() << "\nRun with --help for usage.\n";
    return kUsage;
  }

  ContextFlags flags;
  if (!opt.id.empty()) {
    flags.id = parse_id_flag(opt.id);
    if (!flags.id) {
      std::cerr << "mcptriage: error: --id " << opt.id
                << " is neither a JSON integer nor a JSON string (write --id 1 or --id '\"abc\"')\n";
      return kUsage;
    }
  }
  if (!opt.method.empty()) flags.method = opt.method;
  if (!opt.protocol_version.empty()) flags.protocol_version = opt.protocol_version;
  if (!opt.request_file.empty()) {
    auto body = read_file(opt.request_file);
    if (!body) {
      std::cerr << "mcptriage: error: --request " << opt.request_file << ": " << body.error() << "\n";
      return kUsage;
    }
    flags.request_body = *body;
  }
  std::vector<Outcome> expected;
  for (const auto& name : opt.expect) {
    if (name.empty()) continue;
    auto o = parse_outcome(name);
    if (!o) {
      std::cerr << "mcptriage: error: --expect " << name << " is not an outcome name (see docs/classification.md)\n";
      return kUsage;
    }
    expected.push_back(*o);
  }
  if (!opt.expect.empty() && expected.empty()) {
    std::cerr << "mcptriage: error: --expect needs at least one outcome name\n";
    return kUsage;
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
  auto input_error = [&](std::string_view name, std::string_view why) {
    std::cerr << "mcptriage: error: " << escape_terminal(name) << ": " << escape_terminal(why) << "\n";
    exit_code = kInputError;
  };
  if (opt.inputs.empty()) {
    if (isatty(STDIN_FILENO)) {
      std::cerr << "mcptriage: error: no input: give capture files or folders, or pipe a capture into stdin\n"
                   "Run with --help for usage.\n";
      return kUsage;
    }
    opt.inputs.push_back("-");
  }
  for (const auto& arg : opt.inputs) {
    if (arg == "-") {
      inputs.push_back({"stdin", ""});
      continue;
    }
    std::error_code ec;
    fs::file_status st = fs::status(arg, ec);
    if (ec || !fs::exists(st)) {
      input_error(arg, "no such file or folder");
      continue;
    }
    if (fs::is_directory(st)) {
      std::vector<fs::path> files;
      fs::recursive_directory_iterator it(arg, fs::directory_options::skip_permission_denied, ec), end;
      if (ec) {
        input_error(arg, ec.message());
        continue;
      }
      for (; it != end; it.increment(ec)) {
        if (ec) {
          input_error(arg, ec.message());
          break;
        }
        std::error_code fec;
        if (it->is_regular_file(fec) && !is_request_sidecar(it->path())) files.push_back(it->path());
      }
      std::sort(files.begin(), files.end());
      if (files.empty()) input_error(arg, "folder holds no capture files");
      for (const auto& f : files) inputs.push_back({f.string(), f.string()});
      continue;
    }
    inputs.push_back({arg, arg});
  }

  std::vector<Record> table_rows;
  std::string out_buffer;
  std::size_t broken = 0;
  std::size_t records = 0;
  auto flush = [&]() {
    if (!out_buffer.empty()) {
      std::fwrite(out_buffer.data(), 1, out_buffer.size(), stdout);
      out_buffer.clear();
    }
  };
  for (const auto& in : inputs) {
    std::string data;
    if (in.path.empty()) {
      std::ios::sync_with_stdio(false);
      data = read_stream(std::cin);
    } else {
      auto r = read_file(in.path);
      if (!r) {
        input_error(in.name, r.error());
        continue;
      }
      data = std::move(*r);
    }
    CaptureOptions copts;
    copts.assumed_status = opt.status;
    auto exchanges = read_capture(data, in.name, copts);
    if (!exchanges) {
      input_error(in.name, exchanges.error().message);
      continue;
    }
    ContextFlags file_flags = flags;
    if (!in.path.empty()) {
      if (auto side = sidecar_for(in.path); side && !flags.request_body) {
        if (auto body = read_file(side->string())) file_flags.request_body = *body;
      }
    }
    for (const auto& ex : *exchanges) {
      auto results = classify(ex, file_flags, now);
      for (std::size_t k = 0; k < results.size(); ++k) {
        Record rec{results.size() > 1 ? fmt::format("{}[{}]", ex.source, k) : ex.source, ex.format,
                   std::move(results[k])};
        ++records;
        if (!expected.empty() &&
            std::find(expected.begin(), expected.end(), rec.c.outcome) == expected.end()) {
          ++broken;
          std::string want;
          for (auto o : expected) want += (want.empty() ? "" : " or ") + std::string(to_string(o));
          std::cerr << fmt::format("mcptriage: expectation broken: {} is {} ({}), expected {}\n",
                                   escape_terminal(rec.source), to_string(rec.c.outcome), rec.c.reason, want);
        }
        if (format == "jsonl") {
          out_buffer += render_jsonl(rec);
          out_buffer += '\n';
          if (out_buffer.size() > (1 << 16)) flush();
        } else {
          table_rows.push_back(std::move(rec));
        }
      }
    }
  }
  if (format == "table") out_buffer = render_table(table_rows, color);
  flush();
  std::fflush(stdout);
  if (!expected.empty() && records == 0 && exit_code == kOk) {
    std::cerr << "mcptriage: expectation broken: no exchange was read\n";
    broken = 1;
  }
  if (exit_code == kOk && broken > 0) exit_code = kExpectFailed;
  return exit_code;
}
