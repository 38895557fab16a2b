// RawOptions + Env -> Config (config.hpp).
#include "cli/config.hpp"

#include <unistd.h>

#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <string_view>
#include <tuple>

#include "io/duration.hpp"
#include "io/read_limited.hpp"
#include "mcptriage/render.hpp"
#include "mcptriage/jsonrpc.hpp"
#include "mcptriage/session.hpp"

namespace mcptriage::cli {

namespace {

namespace fs = std::filesystem;

std::optional<std::string> env_var(const char* name) {
  const char* v = std::getenv(name);
  if (v == nullptr) return std::nullopt;
  return std::string(v);
}

/// Set to a non-empty value (NO_COLOR and CI are on when set, whatever the value).
bool set(const std::optional<std::string>& v) { return v && !v->empty(); }

/// A file a flag names, read whole (up to the default --max-input).
std::expected<std::string, std::string> read_named_file(const std::string& path) {
  auto data = io::read_file_limited(path, kDefaultMaxInput);
  if (!data) return std::unexpected(std::move(data.error().message));
  return std::move(*data);
}

}  // namespace

Env Env::from_process() {
  Env env;
  env.stdin_tty = isatty(STDIN_FILENO) != 0;
  env.stdout_tty = isatty(STDOUT_FILENO) != 0;
  env.stderr_tty = isatty(STDERR_FILENO) != 0;
  env.no_color = env_var("NO_COLOR");
  env.term = env_var("TERM");
  env.ci = env_var("CI");
  env.mcptriage_now = env_var("MCPTRIAGE_NOW");
  env.clock = static_cast<long long>(std::time(nullptr));
  return env;
}

std::expected<Config, UsageError> resolve_config(const RawOptions& opt, const Env& env) {
  Config cfg;
  auto fail = [&](std::string line) { return std::unexpected(UsageError{cfg.notes + line}); };
  if (opt.id) {
    cfg.flags.id = jsonrpc::parse_id(*opt.id);
    if (!cfg.flags.id) {
      return fail("mcptriage: error: --id " + escape_terminal(*opt.id) +
                  " is neither a JSON integer (64-bit, no leading zeros) nor a JSON string (write --id 1 or --id "
                  "'\"abc\"')\n");
    }
  }
  if (!opt.method.empty()) cfg.flags.method = opt.method;
  if (opt.protocol_version) {
    const std::string& v = *opt.protocol_version;
    // Rules are picked by comparing versions as text: `2025-6-18` or `latest` would pick some.
    if (!is_protocol_version(v)) {
      return fail("mcptriage: error: --protocol-version " + escape_terminal(v) +
                  " is not a protocol version: write a date YYYY-MM-DD such as 2025-11-25\n");
    }
    if (!is_known_protocol_version(v)) {
      cfg.notes += "mcptriage: note: --protocol-version " + v +
                   " is not a published MCP version (2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25, 2026-07-28): "
                   "the rules of the latest one before it apply\n";
    }
    cfg.flags.protocol_version = v;
  }
  if (!opt.request_file.empty()) {
    auto body = read_named_file(opt.request_file);
    if (!body) return fail("mcptriage: error: --request " + escape_terminal(opt.request_file) + ": " + body.error() + "\n");
    cfg.flags.request = jsonrpc::read_request(*body);
  }
  if (!opt.tools_file.empty()) {
    auto text = read_named_file(opt.tools_file);
    if (!text) return fail("mcptriage: error: --tools " + escape_terminal(opt.tools_file) + ": " + text.error() + "\n");
    auto tools = read_tool_definitions(*text, opt.tools_file);
    if (!tools) {
      return fail("mcptriage: error: --tools " + escape_terminal(opt.tools_file) + ": " + escape_terminal(tools.error()) +
                  "\n");
    }
    cfg.tools = std::move(*tools);
  }
  if (!opt.expect.empty()) {
    std::vector<std::string> words = opt.expect;
    std::vector<AuthVerdict> auth = take_auth_verdicts(words);  // AUTH_OK, ...: judged on auth_flow records
    std::vector<Outcome> outcomes;
    if (!words.empty() || auth.empty()) {
      auto list = parse_outcome_list(words);
      if (!list) return fail("mcptriage: error: --expect: " + escape_terminal(list.error()) + " (see docs/classification.md)\n");
      outcomes = std::move(*list);
    }
    cfg.expect = Expectation{outcomes, std::nullopt, std::nullopt, std::move(auth)};
  }
  if (!opt.fail_on.empty()) {
    std::vector<std::string> words = opt.fail_on;
    cfg.fail_on_auth = take_auth_verdicts(words);
    if (!words.empty() || cfg.fail_on_auth.empty()) {
      auto list = parse_outcome_list(words);
      if (!list) return fail("mcptriage: error: --fail-on: " + escape_terminal(list.error()) + " (see docs/classification.md)\n");
      cfg.fail_on = std::move(*list);
    }
  }
  if (!opt.manifest.empty()) {
    auto text = read_named_file(opt.manifest);
    if (!text) return fail("mcptriage: error: --manifest " + escape_terminal(opt.manifest) + ": " + text.error() + "\n");
    auto m = parse_manifest(*text);
    if (!m) {
      return fail("mcptriage: error: --manifest " + escape_terminal(opt.manifest) + ": " + escape_terminal(m.error()) +
                  "\n");
    }
    if (m->entries.empty()) return fail("mcptriage: error: --manifest " + opt.manifest + ": the manifest lists no capture\n");
    const fs::path base = fs::path(opt.manifest).parent_path();
    for (auto& [path, e] : m->entries) {
      const fs::path p = fs::path(path).is_absolute() ? fs::path(path) : base / path;
      cfg.manifest.push_back({p.lexically_normal().string(), std::move(e)});
    }
  }
  cfg.inputs = opt.inputs;
  if (cfg.inputs.empty() && cfg.manifest.empty()) {
    if (env.stdin_tty) {
      return fail(
          "mcptriage: error: no input: give capture files or folders, or pipe a capture into stdin\n"
          "Run with --help for usage.\n");
    }
    cfg.inputs.push_back("-");
  }

  // --follow: one growing file by its name (io/follow_source.hpp); a folder is refused in run().
  cfg.follow = opt.follow;
  if (cfg.follow) {
    if (!cfg.manifest.empty()) return fail("mcptriage: error: --follow follows one log: it does not go with --manifest\n");
    if (cfg.inputs.size() != 1) {
      return fail("mcptriage: error: --follow follows one log (" + std::to_string(cfg.inputs.size()) + " inputs given)\n");
    }
    if (cfg.inputs.front() == "-") {
      return fail(
          "mcptriage: error: --follow follows a file by its name (to see it rotated or truncated): give the log's "
          "path, not standard input\n");
    }
    if (!opt.body_file.empty()) return fail("mcptriage: error: --body does not go with --follow (a log holds its bodies)\n");
  }
  cfg.format = opt.format.empty() ? (env.stdout_tty ? OutputFormat::table : OutputFormat::jsonl)
               : opt.format == "table" ? OutputFormat::table
                                       : OutputFormat::jsonl;
  const bool dumb = env.term && *env.term == "dumb";
  cfg.color = cfg.format == OutputFormat::table && !set(env.no_color) &&
              (opt.color == "always" || (opt.color == "auto" && env.stdout_tty && !dumb));
  cfg.explain = opt.explain;
  cfg.verbose = opt.verbose;
  cfg.events = opt.events || (cfg.format == OutputFormat::table && env.stdout_tty);
  cfg.now = set(env.mcptriage_now) ? std::atoll(env.mcptriage_now->c_str()) : env.clock;
  cfg.progress = Progress{opt.progress, env.stderr_tty && !set(env.ci)};
  cfg.body_file = opt.body_file;
  cfg.report_junit = opt.report_junit;
  cfg.report_tap = opt.report_tap;
  cfg.report_html = opt.report_html;
  cfg.report_otlp = opt.report_otlp;
  cfg.export_har = opt.export_har;
  cfg.quiet = opt.quiet;
  cfg.one_session = opt.session;
  cfg.capture.assumed_status = opt.status;
  cfg.capture.max_input = opt.max_input;
  cfg.capture.max_body = opt.max_body;
  cfg.capture.auth = opt.auth != "off";
  cfg.jobs = opt.jobs;
  cfg.redact = !opt.no_redact;
  for (const auto& [flag, text, out] : {std::tuple{"--idle-timeout", &opt.idle_timeout, &cfg.idle_timeout},
                                        std::tuple{"--timeout", &opt.timeout, &cfg.timeout}}) {
    if (text->empty()) continue;
    *out = io::parse_duration(*text);
    if (!*out) {
      return fail(std::string("mcptriage: error: ") + flag + " " + escape_terminal(*text) + " is not a duration: " +
                  std::string(io::duration_grammar()) + "\n");
    }
  }
  return cfg;
}

}  // namespace mcptriage::cli
