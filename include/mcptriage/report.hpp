// Expectations (--expect, --fail-on, manifests) and CI reports (JUnit XML, TAP).
#pragma once

#include <expected>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "mcptriage/auth.hpp"
#include "mcptriage/classify.hpp"
#include "mcptriage/output.hpp"
#include "mcptriage/render.hpp"

namespace mcptriage {

/// What one capture (or every capture) is expected to give.
struct Expectation {
  std::vector<Outcome> outcomes;        ///< any of these (empty: any outcome)
  std::optional<Reason> reason;         ///< and, when set, this reason code (same_code: any of a shared code)
  std::optional<Layer> layer;           ///< and, when set, this layer
  /// Flow verdicts (AUTH_OK, AUTH_FAILED, AUTH_INCOMPLETE) that every auth_flow record must have
  /// (docs/auth.md). An expectation with flow verdicts and no outcomes judges no exchange record;
  /// AUTH_LEG records are judged only by an expectation that names AUTH_LEG.
  std::vector<AuthVerdict> auth;
  /// "TOOL_SUCCESS or RPC_SUCCESS, reason tool_success".
  std::string describe() const;
  bool holds(const Classification& c) const;
};

/// A manifest: capture path (relative to the manifest's folder) to its expectation.
/// Text format (docs/ci.md): one capture per line, `PATH OUTCOME[,OUTCOME...] [reason=R] [layer=L]`;
/// blank lines and lines starting with `#` are ignored; PATH has no spaces.
struct Manifest {
  std::vector<std::pair<std::string, Expectation>> entries;  ///< in file order
};

/// Parses a manifest. Error: "line N: why" (a reason=R that is no reason code names the nearest codes).
std::expected<Manifest, std::string> parse_manifest(std::string_view text);

/// Parses a comma-separated outcome list (`--expect`, `--fail-on`). Error names the bad word.
std::expected<std::vector<Outcome>, std::string> parse_outcome_list(const std::vector<std::string>& words);

/// Removes the flow verdict names (AUTH_OK, AUTH_FAILED, AUTH_INCOMPLETE) from the comma-separated
/// lists `words` (`--expect`, `--fail-on`) and returns them; the outcome names stay.
std::vector<AuthVerdict> take_auth_verdicts(std::vector<std::string>& words);

/// Checks an auth_flow record against `expect`'s flow verdicts (none: not judged) and `--fail-on`'s.
Check check_auth_flow(const AuthFlow& flow, const Expectation* expect, std::span<const AuthVerdict> fail_on);

/// Checks the classification `c` of the record named `source` against `expect` (the record's
/// manifest line, or `--expect`; null for none) and `--fail-on`'s outcomes; a --fail-on match
/// is the failure named when both break.
Check check_expectations(std::string_view source, const Classification& c, const Expectation* expect,
                         std::span<const Outcome> fail_on);

/// The verdict on one record, for reports.
struct CaseResult {
  std::string source;                ///< the record's source text ("name#N")
  Classification c;                  ///< its verdict
  std::string input;                 ///< the input the record came from (JUnit testsuite)
  bool has_expectation = false;
  bool passed = true;
  std::string failure;               ///< why it failed ("expected X, got Y (reason)")
  /// An authorization flow's case (an `auth_flow` record, docs/auth.md), in place of an exchange's:
  /// `c` then means nothing. Its verdict (AUTH_OK, AUTH_FAILED, AUTH_INCOMPLETE, ...), failed
  /// step ("" for none), reason code, detail and advice.
  struct Flow {
    std::string verdict, failed_step, reason, detail, advice;
  };
  std::optional<Flow> flow = std::nullopt;
};

/// An input that could not be read or recognised, for reports.
struct InputFailure {
  std::string input;
  std::string message;
};

/// JUnit XML (the common Ant/Jenkins/GitLab dialect, docs/junit.xsd): one testsuite per input,
/// one testcase per exchange, `<failure>` for a broken expectation, `<error>` for an unreadable input.
std::string junit_report(const std::vector<CaseResult>& cases, const std::vector<InputFailure>& errors);

/// TAP version 13 (with YAML diagnostics): one test point per exchange, per authorization flow and
/// per unreadable input.
std::string tap_report(const std::vector<CaseResult>& cases, const std::vector<InputFailure>& errors);

/// The JUnit report (junit_report) as a sink: written to `out` when the run finishes.
std::unique_ptr<RecordSink> make_junit_sink(Output& out);
/// The TAP report (tap_report) as a sink: written to `out` when the run finishes.
std::unique_ptr<RecordSink> make_tap_sink(Output& out);

// ---------------------------------------------------------------------------------------------
// Session reports (docs/report.md): src/report/view.cpp, html.cpp, otlp.cpp

/// The redacted, size-limited view of `exchange` that the HTML and OTLP reports show
/// (Record::view): the request line, headers (redact_header, at most kMaxHeaders a side), body
/// previews (redact(), cut at a UTF-8 boundary after kBodyPreview bytes), the events of an
/// event-stream response (the first kMaxEvents, each with its JSON-RPC role and method) and the
/// capture's times. Never fails.
ExchangeView make_exchange_view(const Exchange& exchange);

/// Makes `json` (RFC 8259 text) safe inside an HTML `<script type="application/json">` element
/// (HTML Living Standard §4.12.1.3, restrictions for contents of script elements): `<`, `>`, `&`
/// and U+2028/U+2029 become `\u003c`, `\u003e`, `\u0026`, `\u2028`, `\u2029`. In valid JSON
/// these only occur inside strings, where the escape means the same character, so no `</script>`
/// or `<!--` can end or bend the element.
std::string json_for_script(std::string_view json);

/// How much of the exchanges' detail (JSON Lines record, expectation check, ExchangeView) an HTML
/// report keeps, in bytes of embedded JSON: every exchange's while the details so far hold fewer
/// than `all_bytes`, then the failures' (session.hpp is_failure) while fewer than
/// `failure_bytes`; past that, rows keep their summary only and the page says so.
struct HtmlBudget {
  std::size_t all_bytes = std::size_t{8} << 20;       ///< 8 MiB
  std::size_t failure_bytes = std::size_t{24} << 20;  ///< 24 MiB
};

/// The HTML session report (`--report-html`, docs/report.md): one self-contained file (inline
/// CSS and script, no network) with one compact row per record (a string table for repeated
/// values) and, within `budget`, each record's detail, embedded as JSON in the page and rendered
/// by the page's script with DOM text nodes only, a window of rows at a time. `stream`: the
/// output is a file of its own, written as the records come (memory bounded by the string
/// table, at most 65,536 strings of 256 bytes); otherwise everything is written at finish().
std::unique_ptr<RecordSink> make_html_sink(Output& out, bool stream, HtmlBudget budget = {});

/// The OTLP/JSON trace report (`--report-otlp`, docs/report.md): one ExportTraceServiceRequest
/// (opentelemetry-proto 1.x, the OTLP/JSON encoding: lowerCamelCase names, hex trace and span
/// ids, 64-bit integers as strings, enums as integers) with one span per exchange record,
/// status ERROR (2) for every failure (session.hpp is_failure) with the JSON-RPC error message or
/// the detail, and the attributes of otel_attributes() plus `mcptriage.*` ones (outcome, layer,
/// reason, source, replay). One trace per input (its id a hash of the input's name), span ids
/// hashes of the record's source: the same capture gives the same ids. Times: the capture's
/// (HAR `startedDateTime` and `time`), else `now_s` (seconds since the epoch: the run's clock)
/// for start and end. `stream`: written as the records come (a file of its own).
std::unique_ptr<RecordSink> make_otlp_sink(Output& out, bool stream, long long now_s);

/// The exchange `ex` as one HAR 1.2 entry (`--export-har`, docs/bundle.md), whatever format it was
/// read from: its request (the captured body; else one rebuilt from what the readers and `flags`
/// know of it, `_mcptriage.request_rebuilt`), its response (the body as the client's HTTP library
/// reads it: de-chunked and decoded), and in `_mcptriage` its capture format, whether the
/// transport was captured, and its body state (HAR 1.2 has no field for a body cut short).
/// Headers, URLs and bodies are redacted (redact_header, redact_url, redact_body) unless
/// redaction is off. `along`: what classify() read of the request (its RequestInfo), or null. The
/// text ends with the `_mcptriage` object's closing brace and then the entry's.
std::string export_har_entry(const Exchange& ex, const ContextFlags& flags, const ReadAlong* along);

/// `--export-har FILE`: the records' exchanges as one HAR 1.2 document, an entry per exchange (a
/// batch reply's records share one) in the run's order, each with the record's `source` in its
/// `_mcptriage`. Skipped entries and inputs that could not be read are counted in the log's
/// `comment`. Written as the records come.
std::unique_ptr<RecordSink> make_har_sink(Output& out);

/// Running counts for the end-of-run summary line (constant memory, whatever the run's size).
struct Tally {
  std::map<Outcome, std::size_t> counts;
  std::size_t exchanges = 0;
  std::size_t held = 0;
  std::size_t broken = 0;
  void add(Outcome o, bool has_expectation, bool passed);
  /// One line: "12 exchanges: 8 TOOL_SUCCESS, 4 HTTP_ERROR; expectations 10 held, 2 broken; 1 input error"
  /// (outcomes by count, most first; ties in outcome order).
  std::string summary(std::size_t input_errors) const;
};

}  // namespace mcptriage
