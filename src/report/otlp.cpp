// The OTLP/JSON trace report (report.hpp, make_otlp_sink; docs/report.md). Encoding: the OTLP
// specification's "JSON Protobuf Encoding" of opentelemetry-proto's ExportTraceServiceRequest:
// lowerCamelCase field names, trace and span ids as lowercase hex (not base64), 64-bit integers
// as decimal strings, enums as integers.
#include <fmt/format.h>

#include <limits>
#include <string>
#include <vector>

#include "mcptriage/report.hpp"
#include "mcptriage/session.hpp"

namespace mcptriage {

namespace {

constexpr int kSpanKindClient = 3;     // opentelemetry.proto.trace.v1.Span.SpanKind.SPAN_KIND_CLIENT
constexpr int kStatusCodeError = 2;    // opentelemetry.proto.trace.v1.Status.StatusCode.STATUS_CODE_ERROR

std::string jstr(std::string_view s) { return "\"" + json_escape(to_valid_utf8(redact(s))) + "\""; }

void put_attr(std::string& out, bool& first, std::string_view key, std::string_view value, bool integer = false) {
  out += first ? "" : ",";
  first = false;
  out += fmt::format("{{\"key\":\"{}\",\"value\":{{", key);
  if (integer) out += fmt::format("\"intValue\":\"{}\"}}}}", value);
  else out += fmt::format("\"stringValue\":{}}}}}", jstr(value));
}

class OtlpSink final : public RecordSink {
 public:
  OtlpSink(Output& out, bool stream, long long now_s) : out_(out), stream_(stream), now_ns_(now_s * 1000000000LL) {
    out_.buffer() += "{\"resourceSpans\":[";
  }

  bool wants_views() const override { return true; }

  /// One trace (and ResourceSpans) per session: its id from the session's name (two hashes,
  /// never all zero); without --session a session is one input, named by it.
  void begin_session(const SessionInfo& session) override {
    close_input();
    session_ = session.name;
    const std::uint64_t hi = fnv1a64(session_), lo = fnv1a64(session_, 0x84222325cbf29ce4ULL) | 1;
    trace_id_ = fmt::format("{:016x}{:016x}", hi, lo);
  }

  /// Spans are named by their own input (`file#N`).
  void begin_input(const InputInfo& input) override { name_ = input.name; }

  void record(const Record& r, const Check&, std::string_view) override {
    std::string& s = out_.buffer();
    if (!open_) {
      // The input's ResourceSpans opens with its first span.
      s += any_input_ ? ",\n{\"resource\":{\"attributes\":[" : "\n{\"resource\":{\"attributes\":[";
      any_input_ = open_ = true;
      bool first = true;
      put_attr(s, first, "service.name", "mcptriage");
      put_attr(s, first, "mcptriage.input", session_);
      s += "]},\"scopeSpans\":[{\"scope\":{\"name\":\"mcptriage\"},\"spans\":[\n";
    } else {
      s += ",\n";
    }
    const Classification& c = r.c;
    const std::string source = source_text(name_, r.source);
    const std::uint64_t span = fnv1a64(source, 0x9e3779b97f4a7c15ULL) | 1;  // never the invalid all-zero id
    // Span name: `{mcp.method.name} {gen_ai.tool.name}` (the MCP conventions).
    std::string name = c.method.empty() ? std::string("mcp exchange") : c.method;
    if (!c.tool.empty()) name += " " + c.tool;
    // Times: the capture's (HAR startedDateTime and time), else the run's clock.
    const ExchangeView* v = r.view.get();
    const bool timed = v != nullptr && v->started_unix_ns.has_value();
    const long long start = timed ? *v->started_unix_ns : now_ns_;
    long long end = start;
    if (timed && v->duration_ms) {
      // duration_ms is below 1e12 (the HAR reader's bound); the end saturates rather than wraps.
      const auto dur = static_cast<long long>(*v->duration_ms * 1e6);
      end = start > std::numeric_limits<long long>::max() - dur ? std::numeric_limits<long long>::max() : start + dur;
    }
    s += fmt::format(
        "{{\"traceId\":\"{}\",\"spanId\":\"{:016x}\",\"name\":{},\"kind\":{},\"startTimeUnixNano\":\"{}\","
        "\"endTimeUnixNano\":\"{}\",\"attributes\":[",
        trace_id_, span, jstr(name), kSpanKindClient, start, end);
    bool first = true;
    for (const OtelAttribute& a : otel_attributes(r)) put_attr(s, first, a.key, a.value, a.integer);
    put_attr(s, first, "mcptriage.source", source);
    put_attr(s, first, "mcptriage.outcome", to_string(c.outcome));
    put_attr(s, first, "mcptriage.layer", to_string(c.layer));
    put_attr(s, first, "mcptriage.reason", to_string(c.reason));
    put_attr(s, first, "mcptriage.time_source", timed ? "capture" : "run");
    if (!c.detail.empty()) put_attr(s, first, "mcptriage.detail", clipped(c.detail));
    if (c.retry.advice != Advice::none) put_attr(s, first, "mcptriage.retry.advice", to_string(c.retry.advice));
    if (r.session && r.session->replay) {
      put_attr(s, first, "mcptriage.replay.of", r.session->replay->of_source);
      put_attr(s, first, "mcptriage.replay.safety", to_string(r.session->replay->safety));
    }
    s += "],\"status\":{";
    if (is_failure(c.outcome) || c.outcome == Outcome::NOT_CAPTURED) {  // as error.type (otel.cpp)
      // The MCP conventions: the status description is JSONRPCError.message when there is one.
      const std::string& message = c.error_message.empty() ? c.detail : c.error_message;
      s += fmt::format("\"message\":{},\"code\":{}", jstr(clipped(message)), kStatusCodeError);
    }
    s += "}}";
    if (stream_) out_.commit();
  }

  void finish() override {
    close_input();
    out_.buffer() += "\n]}\n";
    out_.flush();
  }

 private:
  void close_input() {
    if (!open_) return;
    open_ = false;
    out_.buffer() += "\n]}]}";
  }

  Output& out_;
  bool stream_;
  long long now_ns_;
  bool open_ = false;       ///< the current input's ResourceSpans is open
  bool any_input_ = false;  ///< some ResourceSpans was written
  std::string name_;     ///< the current input's name
  std::string session_;  ///< the current session's name
  std::string trace_id_;
};

}  // namespace

std::unique_ptr<RecordSink> make_otlp_sink(Output& out, bool stream, long long now_s) {
  return std::make_unique<OtlpSink>(out, stream, now_s);
}

}  // namespace mcptriage
