// Output: where records go. A RecordSink takes the records of a run in order, each with its
// final verdict (the session analysis's Amendment already applied) and the run's expectation
// check; one implementation per output: the table and JSON Lines (src/render), JUnit and TAP
// (src/report); later the live view, recordings and HTML. A sink writes its bytes to an
// Output, which the run makes (src/io: standard output, a report file) and which checks every
// write.
#pragma once

#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "mcptriage/exchange.hpp"
#include "mcptriage/record.hpp"

namespace mcptriage {

struct SessionSummary;  // mcptriage/session.hpp
struct AuthFlow;        // mcptriage/auth.hpp

/// A write that failed: the reader went away (`closed`: EPIPE, standard output piped into
/// `head`), or the system refused the bytes (`failed`: a full disk, an I/O error, a file that
/// cannot be created). `what()` names the output and the system's reason.
class OutputError : public std::runtime_error {
 public:
  enum class Kind { closed, failed };
  OutputError(Kind kind, const std::string& what) : std::runtime_error(what), kind_(kind) {}
  Kind kind() const { return kind_; }

 private:
  Kind kind_;
};

/// Where a sink's bytes go: a buffer the sink appends to, written out in chunks. Every write
/// is checked: a failure throws OutputError, so that the run stops at once.
class Output {
 public:
  /// The buffer is written out when it holds more than this after a record (commit()).
  static constexpr std::size_t kChunk = std::size_t{1} << 16;
  virtual ~Output() = default;
  /// Append the output's bytes here.
  std::string& buffer() { return buffer_; }
  /// Writes the buffer out once it holds more than kChunk bytes.
  void commit() {
    if (buffer_.size() > kChunk) flush();
  }
  /// Writes out everything appended so far.
  void flush() {
    if (buffer_.empty()) return;
    write_out(buffer_);
    buffer_.clear();
  }

 protected:
  /// Writes all of `bytes` or throws OutputError.
  virtual void write_out(std::string_view bytes) = 0;

 private:
  std::string buffer_;
};

/// An Output that keeps what is written (tests, and text made for later).
class StringOutput final : public Output {
 public:
  std::string text;

 protected:
  void write_out(std::string_view bytes) override { text += bytes; }
};

/// A record measured against the run's expectations (`--expect`, a manifest line, `--fail-on`).
struct Check {
  bool has_expectation = false;  ///< some expectation or --fail-on applied
  bool passed = true;
  std::string failure;           ///< why it failed: "SOURCE is OUTCOME (reason, layer L), expected A or B"
};

/// An input of the run as sinks see it.
struct InputInfo {
  std::size_t index = 0;   ///< SourceRef::input of its records
  std::string_view name;   ///< its display name (the text before "#N")
};

/// A capture entry that is not classified (Exchange::skipped: a web page in a HAR file, a
/// notification in a message stream): reported in its place (docs/output.md "Skipped records").
struct SkippedEntry {
  SourceRef source;
  CaptureFormat format;
  const Skip& skip;
  const Record* record = nullptr;  ///< the record standing for it (Record::line and key), when the run has one
};

/// One event of an event stream read live, as it arrived (`--events`, and the table on a
/// terminal; docs/output.md "Event records"). What it says is read from the event's data when
/// it is a JSON-RPC message; strings are as sent (sinks escape and clip them).
struct StreamEvent {
  SourceRef source;  ///< the exchange it belongs to, numbered as its record will be
  /// Its number among the stream's events as records and warnings count them (`stream.events`,
  /// "event N"), from 1; 0 for a priming event (empty data), which they do not count.
  std::size_t number = 0;
  std::string type = "message";  ///< the SSE event type
  std::string id;                ///< the stream's last event id when it was dispatched ("": none)
  double ms = 0;                 ///< milliseconds since the exchange's first byte
  /// priming, progress, log (notifications/message), notification (another), request (a server
  /// request: elicitation/create, sampling/createMessage, ...), response, batch, not_json (data that
  /// is no JSON-RPC message)
  std::string what;
  std::string method;            ///< notifications and requests
  std::string rpc_id;            ///< requests and responses: the JSON-RPC id as minified JSON ("": none)
  std::optional<double> progress;  ///< progress: params.progress
  std::optional<double> total;     ///< progress: params.total
  std::string level;               ///< log: params.level
  /// progress: params.message; log: params.data (a string, else minified JSON); response: "error
  /// CODE" for an error response
  std::string message;
};

/// The end of an input's records.
struct InputEnd {
  std::string_view name;
  CaptureFormat format = CaptureFormat::curl_i;  ///< the format of its last entry
};

/// A session of the run: the entries of one input, or with `--session` of every input of the
/// run, walked in order by one session analysis (docs/output.md "Sessions").
struct SessionInfo {
  /// What the session summary names: the input's display name, or for a session of several
  /// inputs "FIRST .. LAST (N inputs)".
  std::string_view name;
  std::size_t inputs = 1;  ///< the inputs it reads (1 without `--session`)
};

/// The end of a session.
struct SessionEnd {
  std::string_view name;                         ///< as SessionInfo::name
  CaptureFormat format = CaptureFormat::curl_i;  ///< the format of its last entry
  const SessionSummary* summary = nullptr;       ///< null when the session held one entry only
};

/// A record of a front door's own, between the exchanges' records (the proxy's `client_behaviour`
/// and `proxy_summary` records, docs/proxy.md): its JSON Lines text (one JSON object, no newline)
/// and its table line (no newline, escaped already). Reports ignore it.
struct Note {
  std::string jsonl;
  std::string table;
};

/// One output of a run. The run calls, in order: for each session begin_session, then for each
/// of its inputs begin_input, the input's records and skipped entries in capture order, and
/// end_input; then end_session. Without `--session` a session is one input. input_failed for an
/// input that could not be read (maybe after some of its records; within a session, the session
/// goes on with the next input); at the end finish. A record's verdict is final when it comes
/// (the session analysis's Amendment applied), and `Record::session` is set when its session
/// holds more than one entry. An input of a session that gives no record or skipped entry may
/// get no begin_input/end_input.
class RecordSink {
 public:
  virtual ~RecordSink() = default;
  /// Whether prepare() renders anything (then the run asks for it on the worker threads).
  virtual bool prepares() const { return false; }
  /// Whether record() reads Record::view (then the run makes it on the worker threads).
  virtual bool wants_views() const { return false; }
  /// Whether record() reads Record::har (then the run makes it on the worker threads).
  virtual bool wants_har() const { return false; }
  /// Renders ahead, on a worker thread, what record() would render of `r` that neither its
  /// numbering (`source`, renumbered in a log read in blocks) nor its format can change: for
  /// JSON Lines, the text from `"outcome"` on. Must be pure and thread-safe. The run hands the
  /// text to record() unless an Amendment changed the record since (then record() renders it).
  virtual void prepare(const Record& r, std::string& text) const {
    (void)r;
    (void)text;
  }
  virtual void begin_input(const InputInfo& input) { (void)input; }
  /// One record of the current input. `prepared`: prepare()'s text for it, or empty.
  virtual void record(const Record& r, const Check& check, std::string_view prepared) = 0;
  virtual void skipped(const SkippedEntry& entry) { (void)entry; }
  virtual void end_input(const InputEnd& end) { (void)end; }
  /// A session starts (before the begin_input of its first input).
  virtual void begin_session(const SessionInfo& session) { (void)session; }
  /// A session ends (after the end_input of its last input), with its summary.
  virtual void end_session(const SessionEnd& end) { (void)end; }
  /// The input `name` could not be read or recognised (`why`), or a log line of it was damaged.
  virtual void input_failed(std::string_view name, std::string_view why) {
    (void)name;
    (void)why;
  }
  /// One authorization flow of the session ending now, judged (docs/auth.md `auth_flow`): after the
  /// end_input of its last input, before end_session. `check`: its expectation check.
  virtual void auth_flow(const AuthFlow& flow, const Check& check) {
    (void)flow;
    (void)check;
  }
  /// A record of the front door's own (Note), in its place among the records.
  virtual void note(const Note& n) { (void)n; }
  /// One event of the live stream being read (before the record of its exchange).
  virtual void event(const StreamEvent& e) { (void)e; }
  /// What was given so far must reach the output now (a live record: issue 16).
  virtual void flush() {}
  /// The run is over: write what was kept for the end (a table's last page, a report).
  virtual void finish() {}
};

}  // namespace mcptriage
