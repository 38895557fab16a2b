// `--export-har` (report.hpp): any capture's exchanges as one HAR 1.2 document, written by the one
// HAR writer (src/render/har_write.hpp) that the proxy's recordings use too.
#include <fmt/format.h>

#include <cmath>
#include <string>

#include "render/har_write.hpp"
#include "mcptriage/report.hpp"

namespace mcptriage {
namespace {

/// A body as HAR text: redacted when it is UTF-8, else base64 (`encoding`), as the proxy records it.
HarText har_text(std::string_view bytes) {
  if (!is_valid_utf8(bytes)) return HarText{base64_encode(bytes), true};
  return HarText{redact_body(bytes), false};
}

std::string_view body_state_name(BodyState s) {
  switch (s) {
    case BodyState::complete: return "complete";
    case BodyState::truncated: return "truncated";
    case BodyState::absent: return "absent";
    case BodyState::not_captured: return "not_captured";
  }
  return "complete";
}

/// A JSON-RPC request rebuilt from what was read of it (a log that kept it as a JSON value, a
/// request sidecar, --id and --method): its id, method, tool name and protocol version, and a
/// marker of its params' hash so that two requests with the same params still read as the same.
/// nullopt when nothing is known.
std::optional<std::string> rebuilt_request(const RequestInfo* info, const ContextFlags& flags) {
  std::optional<JsonRpcId> id = info && info->id ? info->id : flags.id;
  std::optional<std::string> method = info && info->method ? info->method : flags.method;
  if (info && info->shape == RequestInfo::Shape::batch) return std::nullopt;  // its elements are not kept
  if (!id && !method) return std::nullopt;
  std::string out = "{\"jsonrpc\":\"2.0\"";
  if (id) out += ",\"id\":" + id->to_json();
  if (method) {
    out += ",\"method\":";
    append_json_string(out, *method);
  }
  if (info && (info->has_params || !info->tool_name.empty() || info->protocol_version)) {
    out += ",\"params\":{";
    bool first = true;
    if (!info->tool_name.empty()) {
      out += "\"name\":";
      append_json_string(out, info->tool_name);
      first = false;
    }
    if (info->has_params) {
      out += first ? "" : ",";
      out += fmt::format("\"mcptriage_params_hash\":\"{:016x}\"", info->params_hash);
      first = false;
    }
    if (info->protocol_version) {
      out += first ? "" : ",";
      out += "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":";
      append_json_string(out, *info->protocol_version);
      out += '}';
    }
    out += '}';
  }
  out += '}';
  return out;
}

/// HAR 1.2 wants an absolute URL: a request target that is a path gets its Host's origin.
std::string absolute_url(const Request* req) {
  if (req == nullptr || req->target.empty()) return "http://unknown.invalid/";
  const std::string& t = req->target;
  if (t.starts_with("http://") || t.starts_with("https://")) return t;
  const std::string host(find_header(req->headers, "Host").value_or("unknown.invalid"));
  return "http://" + host + (t.starts_with('/') ? t : "/" + t);
}

class HarSink final : public RecordSink {
 public:
  explicit HarSink(Output& out) : out_(out) {}
  bool wants_har() const override { return true; }
  void begin_input(const InputInfo& input) override { input_ = std::string(input.name); }
  void record(const Record& r, const Check&, std::string_view) override {
    if (!r.har || r.har.get() == last_) return;  // a batch reply's records share one entry
    last_ = r.har.get();
    std::string& b = out_.buffer();
    if (entries_ == 0) b += har_log_head("mcptriage");
    else b += ",\n";
    ++entries_;
    // The entry ends with its `_mcptriage` object's brace and its own (export_har_entry): the
    // record's source goes in before them.
    const std::string& e = *r.har;
    b.append(e, 0, e.size() - 2);
    // The exchange's source, without a batch element's `[k]`.
    b += ",\"source\":";
    append_json_string(b, source_text(input_, SourceRef{r.source.input, r.source.exchange}));
    b += "}}";
    out_.commit();
  }
  void skipped(const SkippedEntry&) override { ++skipped_; }
  void input_failed(std::string_view, std::string_view) override { ++failed_; }
  void finish() override {
    std::string& b = out_.buffer();
    if (entries_ == 0) b += har_log_head("mcptriage");
    std::string comment = fmt::format("{} exchange(s) exported by mcptriage {} (--export-har), {}", entries_,
                                      tool_version(),
                                      redaction_enabled() ? "redacted: credentials in headers, URLs and bodies are "
                                                            "[REDACTED] (docs/security.md)"
                                                          : "NOT redacted (--no-redact): it holds every credential captured");
    if (skipped_ > 0) comment += fmt::format("; {} capture entries that are not MCP calls were left out", skipped_);
    if (failed_ > 0) comment += fmt::format("; {} input(s) or log lines could not be read", failed_);
    b += har_log_tail(entries_ > 0, comment);
    out_.flush();
  }

 private:
  Output& out_;
  std::string input_;
  const std::string* last_ = nullptr;
  std::size_t entries_ = 0, skipped_ = 0, failed_ = 0;
};

}  // namespace

std::string export_har_entry(const Exchange& ex, const ContextFlags& flags, const ReadAlong* along) {
  const Request* req = ex.request ? &*ex.request : nullptr;
  const Response& resp = ex.response;
  HarEntry e;
  e.started = har_iso_time_ns(ex.time.started_unix_ns.value_or(0));
  const double time_ms = ex.time.duration_ms.value_or(ex.timing && ex.timing->final_ms ? *ex.timing->final_ms : 0.0);
  e.time_us = std::llround(time_ms * 1000.0);
  e.method = req && !req->method_line.empty() ? req->method_line : "POST";
  e.url = absolute_url(req);
  const Headers none;
  e.request_headers = req ? &req->headers : &none;
  bool rebuilt = false;
  if (req && req->body) {
    e.post = har_text(*req->body);
    e.request_body_size = static_cast<long long>(req->body->size());
  } else {
    const RequestInfo* info = req && req->info ? &*req->info
                              : along && along->request ? &*along->request
                              : flags.request ? &*flags.request
                                              : nullptr;
    if (auto body = rebuilt_request(info, flags)) {
      e.post = HarText{redact_body(*body), false};
      e.request_body_size = -1;
      rebuilt = true;
    }
  }
  e.status = resp.status;
  e.status_text = resp.reason;
  if (!resp.http_version.empty()) e.response_http_version = resp.http_version;
  e.response_headers = &resp.headers;
  e.content_size = resp.body.size();
  if (ex.format == CaptureFormat::bare_sse) e.content_mime = "text/event-stream";  // read back as a stream
  if (resp.body_state == BodyState::not_captured || resp.body_state == BodyState::absent) {
    e.content_comment = resp.body_state == BodyState::absent ? "the capture shows no body (curl --fail)"
                                                            : "the capture did not keep the body";
  } else {
    e.content = har_text(resp.body);
  }
  e.response_body_size = -1;
  e.wait_us = e.time_us;  // the parts of the time are not known: all of it waiting
  std::string& c = e.custom;
  c += "\"format\":";
  append_json_string(c, to_string(ex.format));
  c += fmt::format(",\"transport_captured\":{},\"body\":\"{}\"", resp.transport_captured ? "true" : "false",
                   body_state_name(resp.body_state));
  if (!resp.undecoded_coding.empty()) {
    c += ",\"undecoded_coding\":";
    append_json_string(c, resp.undecoded_coding);
  }
  if (rebuilt) c += ",\"request_rebuilt\":true";
  if (!ex.time.started_unix_ns) c += ",\"started_unknown\":true";
  std::string out;
  out.reserve(resp.body.size() + 1024);
  append_har_entry(out, e);
  return out;
}

std::unique_ptr<RecordSink> make_har_sink(Output& out) { return std::make_unique<HarSink>(out); }

}  // namespace mcptriage
