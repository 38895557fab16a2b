// Renderers: JSON Lines records and the human table. Pure functions from records to text.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>
#include <string>
#include <string_view>
#include <vector>

#include "mcptriage/classify.hpp"
#include "mcptriage/output.hpp"
#include "mcptriage/record.hpp"
#include "mcptriage/session.hpp"
#include "mcptriage/redact.hpp"

namespace mcptriage {

struct AuthAnnotation;  // mcptriage/auth.hpp
struct AuthFlow;

/// The JSON Lines output into `out` (docs/output.md): a record per line, with a `session` member
/// when its input holds more than one entry, skipped records in their place, and a summary
/// record after the records of such an input. Renders each record's text from `"outcome"` on
/// ahead on the worker threads (RecordSink::prepare).
std::unique_ptr<RecordSink> make_jsonl_sink(Output& out);

/// What the table shows besides its rows (docs/output.md "Table").
struct TableOptions {
  bool color = false;    ///< ANSI colours on the OUTCOME column
  bool explain = false;  ///< `--explain`: under each row, the reason's paragraph, next step and spec link
  bool verbose = false;  ///< `-v`: under each row, the record's warnings
};

/// The table into `out` (docs/output.md "Table"), a page of 4,096 rows at a time, then each
/// session's block and the skipped entries.
std::unique_ptr<RecordSink> make_table_sink(Output& out, TableOptions options);

/// Appends `text` as words wrapped at `width` columns (bytes), each line starting with `indent`
/// spaces, the first after `lead` instead when it is given; ends with a newline.
void append_wrapped(std::string& out, std::string_view text, std::size_t indent, std::string_view lead = {},
                    std::size_t width = 78);

/// JSON Lines schema version written in every record as `schema` (docs/output.md).
inline constexpr int kSchemaVersion = 1;

/// One JSON object, no newline, for a record of the input named `input` (its `source` is
/// source_text(input, r.source)). Schema: docs/output.md. Strings are escaped per RFC 8259;
/// a string field holding bytes that are not UTF-8 shows them as U+FFFD and carries them
/// losslessly in a sibling `<field>_bytes` (base64); secrets are redacted (see redact()).
std::string render_jsonl(const Record& r, std::string_view input);
/// Appends render_jsonl(r, input) to `out`.
void append_jsonl(std::string& out, const Record& r, std::string_view input);
/// render_jsonl(r, input) in two parts: the head `{"schema":1,"source":...,"format":...,` (what
/// a JSON Lines log read in blocks renumbers) and the rest, from `"outcome"` to the closing
/// brace (what the JSON Lines sink renders ahead on a worker thread: RecordSink::prepare).
void append_jsonl_head(std::string& out, const Record& r, std::string_view input);
void append_jsonl_tail(std::string& out, const Record& r);

/// The `"retry":{...}` member of a record's JSON Lines text, as append_jsonl_tail writes it
/// (docs/output.md "retry"), without a comma either side.
void append_retry_member(std::string& out, const RetryAdvice& retry);

/// Rewrites the retry member inside `tail`, a text of append_jsonl_tail, for `retry`: the text is
/// then what append_jsonl_tail gives for the record with that advice (the session's retry safety
/// changes a prepared record's advice only: src/triage/core.cpp). False, `tail` unchanged, when
/// the text has no retry member.
bool replace_retry_member(std::string& tail, const RetryAdvice& retry);

/// Aligned table (header + one row per record, then an indented detail line each), for records
/// of the input named `input`. `color` adds ANSI colours to the outcome column. Untrusted text
/// is escaped (escape_terminal).
std::string render_table(const std::vector<Record>& records, std::string_view input, bool color);

/// One record's row of the table, its cells already redacted and escaped: what the table view
/// keeps of each record until the column widths are known (a few hundred bytes, not the record).
struct TableRow {
  static constexpr std::size_t kColumns = 7;
  std::array<std::string, kColumns> cells;  ///< SOURCE, HTTP, ID, OUTCOME, LAYER, REASON, RETRY
  Outcome outcome = Outcome::NOT_CAPTURED;  ///< for the colour of the OUTCOME cell
  std::string detail;                       ///< the indented detail line
  std::string retry;                        ///< the indented retry line ("" when the advice is none)
  std::string notes;                        ///< lines printed under the row (`--explain`, `-v`), each ending in a newline
  bool status_assumed = false;  ///< the HTTP cell's status is assumed (`200?`): a body without status line and headers
  bool message_stream = false;  ///< the row comes from a JSON-RPC message stream (no HTTP layer; `200? (messages)`)
};
TableRow table_row(const Record& r, std::string_view input);
/// The legend printed under a table (docs/output.md "Table"): one line explaining an assumed
/// status (`200?`) when `status_assumed`, one explaining a message stream's row when
/// `message_stream`; "" when neither (a table of captured HTTP exchanges has no legend).
std::string table_legend(bool status_assumed, bool message_stream);
/// render_table over rows made by table_row().
std::string render_table(const std::vector<TableRow>& rows, bool color);

/// Display width (columns) of each table column: the widest cell so far.
using TableWidths = std::array<std::size_t, TableRow::kColumns>;
/// The widths of the header's cells: where a table starts.
TableWidths table_header_widths();
/// The table in pages, so that output of any length is printed in bounded memory: widens
/// `widths` with `rows`, then renders them (after the header when `header`). A later page's
/// columns may sit further right than an earlier one's; given every row at once, this is
/// render_table().
std::string render_table_page(const std::vector<TableRow>& rows, bool color, TableWidths& widths, bool header);

/// Appends the `"auth":{...}` member of a record (docs/auth.md), without a comma either side.
void append_auth_member(std::string& out, const AuthAnnotation& a);
/// One `auth_flow` record (docs/auth.md): one line of JSON without its newline.
std::string render_auth_flow_jsonl(const AuthFlow& flow);
/// The table's block for a flow (docs/auth.md "Table"): its verdict line, one line per leg and the
/// advice, escaped for a terminal, each line ending in a newline.
std::string render_auth_flow_table(const AuthFlow& flow);

/// An event record (docs/output.md "Event records"): one line of JSON without its newline, for
/// the event `e` of the exchange named `source` ("stdin#1"); texts clipped to 200 bytes, redacted.
std::string render_event_jsonl(std::string_view source, const StreamEvent& e);
/// The table's line for an event, with its newline: "  event N  MS ms  WHAT", escaped for a terminal.
std::string render_event_line(const StreamEvent& e);

/// RFC 8259 string escaping (without the quotes); invalid UTF-8 bytes become U+FFFD.
std::string json_escape(std::string_view s);

/// Appends json_escape(s) to `out`; returns whether `s` was valid UTF-8 (RFC 3629).
bool append_json_escaped(std::string& out, std::string_view s);

/// Appends `s` as a JSON string (RFC 8259 §7): `"`, json_escape(s), `"`.
void append_json_string(std::string& out, std::string_view s);

/// Replaces every byte sequence that is not valid UTF-8 (RFC 3629) with U+FFFD.
std::string to_valid_utf8(std::string_view s);

/// Makes untrusted text safe for a terminal: control characters (C0, DEL, C1) and ESC
/// become visible escapes (`\x1b`), invalid UTF-8 bytes become `\xNN`.
std::string escape_terminal(std::string_view s);

/// RFC 4648 §4 base64 of `bytes`, with padding.
std::string base64_encode(std::string_view bytes);

/// True when `s` is valid UTF-8 (RFC 3629: no overlongs, surrogates or code points past U+10FFFF).
bool is_valid_utf8(std::string_view s);

// Redaction of text, headers and URLs: mcptriage/redact.hpp (src/redact/, low enough for the
// capture readers).

/// Credentials in a captured body, hidden without breaking its JSON: inside a JSON or
/// event-stream body, each string literal is redacted as the text it holds (escapes undone, then
/// escaped again only when something was hidden), and the value of a member whose name the rules
/// call secret (`"password": "..."`) is hidden whole, so no rule can run past a string's end; any
/// other body (a form, text) is redacted as free text (redact()). Returns `body` unchanged while
/// redaction is off. The proxy's recordings and `--export-har` write bodies through it.
std::string redact_body(std::string_view body);

// ---------------------------------------------------------------------------------------------
// OpenTelemetry attributes (docs/output.md "otel"): src/render/otel.cpp

/// One OpenTelemetry attribute of a record: a string value, or an integer when `integer`.
struct OtelAttribute {
  std::string_view key;
  std::string value;     ///< redacted, valid UTF-8 (an integer's decimal digits when `integer`)
  bool integer = false;
};

/// The OpenTelemetry semantic-convention attributes of record `r` that the capture tells, in
/// this order (open-telemetry/semantic-conventions docs/gen-ai/mcp.md as of commit 04f1672, status Development,
/// client span; `http.response.status_code` from the HTTP conventions):
/// `mcp.method.name`, `gen_ai.operation.name` (`execute_tool` for tools/call), `gen_ai.tool.name`,
/// `jsonrpc.request.id` (the id as a string; not for a notification or a null id),
/// `mcp.session.id` (never the raw id: `fnv1a-` and 16 hex digits of a 64-bit FNV-1a hash of the
/// request's Mcp-Session-Id as redact_header prints it, so records of one session share it), `mcp.protocol.version` (when
/// the request, a flag or the capture told it; not when assumed), `rpc.response.status_code`
/// (the JSON-RPC error code), `http.response.status_code` (an integer; not for a bare body),
/// and `error.type` for a failure (session.hpp is_failure): `tool_error` for TOOL_ERROR, the
/// JSON-RPC error code, the HTTP status of an HTTP_ERROR, else the outcome's name.
std::vector<OtelAttribute> otel_attributes(const Record& r);

/// The `"otel":{...}` member of a record (otel_attributes as one object, without a leading comma).
void append_otel_member(std::string& out, const Record& r);

/// 64-bit FNV-1a of `bytes` (the hash behind `mcp.session.id` and the OTLP ids).
std::uint64_t fnv1a64(std::string_view bytes, std::uint64_t seed = 0xcbf29ce484222325ULL);

// ---------------------------------------------------------------------------------------------
// Sessions (docs/output.md "Sessions"): src/render/session.cpp

/// The `"session":{...}` member for an exchange record (without a leading comma).
std::string render_session_member(const SessionAnnotation& a);

/// Appends render_session_member(a) to `out`.
void append_session_member(std::string& out, const SessionAnnotation& a);

/// Inserts render_session_member(a) as the last member of the JSON object `record_json`.
std::string with_session_member(std::string record_json, const SessionAnnotation& a);
/// Appends with_session_member(record_json, a) to `out`.
void append_with_session_member(std::string& out, std::string_view record_json, const SessionAnnotation& a);

/// A skipped record: `{"schema":1,"kind":"skipped","skipped":true,"source":...,"format":...,"reason":...,"detail":...}`.
std::string render_skipped_jsonl(std::string_view source, std::string_view format, const Skip& skip);

/// The summary record: `{"schema":1,"kind":"session_summary","source":INPUT,...}`.
std::string render_summary_jsonl(std::string_view input, std::string_view format, const SessionSummary& s);

/// Lines for the table view: `session INPUT: ...` then indented skipped, replay and finding lines.
std::string render_summary_table(std::string_view input, const SessionSummary& s,
                                 const std::vector<std::pair<std::string, Skip>>& skipped,
                                 const std::vector<std::pair<std::string, SessionAnnotation>>& notable,
                                 std::size_t skipped_omitted = 0, std::size_t notable_omitted = 0);

}  // namespace mcptriage
