// A record: one classified exchange (or one element of a batch reply) as it goes to output.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "mcptriage/classify.hpp"
#include "mcptriage/exchange.hpp"

namespace mcptriage {

struct SessionFacts;       // mcptriage/session.hpp
struct ExchangeView;       // below
struct SessionAnnotation;  // mcptriage/session.hpp
struct AuthLeg;            // mcptriage/auth.hpp
struct AuthAnnotation;     // mcptriage/auth.hpp

/// One output row: where it came from plus the verdict.
struct Record {
  SourceRef source;    ///< input, exchange and batch element; text only when rendered
  CaptureFormat format = CaptureFormat::curl_i;  ///< detected capture format
  Classification c;
  /// What the session analysis needs of the record's exchange (src/session, set by the run;
  /// shared by the records of one batch reply). When `facts->skipped` is set the record stands
  /// for a skipped entry and `c` means nothing. Null: no session analysis.
  std::shared_ptr<const SessionFacts> facts = nullptr;
  /// The session annotations of its entry (docs/output.md "Sessions": position, statuses,
  /// replay, findings), set by the run when its input holds more than one entry; shared by the
  /// records of one batch reply. Null: a one-entry input, printed without a `session` member.
  std::shared_ptr<const SessionAnnotation> session = nullptr;
  /// When its exchange arrived, read live (docs/output.md `timing`); absent offline.
  std::optional<LiveTiming> timing = std::nullopt;
  /// When its exchange happened, as the capture tells it (Exchange::time: HAR, a proxy recording).
  CaptureTime time = {};
  std::size_t line = 0;                  ///< Exchange::line: its JSON Lines log line, 0 otherwise
  std::optional<std::string> key = std::nullopt;  ///< Exchange::key (`--key-field`)
  /// What a report shows of the record's exchange besides its verdict (headers, body previews,
  /// event-stream events), redacted already; made on the worker only when a sink asks for it
  /// (RecordSink::wants_views), shared by the records of one batch reply. Null otherwise.
  std::shared_ptr<const ExchangeView> view = nullptr;
  /// What its exchange says for authorization (extract_auth_leg, on the worker), set on the
  /// entry's first record when the exchange takes part in it and triage runs with `--auth on`.
  std::shared_ptr<const AuthLeg> auth_leg = nullptr;
  /// The record's `auth` member (docs/auth.md), set by the run from the session's AuthTracker.
  std::shared_ptr<const AuthAnnotation> auth = nullptr;
  /// Its exchange as one HAR 1.2 entry (export_har_entry, `--export-har`), redacted already;
  /// made on the worker only when a sink asks for it (RecordSink::wants_har), shared by the
  /// records of one batch reply. Null otherwise, and for a skipped entry.
  std::shared_ptr<const std::string> har = nullptr;
  /// JSON members a live front door adds to the record (the proxy's `"timing":{...},"proxy":{...}`,
  /// docs/proxy.md; no surrounding comma), rendered by the JSON Lines sink after the record's own
  /// members; null otherwise. Set by the source's EntryObserver (src/triage) before any sink sees it.
  std::shared_ptr<const std::string> live_members = nullptr;
};

/// One event of an event-stream response as a report shows it.
struct EventView {
  std::string type;     ///< the `event` field ("message" when not set)
  std::string id;       ///< the last event id when it was dispatched ("" when none)
  std::string method;   ///< a JSON-RPC message's `method` ("" for a response or no message)
  std::string role;     ///< "request", "notification", "response", "error" or "" (not JSON-RPC)
  std::string preview;  ///< its data, redacted, at most ExchangeView::kEventPreview bytes
};

/// A redacted, size-limited view of one exchange for the reports (`--report-html`,
/// `--report-otlp`): every text in it went through the redaction of every output (redact(),
/// redact_header(), redact_url()) and is valid UTF-8.
struct ExchangeView {
  static constexpr std::size_t kBodyPreview = 2048;   ///< bytes of a body preview at most
  static constexpr std::size_t kEventPreview = 256;   ///< bytes of an event's preview at most
  static constexpr std::size_t kMaxHeaders = 48;      ///< headers kept of each side
  static constexpr std::size_t kMaxEvents = 64;       ///< events listed (the first ones)
  std::string http_method;                 ///< "POST" ("" when the capture has no request line)
  std::string target;                      ///< the request target or URL (redact_url)
  std::vector<Header> request_headers;     ///< values through redact_header
  std::vector<Header> response_headers;
  std::string request_body;                ///< preview, redacted ("" when not captured)
  std::size_t request_body_size = 0;       ///< bytes of the whole captured body
  std::string response_body;
  std::size_t response_body_size = 0;
  std::vector<EventView> events;           ///< the first kMaxEvents events of an event stream
  std::size_t events_total = 0;            ///< events dispatched in all
  bool stream_unterminated = false;        ///< the stream ended inside an event
  std::optional<std::int64_t> started_unix_ns;  ///< when the request started, from the capture
  std::optional<double> duration_ms;            ///< how long the exchange took, from the capture
};

}  // namespace mcptriage
