// The triage command line (options.hpp): CLI11's option table, help text and usage errors.
#include "cli/options.hpp"

#include <CLI/CLI.hpp>

#include <cctype>
#include <sstream>

#include "cli/exit_code.hpp"
#include "mcptriage/render.hpp"
#include "report/expect_options.hpp"

namespace mcptriage::cli {

std::expected<RawOptions, OptionsExit> parse_options(int argc, const char* const* argv,
                                                     std::span<const Command> commands, const ExtendOptions& extend) {
  RawOptions opt;
  std::string id;
  std::string protocol_version;
  CLI::App app{"mcptriage: tells why an MCP call over HTTP failed.\n"
               "Reads captured HTTP exchanges (curl -i and curl -v output, raw HTTP, HTTPie -v, HAR files, JSON Lines\n"
               "exchange logs, bare JSON or SSE bodies) from files, folders or stdin and classifies each layer by\n"
               "layer: HTTP transport, JSON-RPC envelope, tool result. Prints a table (on a terminal) or JSON Lines\n"
               "(otherwise), with retry advice.",
               "mcptriage"};
  app.footer(
      commands_help(commands) + (commands.empty() ? "" : "\n") +
      "Examples:\n"
      "  curl -si -X POST http://127.0.0.1:3001/mcp -H 'Content-Type: application/json' \\\n"
      "       -H 'Accept: application/json, text/event-stream' -d @call.json | mcptriage --id 2\n"
      "  mcptriage --format jsonl captures/            # every capture under a folder\n"
      "  mcptriage --expect TOOL_SUCCESS reply.txt     # CI: exit 1 unless every exchange is TOOL_SUCCESS\n"
      "  mcptriage --manifest captures/suite.manifest --report-junit junit.xml   # a suite of captures\n"
      "  mcptriage --fail-on HTTP_ERROR,STREAM_INCOMPLETE prod-captures/        # alert on production captures\n"
      "  mcptriage --follow --fail-on HTTP_ERROR gateway.jsonl   # a growing log, live; Ctrl-C: summary, exit 1 or 130\n"
      "\n"
      "Exit codes: 0 ok; 1 an --expect or --fail-on was broken; 2 usage error; 3 an input could not be read or\n"
      "recognised; 4 the output could not be written. A closed output (| head) ends the run quietly.\n"
      "Docs: man mcptriage; docs/output.md (JSON Lines schema), docs/classification.md (outcomes and reasons).");
  app.set_version_flag("--version", std::string("mcptriage 0.1.0"));
  app.add_option("inputs", opt.inputs, "Capture files or folders (recursive); '-' or nothing reads stdin")
      ->type_name("PATH");
  app.add_option("-f,--format", opt.format, "Output format: table or jsonl (default: table on a terminal, else jsonl)")
      ->check(CLI::IsMember({"table", "jsonl"}));
  app.add_option("--color", opt.color, "Colour in the table: auto, always or never (NO_COLOR disables it)")
      ->check(CLI::IsMember({"auto", "always", "never"}));
  app.add_flag("--explain", opt.explain,
               "Table: under each row, what the reason means, what to do next, and its spec section");
  app.add_flag("-v,--verbose", opt.verbose, "Table: under each row, the record's warnings (JSON Lines always has them)");
  app.add_flag("--events", opt.events,
               "Standard input read live: each event of an event stream as it arrives, as a record (kind \"event\") "
               "in JSON Lines or a line in the table (the table on a terminal shows them without it)");
  app.add_flag("--follow", opt.follow,
               "Follow one JSON Lines log (exchange log or JSON-RPC message stream) as it grows, like tail -F "
               "(rotation, truncation): each record is written when its exchange completes; Ctrl-C (or "
               "--idle-timeout, --timeout) ends it with the summary");
  app.add_option("--id", id, "The request's JSON-RPC id, type-exact: 1 is the integer, '\"1\"' the string")
      ->type_name("ID");
  app.add_option("--method", opt.method, "The request's method (tools/call, initialize, notifications/initialized, ...)")
      ->type_name("METHOD");
  app.add_option("--body", opt.body_file,
                 "The response body saved apart from a curl -v capture (its stdout); X-stderr.txt finds "
                 "X-stdout.txt by itself")
      ->type_name("FILE");
  app.add_option("--request", opt.request_file, "A file holding the JSON-RPC request body that was sent")
      ->type_name("FILE");
  app.add_option("--tools", opt.tools_file,
                 "Tool definitions for captures that hold one call (outputSchema checks, retry safety): a tools/list "
                 "result, a JSON-RPC response holding one, or a captured tools/list exchange in any input format")
      ->type_name("FILE");
  app.add_flag("--session", opt.session,
               "Read the inputs as one session, in order (a folder's files sorted, files as given): replays and "
               "retry safety from an earlier tools/list work across files; one session summary");
  app.add_option("--protocol-version", protocol_version, "MCP protocol version whose rules apply, e.g. 2025-11-25")
      ->type_name("VERSION");
  app.add_option("--status", opt.status, "Status code assumed for bare bodies (no status line captured)")
      ->check(CLI::Range(100, 599));
  report::add_expectation_options(app, opt.expect, opt.fail_on);
  app.add_option("--manifest", opt.manifest,
                 "Run the captures listed in FILE, each against its expected outcome (docs/ci.md)")
      ->type_name("FILE");
  app.add_option("--report-junit", opt.report_junit, "Write a JUnit XML report to FILE (one testcase per exchange)")
      ->type_name("FILE");
  app.add_option("--report-tap", opt.report_tap, "Write a TAP version 13 report to FILE ('-' for stdout)")
      ->type_name("FILE");
  app.add_option("--report-html", opt.report_html,
                 "Write a self-contained HTML session report to FILE (timeline, filter, search; docs/report.md)")
      ->type_name("FILE");
  app.add_option("--report-otlp", opt.report_otlp,
                 "Write the records as OTLP/JSON traces to FILE, one span per exchange (docs/report.md)")
      ->type_name("FILE");
  app.add_option("--export-har", opt.export_har,
                 "Write the exchanges of the inputs, whatever their format, as one HAR 1.2 file to FILE, redacted "
                 "unless --no-redact ('-' for stdout; docs/bundle.md)")
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
  app.add_option("--idle-timeout", opt.idle_timeout,
                 "Reading stdin live: when no byte arrives for DURATION (e.g. 30s, 2m, 500ms), judge what "
                 "arrived (STREAM_INCOMPLETE idle_timeout) and end; with --follow: end when the log did not grow "
                 "for DURATION")
      ->type_name("DURATION");
  app.add_option("--timeout", opt.timeout,
                 "Reading stdin live: when the input takes longer than DURATION, judge what arrived "
                 "(STREAM_INCOMPLETE timeout) and end; with --follow: stop following after DURATION")
      ->type_name("DURATION");
  app.add_option("--auth", opt.auth,
                 "Authorization triage: on (OAuth legs become AUTH_LEG records, one auth_flow record per flow; "
                 "docs/auth.md) or off (the legs are skipped as before)")
      ->check(CLI::IsMember({"on", "off"}))
      ->type_name("on|off");
  app.add_flag("--no-redact", opt.no_redact,
               "Print credentials as captured (Authorization, cookies, API keys, tokens); redacted by default");
  if (extend) extend(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    std::ostringstream out, err;
    const int code = app.exit(e, out, err);
    return std::unexpected(OptionsExit{code, out.str(), err.str()});
  } catch (const CLI::CallForVersion& e) {
    std::ostringstream out, err;
    const int code = app.exit(e, out, err);
    return std::unexpected(OptionsExit{code, out.str(), err.str()});
  } catch (const CLI::ParseError& e) {
    return std::unexpected(
        OptionsExit{to_int(ExitCode::usage), "", "mcptriage: error: " + escape_terminal(e.what()) + "\nRun with --help for usage.\n"});
  }
  if (app.count("--id") > 0) opt.id = std::move(id);  // `--id ''` too: an empty id is no JSON value, not "no id"
  if (app.count("--protocol-version") > 0) opt.protocol_version = std::move(protocol_version);
  return opt;
}

}  // namespace mcptriage::cli
