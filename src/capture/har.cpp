// HAR 1.2 reader (Chrome/Firefox DevTools, mitmproxy, Charles, Insomnia): one exchange per entry.
// Spec: HAR 1.2 (softwareishard.com/blog/har-12-spec); exporter quirks: shared/capture-formats.md §3.
#include <chrono>
#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "capture/body.hpp"
#include "capture/json_message.hpp"
#include "capture/legs.hpp"
#include "json/dom.hpp"
#include "capture/readers.hpp"
#include "http/tokens.hpp"
#include "mcptriage/http.hpp"
#include "mcptriage/sse.hpp"

namespace mcptriage::capture {

namespace {

using json::View;

bool is_ws(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

std::optional<std::string_view> string_at(View e, std::string_view key) { return e.string_at(key); }

/// An integer member; doubles are truncated (some exporters write `200.0`), others nullopt.
std::optional<long long> integer_at(View e, std::string_view key) {
  auto v = e.get(key);
  if (!v) return std::nullopt;
  if (auto i = v->int64()) return static_cast<long long>(*i);
  if (auto d = v->number(); d && *d > -1e15 && *d < 1e15) return static_cast<long long>(*d);
  return std::nullopt;
}

/// A HAR response's `status` (HAR 1.2: a number; 0 when there was no response). A string of
/// digits (`"200"`, seen in hand-made HARs) is read with a warning; any other value, a
/// fraction or a number outside 0..999 leaves nullopt and `problem` saying what it was.
std::optional<int> har_status(View response, std::vector<std::string>& warnings, std::string& problem) {
  auto v = response.get("status");
  if (!v) {
    problem = "missing";
    return std::nullopt;
  }
  const std::string_view text = v->string().value_or("");
  if (auto i = v->int64()) {
    if (*i >= 0 && *i <= 999) return static_cast<int>(*i);
  } else if (auto d = v->number()) {
    if (*d >= 0 && *d <= 999 && *d == static_cast<double>(static_cast<int>(*d))) return static_cast<int>(*d);  // 200.0
  } else if (v->is_string() && text.size() == 3 &&
             std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    warnings.push_back("HAR response.status is the string \"" + std::string(text) + "\", not a number: read as " +
                       std::string(text));
    return (text[0] - '0') * 100 + (text[1] - '0') * 10 + (text[2] - '0');
  }
  problem = json::minified(*v);  // minified JSON: printable, redacted and escaped by the renderers
  if (problem.size() > 40) {
    std::size_t cut = 40;
    while (cut > 0 && (static_cast<unsigned char>(problem[cut]) & 0xC0) == 0x80) --cut;  // whole UTF-8 sequences
    problem = problem.substr(0, cut) + "...";
  }
  return std::nullopt;
}

/// HAR `headers` array of `{name, value}` (HAR 1.2 "headers"); other shapes give nothing.
Headers read_headers(View parent) {
  Headers out;
  auto list = parent.get("headers");
  if (!list || !list->is_array()) return out;
  for (View h : list->items()) {
    auto name = string_at(h, "name");
    if (!name) continue;
    std::string_view value = string_at(h, "value").value_or("");
    out.push_back(Header{std::string(*name), std::string(value)});
  }
  return out;
}

/// "http/2.0" (Chrome), "HTTP/2.0" (mitmproxy), "h3" -> the curl spelling "HTTP/2", "HTTP/3".
std::string normalise_http_version(std::string_view v) {
  const std::string lower = http::lower(v);
  if (lower == "http/2.0" || lower == "http/2" || lower == "h2" || lower == "h2c") return "HTTP/2";
  if (lower == "http/3.0" || lower == "http/3" || lower == "h3") return "HTTP/3";
  if (lower == "http/1.1") return "HTTP/1.1";
  if (lower == "http/1.0") return "HTTP/1.0";
  return std::string(v);
}

/// A non-empty `_error` string (Chrome, mitmproxy); `null` and "" mean no error.
std::optional<std::string> error_of(View e) {
  auto s = string_at(e, "_error");
  if (!s || s->empty()) return std::nullopt;
  return std::string(*s);
}

/// `_eventSourceMessages` (cypress-har-generator proposal) as an event-stream body.
std::optional<std::string> event_source_body(View entry, View response, View content) {
  for (View holder : {content, response, entry}) {
    auto list = holder.get("_eventSourceMessages");
    if (!list || !list->is_array()) continue;
    std::string body;
    for (View m : list->items()) {
      std::string_view data = string_at(m, "data").value_or("");
      std::string_view type = string_at(m, "eventName").value_or(string_at(m, "type").value_or(""));
      std::string_view id = string_at(m, "eventId").value_or(string_at(m, "id").value_or(""));
      body += sse_event_text(type, id, data);
    }
    return body;
  }
  return std::nullopt;
}

/// Where the entries are (HAR 1.2 "log", "entries").
constexpr std::string_view kEntries[] = {"log", "entries"};

class HarReader {
 public:
  HarReader(std::string_view name, const CaptureOptions& options) : name_(name), options_(options) {}

  /// The exchanges, all returned, or (with `batches`) handed over kBatch at a time.
  std::expected<std::vector<Exchange>, CaptureError> read(std::string_view bytes, const ExchangeBatches* batches) {
    // The entries one at a time (simdjson On-Demand over the file, one entry's tree at a time):
    // the file's size in memory rather than a tree of the whole file beside it. Any fault, or
    // anything this walk does not follow, is read again as one document below, which says why.
    std::vector<Exchange> out;
    std::size_t index = 0;
    bool handed_over = false;
    auto hand_over = [&] {
      if (batches == nullptr || out.empty()) return;
      (*batches)(out, false);
      out.clear();
      handed_over = true;
    };
    if (json::for_each_element_at(bytes, options_.padded, kEntries, [&](View entry) {
          out.push_back(read_entry(entry, ++index));
          if (out.size() == kBatch) hand_over();
        })) {
      if (index == 0) {
        return std::unexpected(CaptureError{"HAR: \"log.entries\" is empty: the archive recorded no request"});
      }
      hand_over();
      return out;
    }
    out.clear();
    auto whole = read_document(bytes);
    if (whole && batches != nullptr) {
      (*batches)(*whole, handed_over);
      whole->clear();
    }
    return whole;
  }

 private:
  std::expected<std::vector<Exchange>, CaptureError> read_document(std::string_view bytes) {
    auto root = doc_parser_.parse(bytes, options_.padded);
    if (!root) {
      // simdjson calls a complete document with more after it a structure error, as it does a
      // cut one: say which (RFC 8259 §2: a JSON text is one value).
      const auto fault = root.error().fault;
      if (fault == json::ParseFault::cut_short || fault == json::ParseFault::syntax) {
        doc_parser_ = json::Parser();  // its buffers for the whole file go before the probe's come
        if (auto at = json::trailing_data_at(bytes, options_.padded)) {
          return std::unexpected(CaptureError{"HAR: text after the JSON document at byte " + std::to_string(*at) +
                                              " (a HAR file is one JSON object, HAR 1.2 \"log\")"});
        }
      }
      return std::unexpected(CaptureError{parse_error_text(root.error())});
    }
    auto log = root->get("log");
    if (!log || !log->is_object()) {
      return std::unexpected(CaptureError{"HAR: the top-level object has no \"log\" object"});
    }
    auto entries = log->get("entries");
    if (!entries || !entries->is_array()) {
      return std::unexpected(CaptureError{"HAR: \"log.entries\" is missing or not an array"});
    }
    std::vector<Exchange> out;
    out.reserve(entries->size());
    std::size_t index = 0;
    for (View entry : entries->items()) {
      ++index;
      out.push_back(read_entry(entry, index));
    }
    if (out.empty()) {
      return std::unexpected(CaptureError{"HAR: \"log.entries\" is empty: the archive recorded no request"});
    }
    return out;
  }

  static constexpr std::size_t kBatch = 256;  ///< entries per batch handed over
  std::string_view name_;
  const CaptureOptions& options_;
  json::Parser doc_parser_;
  json::Parser body_parser_;  ///< for request and response bodies (small documents)

  static std::string parse_error_text(const json::ParseError& err) {
    switch (err.fault) {
      case json::ParseFault::utf8:
        return "HAR: not valid UTF-8 (a HAR file is UTF-8 JSON, HAR 1.2 \"log\")";
      case json::ParseFault::too_deep:
        return "HAR: JSON nested deeper than " + std::to_string(json::kMaxDepth) + " levels";
      case json::ParseFault::too_large: return "HAR: too large to parse";
      case json::ParseFault::cut_short:
        return "HAR: not valid JSON, the file looks cut short (" + std::string(err.message) + ")";
      default: return "HAR: not valid JSON (" + std::string(err.message) + ")";
    }
  }


  Exchange read_entry(View entry, std::size_t index) {
    Exchange ex;
    ex.source = source_name(name_, index);
    ex.format = CaptureFormat::har;
    if (!entry.is_object()) {
      return skipped_exchange(std::move(ex), SkipReason::invalid_entry, "log.entries[" + std::to_string(index - 1) + "] is not an object");
    }
    // HAR 1.2 "entries": startedDateTime (ISO 8601) and time (ms, the sum of the timings; -1: unknown).
    if (auto started = entry.string_at("startedDateTime")) ex.time.started_unix_ns = iso8601_unix_ns(*started);
    if (auto t = entry.get("time"); t && t->is_number()) {
      if (auto ms = t->number(); ms && *ms >= 0 && *ms < 1e12) ex.time.duration_ms = *ms;
    }
    auto req = entry.get("request");
    auto resp = entry.get("response");
    if (!req || !req->is_object()) {
      return skipped_exchange(std::move(ex), SkipReason::invalid_entry,
                     "log.entries[" + std::to_string(index - 1) + "] has no \"request\" object (HAR 1.2 requires one)");
    }

    // The request: the context the classifier needs (HAR 1.2 "request", "postData").
    Request request;
    request.method_line = std::string(string_at(*req, "method").value_or(""));
    request.target = std::string(string_at(*req, "url").value_or(""));
    request.headers = read_headers(*req);
    if (auto post = req->get("postData")) {
      if (auto text = string_at(*post, "text")) {
        std::string body(*text);
        if (string_at(*post, "encoding") == std::optional<std::string_view>("base64")) {
          if (auto decoded = base64_decode(body)) body = std::move(*decoded);
        }
        request.body = std::move(body);
      }
    }
    const std::string method = request.method_line;  // a copy: `request` is moved below
    const std::string what = request_for_detail(request);

    // What the request says about MCP.
    MessageInfo sent;
    if (request.body) sent = inspect_request_text(body_parser_, *request.body, request.info);
    const bool mcp_headers = find_header(request.headers, "mcp-session-id").has_value() ||
                             find_header(request.headers, "mcp-protocol-version").has_value() ||
                             find_header(request.headers, "last-event-id").has_value();
    const std::string_view resource_type = string_at(entry, "_resourceType").value_or("");
    const std::string_view accept = find_header(request.headers, "accept").value_or("");

    // The response (HAR 1.2 "response", "content").
    Response& r = ex.response;
    std::optional<View> content;
    long long status = 0;
    std::string status_problem;  // the status is no HTTP status code (har_status)
    std::string media;
    if (resp && resp->is_object()) {
      status = har_status(*resp, ex.warnings, status_problem).value_or(0);
      r.reason = std::string(string_at(*resp, "statusText").value_or(""));
      r.http_version = normalise_http_version(string_at(*resp, "httpVersion").value_or(""));
      r.headers = read_headers(*resp);
      content = resp->get("content");
      if (content && !content->is_object()) content.reset();
      if (auto ct = find_header(r.headers, "content-type")) {
        media = http::media_type(*ct);
      } else if (content) {
        std::string_view mime = string_at(*content, "mimeType").value_or("");
        if (!mime.empty() && mime != "x-unknown") media = http::media_type(mime);
      }
    }
    r.status = status < 0 || status > 999 ? 0 : static_cast<int>(status);
    r.transport_captured = true;
    // An entry `mcptriage --export-har` wrote (docs/bundle.md): its `_mcptriage` object says the
    // capture format, whether the HTTP transport was captured and the body's state, which HAR has
    // no field for. Such an entry was an exchange when it was written: it is never skipped as not
    // MCP (a curl -i capture of a 401 has no request to show it), and it reads back as it was.
    struct Exported {
      bool transport_captured = true;
      std::string body;
    };
    std::optional<Exported> exported;
    if (auto m = entry.get("_mcptriage"); m && m->is_object()) {
      const auto transport = m->bool_at("transport_captured");
      const auto body_state = string_at(*m, "body");
      if (string_at(*m, "format") && transport && body_state) exported = Exported{*transport, std::string(*body_state)};
    }
    const bool sse_media = media == "text/event-stream";

    std::optional<std::string_view> text;
    if (content) text = string_at(*content, "text");
    // Is the response a JSON-RPC message? Only asked when the request did not say.
    // The text as the client got it: base64 decoded when `encoding` says so; an event stream's
    // messages are in its events' data (an SSE reply exported without its request's postData).
    auto response_is_jsonrpc = [&]() {
      if (!text || text->empty()) return false;
      std::string decoded;
      std::string_view body = *text;
      if (string_at(*content, "encoding") == std::optional<std::string_view>("base64")) {
        if (auto d = base64_decode(body)) {
          decoded = std::move(*d);
          body = decoded;
        }
      }
      if (inspect_message_text(body_parser_, body).kind != MessageKind::not_jsonrpc) return true;
      if (!sse_media) return false;
      const sse::Stream stream = sse::parse(body);
      constexpr std::size_t kLooked = 16;  // events looked at: a message comes among the first few
      for (std::size_t k = 0; k < stream.events.size() && k < kLooked; ++k) {
        if (inspect_message_text(body_parser_, stream.events[k].data).kind != MessageKind::not_jsonrpc) return true;
      }
      return false;
    };
    const bool stream_request = resource_type == "eventsource" ||
                                (method == "GET" && (sse_media || http::list_has(accept, "text/event-stream")));
    const bool mcp = exported || sent.kind != MessageKind::not_jsonrpc || mcp_headers || stream_request || response_is_jsonrpc();
    const bool auth_leg = is_oauth_leg(request) || (options_.auth && is_auth_request(request));
    if (!mcp && !auth_leg) {  // an OAuth leg is skipped below, saying what it says
      std::string kind;
      if (!resource_type.empty()) kind = ", " + std::string(resource_type);
      return skipped_exchange(std::move(ex), SkipReason::not_mcp,
                     what + " -> " + std::to_string(r.status) + (media.empty() ? "" : " " + media) + kind +
                         ": no JSON-RPC message in the request or the response");
    }

    ex.request = std::move(request);
    if (auto ct = find_header(r.headers, "content-type"); !ct && content) {
      std::string_view mime = string_at(*content, "mimeType").value_or("");
      if (!mime.empty() && mime != "x-unknown") {
        add_header(r.headers, "Content-Type", mime);
        ex.warnings.push_back("no Content-Type header in the HAR entry: taken from content.mimeType");
      }
    }

    // Body state: HAR 1.2 leaves `text` out when the body is unknown.
    auto not_captured = [&](std::string why) {
      r.body_state = BodyState::not_captured;
      ex.warnings.push_back(std::move(why));
    };
    const auto error = error_of(entry) ? error_of(entry) : (resp ? error_of(*resp) : std::nullopt);
    std::optional<std::string> rebuilt;
    if (!text && content) rebuilt = event_source_body(entry, *resp, *content);
    if (!resp || !resp->is_object()) {
      not_captured("HAR entry without a \"response\" object: no response was recorded");
    } else if (!status_problem.empty()) {
      not_captured("HAR response.status is " + status_problem +
                   ", not an HTTP status code: the response cannot be judged");
    } else if (r.status == 0) {
      not_captured("HAR status 0: the request got no response (never sent, blocked or failed" +
                   (error ? ": " + *error : std::string()) + ")");
    } else if (exported && exported->body == "absent" && !text) {
      r.body_state = BodyState::absent;  // the capture showed the headers and no body (curl --fail)
    } else if (rebuilt) {
      // The messages an EventSource received, kept by the exporter although the body was not.
      r.body = std::move(*rebuilt);
      ex.warnings.push_back("no content.text: the event stream was rebuilt from _eventSourceMessages" +
                            (error ? "; the stream then ended with _error " + *error : std::string()));
    } else if (error && !text && resource_type == "eventsource") {
      not_captured("an EventSource request: DevTools never keeps its body (no content.text; _error " + *error + ")");
    } else if (error) {
      not_captured("HAR _error " + *error + ": the transfer failed" +
                   (text && !text->empty() ? "; the " + std::to_string(text->size()) + " bytes kept are not judged"
                                           : std::string()));
    } else if (text) {
      r.body = std::string(*text);
      if (string_at(*content, "encoding") == std::optional<std::string_view>("base64")) {
        if (auto decoded = base64_decode(r.body)) {
          r.body = std::move(*decoded);
        } else {
          ex.warnings.push_back("content.encoding says base64 but the text is not base64 (" + decoded.error() +
                                "): read as plain text");
        }
      } else if (auto enc = string_at(*content, "encoding"); enc && !enc->empty()) {
        ex.warnings.push_back("content.encoding \"" + std::string(*enc) + "\" is unknown: text read as is");
      }
      decode_body(r, ex.warnings, options_.max_body, CodingEvidence::decoded_by_format);
    } else if (auto comment = content ? string_at(*content, "comment") : std::nullopt; comment && !comment->empty()) {
      not_captured("no content.text; the exporter says: " + std::string(*comment));
    } else if (content && integer_at(*content, "size") == 0 && !sse_media) {
      // The exporter knows the body was empty (a 202 from some exporters).
      ex.warnings.push_back("no content.text but content.size 0: read as an empty body");
    } else if (resource_type == "eventsource") {
      not_captured("an EventSource request: DevTools never keeps its body (no content.text)");
    } else {
      not_captured(sse_media ? "no content.text: the event stream was still open or its body was not kept"
                             : "no content.text: the exporter did not keep the body");
    }

    if (exported) {
      if (!exported->transport_captured) r.transport_captured = false;  // a bare body: the status was assumed
      if (exported->body == "truncated" && r.body_state == BodyState::complete) r.body_state = BodyState::truncated;
    }
    // A session DELETE, a CORS preflight, the standalone GET stream: no JSON-RPC call (legs.hpp).
    if (options_.auth && auth_leg && sent.kind == MessageKind::not_jsonrpc) return ex;  // judged by src/auth
    if (auto skip = non_call_leg(*ex.request, r)) return skipped_exchange(std::move(ex), skip->reason, std::move(skip->detail));
    return ex;
  }
};

}  // namespace

bool sniff_har(std::string_view text) {
  if (text.empty() || text.front() != '{') return false;
  std::size_t i = 1;
  while (i < text.size() && i < 4096 && is_ws(text[i])) ++i;
  return text.substr(i, 5) == "\"log\"";
}

/// ISO 8601 date-time as HAR writes it (`2009-07-24T19:20:30.45+01:00`, `...Z`): nanoseconds
/// since the Unix epoch, nullopt for anything else, and for instants before 1970 or past
/// 2262-04-11 that 64-bit nanoseconds cannot hold (a date-time is only informative).
std::optional<std::int64_t> iso8601_unix_ns(std::string_view s) {
  auto digits = [&](std::size_t at, std::size_t n) -> std::optional<int> {
    if (at + n > s.size()) return std::nullopt;
    int v = 0;
    for (std::size_t i = at; i < at + n; ++i) {
      if (s[i] < '0' || s[i] > '9') return std::nullopt;
      v = v * 10 + (s[i] - '0');
    }
    return v;
  };
  auto y = digits(0, 4), mo = digits(5, 2), d = digits(8, 2), h = digits(11, 2), mi = digits(14, 2), se = digits(17, 2);
  if (!y || !mo || !d || !h || !mi || !se || s[4] != '-' || s[7] != '-' || (s[10] != 'T' && s[10] != ' ') ||
      s[13] != ':' || s[16] != ':' || *mo < 1 || *mo > 12 || *d < 1 || *d > 31 || *h > 23 || *mi > 59 || *se > 60) {
    return std::nullopt;
  }
  std::size_t i = 19;
  std::int64_t frac_ns = 0;
  if (i < s.size() && s[i] == '.') {
    std::int64_t scale = 100000000;
    for (++i; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i, scale /= 10) frac_ns += (s[i] - '0') * scale;
  }
  std::int64_t offset_s = 0;
  if (i < s.size() && (s[i] == 'Z' || s[i] == 'z')) {
    ++i;
  } else if (i < s.size() && (s[i] == '+' || s[i] == '-')) {
    auto oh = digits(i + 1, 2);
    const std::size_t m_at = i + 3 < s.size() && s[i + 3] == ':' ? i + 4 : i + 3;
    auto om = digits(m_at, 2);
    if (!oh || !om) return std::nullopt;
    offset_s = (s[i] == '-' ? -1 : 1) * (*oh * 3600 + *om * 60);
    i = m_at + 2;
  } else {
    return std::nullopt;
  }
  if (i != s.size()) return std::nullopt;
  const std::chrono::year_month_day ymd{std::chrono::year{*y}, std::chrono::month{static_cast<unsigned>(*mo)},
                                        std::chrono::day{static_cast<unsigned>(*d)}};
  if (!ymd.ok()) return std::nullopt;
  const std::int64_t days = std::chrono::sys_days{ymd}.time_since_epoch().count();
  const std::int64_t secs = days * 86400 + *h * 3600 + *mi * 60 + *se - offset_s;
  // Nanoseconds since the epoch fit in 64 bits from 1970 to 2262-04-11; a date-time outside
  // that span (a year 0000 or 9999 written by a broken exporter) is not a usable start time.
  constexpr std::int64_t kMaxSecs = std::numeric_limits<std::int64_t>::max() / 1000000000 - 1;
  if (secs < 0 || secs > kMaxSecs) return std::nullopt;
  return secs * 1000000000 + frac_ns;
}

bool har_entries_readable(std::string_view bytes, const CaptureOptions& options) {
  std::size_t entries = 0;
  return json::for_each_element_at(bytes, options.padded, kEntries, [&](View) { ++entries; }) && entries > 0;
}

std::expected<std::vector<Exchange>, CaptureError> read_har(std::string_view bytes, std::string_view name,
                                                            const CaptureOptions& options) {
  HarReader reader(name, options);
  return reader.read(bytes, nullptr);
}

std::expected<std::vector<Exchange>, CaptureError> read_har_batches(std::string_view bytes, std::string_view name,
                                                                    const CaptureOptions& options,
                                                                    const ExchangeBatches& batches) {
  HarReader reader(name, options);
  return reader.read(bytes, &batches);
}

}  // namespace mcptriage::capture
