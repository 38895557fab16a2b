// The HTML session report (report.hpp, make_html_sink; docs/report.md): a page whose data is the
// run's records as JSON inside a <script type="application/json"> element, drawn by the page's
// own script (html_page.hpp) with DOM text nodes only, a window of rows at a time.
#include <fmt/format.h>

#include <charconv>
#include <string>

#include "mcptriage/report.hpp"
#include "mcptriage/session.hpp"
#include "report/html_page.hpp"

namespace mcptriage {

std::string json_for_script(std::string_view json) {
  std::string out;
  out.reserve(json.size() + 16);
  for (std::size_t i = 0; i < json.size(); ++i) {
    const char ch = json[i];
    switch (ch) {
      case '<': out += "\\u003c"; break;
      case '>': out += "\\u003e"; break;
      case '&': out += "\\u0026"; break;
      case '\xE2':
        // U+2028 LINE SEPARATOR and U+2029 PARAGRAPH SEPARATOR: E2 80 A8 / E2 80 A9.
        if (i + 2 < json.size() && json[i + 1] == '\x80' && (json[i + 2] == '\xA8' || json[i + 2] == '\xA9')) {
          out += json[i + 2] == '\xA8' ? "\\u2028" : "\\u2029";
          i += 2;
          break;
        }
        out += ch;
        break;
      default: out += ch;
    }
  }
  return out;
}

namespace {

/// A JSON string of text that is redacted and valid UTF-8 already (an ExchangeView's).
void put_str(std::string& out, std::string_view s) {
  out += '"';
  out += json_escape(s);
  out += '"';
}

void put_headers(std::string& out, const std::vector<Header>& headers) {
  out += '[';
  for (std::size_t i = 0; i < headers.size(); ++i) {
    out += i ? ",[" : "[";
    put_str(out, headers[i].name);
    out += ',';
    put_str(out, headers[i].value);
    out += ']';
  }
  out += ']';
}

/// The `v` member of an exchange element: the view (report.hpp, ExchangeView).
void put_view(std::string& out, const ExchangeView& v) {
  out += "{\"hm\":";
  put_str(out, v.http_method);
  out += ",\"tg\":";
  put_str(out, v.target);
  out += ",\"qh\":";
  put_headers(out, v.request_headers);
  out += ",\"rh\":";
  put_headers(out, v.response_headers);
  out += ",\"qb\":";
  put_str(out, v.request_body);
  out += fmt::format(",\"qbn\":{},\"rb\":", v.request_body_size);
  put_str(out, v.response_body);
  out += fmt::format(",\"rbn\":{},\"ev\":[", v.response_body_size);
  for (std::size_t i = 0; i < v.events.size(); ++i) {
    const EventView& e = v.events[i];
    out += i ? ",{\"t\":" : "{\"t\":";
    put_str(out, e.type);
    out += ",\"id\":";
    put_str(out, e.id);
    out += ",\"m\":";
    put_str(out, e.method);
    out += ",\"ro\":";
    put_str(out, e.role);
    out += ",\"p\":";
    put_str(out, e.preview);
    out += '}';
  }
  out += fmt::format("],\"evn\":{},\"cut\":{},\"t0\":", v.events_total, v.stream_unterminated);
  if (v.started_unix_ns) out += fmt::format("\"{}\"", *v.started_unix_ns);
  else out += "null";
  out += ",\"dur\":";
  if (v.duration_ms) out += fmt::format("{}", *v.duration_ms);
  else out += "null";
  out += '}';
}

class HtmlSink final : public RecordSink {
 public:
  HtmlSink(Output& out, bool stream) : out_(out), stream_(stream) {
    out_.buffer() += html_page_head();
    out_.buffer() += "<script type=\"application/json\" id=\"mcptriage-data\">[\n";
  }

  bool wants_views() const override { return true; }

  void begin_input(const InputInfo& input) override {
    name_ = input.name;
    element(fmt::format("{{\"k\":\"input\",\"i\":{},\"name\":\"{}\"}}", input.index, json_escape(redact(input.name))));
  }

  void record(const Record& r, const Check& check, std::string_view) override {
    std::string e = "{\"k\":\"x\",\"rec\":";
    if (r.session) {
      std::string rec;
      append_jsonl(rec, r, name_);
      append_with_session_member(e, rec, *r.session);
    } else {
      append_jsonl(e, r, name_);
    }
    if (check.has_expectation) {
      e += fmt::format(",\"check\":{{\"passed\":{},\"failure\":\"{}\"}}", check.passed, json_escape(redact(check.failure)));
    }
    e += ",\"v\":";
    if (r.view) put_view(e, *r.view);
    else e += "null";
    e += '}';
    element(e);
  }

  void skipped(const SkippedEntry& entry) override {
    element("{\"k\":\"skip\",\"rec\":" +
            render_skipped_jsonl(source_text(name_, entry.source), to_string(entry.format), entry.skip) + "}");
  }

  /// The session's summary goes with the last input's head (the page shows one head per input).
  void end_session(const SessionEnd& end) override {
    std::string e = fmt::format("{{\"k\":\"end\",\"name\":\"{}\",\"summary\":", json_escape(redact(end.name)));
    e += end.summary ? render_summary_jsonl(end.name, to_string(end.format), *end.summary) : std::string("null");
    e += '}';
    element(e);
  }

  void input_failed(std::string_view name, std::string_view why) override {
    element(fmt::format("{{\"k\":\"error\",\"name\":\"{}\",\"why\":\"{}\"}}", json_escape(redact(name)),
                        json_escape(redact(why))));
  }

  void finish() override {
    out_.buffer() += "\n]</script>\n";
    out_.buffer() += html_page_tail();
    out_.flush();
  }

 private:
  void element(std::string_view json) {
    std::string& b = out_.buffer();
    if (any_) b += ",\n";
    any_ = true;
    b += json_for_script(json);
    if (stream_) out_.commit();
  }

  Output& out_;
  bool stream_;
  bool any_ = false;
  std::string name_;
};

}  // namespace

std::unique_ptr<RecordSink> make_html_sink(Output& out, bool stream) { return std::make_unique<HtmlSink>(out, stream); }

}  // namespace mcptriage
