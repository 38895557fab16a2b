// The HTML session report (report.hpp, make_html_sink; docs/report.md): a page whose data is the
// run's records inside one <script type="application/json"> element, drawn by the page's own
// script (html_page.hpp) with DOM text nodes only, a window of rows at a time.
//
// The data element holds one JSON value per line (newlines only between values; JSON escapes
// every newline inside a string), in the order the records came, so that it is written as they
// come and the page reads it line by line:
//   [0,"text"]                   the next entry of the string table (ids 0, 1, ...)
//   [1,INDEX,"name"]             an input begins
//   [2,"N",STATUS,HM,METHOD,TOOL,"ID",OUTCOME,LAYER,REASON,DETAIL,FLAGS,RETRY,DUR,EVENTS,"RN",RSAFETY]
//                                an exchange record: "N" what follows "name#" in its source;
//                                HM..RETRY and RSAFETY a string or a string-table id (a number);
//                                ID the text of its id ("" none); FLAGS bits: 1 failed (the
//                                record's `failed`), 2 the HTTP status was captured, 4 warnings,
//                                8 its detail follows on the next line, 16 an event stream;
//                                DUR milliseconds or null; "RN" the replayed source's "N" or null
//   {"rec":...,"check":...,"v":...}   the detail of the exchange above it (its JSON Lines record,
//                                its expectation check, its ExchangeView): parsed on demand
//   [3,"N",REASON,DETAIL]        a skipped entry
//   [4,"name",SUMMARY|null]      an input ends (its session summary record)
//   [5,"name","why"]             an input could not be read
//   [6,DETAILS,ALL_BYTES,FAILURE_BYTES]  the last line: details kept, and the budget (HtmlBudget)
#include <fmt/format.h>

#include <string>
#include <unordered_map>

#include "json/dom.hpp"
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
void put_str(std::string& out, std::string_view s) { append_json_string(out, s); }

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

/// The `v` member of a detail line: the view (report.hpp, ExchangeView).
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

/// What follows the last '#' of a source text ("N" or "N[k]"); the whole text when it has none.
std::string_view source_number(std::string_view source) {
  const std::size_t hash = source.rfind('#');
  return hash == std::string_view::npos ? source : source.substr(hash + 1);
}

/// The string member `key` of the object `o`, "" when `o` is absent or the member is no string.
std::string_view str_at(const std::optional<json::View>& o, std::string_view key) {
  if (!o) return {};
  return o->string_at(key).value_or(std::string_view{});
}

class HtmlSink final : public RecordSink {
 public:
  HtmlSink(Output& out, bool stream, HtmlBudget budget) : out_(out), stream_(stream), budget_(budget) {
    out_.buffer() += html_page_head();
    out_.buffer() += "<script type=\"application/json\" id=\"mcptriage-data\">\n";
  }

  bool wants_views() const override { return true; }

  void begin_input(const InputInfo& input) override {
    name_ = input.name;
    line(fmt::format("[1,{},\"{}\"]", input.index, json_escape(redact(input.name))));
  }

  void record(const Record& r, const Check& check, std::string_view) override {
    // The JSON Lines record (with its session member) is the detail's `rec` and, read back, the
    // source of the row's fields: the row says what every other output says.
    std::string rec;
    if (r.session) {
      std::string plain;
      append_jsonl(plain, r, name_);
      append_with_session_member(rec, plain, *r.session);
    } else {
      append_jsonl(rec, r, name_);
    }
    const bool failed = is_failure(r.c.outcome);
    std::string detail;
    if (detail_bytes_ < budget_.all_bytes || (failed && detail_bytes_ < budget_.failure_bytes)) {
      detail = "{\"rec\":" + rec;
      if (check.has_expectation) {
        detail += fmt::format(",\"check\":{{\"passed\":{},\"failure\":\"{}\"}}", check.passed,
                              json_escape(redact(check.failure)));
      }
      detail += ",\"v\":";
      if (r.view) put_view(detail, *r.view);
      else detail += "null";
      detail += '}';
      detail_bytes_ += detail.size();
      ++details_;
    }
    auto root = parser_.parse_string(rec);
    if (!root || !root->is_object()) return;  // append_jsonl always gives an object
    std::string row = "[2,";
    put_str(row, source_number(root->string_at("source").value_or("")));
    const auto http = root->get("http");
    const auto status = http ? http->get("status") : std::nullopt;
    row += ',';
    row += status && status->is_integer() ? json::minified(*status) : std::string("null");
    row += ',';
    put_interned(row, r.view ? std::string_view(r.view->http_method) : std::string_view{});
    row += ',';
    put_interned(row, root->string_at("method").value_or(""));
    row += ',';
    put_interned(row, root->string_at("tool").value_or(""));
    row += ',';
    const auto rpc = root->get("jsonrpc");
    std::optional<json::View> id;
    if (rpc) {
      id = rpc->get("request_id");
      if (!id || id->is_null()) id = rpc->get("id");
    }
    put_str(row, id && !id->is_null() ? json::minified(*id) : std::string());
    row += ',';
    put_interned(row, root->string_at("outcome").value_or(""));
    row += ',';
    put_interned(row, root->string_at("layer").value_or(""));
    row += ',';
    put_interned(row, root->string_at("reason").value_or(""));
    row += ',';
    put_interned(row, root->string_at("detail").value_or(""));
    const auto warnings = root->get("warnings");
    const auto stream = root->get("stream");
    const int flags = (root->bool_at("failed").value_or(false) ? 1 : 0) |
                      (http && http->bool_at("transport_captured").value_or(false) ? 2 : 0) |
                      (warnings && warnings->is_array() && warnings->size() > 0 ? 4 : 0) | (detail.empty() ? 0 : 8) |
                      (stream && stream->is_object() ? 16 : 0);
    row += fmt::format(",{},", flags);
    const auto retry = root->get("retry");
    put_interned(row, str_at(retry, "advice"));
    row += ',';
    if (r.view && r.view->duration_ms) row += fmt::format("{}", *r.view->duration_ms);
    else row += "null";
    row += ',';
    const auto events = stream && stream->is_object() ? stream->get("events") : std::nullopt;
    row += events && events->is_integer() ? json::minified(*events) : std::string("null");
    const auto session = root->get("session");
    const auto replay = session && session->is_object() ? session->get("replay_of") : std::nullopt;
    if (replay && replay->is_object()) {
      row += ',';
      put_str(row, source_number(str_at(replay, "source")));
      row += ',';
      put_interned(row, str_at(replay, "safety"));
    } else {
      row += ",null,null";
    }
    row += ']';
    line(row);
    if (!detail.empty()) line(detail);
  }

  void skipped(const SkippedEntry& entry) override {
    const std::string rec =
        render_skipped_jsonl(source_text(name_, entry.source), to_string(entry.format), entry.skip);
    auto root = parser_.parse_string(rec);
    if (!root || !root->is_object()) return;
    std::string row = "[3,";
    put_str(row, source_number(root->string_at("source").value_or("")));
    row += ',';
    put_interned(row, root->string_at("reason").value_or(""));
    row += ',';
    put_interned(row, root->string_at("detail").value_or(""));
    row += ']';
    line(row);
  }

  /// The session's summary goes with the last input's head (the page shows one head per input).
  void end_session(const SessionEnd& end) override {
    std::string e = fmt::format("[4,\"{}\",", json_escape(redact(end.name)));
    e += end.summary ? render_summary_jsonl(end.name, to_string(end.format), *end.summary) : std::string("null");
    e += ']';
    line(e);
  }

  void input_failed(std::string_view name, std::string_view why) override {
    line(fmt::format("[5,\"{}\",\"{}\"]", json_escape(redact(name)), json_escape(redact(why))));
  }

  void finish() override {
    line(fmt::format("[6,{},{},{}]", details_, budget_.all_bytes, budget_.failure_bytes));
    out_.buffer() += "\n</script>\n";
    out_.buffer() += html_page_tail();
    out_.flush();
  }

 private:
  /// Appends `s` (valid UTF-8, redacted) as a string-table id, defining it first when new;
  /// as a string when long or when the table is full.
  void put_interned(std::string& row, std::string_view s) {
    if (s.empty()) {
      row += "\"\"";
      return;
    }
    if (s.size() <= kInternMax) {
      auto it = table_.find(std::string(s));
      if (it != table_.end()) {
        row += fmt::format("{}", it->second);
        return;
      }
      if (table_.size() < kTableMax) {
        const std::size_t id = table_.size();
        table_.emplace(std::string(s), id);
        std::string def = "[0,";
        put_str(def, s);
        def += ']';
        line(def);
        row += fmt::format("{}", id);
        return;
      }
    }
    put_str(row, s);
  }

  void line(std::string_view json) {
    std::string& b = out_.buffer();
    b += json_for_script(json);
    b += '\n';
    if (stream_) out_.commit();
  }

  static constexpr std::size_t kInternMax = 256;     ///< longer strings are written in place
  static constexpr std::size_t kTableMax = 1 << 16;  ///< entries of the string table at most

  Output& out_;
  bool stream_;
  HtmlBudget budget_;
  std::string name_;
  json::Parser parser_;
  std::unordered_map<std::string, std::size_t> table_;
  std::size_t detail_bytes_ = 0;
  std::size_t details_ = 0;
};

}  // namespace

std::unique_ptr<RecordSink> make_html_sink(Output& out, bool stream, HtmlBudget budget) {
  return std::make_unique<HtmlSink>(out, stream, budget);
}

}  // namespace mcptriage
