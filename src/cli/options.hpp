// The command line of a triage run: CLI11 turns argv into RawOptions, the flags as typed.
// Nothing here looks at the environment or reads a file (config.hpp resolves them).
#pragma once

#include <cstddef>
#include <expected>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <span>

#include "cli/command.hpp"
#include "mcptriage/capture.hpp"

namespace CLI {
class App;
}

namespace mcptriage::cli {

/// A subcommand that takes the triage options (mcptriage stats) changes the option table here
/// before it is parsed: its name, its help, options of its own, options it removes.
using ExtendOptions = std::function<void(CLI::App&)>;

/// The triage flags as given, checked only for their form (CLI11's validators).
struct RawOptions {
  std::vector<std::string> inputs;         ///< PATH arguments; "-" is standard input
  std::string format;                      ///< "", "table" or "jsonl"
  std::string color = "auto";              ///< "auto", "always" or "never"
  std::optional<std::string> id;           ///< `--id` as typed (given, even empty)
  std::string method;                      ///< `--method` ("" when not given)
  std::string request_file;                ///< `--request FILE`
  std::string tools_file;                  ///< `--tools FILE`
  bool session = false;                    ///< `--session`
  std::optional<std::string> protocol_version;  ///< `--protocol-version` as typed
  std::string body_file;                   ///< `--body FILE`
  int status = 200;                        ///< `--status`
  std::vector<std::string> expect;         ///< `--expect` words (comma lists, repeated)
  std::vector<std::string> fail_on;        ///< `--fail-on` words
  std::string manifest;                    ///< `--manifest FILE`
  std::string report_junit;                ///< `--report-junit FILE`
  std::string report_tap;                  ///< `--report-tap FILE` ("-": standard output)
  std::string report_html;                 ///< `--report-html FILE` ("-": standard output)
  std::string report_otlp;                 ///< `--report-otlp FILE` ("-": standard output)
  std::string export_har;                  ///< `--export-har FILE` ("-": standard output)
  bool quiet = false;
  bool progress = false;
  bool explain = false;                    ///< `--explain`
  bool verbose = false;                    ///< `-v`, `--verbose`
  bool events = false;                     ///< `--events`
  bool follow = false;                     ///< `--follow`
  std::size_t max_input = kDefaultMaxInput;  ///< bytes
  std::size_t max_body = kDefaultMaxBody;    ///< bytes
  bool no_redact = false;
  std::string auth = "on";  ///< `--auth on|off`: authorization triage (docs/auth.md)
  unsigned jobs = 0;                       ///< 0: one per core
  std::string idle_timeout;                ///< `--idle-timeout DURATION` as typed ("": none)
  std::string timeout;                     ///< `--timeout DURATION` as typed ("": none)
};

/// The end of a run that never got past the command line: `--help` and `--version` (exit 0,
/// text for standard output) or a usage error (exit 2, text for standard error).
struct OptionsExit {
  int code = 0;
  std::string out;  ///< for standard output
  std::string err;  ///< for standard error, whole lines
};

/// Parses the triage command line (argv[0] is the program). Usage errors read
/// "mcptriage: error: WHY\nRun with --help for usage.\n". The help lists `commands`
/// (command.hpp, commands_help) above its examples; `extend` changes the table first (a
/// subcommand's own options).
std::expected<RawOptions, OptionsExit> parse_options(int argc, const char* const* argv,
                                                     std::span<const Command> commands = {},
                                                     const ExtendOptions& extend = {});

}  // namespace mcptriage::cli
