// Sessions: the exchanges of one capture read in order. Request/response pairing by id, the
// POST sequence, replay detection with its safety, outputSchema checks, and a summary.
#pragma once

#include <cstddef>
#include <cstdint>
#include <expected>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "mcptriage/advice.hpp"
#include "mcptriage/classify.hpp"
#include "mcptriage/exchange.hpp"

namespace mcptriage {

/// A tool definition from a `tools/list` result (MCP 2025-06-18+ schema `Tool`): what replay
/// safety and output checks need. Annotation hints are nullopt when absent (the schema's
/// defaults then apply: readOnlyHint false, destructiveHint true, idempotentHint false).
struct ToolDefinition {
  std::string name;
  std::optional<bool> read_only_hint;    ///< `annotations.readOnlyHint`
  std::optional<bool> destructive_hint;  ///< `annotations.destructiveHint`
  std::optional<bool> idempotent_hint;   ///< `annotations.idempotentHint`
  std::optional<std::string> output_schema;  ///< `outputSchema` as JSON text, when an object
  std::string source;                    ///< the tools/list exchange that defined it ("name#N"):
                                         ///< set by SessionTracker::add, which knows the numbering
};

/// What the session analysis needs of one exchange, extracted where the exchange is at hand
/// (a worker thread) so that the analysis itself can run later on owned data. Pure data.
struct SessionFacts {
  std::optional<Skip> skipped;       ///< the entry was not classified (Exchange::skipped)
  std::string http_method;           ///< request method ("" when the capture has no request line)
  int http_status = 0;               ///< response status (0: no response)
  bool transport_captured = true;
  /// The session: the request's `Mcp-Session-Id`, else the response's (a log of response headers
  /// only; the server sets it, MCP basic/transports §Session management); "" when neither has one.
  std::string session_id;
  /// The server the request went to, as the capture shows it: the authority (host[:port],
  /// lowercased) of an absolute request URL, else the request's `Host` header; "" when neither.
  std::string server;
  /// The captured JSON-RPC request when it is a message object (RequestInfo::Shape::message):
  /// its id, method, notification flag, params hash and tool name. nullopt when the capture holds
  /// no request body, or one that is no JSON-RPC message (or a batch).
  std::optional<RequestInfo> request;
  std::vector<ToolDefinition> tools; ///< the tools of a successful tools/list result
  std::optional<std::string> structured_content;  ///< tools/call `result.structuredContent` as JSON text
  bool result_found = false;         ///< the deciding tools/call result was found in the body
  std::string result_pointer;        ///< JSON Pointer of that result in its message ("/result")
};

/// Reads the facts of one exchange from its classification records (one, or one per batch
/// element) and what classify() read along (its `along` argument). Parses only the result of a
/// tools/list success (for its tool definitions). Never fails; unreadable parts are left empty.
SessionFacts extract_session_facts(const Exchange& exchange, const std::vector<Classification>& records,
                                   const ReadAlong& along);

/// The tool definitions `--tools FILE` gives, for captures that hold one call: `bytes` is a
/// `tools/list` result (`{"tools": [...]}`), a JSON-RPC response holding one, or a capture in any
/// input format (read_capture; the tools of its successful `tools/list` results). `name` names
/// the file: each definition's `source`, which records cite ("readOnlyHint: true (tools.json)").
/// Error: one line, when the file is no capture or defines no tool.
std::expected<std::vector<ToolDefinition>, std::string> read_tool_definitions(std::string_view bytes,
                                                                             std::string_view name);

/// Replay safety (classification.md §Retry advice; MCP `ToolAnnotations`).
enum class ReplaySafety { safe, unsafe, unknown };
std::string_view to_string(ReplaySafety s);

/// A request that repeats an earlier one (same method, same params but `_meta`) after that one failed.
struct Replay {
  std::string of_source;          ///< record source of the earlier request
  std::size_t of_entry = 0;       ///< its entry index in the session (0-based)
  Outcome after = Outcome::HTTP_ERROR;  ///< the earlier request's outcome
  ReplaySafety safety = ReplaySafety::unknown;
  std::string decided_by;         ///< the annotation or rule that decided, or why it is unknown
  std::string who_retried = "unknown";  ///< always "unknown": a capture does not record who sent it
  bool same_id = false;           ///< the replay reused the earlier request's id
};

/// One pairing or sequence finding on an entry.
struct SessionFinding {
  std::string code;    ///< `unknown_response_id`, `duplicate_request_id`, `duplicate_response_id`,
                       ///< `null_id_error`, `not_answered`
  std::string detail;  ///< one line
};

/// What the session analysis changes in an entry's first record once it knows more than the
/// classifier did: a tools/call TOOL_SUCCESS whose structuredContent does not match the tool's
/// outputSchema (MCP 2025-06-18 server/tools §Output schema) becomes INVALID_TOOL_RESULT, or
/// gets a warning that the schema could not be checked. The run applies it before any output
/// sees the record, and then recomputes the retry advice of a new verdict (session/ gives none).
struct Amendment {
  struct Verdict {
    Outcome outcome = Outcome::INVALID_TOOL_RESULT;
    Reason reason = Reason::structured_content_schema_mismatch;
    std::string detail;   ///< names the tool, the tools/list record and what is wrong
    std::string pointer;  ///< JSON Pointer of the fault (`/result/structuredContent/count`)
  };
  std::optional<Verdict> verdict;     ///< the record's new verdict
  std::vector<std::string> warnings;  ///< appended to the record's warnings
  /// Sets `c`'s outcome (and its layer), reason, detail and pointer to the verdict's, and appends
  /// the warnings. `c.retry` is left as it was.
  void apply(Classification& c) const;
};

/// The session annotations of one entry (shared by the records of a batch reply).
struct SessionAnnotation {
  std::size_t entry = 0;                   ///< 0-based position of the entry in the capture
  std::optional<std::size_t> post_index;   ///< 1-based position among the capture's POSTs
                                           ///< (client messages of a log); nullopt for a GET
  std::vector<int> http_statuses;          ///< statuses of the POSTs so far, this one included
                                           ///< (the last kMaxStatuses of them)
  std::size_t http_statuses_omitted = 0;   ///< earlier statuses left out of http_statuses
  std::optional<Replay> replay;
  std::vector<SessionFinding> findings;
  bool schema_checked = false;             ///< structuredContent was checked against outputSchema
  std::optional<Amendment> amendment;      ///< for the entry's first record (the outputSchema check)
  /// For a tools/call whose tool a tools/list of the same session defines: the safety its
  /// annotations give (tool_retry_safety), for every record of the entry (apply_retry_safety,
  /// after the amendment). nullopt: the records keep the method's safety (advise()).
  std::optional<RetrySafety> retry_safety;
};

/// A request that never got a JSON-RPC response for its id.
struct Unanswered {
  std::string source;
  std::string method;
  std::string id;      ///< JSON text of the request id
  Outcome outcome = Outcome::NOT_CAPTURED;
  int http_status = 0;
};

/// The session summary of one capture.
struct SessionSummary {
  std::size_t entries = 0;    ///< exchanges and skipped entries
  std::size_t skipped = 0;
  std::size_t records = 0;    ///< classification records (batch elements counted apart)
  std::size_t posts = 0;
  std::map<std::string, std::size_t> outcomes;         ///< outcome name -> records
  std::map<std::string, std::size_t> skipped_reasons;  ///< skip reason -> entries
  std::map<std::string, std::size_t> findings;         ///< finding code -> count
  struct Failure {
    std::string source;
    std::optional<std::size_t> post_index;
    std::string method;
    Outcome outcome = Outcome::HTTP_ERROR;
    std::string reason;
    int http_status = 0;
  };
  std::optional<Failure> first_failure;  ///< the first record with a failing outcome
  std::vector<Unanswered> never_answered;    ///< at most kMaxListed, in order
  std::size_t never_answered_omitted = 0;
  std::vector<std::string> methods_never_answered;  ///< distinct, in order of first appearance
  std::vector<std::pair<std::string, Replay>> replays;  ///< (replay source, replay), at most kMaxListed
  std::size_t replays_omitted = 0;
  std::vector<std::string> notes;            ///< sequence facts in one line each
};

/// True for outcomes that count as a failure in a session (every error outcome and TOOL_ERROR;
/// not NOT_CAPTURED, ACCEPTED, INPUT_REQUIRED, TASK_CREATED, AUTH_LEG or the successes).
bool is_failure(Outcome o);

/// Walks the entries of one session in order: one capture, or with `--session` several inputs
/// one after the other (set_input_name between them). Feed every entry once, in capture order, with
/// its records; read summary() at the end.
///
/// Memory is bounded whatever the capture's size (docs/performance.md): ids, pairing keys and
/// replay keys are kept as 64-bit hashes in flat maps, and only for a window of the last
/// kWindow entries (a key is swept out between kWindow and 5/4 kWindow entries after it was
/// put), and at most kMaxTools tool definitions. A reply, a reused id or a repeated call further
/// back than that is not paired: a request that leaves the window unanswered is reported as
/// never answered, and the summary notes the window. Two different ids (or params) with the
/// same 64-bit hash would be taken as the same: at 20,480 keys the chance is about 1 in 10^11.
class SessionTracker {
 public:
  static constexpr std::size_t kMaxStatuses = 32;
  static constexpr std::size_t kMaxListed = 100;
  static constexpr std::size_t kWindow = 16384;   ///< entries looked back at for pairing and replays
  static constexpr std::size_t kMaxTools = 4096;  ///< tool definitions remembered (the latest per name)

  /// `input_name` names the capture in the sources that details and the summary cite.
  explicit SessionTracker(std::string input_name);
  ~SessionTracker();
  SessionTracker(SessionTracker&&) noexcept;
  SessionTracker& operator=(SessionTracker&&) noexcept;

  /// One entry: its facts, and its records (none for a skipped entry); `exchange` is where the
  /// entry is (its element unset): `records[k]` is element k of it when there are several.
  /// A tools/call TOOL_SUCCESS whose structuredContent does not match the tool's outputSchema
  /// (from an earlier tools/list in the capture) comes back as an Amendment of its record to
  /// INVALID_TOOL_RESULT, reason `structured_content_schema_mismatch`, with the pointer of the
  /// fault; the summary counts the record as amended.
  SessionAnnotation add(const SessionFacts& facts, const std::vector<const Classification*>& records,
                        SourceRef exchange);

  SessionSummary summary() const;

  /// Tool definitions given apart from the capture (`--tools FILE`): a tools/call whose tool no
  /// tools/list of its own session defines is judged by these (outputSchema, retry safety,
  /// replays), whatever its session or server. Call before the first add().
  void add_given_tools(const std::vector<ToolDefinition>& tools);

  /// The entries that follow come from the input named `input_name` (a session read from
  /// several inputs, `--session`): their sources, as details and the summary cite them, are
  /// "input_name#N". Pairing, replays and tool definitions go on across inputs.
  void set_input_name(std::string input_name);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// ---------------------------------------------------------------------------------------------
// outputSchema checks

/// Where `instance` breaks `schema`: a JSON Pointer into the instance and what is wrong.
struct SchemaMismatch {
  std::string pointer;  ///< RFC 6901, relative to the instance ("" for the instance itself)
  std::string message;
};

/// Checks `instance_json` against `schema_json` with the subset of JSON Schema documented in
/// docs/output.md ("outputSchema checks"): type, enum, const, properties, required,
/// additionalProperties (false or a schema), items (one schema), minItems/maxItems,
/// minLength/maxLength (code points), minimum/maximum/exclusiveMinimum/exclusiveMaximum,
/// allOf/anyOf/oneOf/not. Other keywords (`$ref`, `pattern`, `format`, ...) are not checked.
/// Value: the first mismatch in document order, or nullopt when the instance conforms.
/// Error (nothing is claimed): a text is not JSON, or the check would take more than a fixed
/// number of steps (a hostile schema times a hostile instance).
std::expected<std::optional<SchemaMismatch>, std::string> check_schema(std::string_view schema_json,
                                                                       std::string_view instance_json);

}  // namespace mcptriage
