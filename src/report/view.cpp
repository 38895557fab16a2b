// The redacted view of an exchange that the session reports show (report.hpp, make_exchange_view).
#include <algorithm>
#include <string>

#include "json/dom.hpp"
#include "mcptriage/http.hpp"
#include "mcptriage/report.hpp"
#include "mcptriage/sse.hpp"

namespace mcptriage {

namespace {

/// redact(), then valid UTF-8, then at most `max` bytes (cut at a code point boundary).
std::string preview(std::string_view raw, std::size_t max) {
  // Cut first (with room for a credential the cut would split to be seen whole), then redact.
  std::string text = to_valid_utf8(redact(raw.substr(0, std::min(raw.size(), max + 1024))));
  if (text.size() > max) {
    std::size_t cut = max;
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
    text.resize(cut);
  }
  return text;
}

std::vector<Header> headers_view(const Headers& headers) {
  std::vector<Header> out;
  for (const Header& h : headers) {
    if (out.size() == ExchangeView::kMaxHeaders) break;
    out.push_back(Header{preview(h.name, 256), preview(redact_header(h.name, h.value), 1024)});
  }
  return out;
}

/// The JSON-RPC role and method of an event's data ("" when it is no JSON-RPC message object).
void read_role(json::Parser& parser, const std::string& data, EventView& ev) {
  auto root = parser.parse_string(data);
  if (!root || !root->is_object()) return;
  const auto method = root->string_at("method");
  const bool has_id = root->get("id").has_value();
  if (method) {
    ev.method = preview(*method, 200);
    ev.role = has_id ? "request" : "notification";
  } else if (root->get("error")) {
    ev.role = "error";
  } else if (root->get("result")) {
    ev.role = "response";
  }
}

}  // namespace

ExchangeView make_exchange_view(const Exchange& ex) {
  ExchangeView v;
  if (ex.request) {
    v.http_method = preview(ex.request->method_line, 32);
    v.target = preview(redact_url(ex.request->target), 1024);
    v.request_headers = headers_view(ex.request->headers);
    if (ex.request->body) {
      v.request_body = preview(*ex.request->body, ExchangeView::kBodyPreview);
      v.request_body_size = ex.request->body->size();
    }
  }
  v.response_headers = headers_view(ex.response.headers);
  v.response_body = preview(ex.response.body, ExchangeView::kBodyPreview);
  v.response_body_size = ex.response.body.size();
  const auto type = find_header(ex.response.headers, "content-type");
  const bool sse = (type && http::media_type_is(*type, "text/event-stream")) || ex.format == CaptureFormat::bare_sse;
  if (sse && ex.response.undecoded_coding.empty()) {
    const sse::Stream stream = sse::parse(ex.response.body);
    v.events_total = stream.events.size();
    v.stream_unterminated = stream.unterminated_tail;
    json::Parser parser;
    for (const sse::Event& e : stream.events) {
      if (v.events.size() == ExchangeView::kMaxEvents) break;
      EventView ev;
      ev.type = preview(e.type, 64);
      ev.id = preview(e.last_event_id, 128);
      read_role(parser, e.data, ev);
      ev.preview = preview(e.data, ExchangeView::kEventPreview);
      v.events.push_back(std::move(ev));
    }
  }
  v.started_unix_ns = ex.time.started_unix_ns;
  v.duration_ms = ex.time.duration_ms;
  if (!v.duration_ms && ex.timing && ex.timing->final_ms) v.duration_ms = ex.timing->final_ms;
  return v;
}

}  // namespace mcptriage
