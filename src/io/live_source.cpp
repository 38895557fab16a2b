// The live reader of standard input (live_source.hpp): HTTP captures judged as they arrive; event streams past
// their first MiB judged event by event and not kept.
#include "io/live_source.hpp"

#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <memory>
#include <utility>

#include "io/read_limited.hpp"
#include "json/dom.hpp"
#include "mcptriage/http.hpp"
#include "mcptriage/sse.hpp"
#include "sse/blocks.hpp"

namespace mcptriage::io {

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t0, Clock::time_point t) {
  return static_cast<double>(std::chrono::duration_cast<std::chrono::microseconds>(t - t0).count()) / 1000.0;
}

/// How a wait for bytes ended.
enum class Got { bytes, eof, signal, idle, total, stopped, error };

/// Waits for bytes on standard input, a signal, the run's stop or a deadline, and appends what
/// one read gives to `buf` (or drops it when `keep` is false).
class Reader {
 public:
  explicit Reader(const LiveSource::Options& o, int stop_fd) : o_(o), stop_fd_(stop_fd), start_(Clock::now()) {
    last_byte_ = start_;
  }

  Got next(std::string& buf, bool keep) {
    for (;;) {
      const Clock::time_point now = Clock::now();
      int timeout = -1;
      Got on_timeout = Got::idle;
      auto bound = [&](std::optional<std::chrono::milliseconds> limit, Clock::time_point from, Got which) {
        if (!limit) return;
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(from + *limit - now).count();
        const int ms = left <= 0 ? 0 : static_cast<int>(std::min<long long>(left, 1 << 30));
        if (timeout < 0 || ms < timeout) {
          timeout = ms;
          on_timeout = which;
        }
      };
      bound(o_.idle, last_byte_, Got::idle);
      bound(o_.total, start_, Got::total);
      pollfd fds[3] = {{STDIN_FILENO, POLLIN, 0}, {o_.signal_fd, POLLIN, 0}, {stop_fd_, POLLIN, 0}};
      const int r = ::poll(fds, 3, timeout);
      if (r < 0) {
        if (errno == EINTR) continue;
        return Got::error;
      }
      if (fds[1].revents != 0) return Got::signal;
      if (fds[2].revents != 0) return Got::stopped;
      if (r == 0) return on_timeout;
      if (fds[0].revents == 0) continue;
      char chunk[65536];
      ssize_t n = 0;
      do {
        n = ::read(STDIN_FILENO, chunk, sizeof chunk);
      } while (n < 0 && errno == EINTR);
      if (n < 0) {
        if (errno == EAGAIN) continue;
        return Got::error;
      }
      if (n == 0) return Got::eof;
      last_byte_ = Clock::now();
      if (!first_byte_) first_byte_ = last_byte_;
      if (keep) {
        // Past 64 MiB, the buffer grows once to the limit (plus a read): doubling would hold the
        // old and the new buffer at once, twice the limit at the end (tests/hostile big-body).
        const std::size_t need = buf.size() + static_cast<std::size_t>(n);
        if (need > buf.capacity() && need > (std::size_t{1} << 26)) {
          buf.reserve(std::max(need, o_.sizes.max_input + sizeof chunk + 1));
        }
        buf.append(chunk, static_cast<std::size_t>(n));
      }
      return Got::bytes;
    }
  }

  Clock::time_point first_byte() const { return first_byte_.value_or(start_); }
  /// The next exchange starts with bytes already read (glued responses): its times count from
  /// the arrival of the last ones.
  void next_exchange() { first_byte_ = last_byte_; }
  Clock::time_point last_byte() const { return last_byte_; }

 private:
  const LiveSource::Options& o_;
  int stop_fd_;
  Clock::time_point start_;
  Clock::time_point last_byte_;
  std::optional<Clock::time_point> first_byte_;
};

/// Where an HTTP header block that may end in `buf` from `from` on ends (after its empty line),
/// or npos; `from` moves on past what was looked at, so that each byte is looked at about once.
std::size_t header_end(std::string_view buf, std::size_t& from) {
  while (from < buf.size()) {
    const void* hit = std::memchr(buf.data() + from, '\n', buf.size() - from);
    if (hit == nullptr) {
      from = buf.size();
      return std::string::npos;
    }
    const std::size_t nl = static_cast<std::size_t>(static_cast<const char*>(hit) - buf.data());
    if (nl + 1 >= buf.size()) {
      from = nl;  // look again when the next byte is there
      return std::string::npos;
    }
    if (buf[nl + 1] == '\n') return nl + 2;
    if (buf[nl + 1] == '\r') {
      if (nl + 2 >= buf.size()) {
        from = nl;
        return std::string::npos;
      }
      if (buf[nl + 2] == '\n') return nl + 3;
    }
    from = nl + 1;
  }
  return std::string::npos;
}

/// Body bytes of an event stream kept as read (its record is then the offline record of the same
/// bytes, made by read_capture); past them the stream is judged event by event and not kept
/// (docs/output.md "Memory on endless streams").
constexpr std::size_t kKeptStreamBytes = std::size_t{1} << 20;

/// One event block of a stream parsed as a whole-stream parse would see it: the last event id
/// carried over (an `id:` line put first), and a block that starts with a BOM not taken for the
/// stream's leading BOM (a comment line put first).
sse::Stream parse_block(std::string_view block, const SseStreamEnd& so_far) {
  static constexpr std::string_view kBom = "\xEF\xBB\xBF";
  if (so_far.last_event_id.empty() && !block.starts_with(kBom)) return sse::parse(block);
  std::string text = ":\n";
  if (!so_far.last_event_id.empty()) {
    text += "id: ";  // one space after the colon is stripped: the id as it was
    text += so_far.last_event_id;
    text += '\n';
  }
  text += block;
  return sse::parse(text);
}

/// Adds what one block (parsed by parse_block) says of the stream besides its events.
void tally_block(SseStreamEnd& end, const sse::Stream& s) {
  end.empty_data_events += s.empty_data_events;
  if (s.retry_ms) end.retry_ms = s.retry_ms;
  end.last_event_id = s.last_event_id;
  end.any_id = end.any_id || s.any_id;
  end.unterminated_tail = s.unterminated_tail;
}

/// What an event says, for its line or record (StreamEvent): read from its data when that is a
/// JSON-RPC message (the MCP notifications/progress and notifications/message params).
StreamEvent describe(json::Parser& parser, const sse::Event& ev) {
  StreamEvent e;
  e.type = ev.type;
  e.id = ev.last_event_id;
  auto parsed = parser.parse(ev.data);
  if (!parsed) {
    e.what = "not_json";
    return e;
  }
  const json::View root = *parsed;
  if (root.is_array()) {
    e.what = "batch";
    return e;
  }
  if (!root.is_object()) {
    e.what = "not_json";
    return e;
  }
  const auto method = root.string_at("method");
  const auto id = root.get("id");
  if (id) e.rpc_id = json::minified(*id);
  if (!method) {
    e.what = "response";
    if (auto error = root.get("error"); error && error->is_object()) {
      if (auto code = error->get("code")) e.message = "error " + json::minified(*code);
    }
    return e;
  }
  e.method = std::string(*method);
  const auto params = root.get("params");
  const bool with_params = params && params->is_object();
  if (id) {
    e.what = "request";
  } else if (*method == "notifications/progress") {
    e.what = "progress";
    if (with_params) {
      if (auto p = params->get("progress")) e.progress = p->number();
      if (auto t = params->get("total")) e.total = t->number();
      if (auto m = params->string_at("message")) e.message = std::string(*m);
    }
  } else if (*method == "notifications/message") {
    e.what = "log";
    if (with_params) {
      if (auto l = params->string_at("level")) e.level = std::string(*l);
      if (auto d = params->get("data")) {
        auto s = d->string();
        e.message = s ? std::string(*s) : json::minified(*d);
      }
    }
  } else {
    e.what = "notification";
  }
  return e;
}

LiveEnd live_end_of(Got g) {
  switch (g) {
    case Got::signal: return LiveEnd::interrupted;
    case Got::idle: return LiveEnd::idle_timeout;
    case Got::total: return LiveEnd::timeout;
    default: return LiveEnd::none;
  }
}

}  // namespace

bool LiveSource::applies(std::span<const Input> inputs) {
  if (inputs.size() != 1 || !inputs.front().path.empty() || !inputs.front().body_path.empty()) return false;
  struct stat st {};
  if (::fstat(STDIN_FILENO, &st) != 0) return false;
  return S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode) || S_ISCHR(st.st_mode);
}

void LiveSource::produce(Feed& feed) {
  const std::size_t i = 0;
  const Input& in = inputs_[i];
  Reader reader(options_, feed.stop_fd());
  std::string buf;
  Got got = Got::bytes;
  // Sniff: an HTTP capture starts with "HTTP/"; anything else is read as FileSource reads it.
  // A bare event stream (`curl -sN` without -i) starts with a field name and its colon.
  static constexpr std::string_view kHttp = "HTTP/";
  auto field_named = [&buf] {
    const std::size_t colon = buf.find(':');
    if (colon == std::string::npos) return false;
    const std::string_view name = std::string_view(buf).substr(0, colon);
    return name.empty() || name == "data" || name == "event" || name == "id" || name == "retry";
  };
  while (buf.size() < kHttp.size() || (!field_named() && buf.size() < 8 && buf.find('\n') == std::string::npos &&
                                        !kHttp.starts_with(std::string_view(buf).substr(0, kHttp.size())))) {
    got = reader.next(buf, true);
    if (got != Got::bytes) break;
  }
  if (got == Got::stopped) return;
  if (got == Got::error) return feed.failed(i, std::strerror(errno));
  if (buf.empty() && (got == Got::idle || got == Got::total)) {
    // Nothing arrived (a server that sends no header before its first event, a stalled
    // connection): no exchange to judge, and never a quiet exit 0 (docs/exit-codes.md).
    return feed.failed(i, std::string("no byte arrived before the ") + (got == Got::idle ? "--idle-timeout" : "--timeout") +
                              " ended the wait: nothing to judge");
  }
  const std::string_view head = std::string_view(buf).substr(0, std::min(buf.size(), kHttp.size()));
  const bool bare_stream = !buf.empty() && !kHttp.starts_with(head) && field_named();
  if (buf.empty() || (!kHttp.starts_with(head) && !bare_stream)) {
    if (got == Got::bytes || got == Got::eof) {
      if (options_.not_live) options_.not_live();
      FileSource rest(inputs_, options_.sizes);
      rest.set_stdin_head(std::move(buf));
      return rest.produce(feed);
    }
    if (buf.empty()) return;  // a signal before any byte: nothing to judge
    // A few bytes of some other input, then a signal or a deadline: judged as they are.
    auto read = read_capture(buf, in.name, options_.capture);
    if (!read) return feed.failed(i, std::move(read.error().message));
    if (read->empty()) return;
    read->back().live_end = live_end_of(got);
    return feed.exchanges(i, std::move(*read), true);
  }

  const std::size_t limit = options_.sizes.max_input;
  std::size_t base = 0;  // where the exchange being read starts in `buf`
  LiveTiming timing;
  std::size_t scan = 0;  // where the search for the end of the headers goes on
  std::size_t body_start = std::string::npos;
  enum class Mode { headers, sse, length, to_end } mode = Mode::headers;
  std::size_t content_length = 0;
  std::optional<SseJudge> judge;
  std::optional<sse::BlockScanner> blocks;  // where the events end (src/sse/blocks.hpp)
  std::optional<std::size_t> cut;  // decided: the bytes [base, cut) are the exchange
  bool too_large = false;
  // An event stream past kKeptStreamBytes: judged by `judge` as its events come, its bytes dropped.
  bool summarising = false;
  bool may_summarise = true;     // false once its first part was read other than as one plain body
  std::vector<Exchange> prior;   // the read of the headers and the first part, bodies dropped
  std::unique_ptr<ReadAlong> along;  // the judge's (it must outlive it)
  SseStreamEnd tally;            // what the stream said besides its events, so far
  std::string decider_block;     // the block of the deciding event (the session facts read it)
  std::size_t head_exchanges = 1;  // the exchange being read: its number among those of its read
  json::Parser event_parser;       // for the events' lines and records (--events)
  if (bare_stream) {
    // No head to read: the body is an event stream from its first byte, judged as its events come
    // (its record is the offline one of a bare-sse input; not summarised past 1 MiB).
    auto read = read_capture(buf, in.name, options_.capture);
    if (read && !read->empty()) judge = SseJudge::start(read->back(), options_.flags, options_.now);
    body_start = 0;
    may_summarise = false;
    if (judge) {
      mode = Mode::sse;
      blocks.emplace(0);
    } else {
      mode = Mode::to_end;
    }
  }

  // Past kKeptStreamBytes of a plain event-stream body (no chunk framing, no trailers, no reader
  // note): a new judge is started from the offline read of what arrived, the events of it fed
  // again, and from then on only the block being read is kept.
  auto start_summary = [&]() {
    may_summarise = false;
    const std::size_t end = blocks->block_start();
    auto read = read_capture(std::string_view(buf).substr(base, end - base), in.name, options_.capture);
    if (!read || read->empty()) return;
    Exchange& last = read->back();
    if (last.format != CaptureFormat::curl_i || last.response.body_state != BodyState::complete ||
        !last.warnings.empty() || find_header(last.response.headers, "Trailer") ||
        last.response.body != std::string_view(buf).substr(body_start, end - body_start)) {
      return;
    }
    std::string kept = std::move(last.response.body);
    // SseJudge copies the head; its transport layer only asks whether there is a body.
    last.response.body.assign(kept, 0, 1);
    auto next_along = std::make_unique<ReadAlong>();
    auto fresh = SseJudge::start(last, options_.flags, options_.now, next_along.get());
    std::string().swap(last.response.body);
    if (!fresh) return;
    const sse::Stream first = sse::parse(kept);
    std::string().swap(kept);
    for (const sse::Event& ev : first.events) fresh->feed(ev);
    tally = SseStreamEnd::of(first, false);
    judge = std::move(fresh);
    along = std::move(next_along);
    prior = std::move(*read);
    summarising = true;
    buf.erase(0, end);
    blocks->shift(end);
    base = 0;
    body_start = 0;
  };

  auto advance = [&]() {
    if (mode == Mode::headers) {
      const std::size_t end = header_end(buf, scan);
      if (end == std::string::npos) return;
      // What the header blocks so far say: interim (1xx) and tunnel blocks are followed by another.
      auto read = read_capture(std::string_view(buf).substr(base, end - base), in.name, options_.capture);
      if (!read || read->empty() || !read->back().response.transport_captured) {
        mode = Mode::to_end;
        return;
      }
      const Response& r = read->back().response;
      std::string reason = r.reason;
      std::transform(reason.begin(), reason.end(), reason.begin(),
                     [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
      if (r.status < 200 || reason.find("connection established") != std::string::npos) {
        scan = end;
        return;
      }
      body_start = end;
      head_exchanges = read->size();
      const auto type = find_header(r.headers, "Content-Type");
      const auto coding = find_header(r.headers, "Content-Encoding");
      const auto length = find_header(r.headers, "Content-Length");
      const bool coded = coding && *coding != "identity";
      if (!coded && type && http::media_type_is(*type, "text/event-stream") && !length) {
        judge = SseJudge::start(read->back(), options_.flags, options_.now);
        if (judge) {
          mode = Mode::sse;
          blocks.emplace(end);
        } else {
          mode = Mode::to_end;
        }
      } else if (length && (r.status < 300 || r.status >= 400) && !find_header(r.headers, "Transfer-Encoding")) {
        std::size_t n = 0;
        const std::string_view v = *length;
        bool ok = !v.empty();
        for (char ch : v) {
          if (ch < '0' || ch > '9' || n > (std::size_t{1} << 50)) {
            ok = false;
            break;
          }
          n = n * 10 + static_cast<std::size_t>(ch - '0');
        }
        mode = ok ? Mode::length : Mode::to_end;
        content_length = n;
        // Read whole, the input would pass the limit: it is an error at once (the offline message).
        if (ok && end + n > limit) too_large = true;
      } else {
        mode = Mode::to_end;
      }
    }
    if (mode == Mode::sse) {
      while (auto b = blocks->next(buf)) {
        const std::string_view block = std::string_view(buf).substr(b->first, b->second - b->first);
        const sse::Stream s = parse_block(block, tally);
        tally_block(tally, s);
        if (!timing.first_event_ms && (!s.events.empty() || s.empty_data_events > 0)) {
          timing.first_event_ms = ms_since(reader.first_byte(), reader.last_byte());
        }
        bool decided = false;
        if (options_.events && s.empty_data_events > 0) {
          StreamEvent e;
          e.what = "priming";
          e.id = s.last_event_id;
          e.source.exchange = head_exchanges;
          e.ms = ms_since(reader.first_byte(), reader.last_byte());
          feed.event(i, std::move(e));
        }
        for (const sse::Event& ev : s.events) {
          decided = judge->feed(ev) || decided;
          if (options_.events) {
            StreamEvent e = describe(event_parser, ev);
            e.number = judge->events();
            e.source.exchange = head_exchanges;
            e.ms = ms_since(reader.first_byte(), reader.last_byte());
            feed.event(i, std::move(e));
          }
        }
        if (decided) {
          if (summarising) decider_block = block;
          cut = b->second;
          return;
        }
      }
      if (!summarising && may_summarise && blocks->block_start() - body_start > kKeptStreamBytes) start_summary();
      if (summarising && blocks->block_start() > 0) {  // only the block being read is kept
        const std::size_t done = blocks->block_start();
        buf.erase(0, done);
        blocks->shift(done);
      }
    } else if (mode == Mode::length) {
      if (buf.size() - body_start >= content_length) cut = body_start + content_length;
    }
  };

  auto emit = [&](std::string_view bytes, LiveEnd end) {
    auto read = read_capture(bytes, in.name, options_.capture);
    if (!read) return feed.failed(i, std::move(read.error().message));
    if (read->empty()) return;
    for (Exchange& ex : *read) ex.timing = timing;
    read->back().live_end = end;
    feed.exchanges(i, std::move(*read), true);
  };

  // The record of a summarised stream: the judge's verdict on the events so far and the stream's
  // `tail` (bytes after its last block), carried by the last exchange of the first part's read.
  auto emit_summary = [&](std::string_view tail, LiveEnd end) {
    SseStreamEnd how = tally;
    how.unterminated_tail = false;
    if (!tail.empty()) tally_block(how, parse_block(tail, tally));
    how.live_end = end;
    auto judged = std::make_shared<Judged>();
    judged->records = judge->finish(how);
    judged->along = std::move(*along);
    Exchange& last = prior.back();
    last.response.body = std::move(decider_block);
    last.judged = std::move(judged);
    last.live_end = end;
    for (Exchange& ex : prior) ex.timing = timing;
    feed.exchanges(i, std::move(prior), true);
  };

  for (;;) {  // each response of the input (curl --next glues several)
    if (got == Got::bytes) advance();
    while (!cut && got == Got::bytes) {
      if (too_large || buf.size() - base > limit) return feed.failed(i, too_large_message(limit));
      got = reader.next(buf, true);
      if (got == Got::bytes) advance();
    }
    if (got == Got::stopped) return;
    if (got == Got::error) return feed.failed(i, std::strerror(errno));
    if (!cut) {
      const LiveEnd end = live_end_of(got);
      if (end == LiveEnd::none && mode != Mode::sse && body_start != std::string::npos && buf.size() > body_start) {
        timing.final_ms = ms_since(reader.first_byte(), reader.last_byte());
      }
      if (summarising) {
        emit_summary(std::string_view(buf).substr(blocks->block_start()), end);
      } else if (buf.size() > base) {
        emit(std::string_view(buf).substr(base), end);
      }
      return;
    }
    timing.final_ms = ms_since(reader.first_byte(), reader.last_byte());
    if (summarising) {
      emit_summary({}, LiveEnd::none);
    } else {
      emit(std::string_view(buf).substr(base, *cut - base), LiveEnd::none);
    }
    // What follows: another response (glued, as curl --next writes them) or the rest of this
    // one (events after the final response, which are read and left, so that the writer is not
    // cut off, until the end, a signal or a deadline).
    base = *cut;
    for (;;) {
      while (base < buf.size() && (buf[base] == '\r' || buf[base] == '\n')) ++base;
      if (buf.size() - base >= kHttp.size() || got != Got::bytes) break;
      got = reader.next(buf, true);
    }
    const bool another = buf.size() > base && kHttp.starts_with(std::string_view(buf).substr(base, std::min(buf.size() - base, kHttp.size())));
    if (!another) {
      std::string().swap(buf);
      while (got == Got::bytes) got = reader.next(buf, false);
      return;
    }
    if (base > (std::size_t{1} << 20) && base > buf.size() / 2) {  // amortised: each byte moves at most once or twice
      buf.erase(0, base);
      base = 0;
    }
    reader.next_exchange();
    timing = LiveTiming{};
    scan = base;
    body_start = std::string::npos;
    mode = Mode::headers;
    content_length = 0;
    judge.reset();
    blocks.reset();
    cut.reset();
    summarising = false;
    may_summarise = true;
    prior.clear();
    along.reset();
    tally = SseStreamEnd{};
    decider_block.clear();
  }
}

}  // namespace mcptriage::io
