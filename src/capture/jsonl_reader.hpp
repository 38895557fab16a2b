// The JSON Lines reader's parts, shared by the files that implement it: jsonl_log.cpp (the
// read and the public functions), jsonl_lines.cpp (what one line says) and jsonl_pairing.cpp
// (pairing lines into exchanges). Private to src/capture; shapes: docs/formats.md "JSON Lines".
#pragma once

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

namespace mcptriage::capture::jsonl {

using json::View;

inline constexpr std::size_t npos = std::string_view::npos;

inline bool is_blank(std::string_view s) { return s.find_first_not_of(" \t\r") == npos; }

inline std::string_view trim_line(std::string_view s) {
  while (!s.empty() && (s.back() == '\r' || s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  return s;
}

/// How many lines a request waits for its reply before it is given up as never answered, not
/// counting the lines that send requests and the replies to the requests that were waiting when
/// it was sent: a client that sends thousands at once still gets their replies paired, and a
/// lost reply is given up after this many others (JsonLinesReader::expire; docs/formats.md,
/// "Pairing window").
constexpr std::size_t kPairWindowLines = 4096;
/// How many requests may wait for their replies at once: past it the oldest is given up, so
/// that requests never answered do not hold memory without end (docs/formats.md, "Pairing window").
constexpr std::size_t kMaxOpenRequests = 16 * kPairWindowLines;

/// A message broken over lines (docs/formats.md "A message broken over lines") is joined back
/// from at most this many lines and bytes (its LFs included); past either, its lines are judged
/// one by one. Both keep a join within 5 of the blocks a log is read in (1,024 lines, 128 KiB
/// with --jobs 1), fewer than the 8 that the pipeline reads again for lines that wait before it
/// carries the rest of the log whole (io/pipeline.cpp kRereads: 2.4 GB for a 57 MB log).
constexpr std::size_t kJoinMaxLines = kPairWindowLines;
constexpr std::size_t kJoinMaxBytes = std::size_t{512} << 10;

/// The first of `keys` present in `e`.
inline std::optional<View> first_member(View e, std::initializer_list<std::string_view> keys) {
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

inline std::optional<int> status_of(View v) {
  if (auto i = v.int64(); i && *i >= 0 && *i <= 999) return static_cast<int>(*i);
  if (auto s = v.string(); s && s->size() == 3 && s->find_first_not_of("0123456789") == npos) {
    return ((*s)[0] - '0') * 100 + ((*s)[1] - '0') * 10 + ((*s)[2] - '0');
  }
  return std::nullopt;
}

/// Headers as an object (`{"content-type": "x"}` or `{"name": ["a", "b"]}`) or as an array of
/// `{name, value}` (HAR style) or `[name, value]` pairs.
inline Headers headers_of(View v) {
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
inline std::optional<Side> side_word(std::string_view w) {
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
inline bool server_method(std::string_view m) {
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
  std::vector<std::string> proxy_warnings;   ///< `proxy.warnings`; a wrap recording's `warnings` (--inject)
  std::optional<BodyState> proxy_body_state; ///< `proxy.body`: cut, cut_at_limit, not_captured
  bool proxy_cut_at_limit = false;
  CaptureTime time;  ///< a `timing` member (`started`, `end_ms`: a `mcptriage proxy` recording)
  /// A line of a `mcptriage wrap` recording (`"transport": "stdio"`, docs/formats.md "Recordings of
  /// mcptriage wrap"): a message (read as a bare message with the line's direction), a line the
  /// server wrote that is no message, the host's end of input, the server's exit, or a request
  /// the wrapper found unanswered at its --watch deadline (`watch`).
  enum class Stdio { none, message, text, input_end, exit, watch };
  Stdio stdio = Stdio::none;
  std::string stdio_text;  ///< Stdio::text: the line; Stdio::exit: what the exit was (for the detail)
  bool stdio_cut = false;                 ///< Stdio::text: `cut`, kept in part (--max-line)
  std::optional<std::size_t> stdio_size;  ///< Stdio::text: `bytes`, the line's whole length
  /// A message joined back from this many lines (2 or more; 0: one line), `line` to `last_line`
  /// (docs/formats.md "A message broken over lines").
  std::size_t broken_lines = 0;
  std::size_t last_line = 0;
  std::string watch_id;                   ///< Stdio::watch: the request's id, as an id key (minified JSON)
  long long watch_ms = 0;                 ///< Stdio::watch: the --watch duration, milliseconds
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
  CaptureTime time;                     ///< Item::time of a full line
  bool cut_at_limit = false;
  std::vector<std::string> warnings;
  std::optional<std::string> open_id;  ///< its key in open_by_id_ while it waits for its reply
  /// JsonLinesReader::clock_ before its line, less one for a request (whose line does not move
  /// the clock), so that the lines after it count from 1 for every kind of entry.
  std::size_t opened_at = 0;
  /// The exchanges waiting for a reply when it was sent: their replies, which may come before
  /// its own, do not count in its window (JsonLinesReader::expire).
  std::size_t open_before = 0;
  StdioEnd stdio = StdioEnd::none;     ///< a wrap recording: what the wrapper saw (Exchange::stdio)
  std::string stdio_detail;
  /// Its request or its reply came broken over lines (Exchange::broken_lines, broken_detail).
  std::size_t broken_lines = 0;
  std::string broken_detail;
  bool reply_over_lines = false;  ///< the reply did: its lines end at closed_line (cut_at_first_waiting)
  std::size_t watch_line = 0;          ///< a wrap recording: the line saying it was unanswered at --watch, else 0
  long long watch_ms = 0;              ///< that --watch duration, milliseconds
};

/// The exchanges being assembled, by index from the first line of the log: a deque whose front
/// can be handed out (JsonLinesReader::read_more) while the indexes of the rest stay what they
/// were (open_ and open_by_id_ hold them).
class PendingList {
 public:
  Pending& operator[](std::size_t index) { return items_[index - base_]; }
  const Pending& operator[](std::size_t index) const { return items_[index - base_]; }
  /// The index the next entry gets.
  std::size_t size() const { return base_ + items_.size(); }
  /// The index of the first entry not handed out.
  std::size_t base() const { return base_; }
  bool empty() const { return items_.empty(); }
  void push_back(Pending p) { items_.push_back(std::move(p)); }
  /// Keeps the entries before index `n`.
  void resize(std::size_t n) { items_.resize(n - base_); }
  void pop_front() {
    items_.pop_front();
    ++base_;
  }
  auto begin() { return items_.begin(); }
  auto end() { return items_.end(); }
  auto begin() const { return items_.begin(); }
  auto end() const { return items_.end(); }

 private:
  std::deque<Pending> items_;
  std::size_t base_ = 0;
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
                                                          std::span<const std::size_t> skip_lines = {});

  /// The next whole lines of a log read with this reader from its start, one call after the
  /// other (a log followed as it grows: JsonLinesStream). Gives the exchanges no later line can
  /// change: those before the first still waiting for a reply, each once, in the order one
  /// read of the whole log gives them, numbered from 1 in each call. `last`: the log ends with
  /// these lines, and whatever waits is given out as a read of the whole log ends it. No line
  /// is read twice, so a log with many requests in flight costs what it costs read at once.
  /// Errors: as read(), for the first lines of the log only (a log of another shape).
  /// `skip_lines`: line numbers read as blank (sorted), as in read().
  std::expected<std::vector<Exchange>, CaptureError> read_more(std::string_view text, bool padded, bool last,
                                                               std::span<const std::size_t> skip_lines = {});

  /// Nothing read so far waits for a later line (read_more: every exchange was handed out).
  bool quiet() const { return !waiting() && pending_.empty(); }

 private:
  std::string_view name_;
  const CaptureOptions& options_;
  /// CaptureOptions::key_field: the key of each line that has one (Exchange::key), by line.
  std::map<std::size_t, std::string> line_keys_;
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
  static std::string printable_key(std::string_view key);

  /// `.name` for jq, or `."name"` when it is no identifier; `placeholder` when nothing fits.
  std::string jq_path(std::initializer_list<std::string_view> words, std::string_view placeholder) const;

  std::string unrecognised_log_message() const;

  /// Some line waits for a later one: a request for its reply, events for their response, a
  /// server request for the client's response.
  bool waiting() const {
    return !open_.empty() || !stream_.empty() || !server_request_.empty() || !join_.lines.empty();
  }

  /// A request (or a server request) waits for its reply at most kPairWindowLines lines (a
  /// request: of those that move clock_, less Pending::open_before; a server request and SSE
  /// events: any): older
  /// ones are given up as never answered before line `line_no` is read, so that a lost reply
  /// does not hold the rest of a log (docs/formats.md, "Pairing window").
  void expire(std::size_t line_no);

  /// Reads one line of the text (read(), read_more()): the window first, then the line.
  void read_line(std::string_view line, std::size_t line_no);

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
  std::optional<Cut> cut_at_first_waiting(std::span<const std::size_t> skip_lines) const;

  /// Keeps the entries before the cut (final: no later line changes them) and forgets what
  /// waits; consumed() and carry_skip() then say what to read again.
  void keep_until(Cut at, const std::vector<std::size_t>& line_starts);

  // One parser per thread for lines and one for bodies, kept from one read to the next (a log
  // read in blocks makes a reader per block; docs/performance.md).
  static json::Parser& thread_parser(int which);
  json::Parser& parser_ = thread_parser(0);
  PendingList pending_;
  /// The pairing window's clock for requests (expire()): lines read so far, not counting those
  /// that sent a request. From 1: a request's opened_at is one less (Pending::opened_at).
  std::size_t clock_ = 1;
  bool sent_request_ = false;  ///< the line being read sent a request (it does not move clock_)
  std::size_t line_no_ = 0;    ///< read_more: the last line read
  bool more_started_ = false;  ///< read_more was called before
  bool any_line_ = false;      ///< read_more: a line that is not blank was read
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

  std::size_t add(Pending p);

  void add_skip(std::size_t line, SkipReason reason, std::string detail, bool not_json = false);

  /// Logarithmic: a log with many requests open at once stays linear overall.
  void close(std::size_t index);

  void handle_line(std::string_view line, std::size_t line_no);

  Item read_item(View root, std::string_view line, std::size_t line_no);

  /// A line of a `mcptriage wrap` recording (`root` has `"transport": "stdio"`).
  Item read_stdio_item(View root, std::size_t line_no);
  /// Its text lines, end of input and exit (Item::Stdio other than message).
  void handle_stdio(Item it);
  /// The warning of a request a wrap recording's `watch` line named: answered `answered_after_ms`
  /// after it was sent, or (nullopt) never.
  static std::string watch_warning(const Pending& p, std::optional<double> answered_after_ms);
  bool stdio_input_closed_ = false;  ///< a wrap recording: the host closed the server's input
  bool stdio_events_ = false;        ///< a wrap recording's end of input or exit was read

  json::Parser& parser_for_bodies_ = thread_parser(1);

  /// A message broken over lines being joined back (docs/formats.md "A message broken over
  /// lines"): consecutive lines of one direction, none of them a JSON object or array alone, from
  /// one that opens a `{` or `[` it does not close, until the brackets close at a line's end.
  struct HeldLine {
    std::size_t line = 0;
    std::size_t from = 0;  ///< where its text starts in Join::text
    std::size_t size = 0;
    /// A line of a log: why it alone is not JSON (static text); empty when it is a scalar.
    std::string_view parse_error;
    // A `line` of a wrap recording: what handle_stdio needs of it if the join fails.
    std::optional<std::int64_t> t;
    std::optional<std::size_t> bytes;
    std::vector<std::string> warnings;
  };
  struct Join {
    std::vector<HeldLine> lines;
    std::string text;     ///< the lines so far, joined with LF
    bool stdio = false;   ///< lines of a wrap recording (`line` members), else lines of a log
    Side side = Side::unknown;  ///< a wrap recording's direction
    std::size_t depth = 0;      ///< brackets open at the end of `text` (outside strings)
    bool in_string = false;
    bool escaped = false;
  };
  Join join_;
  enum class Scan { open, closed, broken };
  /// Scans `text` on from the join's state: still open at its end, closed exactly at its end
  /// (white space after), or no JSON value (a string open at the end of a line, a bracket
  /// closed that was not open, text after the value).
  Scan scan_join(std::string_view text);
  /// Offers a line to the join: a log line that is not JSON (`parse_error`) or a scalar, or a
  /// wrap recording's `line` (`stdio_item`). True when the join took it (held, or the message it
  /// completes was read); false: judge the line as before (the join, if any, was given up first).
  bool join_line(std::string_view text, std::size_t line_no, std::string_view parse_error, Item* stdio_item);
  /// A wrap recording's `line` may be part of a message broken over lines: its text is not an
  /// object or an array alone (the wrapper records a line that is no JSON-RPC message so).
  bool stdio_line_joins(const Item& it);
  /// Gives up the join: its lines are judged one by one, as without joining.
  void end_join();
  /// The message the join completed, read as one line would be.
  void read_joined(View root, std::size_t first, std::size_t last, std::size_t count);
  /// The detail of a message broken over lines: `what` (e.g. "this response") from the sender;
  /// `answers_call`: a reply, whose call a host then times out.
  static std::string broken_text(bool host, std::string_view what, const Item& it, bool answers_call);
  /// An entry of its own for a broken message that answers nothing (StdioEnd::broken_message).
  void add_broken_entry(Item& it, std::string_view what);

  /// The members of a `proxy` object that change what the exchange is (docs/proxy.md "Record
  /// format"): `skipped`, `body`, `body_encoding` and `warnings`; the rest is the proxy's own.
  void read_proxy_member(json::View proxy, Item& it);

  /// `request` as a JSON-RPC message object, a raw body string, or an HTTP request object
  /// `{method, url|path, headers, body}`.
  /// `as_text`: keep a body logged as a JSON value as its text; otherwise keep only what the
  /// classifier reads of it (Request::info), which spares printing it back to text and
  /// parsing it again for every line (docs/performance.md).
  Request request_of(View v, bool as_text = false);

  void handle_full(Item it);

  void handle_client(Item it);

  void handle_server(Item it);

  /// The open exchange an id-less reply belongs to: an empty reply (202) answers the oldest
  /// open notification, anything else the oldest open request.
  std::optional<std::size_t> by_order(bool empty_reply);

  /// The id of the first JSON-RPC response in a raw body (JSON or event stream).
  std::optional<std::string> id_in_body(std::string_view body);

  void fill_reply(Pending& p, Item& it, bool attach_stream);

  void finish() {
    end_join();
    flush_stream();
  }

  /// Events whose response never came (the log ended, or the pairing window passed): the
  /// stream of the one open request if there is exactly one, else an exchange of their own.
  void flush_stream();

  /// The entries before index `end` as exchanges, numbered from first_index_ + 1; they are
  /// handed out (taken from pending_).
  std::vector<Exchange> to_exchanges(std::size_t end);
  std::vector<Exchange> to_exchanges() { return to_exchanges(pending_.size()); }
};

/// True when `obj` looks like one logged exchange rather than a bare JSON-RPC message.
inline bool looks_logged(View obj) {
  if (obj.get("jsonrpc")) return false;
  for (std::string_view k : {"status", "status_code", "statusCode", "http", "response", "dir", "direction"}) {
    if (obj.get(k)) return true;
  }
  return obj.get("request") && (obj.get("body") || obj.get("message"));
}

}  // namespace mcptriage::capture::jsonl
