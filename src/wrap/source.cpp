// The wrapper as a source of the run core (source.hpp).
#include "wrap/source.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <deque>
#include <limits>

#include "mcptriage/output.hpp"
#include "mcptriage/redact.hpp"
#include "mcptriage/render.hpp"
#include "mcptriage/session.hpp"
#include "mcptriage/verdict.hpp"
#include "proxy/json_peek.hpp"

namespace mcptriage::wrap {
namespace {

/// The watcher's clock is the recording's: the system clock of the lines' `t` (Event::unix_ns),
/// held in the engine's time_point type. Only differences of these are ever taken.
triage::BehaviourClock::time_point to_clock(std::int64_t unix_ns) {
  return triage::BehaviourClock::time_point(std::chrono::duration_cast<triage::BehaviourClock::duration>(
      std::chrono::nanoseconds(unix_ns)));
}

std::int64_t to_unix_ns(triage::BehaviourClock::time_point t) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(t.time_since_epoch()).count();
}

std::string human_ms(double ms) {
  if (ms < 1000) return fmt::format("{:.0f} ms", ms);
  return fmt::format("{:.1f} s", ms / 1000);
}

void str(std::string& out, std::string_view s) { append_json_string(out, redact(s)); }

void opt_str(std::string& out, std::string_view s) {
  if (s.empty()) out += "null";
  else str(out, s);
}

}  // namespace

void WrapSource::produce(io::Feed& feed) {
  std::deque<Event> events;
  std::size_t fed = 0;  // lines fed so far: the next block's first line follows them
  std::string block;
  std::vector<Note> watch_notes;
  auto feed_block = [&](bool last) {
    if (failed_) return;
    const std::size_t n = static_cast<std::size_t>(std::count(block.begin(), block.end(), '\n'));
    if (n == 0 && !last) return;
    // Parsed in place (Feed::lines): kPadding bytes allocated after the lines (a resize down keeps them).
    const std::size_t size = block.size();
    block.append(json::kPadding, ' ');
    block.resize(size);
    try {
      feed.lines(0, std::move(block), fed, last, /*follow=*/true);
    } catch (const OutputError&) {
      failed_ = std::current_exception();
    }
    block = std::string();
    fed += n;
  };
  auto append = [&](const std::string& line) {
    if (recording_ != nullptr) recording_->write(line, {});
    block += line;
    block += '\n';
    ++lines_;
  };
  bool ended = false;  // the server's exit was fed: the last line of the log
  while (true) {
    // Wake for the next event, or the first deadline: a request's --watch, or a watch of the host.
    std::optional<std::int64_t> until;
    if (!deadlines_.empty() && !server_ended_) until = deadlines_.front().second;
    if (auto d = behaviour_.next_deadline()) {
      // A watch that an open request holds back (tell_watcher) ends with that request's record,
      // which comes with events: no wake for it before.
      const std::int64_t ns = to_unix_ns(*d);
      if (ns <= frontier_ && (!until || ns < *until)) until = ns;
    }
    if (!queue_.wait(events, until)) break;
    for (Event& e : events) {
      if (e.kind == Event::Kind::exit) ended = true;
      std::string line;
      switch (e.kind) {
        case Event::Kind::line: {
          bool message = false;
          line = stdio_message_line(e.dir, e.unix_ns, e.bytes, e.cut, e.size, parser_, message,
                                    e.injection ? &*e.injection : nullptr);
          if (!message) ++counts_.not_messages;
          if (e.dir == Dir::c2s) {
            ++counts_.to_server;
            counts_.bytes_to_server += e.size;
          } else if (e.injection && e.injection->made_by_wrapper) {
            ++counts_.from_wrapper;  // --inject: written by the wrapper, not the server
          } else {
            ++counts_.to_host;
            counts_.bytes_to_host += e.size;
          }
          append(line);
          if (message) see(e, lines_);
          break;
        }
        case Event::Kind::eof:
          append(stdio_eof_line(e.unix_ns));
          counts_.input_closed = true;
          see(e, lines_);
          break;
        case Event::Kind::exit:
          append(stdio_exit_line(e.unix_ns, e.status, e.stderr_tail, e.injection ? &*e.injection : nullptr));
          see(e, lines_);
          break;
      }
    }
    events.clear();
    // The deadlines after this wake-up's lines: a response the relay queued before its deadline
    // (it queues a line before it forwards it) is seen first. The server's exit ends them.
    const std::int64_t now = now_unix_ns();
    if (!ended) overdue(now, block, watch_notes);
    // The exit ends the log (the requests still open are read as unanswered, at once); lines after
    // it cannot come.
    feed_block(ended);
    for (Note& n : watch_notes) note(std::move(n));
    watch_notes.clear();
    tell_watcher(now, ended);
    if (ended) break;
  }
  // The server ended: the host can send it nothing more.
  notes(behaviour_.finish(to_clock(exit_ns_.value_or(now_unix_ns()))));
  if (failed_) std::rethrow_exception(failed_);
}

void WrapSource::step(Step s) {
  s.order = ++step_order_;
  const std::int64_t at = s.at_ns;
  steps_.emplace(at, std::move(s));
}

void WrapSource::see(const Event& e, std::size_t line) {
  if (e.kind == Event::Kind::eof) {
    Step s;
    s.kind = Step::Kind::input_closed;
    s.at_ns = e.unix_ns;
    step(std::move(s));
    return;
  }
  if (e.kind == Event::Kind::exit) {
    server_ended_ = true;
    exit_ns_ = e.unix_ns;
    return;
  }
  const proxy::Peek m = proxy::peek_message(e.bytes);
  if (e.dir == Dir::c2s) {
    if (m.kind != proxy::MessageKind::request && m.kind != proxy::MessageKind::notification) return;
    Step s;
    s.at_ns = e.unix_ns;
    s.begun = triage::RequestBegun{++seq_, to_clock(e.unix_ns), "", m.method, m.tool_name, false};
    step(std::move(s));
    if (m.kind == proxy::MessageKind::request && !m.id_json.empty()) {
      HostRequest r;
      r.seq = seq_;
      r.sent_ns = e.unix_ns;
      r.line = line;
      r.method = m.method;
      r.tool = m.tool_name;
      if (e.injection) r.injected = e.injection->rule;
      deadlines_.emplace_back(m.id_json, e.unix_ns + std::chrono::duration_cast<std::chrono::nanoseconds>(watch_).count());
      auto [it, fresh] = requests_.try_emplace(m.id_json);
      if (!fresh) unjudged_.erase({it->second.sent_ns, m.id_json});  // an id used again: the later request
      it->second = std::move(r);
      unjudged_.emplace(e.unix_ns, m.id_json);
    } else if (m.method == "notifications/cancelled") {
      // The host gave up on a request (MCP cancellation): for it, the call ended here.
      const std::string padded = json::padded_copy(e.bytes);
      if (auto root = parser_.parse(std::string_view(padded.data(), e.bytes.size()), true)) {
        if (auto params = root->get("params")) {
          if (auto id = params->get("requestId")) {
            if (auto it = requests_.find(json::minified(*id)); it != requests_.end() && !it->second.cancelled_ns) {
              it->second.cancelled_ns = e.unix_ns;
            }
          }
        }
      }
    }
    return;
  }
  if (m.kind != proxy::MessageKind::response || m.id_json.empty()) return;
  auto it = requests_.find(m.id_json);
  if (it == requests_.end() || it->second.answered_ns) return;
  it->second.answered_ns = e.unix_ns;
  if (it->second.overdue) {
    ++counts_.answered_late;
    counts_.latest_ms = std::max(counts_.latest_ms, static_cast<double>(e.unix_ns - it->second.sent_ns) / 1e6);
  }
}

void WrapSource::overdue(std::int64_t now_ns, std::string& block, std::vector<Note>& notes) {
  if (server_ended_) return;
  const std::int64_t watch_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(watch_).count();
  while (!deadlines_.empty()) {
    const auto& [id, deadline] = deadlines_.front();
    auto it = requests_.find(id);
    // Answered, cancelled by the host (it no longer waits), judged, or its id taken by a later
    // request: nothing to say of this one.
    if (it == requests_.end() || it->second.answered_ns || it->second.cancelled_ns || it->second.overdue ||
        it->second.sent_ns + watch_ns != deadline) {
      deadlines_.pop_front();
      continue;
    }
    if (deadline > now_ns) break;
    HostRequest& r = it->second;
    r.overdue = true;
    ++counts_.overdue;
    const std::string line = stdio_watch_line(now_ns, id, r.method, watch_.count());
    if (recording_ != nullptr) recording_->write(line, {});
    block += line;
    block += '\n';
    ++lines_;
    // The record: a live notice, not the exchange's verdict (which comes with its end).
    const bool init = r.method == "initialize";
    const ReasonEntry& entry = reason_entry(init ? Reason::initialize_timeout : Reason::response_timeout);
    const double waited = static_cast<double>(now_ns - r.sent_ns) / 1e6;
    const std::string call = r.method == "tools/call" && !r.tool.empty() ? "tools/call " + r.tool : r.method;
    std::string detail =
        init ? fmt::format("the server has not answered initialize (id {}, line {}) within --watch {} and is still "
                           "running: the session is not open",
                           id, r.line, human_ms(static_cast<double>(watch_.count())))
             : fmt::format("{} (id {}, line {}) has had no response within --watch {} and the server is still running",
                           call, id, r.line, human_ms(static_cast<double>(watch_.count())));
    detail += fmt::format("; waited {}", human_ms(waited));
    if (!r.injected.empty()) detail += "; --inject " + r.injected + " applied to it";
    detail += "; its exchange record comes with its response, or when the server ends";
    Note n;
    std::string& j = n.jsonl;
    j = "{\"schema\":1,\"kind\":\"watch\",\"source\":";
    str(j, input_name_);
    j += fmt::format(",\"line\":{},\"outcome\":\"{}\",\"layer\":\"{}\",\"reason\":\"{}\",\"spec\":\"{}\",\"advice\":\"{}\"",
                     r.line, to_string(entry.outcome), to_string(layer_of(entry.outcome)), entry.name, entry.spec,
                     to_string(entry.advice));
    j += ",\"method\":";
    opt_str(j, r.method);
    j += ",\"tool\":";
    opt_str(j, r.tool);
    j += ",\"jsonrpc\":{\"request_id\":" + id + "},\"injected\":";
    opt_str(j, r.injected);
    j += fmt::format(",\"watch_ms\":{},\"waited_ms\":{:.3f},\"detail\":", watch_.count(), waited);
    str(j, detail);
    j += '}';
    n.table = "watch " + escape_terminal(redact(input_name_)) + " line " + std::to_string(r.line) + " " +
              std::string(to_string(entry.outcome)) + " (" + std::string(entry.name) + "): " +
              escape_terminal(redact(detail));
    notes.push_back(std::move(n));
    deadlines_.pop_front();
  }
}

void WrapSource::judged(std::span<Record> records, const SessionAnnotation& annotation) {
  if (records.empty()) return;
  std::optional<std::string> id;
  std::vector<triage::Verdict> verdicts;
  for (Record& r : records) {
    triage::Verdict v;
    append_source_text(v.source, input_name_, r.source);
    const SessionFacts* facts = r.facts.get();
    if (facts != nullptr && facts->skipped) {
      v.skipped = true;
      v.skip_reason = std::string(to_string(facts->skipped->reason));
      verdicts.push_back(std::move(v));
      continue;
    }
    v.outcome = r.c.outcome;
    v.reason = std::string(to_string(r.c.reason));
    v.failure = is_failure(r.c.outcome);
    v.advice = r.c.retry.advice;
    v.retry_safe = r.c.retry.safe;
    v.retry_safe_source = r.c.retry.safe_source;
    v.method = r.c.method;
    if (facts != nullptr && facts->request) {
      const RequestInfo& sent = *facts->request;
      if (sent.method && !sent.method->empty()) v.method = *sent.method;
      v.tool = sent.tool_name;
      v.params_hash = sent.params_hash;
      if (sent.id) v.request_id = sent.id->to_json();
      v.notification = sent.notification;
      if (!id && v.request_id) id = v.request_id;
    }
    v.replay = annotation.replay;
    verdicts.push_back(std::move(v));
  }
  if (!id) return;  // no request of the host (a stray line, a server message): nothing to watch after
  auto it = requests_.find(*id);
  if (it == requests_.end()) return;
  const HostRequest r = std::move(it->second);
  unjudged_.erase({r.sent_ns, *id});
  requests_.erase(it);
  // Its end: the response's line; unanswered, the host's cancellation, else the server's end.
  const std::int64_t end = r.answered_ns    ? *r.answered_ns
                           : r.cancelled_ns ? *r.cancelled_ns
                           : exit_ns_       ? *exit_ns_
                                            : now_unix_ns();
  Step s;
  s.kind = Step::Kind::completed;
  s.at_ns = end;
  s.ended = triage::ExchangeEnded{r.seq, to_clock(r.sent_ns), to_clock(end), {}, r.injected};
  s.verdicts = std::move(verdicts);
  step(std::move(s));
}

void WrapSource::tell_watcher(std::int64_t now_ns, bool all) {
  // The oldest request not yet judged: nothing after its send time is told before it is.
  std::int64_t frontier = std::numeric_limits<std::int64_t>::max();
  if (!all && !unjudged_.empty()) frontier = unjudged_.begin()->first;
  frontier_ = frontier;
  const auto judged_at = to_clock(now_ns);
  while (!steps_.empty()) {
    auto first = steps_.begin();
    if (first->first > frontier) break;
    Step s = std::move(first->second);
    steps_.erase(first);
    switch (s.kind) {
      case Step::Kind::begun: notes(behaviour_.started(s.begun)); break;
      case Step::Kind::completed:
        s.ended.judged = judged_at;
        notes(behaviour_.completed(s.ended, s.verdicts));
        break;
      case Step::Kind::input_closed: notes(behaviour_.input_closed(to_clock(s.at_ns))); break;
    }
  }
  notes(behaviour_.tick(to_clock(std::min(now_ns, frontier))));
}

void WrapSource::notes(const std::vector<triage::BehaviourReport>& reports) {
  for (const auto& r : reports) note(Note{r.jsonl, r.table});
}

void WrapSource::note(Note n) {
  if (failed_ || core_ == nullptr) return;
  try {
    core_->note(std::move(n));
  } catch (const OutputError&) {
    failed_ = std::current_exception();
  }
}

}  // namespace mcptriage::wrap
