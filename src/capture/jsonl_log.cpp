// JSON Lines readers: gateway exchange logs (one object per line with status, headers or media
// type, and a body or a parsed JSON-RPC message) and plain JSON-RPC message streams (the stdio
// framing), paired by id. Shapes accepted: docs/formats.md "JSON Lines".
#include <algorithm>
#include <array>
#include <cstddef>
#include <deque>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "json/dom.hpp"
#include "capture/body.hpp"
#include "capture/json_message.hpp"
#include "capture/legs.hpp"
#include "jsonrpc/request.hpp"
#include "capture/readers.hpp"
#include "http/tokens.hpp"
#include "mcptriage/http.hpp"
#include "mcptriage/sse.hpp"

namespace mcptriage::capture {

namespace {

using json::View;

constexpr std::size_t npos = std::string_view::npos;

bool is_blank(std::string_view s) { return s.find_first_not_of(" \t\r") == npos; }

std::string_view trim_line(std::string_view s) {
  while (!s.empty() && (s.back() == '\r' || s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  return s;
}

/// How many lines a request waits for its reply before it is given up as never answered
/// (JsonLinesReader::expire; docs/formats.md, "Pairing window").
constexpr std::size_t kPairWindowLines = 4096;

/// The first of `keys` present in `e`.
std::optional<View> first_member(View e, std::initializer_list<std::string_view> keys) {
  for (auto k : keys) {
    if (auto v = e.get(k)) return v;
  }
  return std::nullopt;
}

/// The members of one JSON object, read once for the thirty-odd names the reader looks up on
/// every line (status, headers, body and their aliases): a scan of a few names and views
/// instead of a walk of the document per name. The first member of a name wins, as with
/// View::get; not an object: no members.
class Members {
 public:
  Members() = default;
  explicit Members(View e) {
    if (!e.is_object()) return;
    object_ = e;
    for (auto [key, value] : e.members()) {
      if (n_ == kMax) {
        overflow_ = true;  // the rest is looked up in the document
        break;
      }
      keys_[n_] = key;
      values_[n_] = value;
      ++n_;
    }
  }
  std::optional<View> get(std::string_view key) const {
    for (std::size_t i = 0; i < n_; ++i) {
      if (keys_[i] == key) return values_[i];
    }
    if (overflow_) return object_->get(key);
    return std::nullopt;
  }
  /// The first of `keys` present.
  std::optional<View> first(std::initializer_list<std::string_view> keys) const {
    for (auto k : keys) {
      if (auto v = get(k)) return v;
    }
    return std::nullopt;
  }
  std::optional<std::string_view> string(std::string_view key) const {
    if (auto v = get(key)) return v->string();
    return std::nullopt;
  }

 private:
  static constexpr std::size_t kMax = 16;
  std::array<std::string_view, kMax> keys_{};
  std::array<View, kMax> values_{};
  std::size_t n_ = 0;
  bool overflow_ = false;
  std::optional<View> object_;
};

std::optional<int> status_of(View v) {
  if (auto i = v.int64(); i && *i >= 0 && *i <= 999) return static_cast<int>(*i);
  if (auto s = v.string(); s && s->size() == 3 && s->find_first_not_of("0123456789") == npos) {
    return ((*s)[0] - '0') * 100 + ((*s)[1] - '0') * 10 + ((*s)[2] - '0');
  }
  return std::nullopt;
}

/// Headers as an object (`{"content-type": "x"}` or `{"name": ["a", "b"]}`) or as an array of
/// `{name, value}` (HAR style) or `[name, value]` pairs.
Headers headers_of(View v) {
  Headers out;
  if (v.is_object()) {
    for (auto [key, value] : v.members()) {
      if (auto s = value.string()) {
        add_header(out, key, *s);
      } else if (value.is_array()) {
        for (View item : value.items()) {
          if (auto is = item.string()) add_header(out, key, *is);
        }
      } else if (!value.is_null()) {
        add_header(out, key, json_text(value));
      }
    }
  } else if (v.is_array()) {
    for (View item : v.items()) {
      if (item.is_object()) {
        auto name = string_member(item, "name");
        if (!name) name = string_member(item, "key");
        if (name) add_header(out, *name, string_member(item, "value").value_or(""));
      } else if (item.is_array() && item.size() == 2) {
        auto n = item.at(0)->string();
        auto val = item.at(1)->string();
        if (n && val) add_header(out, *n, *val);
      }
    }
  }
  return out;
}

enum class Side { client, server, full, unknown };

/// A direction word: client-to-server or server-to-client, from the logger's point of view.
std::optional<Side> side_word(std::string_view w) {
  const std::string s = http::lower(w);
  for (std::string_view c : {"c2s", "client_to_server", "client->server", "to_server", "request", "req", "inbound", "in",
                             "send", "sent"}) {
    if (s == c) return Side::client;
  }
  for (std::string_view c : {"s2c", "server_to_client", "server->client", "to_client", "response", "resp", "outbound",
                             "out", "receive", "received"}) {
    if (s == c) return Side::server;
  }
  return std::nullopt;
}

/// Methods a server sends (MCP 2025-11-25 schema: ServerRequest, ServerNotification); `ping` and
/// `notifications/cancelled` go both ways and are read as the client's.
bool server_method(std::string_view m) {
  for (std::string_view s : {"sampling/createMessage", "elicitation/create", "roots/list", "notifications/message",
                             "notifications/progress", "notifications/resources/updated",
                             "notifications/resources/list_changed", "notifications/tools/list_changed",
                             "notifications/prompts/list_changed", "notifications/tasks/status",
                             "notifications/elicitation/complete"}) {
    if (m == s) return true;
  }
  return false;
}

/// What one line says.
struct Item {
  std::size_t line = 0;  ///< 1-based
  Side side = Side::unknown;
  bool wrapped = false;  ///< an object around the message (an exchange log), not a bare message
  // A JSON-RPC message carried as parsed JSON (`message`, or the whole line).
  std::optional<std::string> message;
  MessageInfo info;
  bool no_body = false;  ///< `message`/`body` given as null: the reply had no body
  bool request_only = false;  ///< a logged request and nothing of a reply (no status, body or response)
  // Response facts.
  std::optional<int> status;
  Headers headers;
  std::string content_type;
  bool sse = false;
  std::string sse_event;
  std::string sse_id;
  std::optional<std::string> raw_body;  ///< the body as a string, unparsed
  // Request facts (full lines, client lines).
  std::optional<Request> request;
  // A `proxy` member (a recording of `mcptriage proxy`, docs/proxy.md "Record format").
  std::optional<Skip> proxy_skip;            ///< `proxy.skipped`: the entry is not an MCP exchange
  std::vector<std::string> proxy_warnings;   ///< `proxy.warnings`
  std::optional<BodyState> proxy_body_state; ///< `proxy.body`: cut, cut_at_limit, not_captured
  bool proxy_cut_at_limit = false;
};

/// One exchange being assembled.
struct Pending {
  std::size_t first_line = 0;
  std::size_t closed_line = 0;  ///< the line of the reply that answered it when it was open, else 0
  /// SSE events logged on earlier lines and joined into its body: the lines of the first and
  /// the last (or of the reply that took them); 0 when none were. A block cut between them
  /// would lose the events or read them twice (cut_at_first_waiting).
  std::size_t stream_from = 0;
  std::size_t stream_to = 0;
  std::optional<Skip> skip;
  std::optional<Request> request;
  MessageInfo sent;          ///< what the request was
  bool answered = false;
  std::optional<int> status;
  Headers headers;
  std::string content_type;
  bool sse = false;
  std::string body;
  bool content_type_guessed = false;
  std::optional<BodyState> body_state;  ///< from a `proxy` member (Item::proxy_body_state)
  bool cut_at_limit = false;
  std::vector<std::string> warnings;
  std::optional<std::string> open_id;  ///< its key in open_by_id_ while it waits for its reply
};

class JsonLinesReader {
 public:
  JsonLinesReader(std::string_view name, const CaptureOptions& options, std::size_t first_index = 0,
                  std::size_t first_line = 0)
      : name_(name), options_(options), first_index_(first_index), first_line_(first_line) {}

  /// After read(): no line waited for a later one when the text ended (no open request, no
  /// unanswered server request, no events before their response), so text read in pieces that
  /// end this way gives what one read gives (read_json_lines_block, docs/performance.md).
  bool self_contained() const { return self_contained_; }
  bool any_wrapped() const { return any_wrapped_; }
  /// After read(text, ..., more_follows): where the lines to read again start in `text` when
  /// the read gave out only some exchanges (the lines before it: consumed_lines()), or 0 when
  /// it read everything; and the line numbers among those to read as blank (carry_skip()).
  std::size_t consumed() const { return consumed_; }
  std::size_t consumed_lines() const { return consumed_lines_; }
  std::vector<std::size_t> carry_skip() const { return carry_skip_; }

  /// `padded`: json::kPadding allocated bytes follow `text`, so lines are parsed in place.
  /// `more_follows`: the log goes on after `text`; when its end leaves lines waiting for later
  /// ones, the read gives out only the exchanges before the first that waits (consumed()), and
  /// the lines from there on but those already answered (carry_skip()) are left to be read
  /// again with what follows. `skip_lines`: line numbers read as blank (sorted; the replies of
  /// exchanges given out by an earlier read).
  std::expected<std::vector<Exchange>, CaptureError> read(std::string_view text, bool padded = false,
                                                          bool more_follows = false,
                                                          std::span<const std::size_t> skip_lines = {}) {
    padded_ = padded;
    std::size_t pos = 0;
    std::size_t line_no = first_line_;  // lines of the log before this text
    std::size_t next_skip = 0;
    std::vector<std::size_t> line_starts;  // byte offset of each line of `text`
    // The last point where no line waited for a later one: its line and the entries up to it.
    std::size_t quiet_line = first_line_;
    std::size_t quiet_entries = 0;
    while (pos < text.size()) {
      const std::size_t lf = text.find('\n', pos);
      std::string_view line = text.substr(pos, lf == npos ? npos : lf - pos);
      line_starts.push_back(pos);
      pos = lf == npos ? text.size() : lf + 1;
      ++line_no;
      while (next_skip < skip_lines.size() && skip_lines[next_skip] < line_no) ++next_skip;
      const bool skipped = next_skip < skip_lines.size() && skip_lines[next_skip] == line_no;
      if (!skipped) {
        expire(line_no);
        if (!is_blank(line)) handle_line(trim_line(line), line_no);
      }
      if (waiting()) continue;
      quiet_line = line_no;
      quiet_entries = pending_.size();
    }
    self_contained_ = !waiting();
    if (!self_contained_ && more_follows) {
      // The simple cut at the first waiting exchange, else after the last line after which
      // nothing waited (everything after it is read again).
      std::optional<Cut> at = cut_at_first_waiting(skip_lines);
      if (!at && quiet_entries > 0 && quiet_line - first_line_ < line_starts.size()) {
        at = Cut{quiet_entries, quiet_line + 1, {}};
        for (std::size_t line : skip_lines) {
          if (line > quiet_line) at->skip.push_back(line);
        }
      }
      if (at) keep_until(*at, line_starts);
    }
    finish();
    if (pending_.empty()) return std::unexpected(CaptureError{"JSON Lines: no line holds a JSON object"});
    // A log of another shape: no line from the start of the log is a message or a logged
    // exchange (docs/formats.md "JSON Lines": an input error that says how to remap it).
    if (first_line_ == 0 && first_unknown_line_ &&
        std::all_of(pending_.begin(), pending_.end(),
                    [](const Pending& p) { return p.skip && p.skip->reason == SkipReason::invalid_line; })) {
      return std::unexpected(CaptureError{unrecognised_log_message()});
    }
    return to_exchanges();
  }

 private:
  std::string_view name_;
  const CaptureOptions& options_;
  std::size_t first_index_ = 0;
  std::size_t first_line_ = 0;
  bool padded_ = false;  ///< the text read has json::kPadding bytes after it (read())
  bool self_contained_ = true;
  std::size_t consumed_ = 0;
  std::size_t consumed_lines_ = 0;
  std::vector<std::size_t> carry_skip_;
  /// The first line that is JSON but neither a message nor a logged exchange, and its first
  /// member names (for the input error of a log of another shape).
  std::optional<std::size_t> first_unknown_line_;
  std::vector<std::string> first_unknown_keys_;
  static constexpr std::size_t kKeysShown = 12;

  /// A member name for a message: at most 40 bytes (whole UTF-8 sequences), control bytes as `?`.
  static std::string printable_key(std::string_view key) {
    std::size_t cut = key.size();
    if (cut > 40) {
      cut = 40;
      while (cut > 0 && (static_cast<unsigned char>(key[cut]) & 0xC0) == 0x80) --cut;
    }
    std::string out(key.substr(0, cut));
    for (char& c : out) {
      if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';
    }
    if (cut < key.size()) out += "...";
    return out;
  }

  /// `.name` for jq, or `."name"` when it is no identifier; `placeholder` when nothing fits.
  std::string jq_path(std::initializer_list<std::string_view> words, std::string_view placeholder) const {
    for (std::string_view w : words) {
      for (const std::string& key : first_unknown_keys_) {
        if (http::lower(key).find(w) == npos) continue;
        const bool ident = !key.empty() && key.find_first_not_of(
                                               "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") == npos &&
                           !(key[0] >= '0' && key[0] <= '9');
        if (ident) return "." + key;
        std::string quoted = ".\"";
        for (char c : key) {
          if (c == '"' || c == '\\') quoted += '\\';
          quoted += c;
        }
        return quoted + "\"";
      }
    }
    return std::string(placeholder);
  }

  std::string unrecognised_log_message() const {
    std::string keys;
    for (const std::string& k : first_unknown_keys_) keys += (keys.empty() ? "" : ", ") + k;
    if (keys.empty()) keys = "none";
    return "JSON Lines: no line is a JSON-RPC message or a logged exchange (line " + std::to_string(*first_unknown_line_) +
           " has the members " + keys +
           "); looked for `jsonrpc` (a bare message), or a status (status, status_code, statusCode, http_status, "
           "httpStatus; also in `http` or `response`), a body (message, msg, payload, body, response_body, text), "
           "`request`, `response` or a direction (dir, direction). Remap each line to the exchange-log shape "
           "(docs/formats.md, \"JSON Lines\"), for example: jq -c '{status: " +
           jq_path({"status", "code"}, ".STATUS") + ", headers: " + jq_path({"header"}, ".HEADERS") +
           ", body: " + jq_path({"body", "resp", "payload", "output", "result"}, ".BODY") +
           ", request: " + jq_path({"req", "input", "param"}, ".REQUEST") + "}' LOG > exchanges.jsonl";
  }

  /// Some line waits for a later one: a request for its reply, events for their response, a
  /// server request for the client's response.
  bool waiting() const { return !open_.empty() || !stream_.empty() || !server_request_.empty(); }

  /// A request (or a server request) waits for its reply at most kPairWindowLines lines: older
  /// ones are given up as never answered before line `line_no` is read, so that a lost reply
  /// does not hold the rest of a log (docs/formats.md, "Pairing window").
  void expire(std::size_t line_no) {
    while (!open_.empty() && line_no - pending_[*open_.begin()].first_line > kPairWindowLines) {
      const std::size_t index = *open_.begin();
      pending_[index].warnings.push_back("no reply within " + std::to_string(kPairWindowLines) +
                                         " lines: a later reply is not paired with it");
      close(index);
    }
    for (auto it = server_request_.begin(); it != server_request_.end();) {
      if (line_no - it->second > kPairWindowLines) it = server_request_.erase(it);
      else ++it;
    }
    if (!stream_.empty() && line_no - stream_first_line_ > kPairWindowLines) flush_stream();
  }

  /// Where a read that stops early ends: the entries kept, the first line to read again, and
  /// the lines among those to read as blank.
  struct Cut {
    std::size_t entries = 0;
    std::size_t from = 0;
    std::vector<std::size_t> skip;
  };

  /// The cut at the first exchange still waiting, when it is simple: nothing else waits but
  /// requests, no kept exchange has joined events or a server request's answer on the lines to
  /// read again, and no later exchange starts before it. The replies after it that answered
  /// kept exchanges are skipped.
  std::optional<Cut> cut_at_first_waiting(std::span<const std::size_t> skip_lines) const {
    if (open_.empty() || !stream_.empty() || !server_request_.empty()) return std::nullopt;
    const std::size_t first_open = *open_.begin();
    if (first_open == 0) return std::nullopt;
    Cut at{first_open, pending_[first_open].first_line, {}};
    // Every line an exchange was made of must stay on its side of the cut: a kept exchange's
    // only line after it is its reply (read again as blank), and an exchange read again has no
    // line before it, neither its first line nor the events joined to its reply (a stream that
    // began before the cut: the fuzz finding read_capture-blockwise-jsonl).
    for (std::size_t k = 0; k < first_open; ++k) {
      const Pending& p = pending_[k];
      if (p.stream_from != 0 && std::max(p.stream_to, p.closed_line) >= at.from) return std::nullopt;
      if (p.closed_line < at.from) continue;
      at.skip.push_back(p.closed_line);
    }
    for (std::size_t k = first_open; k < pending_.size(); ++k) {
      const Pending& p = pending_[k];
      if (p.first_line < at.from || (p.stream_from != 0 && p.stream_from < at.from)) return std::nullopt;
    }
    // A server request before the cut answered after it: the answer needs the request's state.
    for (const auto& [request_line, answer_line] : server_answers_) {
      if (request_line < at.from && answer_line >= at.from) return std::nullopt;
    }
    for (std::size_t line : skip_lines) {
      if (line >= at.from) at.skip.push_back(line);
    }
    std::sort(at.skip.begin(), at.skip.end());
    return at;
  }

  /// Keeps the entries before the cut (final: no later line changes them) and forgets what
  /// waits; consumed() and carry_skip() then say what to read again.
  void keep_until(Cut at, const std::vector<std::size_t>& line_starts) {
    pending_.resize(at.entries);
    open_.clear();
    open_requests_.clear();
    open_others_.clear();
    open_by_id_.clear();
    server_request_.clear();
    stream_.clear();
    stream_events_ = 0;
    consumed_lines_ = at.from - 1 - first_line_;
    consumed_ = line_starts[consumed_lines_];
    carry_skip_ = std::move(at.skip);
    self_contained_ = true;
  }

  // One parser per thread for lines and one for bodies, kept from one read to the next (a log
  // read in blocks makes a reader per block; docs/performance.md).
  static json::Parser& thread_parser(int which) {
    thread_local json::Parser parsers[2];
    return parsers[which];
  }
  json::Parser& parser_ = thread_parser(0);
  std::deque<Pending> pending_;
  std::map<std::string, std::size_t> open_by_id_;     ///< client request id -> pending index
  std::map<std::string, std::size_t> server_request_; ///< server request id -> line
  std::vector<std::pair<std::size_t, std::size_t>> server_answers_;  ///< (server request line, answer line)
  std::set<std::size_t> open_;                        ///< pending indexes awaiting a reply, oldest first
  std::set<std::size_t> open_requests_;               ///< the requests among them
  std::set<std::size_t> open_others_;                 ///< the rest (notifications, client responses)
  std::string stream_;                                ///< SSE events seen before their response
  std::size_t stream_events_ = 0;
  std::size_t stream_first_line_ = 0;
  std::size_t stream_last_line_ = 0;
  std::optional<int> stream_status_;     ///< the status logged with the stream's first event
  std::string stream_content_type_;      ///< and its media type
  bool any_wrapped_ = false;

  std::size_t add(Pending p) {
    pending_.push_back(std::move(p));
    return pending_.size() - 1;
  }

  void add_skip(std::size_t line, SkipReason reason, std::string detail, bool not_json = false) {
    Pending p;
    p.first_line = line;
    p.skip = Skip{reason, std::move(detail), not_json};
    add(std::move(p));
  }

  /// Logarithmic: a log with many requests open at once stays linear overall.
  void close(std::size_t index) {
    open_.erase(index);
    open_requests_.erase(index);
    open_others_.erase(index);
    if (const auto& id = pending_[index].open_id) {
      if (auto it = open_by_id_.find(*id); it != open_by_id_.end() && it->second == index) open_by_id_.erase(it);
    }
  }

  void handle_line(std::string_view line, std::size_t line_no) {
    auto parsed = parser_.parse(line, padded_);
    if (!parsed) {
      add_skip(line_no, SkipReason::invalid_line,
               "line " + std::to_string(line_no) + " is not valid JSON (" + std::string(parsed.error().message) + ")",
               /*not_json=*/true);
      return;
    }
    const View root = *parsed;
    if (!root.is_object() && !root.is_array()) {
      add_skip(line_no, SkipReason::invalid_line, "line " + std::to_string(line_no) + " is not a JSON object");
      return;
    }
    Item item = read_item(root, line, line_no);
    if (item.wrapped) any_wrapped_ = true;
    switch (item.side) {
      case Side::full: return handle_full(std::move(item));
      case Side::client: return handle_client(std::move(item));
      case Side::server: return handle_server(std::move(item));
      case Side::unknown:
        if (!first_unknown_line_) {
          first_unknown_line_ = line_no;
          if (root.is_object()) {
            for (auto [key, value] : root.members()) {
              (void)value;
              if (first_unknown_keys_.size() == kKeysShown) break;
              first_unknown_keys_.push_back(printable_key(key));
            }
          }
        }
        add_skip(line_no, SkipReason::invalid_line,
                 "line " + std::to_string(line_no) +
                     " is neither a JSON-RPC message nor a logged exchange (no status, body or message)");
        return;
    }
  }

  Item read_item(View root, std::string_view line, std::size_t line_no) {
    Item it;
    it.line = line_no;
    if (root.is_array() || root.get("jsonrpc")) {
      // A bare JSON-RPC message (or batch): the stdio framing.
      it.message = std::string(line);
      it.info = inspect_message(root);
      if (it.info.kind == MessageKind::request || it.info.kind == MessageKind::notification) {
        it.side = server_method(it.info.method) ? Side::server : Side::client;
      } else if (it.info.kind != MessageKind::not_jsonrpc) {
        it.side = Side::server;
      }
      if (it.side == Side::client) {
        Request r;
        r.body = it.message;
        r.info = jsonrpc::read_request(root);
        it.request = std::move(r);
      }
      return it;
    }
    it.wrapped = true;
    const Members m(root);  // after the bare-message case: inspect_message reads those members
    auto http = m.get("http");
    if (http && !http->is_object()) http.reset();
    auto response = m.get("response");
    if (response && !response->is_object()) response.reset();
    const Members mh = http ? Members(*http) : Members();
    const Members mr = response ? Members(*response) : Members();
    std::optional<Side> dir;
    for (std::string_view key : {"dir", "direction", "event_type", "type", "kind"}) {
      if (auto d = m.string(key)) {
        if ((dir = side_word(*d))) break;
      }
    }
    // Status and response headers.
    const Members* const status_holders[] = {&m, http ? &mh : nullptr, response ? &mr : nullptr};
    for (const Members* holder : status_holders) {
      if (!holder) continue;
      if (auto s = holder->first({"status", "status_code", "statusCode", "http_status", "httpStatus"})) {
        if (auto st = status_of(*s)) {
          it.status = st;
          break;
        }
      }
    }
    const bool client_line = dir == Side::client;
    std::optional<View> resp_headers;
    if (response) resp_headers = mr.first({"headers", "response_headers"});
    if (!resp_headers && !client_line) resp_headers = m.first({"response_headers", "headers"});
    if (!resp_headers && !client_line && http) resp_headers = mh.first({"response_headers", "headers"});
    if (resp_headers) it.headers = headers_of(*resp_headers);
    // Where the response's media type may be: the nested response, the line, its `http` object
    // (a client line's own fields describe its request, so only a nested response counts there).
    const Members* const ct_holders[] = {response ? &mr : nullptr, client_line ? nullptr : &m,
                                         client_line || !http ? nullptr : &mh};
    for (const Members* holder : ct_holders) {
      if (!holder) continue;
      if (auto ct = holder->first({"content_type", "contentType", "mime_type", "mimeType", "media_type"})) {
        if (auto s = ct->string()) it.content_type = std::string(*s);
        if (!it.content_type.empty() || ct->is_null()) break;
      }
    }
    if (it.content_type.empty()) {
      if (auto ct = find_header(it.headers, "content-type")) it.content_type = std::string(*ct);
    }
    // The message or the body.
    auto take_payload = [&](View v) {
      if (v.is_null()) {
        it.no_body = true;
      } else if (auto s = v.string()) {
        it.raw_body = json::padded_copy(*s);  // parsed in place by the classifier
      } else {
        it.message = json_text(v);
        it.info = inspect_message(v);
      }
    };
    bool have_payload = false;
    // A client line's own payload is its request (read below), not a reply.
    const Members* const payload_holders[] = {response ? &mr : nullptr, client_line ? nullptr : &m};
    for (const Members* holder : payload_holders) {
      if (!holder) continue;
      if (auto v = holder->first({"message", "msg", "payload", "body", "response_body", "text"})) {
        take_payload(*v);
        have_payload = true;
        break;
      }
    }
    if (auto sse = m.get("sse"); sse && sse->is_object()) {
      it.sse = true;
      it.sse_event = string_member(*sse, "event").value_or("");
      it.sse_id = string_member(*sse, "id").value_or("");
    }
    if (http::media_type_is(it.content_type, "text/event-stream") && it.message) it.sse = true;
    const auto proxy = m.get("proxy");
    if (proxy && proxy->is_object()) read_proxy_member(*proxy, it);
    // The request.
    if (auto req = m.get("request")) {
      it.request = request_of(*req);
      if (proxy && it.request->body && string_member(*proxy, "request_body_encoding") == "base64") {
        if (auto decoded = base64_decode(*it.request->body)) it.request->body = std::move(*decoded);
      }
    } else if (client_line) {
      Request r;
      if (http) {
        r.method_line = string_member(*http, "method").value_or("");
        r.target = string_member(*http, "path").value_or(string_member(*http, "url").value_or(""));
        if (auto h = mh.first({"headers", "request_headers"})) r.headers = headers_of(*h);
      }
      if (auto h = m.first({"headers", "request_headers"})) r.headers = headers_of(*h);
      if (auto v = m.first({"message", "msg", "payload", "body"})) {
        if (auto s = v->string()) {
          r.body = std::string(*s);
          it.info = inspect_request_text(parser_for_bodies_, *s, r.info);
        } else if (!v->is_null()) {
          r.body = json_text(*v);
          r.info = jsonrpc::read_request(*v);
          it.info = inspect_message(*v);
        }
      }
      it.request = std::move(r);
      it.side = Side::client;
      return it;
    }
    if (it.request && (it.status || have_payload || response)) {
      it.side = Side::full;
    } else if (dir) {
      it.side = *dir;
    } else if (it.status || response) {
      it.side = Side::server;
    } else if (it.message) {
      it.side = (it.info.kind == MessageKind::response) ? Side::server
                : (it.info.kind == MessageKind::not_jsonrpc) ? Side::unknown
                : server_method(it.info.method) ? Side::server
                                                : Side::client;
    } else if (it.raw_body) {
      it.side = Side::server;
    } else if (it.request) {
      // Only the request was logged (a timeout, a dropped connection): an exchange with no reply.
      // Its body is kept as text: the reader reads what was sent from it (handle_full).
      it.side = Side::full;
      it.request_only = true;
      if (auto req = m.get("request")) it.request = request_of(*req, /*as_text=*/true);
    }
    if (it.side == Side::client && !it.request) {
      Request r;
      r.body = it.message;
      it.request = std::move(r);
    }
    return it;
  }

  json::Parser& parser_for_bodies_ = thread_parser(1);

  /// The members of a `proxy` object that change what the exchange is (docs/proxy.md "Record
  /// format"): `skipped`, `body`, `body_encoding` and `warnings`; the rest is the proxy's own.
  void read_proxy_member(json::View proxy, Item& it) {
    if (auto skipped = proxy.get("skipped"); skipped && skipped->is_object()) {
      // The proxy names the reason as the HAR reader gave it (a SkipReason's name).
      // Views into the document (string_at), not string_member's copies: a view of a temporary
      // copy dangled here (ASan: heap-use-after-free).
      const std::string_view name = skipped->string_at("reason").value_or("not_mcp");
      SkipReason reason = SkipReason::not_mcp;
      for (SkipReason r : {SkipReason::not_mcp, SkipReason::session_end, SkipReason::standalone_stream,
                           SkipReason::invalid_entry}) {
        if (to_string(r) == name) reason = r;
      }
      it.proxy_skip = Skip{reason, std::string(string_member(*skipped, "detail").value_or(""))};
    }
    if (auto warnings = proxy.get("warnings"); warnings && warnings->is_array()) {
      for (json::View w : warnings->items()) {
        if (auto s = w.string()) it.proxy_warnings.emplace_back(*s);
      }
    }
    const std::string_view body = proxy.string_at("body").value_or("complete");
    if (body == "cut") it.proxy_body_state = BodyState::truncated;
    if (body == "cut_at_limit") {
      it.proxy_body_state = BodyState::truncated;
      it.proxy_cut_at_limit = true;
    }
    if (body == "not_captured") it.proxy_body_state = BodyState::not_captured;
    if (string_member(proxy, "body_encoding") == "base64" && it.raw_body) {
      if (auto decoded = base64_decode(*it.raw_body)) it.raw_body = json::padded_copy(*decoded);
    }
  }

  /// `request` as a JSON-RPC message object, a raw body string, or an HTTP request object
  /// `{method, url|path, headers, body}`.
  /// `as_text`: keep a body logged as a JSON value as its text; otherwise keep only what the
  /// classifier reads of it (Request::info), which spares printing it back to text and
  /// parsing it again for every line (docs/performance.md).
  Request request_of(View v, bool as_text = false) {
    Request r;
    auto json_body = [&](View b) {
      if (as_text) r.body = json_text(b);
      else r.info = jsonrpc::read_request(b);
    };
    if (auto s = v.string()) {
      r.body = std::string(*s);
      return r;
    }
    if (!v.is_object()) {
      if (v.is_array()) json_body(v);
      return r;
    }
    if (v.get("jsonrpc") || (v.get("method") && (v.get("id") || v.get("params")) && !v.get("headers") &&
                             !v.get("url") && !v.get("body"))) {
      json_body(v);
      return r;
    }
    r.method_line = string_member(v, "method").value_or("");
    r.target = string_member(v, "url").value_or(string_member(v, "path").value_or(""));
    if (auto h = v.get("headers")) r.headers = headers_of(*h);
    if (auto b = first_member(v, {"body", "message", "payload", "postData"})) {
      if (auto s = b->string()) r.body = std::string(*s);
      else if (!b->is_null()) json_body(*b);
    }
    return r;
  }

  void handle_full(Item it) {
    if (it.proxy_skip) {
      add_skip(it.line, std::move(it.proxy_skip->reason), std::move(it.proxy_skip->detail));
      return;
    }
    Pending p;
    p.first_line = it.line;
    p.warnings = std::move(it.proxy_warnings);
    p.body_state = it.proxy_body_state;
    p.cut_at_limit = it.proxy_cut_at_limit;
    p.request = std::move(it.request);
    // `sent` is not needed when the line holds the reply: a full line is answered at once, never
    // open (the classifier reads the request body itself).
    if (it.request_only) {
      if (p.request && p.request->body) p.sent = inspect_message_text(parser_for_bodies_, *p.request->body);
    } else {
      fill_reply(p, it, /*attach_stream=*/false);
    }
    add(std::move(p));
  }

  void handle_client(Item it) {
    const MessageInfo& m = it.info;
    if (!it.wrapped && m.kind == MessageKind::notification) {
      add_skip(it.line, SkipReason::notification,
               "line " + std::to_string(it.line) + ": client notification " + m.method +
                   ": no reply is due on a message stream");
      return;
    }
    if (!it.wrapped && m.kind == MessageKind::response && m.id_key && server_request_.count(*m.id_key)) {
      server_answers_.emplace_back(server_request_[*m.id_key], it.line);
      server_request_.erase(*m.id_key);
      add_skip(it.line, SkipReason::client_response,
               "line " + std::to_string(it.line) + ": the client's answer to server request id " + *m.id_key);
      return;
    }
    Pending p;
    p.first_line = it.line;
    p.request = std::move(it.request);
    p.sent = m;
    const std::size_t index = add(std::move(p));
    open_.insert(index);
    if (m.kind == MessageKind::request || m.kind == MessageKind::batch) open_requests_.insert(index);
    else open_others_.insert(index);
    if (m.kind == MessageKind::request && m.id_key) {
      if (auto prev = open_by_id_.find(*m.id_key); prev != open_by_id_.end()) {
        pending_[prev->second].warnings.push_back("the same id was sent again on line " + std::to_string(it.line) +
                                                  " before this request was answered");
      }
      open_by_id_[*m.id_key] = index;
      pending_[index].open_id = m.id_key;
    }
  }

  void handle_server(Item it) {
    const MessageInfo& m = it.info;
    if (!it.wrapped && m.kind == MessageKind::response && m.id_key && server_request_.count(*m.id_key) &&
        !open_by_id_.count(*m.id_key)) {
      // A message stream has no direction: a response to a server request is the client's answer.
      server_answers_.emplace_back(server_request_[*m.id_key], it.line);
      server_request_.erase(*m.id_key);
      add_skip(it.line, SkipReason::client_response,
               "line " + std::to_string(it.line) + ": the client's answer to server request id " + *m.id_key);
      return;
    }
    const bool event_part = it.message && (m.kind == MessageKind::notification || m.kind == MessageKind::request);
    if (event_part && it.sse) {
      if (stream_.empty()) {
        stream_first_line_ = it.line;
        stream_status_ = it.status;
        stream_content_type_ = it.content_type;
      }
      stream_ += sse_event_text(it.sse_event, it.sse_id, *it.message);
      stream_last_line_ = it.line;
      ++stream_events_;
      return;
    }
    if (event_part) {
      if (m.kind == MessageKind::request && m.id_key) server_request_[*m.id_key] = it.line;
      add_skip(it.line, SkipReason::server_message,
               "line " + std::to_string(it.line) + ": server " +
                   (m.kind == MessageKind::request ? "request " + m.method + " id " + m.id_key.value_or("?")
                                                   : "notification " + m.method) +
                   ": a message from the server, not the reply to a request");
      return;
    }
    // A reply: pair it by id, else by order.
    std::optional<std::string> id = (it.message && m.kind == MessageKind::response) ? m.id_key : std::nullopt;
    if (!id && it.raw_body) id = id_in_body(*it.raw_body);
    std::optional<std::size_t> target;
    if (id) {
      if (auto f = open_by_id_.find(*id); f != open_by_id_.end()) target = f->second;
    }
    const bool empty_reply = it.no_body || (!it.message && (!it.raw_body || is_blank(*it.raw_body)));
    const bool unpairable_error = it.message && m.is_error && (!id || *id == "null");
    if (!target && (empty_reply || (!id && it.wrapped) || (unpairable_error && it.status))) {
      target = by_order(empty_reply);
      if (target && unpairable_error) {
        pending_[*target].warnings.push_back("an error without a usable id (line " + std::to_string(it.line) +
                                             ") was paired with this request by order");
      }
    }
    if (target) {
      Pending& p = pending_[*target];
      fill_reply(p, it, true);
      p.closed_line = it.line;
      close(*target);
      return;
    }
    Pending p;
    p.first_line = it.sse && !stream_.empty() ? stream_first_line_ : it.line;
    fill_reply(p, it, true);
    add(std::move(p));
  }

  /// The open exchange an id-less reply belongs to: an empty reply (202) answers the oldest
  /// open notification, anything else the oldest open request.
  std::optional<std::size_t> by_order(bool empty_reply) {
    std::optional<std::size_t> request;
    std::optional<std::size_t> notification;
    if (!open_requests_.empty()) request = *open_requests_.begin();
    if (!open_others_.empty()) notification = *open_others_.begin();
    if (empty_reply) return notification ? notification : request;
    return request ? request : notification;
  }

  /// The id of the first JSON-RPC response in a raw body (JSON or event stream).
  std::optional<std::string> id_in_body(std::string_view body) {
    const std::size_t first = body.find_first_not_of(" \t\r\n");
    if (first == npos) return std::nullopt;
    if (body[first] == '{') {
      MessageInfo m = inspect_message_text(parser_for_bodies_, body);
      if (m.kind == MessageKind::response) return m.id_key;
      return std::nullopt;
    }
    const sse::Stream stream = sse::parse(body);
    for (const sse::Event& ev : stream.events) {
      MessageInfo m = inspect_message_text(parser_for_bodies_, ev.data);
      if (m.kind == MessageKind::response && m.id_key) return m.id_key;
    }
    return std::nullopt;
  }

  void fill_reply(Pending& p, Item& it, bool attach_stream) {
    p.answered = true;
    p.status = it.status;
    p.headers = std::move(it.headers);
    p.content_type = it.content_type;
    if (it.raw_body) {
      p.body = std::move(*it.raw_body);
    } else if (it.message) {
      if (it.sse) {
        p.sse = true;
        if (attach_stream && !stream_.empty()) {
          p.stream_from = stream_first_line_;
          p.stream_to = it.line;
          p.body = std::move(stream_);
          stream_.clear();
          stream_events_ = 0;
        }
        p.body += sse_event_text(it.sse_event, it.sse_id, *it.message);
      } else {
        p.body = std::move(*it.message);
      }
    }
    // A media type is assumed only when the log records no response headers at all: logged
    // headers without Content-Type are a response without one (docs/formats.md "JSON Lines").
    if (p.content_type.empty() && p.headers.empty() && !p.body.empty() && it.wrapped) {
      p.content_type = p.sse ? "text/event-stream" : "application/json";
      p.content_type_guessed = true;
    }
  }

  void finish() { flush_stream(); }

  /// Events whose response never came (the log ended, or the pairing window passed): the
  /// stream of the one open request if there is exactly one, else an exchange of their own.
  void flush_stream() {
    if (!stream_.empty()) {
      std::optional<std::size_t> owner;
      std::size_t requests = 0;
      std::optional<std::size_t> get;  // an open GET: the standalone stream the events may be on
      std::size_t gets = 0;
      for (std::size_t i : open_) {
        if (pending_[i].sent.kind == MessageKind::request) {
          owner = i;
          ++requests;
        } else if (pending_[i].request && pending_[i].request->method_line == "GET") {
          get = i;
          ++gets;
        }
      }
      if (requests == 0 && gets == 1) {
        owner = get;
        requests = 1;
      }
      Pending fresh;
      Pending& p = requests == 1 ? pending_[*owner] : fresh;
      p.answered = true;
      p.sse = true;
      p.body = std::move(stream_);
      p.stream_from = stream_first_line_;
      p.stream_to = stream_last_line_;
      stream_.clear();
      // The status and media type the event lines logged, when they did (a stream cut short, not
      // a body without transport).
      if (!p.status) p.status = stream_status_;
      p.content_type = stream_content_type_.empty() ? std::string("text/event-stream") : stream_content_type_;
      p.content_type_guessed = stream_content_type_.empty();
      p.warnings.push_back(std::to_string(stream_events_) + " event(s) from line " +
                           std::to_string(stream_first_line_) + " on, and no response after them");
      stream_events_ = 0;
      if (requests == 1) {
        close(*owner);
      } else {
        fresh.first_line = stream_first_line_;
        add(std::move(fresh));
      }
    }
  }

  std::vector<Exchange> to_exchanges() {
    const CaptureFormat format = lines_format(any_wrapped_);
    std::vector<Exchange> out;
    out.reserve(pending_.size());
    std::size_t index = first_index_;
    for (Pending& p : pending_) {
      Exchange ex;
      ex.source = source_name(name_, ++index);
      ex.format = format;
      ex.warnings = std::move(p.warnings);
      if (p.skip) {
        ex.skipped = std::move(p.skip);
        ex.response.status = 0;
        ex.response.body_state = BodyState::not_captured;
        out.push_back(std::move(ex));
        continue;
      }
      ex.request = std::move(p.request);
      Response& r = ex.response;
      r.headers = std::move(p.headers);
      if (!p.content_type.empty() && !find_header(r.headers, "content-type")) {
        add_header(r.headers, "Content-Type", p.content_type);
        if (p.content_type_guessed) {
          ex.warnings.push_back("the log gives no media type: the " +
                                std::string(p.sse ? "events read as text/event-stream" : "message read as application/json"));
        }
      }
      if (!p.answered) {
        r.status = 0;
        r.body_state = BodyState::not_captured;
        r.transport_captured = any_wrapped_;
        ex.warnings.push_back("no reply for this " +
                              std::string(p.sent.kind == MessageKind::request ? "request" : "message") +
                              " in the log (line " + std::to_string(p.first_line) + ")");
      } else if (p.status == 0) {
        // Status 0: what loggers and HAR exporters write when no response arrived.
        r.status = 0;
        r.body_state = BodyState::not_captured;
        r.transport_captured = true;
        ex.warnings.push_back("the log gives status 0 (line " + std::to_string(p.first_line) +
                              "): no response was received" +
                              (p.body.empty() ? std::string() : "; the body logged with it is ignored"));
      } else if (p.status) {
        r.status = *p.status;
        r.transport_captured = true;
        r.body = std::move(p.body);
        if (p.body_state) r.body_state = *p.body_state;
        r.cut_at_max_body = p.cut_at_limit;
      } else {
        // A message stream (stdio) or a log without statuses: the HTTP layer was not captured.
        r.status = options_.assumed_status;
        r.transport_captured = false;
        r.body = std::move(p.body);
      }
      decode_body(r, ex.warnings, options_.max_body);  // a Content-Encoding the logged headers name
      // A session DELETE, a CORS preflight, the standalone GET stream: no JSON-RPC call, as in HAR
      // files (legs.hpp).
      if (ex.request && any_wrapped_) {
        if (auto skip = non_call_leg(*ex.request, r)) {
          ex.skipped = std::move(skip);
          ex.request.reset();
          ex.response = Response{};
          ex.response.status = 0;
          ex.response.body_state = BodyState::not_captured;
        }
      }
      out.push_back(std::move(ex));
    }
    return out;
  }
};

/// True when `obj` looks like one logged exchange rather than a bare JSON-RPC message.
bool looks_logged(View obj) {
  if (obj.get("jsonrpc")) return false;
  for (std::string_view k : {"status", "status_code", "statusCode", "http", "response", "dir", "direction"}) {
    if (obj.get(k)) return true;
  }
  return obj.get("request") && (obj.get("body") || obj.get("message"));
}

}  // namespace

namespace {

/// A log whose first line does not parse (invalid UTF-8, a syntax error, nesting past
/// simdjson's limit) is still a log when that line looks like one whole object and one of the
/// next lines parses as a logged exchange or a JSON-RPC message: the bad line is then one
/// skipped entry, not the whole input read as one broken body. A pretty-printed JSON body
/// never qualifies: its first line does not end its object.
bool log_after_bad_first_line(json::Parser& parser, std::string_view first, std::string_view rest) {
  if (first.size() < 2 || first.back() != '}') return false;
  constexpr int kLinesLooked = 16;
  int looked = 0;
  for (std::size_t pos = 0; pos < rest.size() && looked < kLinesLooked;) {
    const std::string_view line = trim_line(take_line(rest, pos));
    if (line.empty()) continue;
    ++looked;
    if (line.front() != '{') continue;
    auto root = parser.parse(line);
    if (!root) continue;
    return root->is_object() && (looks_logged(*root) || root->get("jsonrpc"));
  }
  return false;
}

}  // namespace

bool sniff_json_lines(std::string_view text) {
  if (text.empty() || text.front() != '{') return false;
  const std::size_t lf = text.find('\n');
  std::string_view first = trim_line(text.substr(0, lf));
  json::Parser parser;
  auto root = parser.parse(first);
  if (!root) return lf != npos && log_after_bad_first_line(parser, first, text.substr(lf + 1));
  if (!root->is_object()) return false;
  if (looks_logged(*root)) return true;
  // A bare message: JSON Lines only when another object (or batch) starts a line among the next
  // few lines, so that a broken line in a log does not turn it into one body with trailing data.
  constexpr int kLinesLooked = 16;
  int looked = 0;
  for (std::size_t pos = lf == npos ? text.size() : lf + 1; pos < text.size() && looked < kLinesLooked;) {
    const std::string_view line = trim_line(take_line(text, pos));
    if (line.empty()) continue;
    if (line.front() == '{' || line.front() == '[') return true;
    ++looked;
  }
  return false;
}

std::expected<std::vector<Exchange>, CaptureError> read_json_lines(std::string_view bytes, std::string_view name,
                                                                   const CaptureOptions& options) {
  JsonLinesReader reader(name, options);
  return reader.read(bytes);
}

std::expected<JsonLinesBlock, CaptureError> read_json_lines_block(std::string_view lines, std::string_view name,
                                                                  std::size_t first_index, const CaptureOptions& options,
                                                                  std::size_t first_line, bool padded,
                                                                  bool more_follows,
                                                                  std::span<const std::size_t> skip_lines) {
  JsonLinesReader reader(name, options, first_index, first_line);
  auto exchanges = reader.read(lines, padded, more_follows, skip_lines);
  if (!exchanges) return std::unexpected(std::move(exchanges.error()));
  return JsonLinesBlock{std::move(*exchanges), reader.self_contained(), reader.any_wrapped(), reader.consumed(),
                        reader.consumed_lines(), reader.carry_skip()};
}

}  // namespace mcptriage::capture

namespace mcptriage {

CaptureFormat lines_format(bool wrapped) { return wrapped ? CaptureFormat::exchange_log : CaptureFormat::jsonrpc_messages; }

}  // namespace mcptriage
