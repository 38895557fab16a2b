// JSON Lines reader: pairing lines into exchanges (requests with their replies by id or order,
// SSE events logged before their response, the pairing window) and handing them out as
// Exchanges. Rules: docs/formats.md "JSON Lines" and "Pairing window".
#include "capture/jsonl_reader.hpp"

namespace mcptriage::capture::jsonl {

void JsonLinesReader::expire(std::size_t line_no) {
  // The oldest waiting first: a later one never waits longer than it by this rule, but for the
  // replies to earlier requests it may still count.
  while (!open_.empty()) {
    const std::size_t index = *open_.begin();
    const Pending& p = pending_[index];
    if (clock_ - p.opened_at <= kPairWindowLines + p.open_before) break;
    pending_[index].warnings.push_back("no reply within " + std::to_string(kPairWindowLines) +
                                       " lines (not counting requests and the replies to earlier ones): a later "
                                       "reply is not paired with it");
    close(index);
  }
  while (open_requests_.size() > kMaxOpenRequests) {
    const std::size_t index = *open_requests_.begin();
    pending_[index].warnings.push_back("more than " + std::to_string(kMaxOpenRequests) +
                                       " requests waited for their replies at once: a later reply is not paired with it");
    close(index);
  }
  for (auto it = server_request_.begin(); it != server_request_.end();) {
    if (line_no - it->second > kPairWindowLines) it = server_request_.erase(it);
    else ++it;
  }
  if (!stream_.empty() && line_no - stream_first_line_ > kPairWindowLines) flush_stream();
}

void JsonLinesReader::read_line(std::string_view line, std::size_t line_no) {
  expire(line_no);
  sent_request_ = false;
  if (!is_blank(line)) {
    handle_line(trim_line(line), line_no);
  } else {
    end_join();  // a blank line ends a message broken over lines
    if (options_.rows) add_skip(line_no, SkipReason::invalid_line, "line " + std::to_string(line_no) + " is blank");
  }
  if (!sent_request_) ++clock_;
}

std::optional<JsonLinesReader::Cut> JsonLinesReader::cut_at_first_waiting(std::span<const std::size_t> skip_lines) const {
  if (open_.empty() || !stream_.empty() || !server_request_.empty()) return std::nullopt;
  const std::size_t first_open = *open_.begin();
  if (first_open == 0) return std::nullopt;
  Cut at{first_open, pending_[first_open].first_line, {}};
  if (!join_.lines.empty() && join_.lines.front().line < at.from) return std::nullopt;
  // Every line an exchange was made of must stay on its side of the cut: a kept exchange's
  // only line after it is its reply (read again as blank), and an exchange read again has no
  // line before it, neither its first line nor the events joined to its reply (a stream that
  // began before the cut: the fuzz finding read_capture-blockwise-jsonl).
  for (std::size_t k = 0; k < first_open; ++k) {
    const Pending& p = pending_[k];
    if (p.stream_from != 0 && std::max(p.stream_to, p.closed_line) >= at.from) return std::nullopt;
    if (p.closed_line < at.from) continue;
    if (p.reply_over_lines) return std::nullopt;  // its lines would be read again one by one
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

void JsonLinesReader::keep_until(Cut at, const std::vector<std::size_t>& line_starts) {
  pending_.resize(at.entries);
  open_.clear();
  open_requests_.clear();
  open_others_.clear();
  open_by_id_.clear();
  server_request_.clear();
  stream_.clear();
  stream_events_ = 0;
  join_ = Join{};
  consumed_lines_ = at.from - 1 - first_line_;
  consumed_ = line_starts[consumed_lines_];
  carry_skip_ = std::move(at.skip);
  self_contained_ = true;
}

std::size_t JsonLinesReader::add(Pending p) {
  pending_.push_back(std::move(p));
  return pending_.size() - 1;
}

void JsonLinesReader::add_skip(std::size_t line, SkipReason reason, std::string detail, bool not_json) {
  Pending p;
  p.first_line = line;
  p.skip = Skip{reason, std::move(detail), not_json};
  add(std::move(p));
}

void JsonLinesReader::close(std::size_t index) {
  open_.erase(index);
  open_requests_.erase(index);
  open_others_.erase(index);
  if (const auto& id = pending_[index].open_id) {
    if (auto it = open_by_id_.find(*id); it != open_by_id_.end() && it->second == index) open_by_id_.erase(it);
  }
}

void JsonLinesReader::handle_full(Item it) {
  if (it.proxy_skip) {
    add_skip(it.line, std::move(it.proxy_skip->reason), std::move(it.proxy_skip->detail));
    return;
  }
  Pending p;
  p.first_line = it.line;
  p.warnings = std::move(it.proxy_warnings);
  p.body_state = it.proxy_body_state;
  p.cut_at_limit = it.proxy_cut_at_limit;
  p.time = it.time;
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

void JsonLinesReader::handle_client(Item it) {
  const MessageInfo& m = it.info;
  if (!it.wrapped && m.kind == MessageKind::notification) {
    if (it.broken_lines > 0) return add_broken_entry(it, "notification " + m.method);
    add_skip(it.line, SkipReason::notification,
             "line " + std::to_string(it.line) + ": client notification " + m.method +
                 ": no reply is due on a message stream");
    return;
  }
  if (!it.wrapped && m.kind == MessageKind::response && m.id_key && server_request_.count(*m.id_key)) {
    server_answers_.emplace_back(server_request_[*m.id_key], it.broken_lines > 0 ? it.last_line : it.line);
    server_request_.erase(*m.id_key);
    if (it.broken_lines > 0) return add_broken_entry(it, "the answer to server request id " + *m.id_key);
    add_skip(it.line, SkipReason::client_response,
             "line " + std::to_string(it.line) + ": the client's answer to server request id " + *m.id_key);
    return;
  }
  const bool request = m.kind == MessageKind::request || m.kind == MessageKind::batch;
  Pending p;
  p.first_line = it.line;
  p.request = std::move(it.request);
  p.sent = m;
  p.time = it.time;
  if (it.stdio == Item::Stdio::message) p.warnings = std::move(it.proxy_warnings);  // --inject (a wrap recording)
  if (it.broken_lines > 0) {
    p.broken_lines = it.broken_lines;
    p.broken_detail = broken_text(true, request ? "this request" : "this message", it, false);
  }
  p.opened_at = request ? clock_ - 1 : clock_;
  p.open_before = open_.size();
  const std::size_t index = add(std::move(p));
  open_.insert(index);
  if (request) {
    open_requests_.insert(index);
    sent_request_ = true;
  } else {
    open_others_.insert(index);
  }
  if (m.kind == MessageKind::request && m.id_key) {
    if (auto prev = open_by_id_.find(*m.id_key); prev != open_by_id_.end()) {
      pending_[prev->second].warnings.push_back("the same id was sent again on line " + std::to_string(it.line) +
                                                " before this request was answered");
    }
    open_by_id_[*m.id_key] = index;
    pending_[index].open_id = m.id_key;
  }
}

void JsonLinesReader::handle_server(Item it) {
  const MessageInfo& m = it.info;
  if (!it.wrapped && m.kind == MessageKind::response && m.id_key && server_request_.count(*m.id_key) &&
      !open_by_id_.count(*m.id_key)) {
    // A message stream has no direction: a response to a server request is the client's answer.
    server_answers_.emplace_back(server_request_[*m.id_key], it.broken_lines > 0 ? it.last_line : it.line);
    server_request_.erase(*m.id_key);
    if (it.broken_lines > 0) {
      it.side = Side::client;
      return add_broken_entry(it, "the answer to server request id " + *m.id_key);
    }
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
    if (it.broken_lines > 0) {
      return add_broken_entry(it, m.kind == MessageKind::request
                                      ? "request " + m.method + " id " + m.id_key.value_or("?")
                                      : "notification " + m.method);
    }
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
    if (it.stdio == Item::Stdio::message) {  // --inject (a wrap recording)
      p.warnings.insert(p.warnings.end(), it.proxy_warnings.begin(), it.proxy_warnings.end());
    }
    p.closed_line = it.broken_lines > 0 ? it.last_line : it.line;
    close(*target);
    return;
  }
  Pending p;
  p.first_line = it.sse && !stream_.empty() ? stream_first_line_ : it.line;
  fill_reply(p, it, true);
  if (it.stdio == Item::Stdio::message) p.warnings = std::move(it.proxy_warnings);
  add(std::move(p));
}

std::optional<std::size_t> JsonLinesReader::by_order(bool empty_reply) {
  std::optional<std::size_t> request;
  std::optional<std::size_t> notification;
  if (!open_requests_.empty()) request = *open_requests_.begin();
  if (!open_others_.empty()) notification = *open_others_.begin();
  if (empty_reply) return notification ? notification : request;
  return request ? request : notification;
}

std::optional<std::string> JsonLinesReader::id_in_body(std::string_view body) {
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

void JsonLinesReader::fill_reply(Pending& p, Item& it, bool attach_stream) {
  p.answered = true;
  if (it.broken_lines > 0) {
    // A reply broken over lines (docs/formats.md "A message broken over lines").
    p.broken_lines = std::max(p.broken_lines, it.broken_lines);
    p.reply_over_lines = true;
    std::string reply = broken_text(it.side == Side::client, "this response", it, true);
    p.broken_detail = p.broken_detail.empty() ? std::move(reply) : p.broken_detail + "; " + reply;
  }
  if (it.stdio == Item::Stdio::message && p.time.started_unix_ns && it.time.started_unix_ns &&
      *it.time.started_unix_ns >= *p.time.started_unix_ns) {
    p.time.duration_ms = static_cast<double>(*it.time.started_unix_ns - *p.time.started_unix_ns) / 1e6;
  }
  if (it.stdio == Item::Stdio::message && p.watch_line != 0) {
    p.warnings.push_back(watch_warning(p, p.time.duration_ms.value_or(static_cast<double>(p.watch_ms))));
  }
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

void JsonLinesReader::flush_stream() {
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

std::vector<Exchange> JsonLinesReader::to_exchanges(std::size_t end) {
  const CaptureFormat format = lines_format(any_wrapped_);
  std::vector<Exchange> out;
  out.reserve(end - pending_.base());
  std::size_t index = first_index_;
  for (; pending_.base() < end; pending_.pop_front()) {
    Pending& p = pending_[pending_.base()];
    Exchange ex;
    ex.source = source_name(name_, ++index);
    ex.format = format;
    ex.warnings = std::move(p.warnings);
    ex.time = p.time;
    ex.line = p.first_line;
    if (!line_keys_.empty()) {
      if (auto k = line_keys_.find(p.first_line); k != line_keys_.end()) {
        ex.key = std::move(k->second);
        line_keys_.erase(k);
      }
    }
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
    if (p.broken_lines > 0) {
      if (p.answered && p.stdio == StdioEnd::none) {
        ex.broken_lines = p.broken_lines;
        ex.broken_detail = std::move(p.broken_detail);
      } else {
        ex.warnings.push_back(std::move(p.broken_detail));  // unanswered: what decides is that
      }
    }
    if (p.stdio != StdioEnd::none) {
      // A wrap recording: what the wrapper saw decides (a line that is no message, a server gone).
      ex.stdio = p.stdio;
      ex.stdio_detail = std::move(p.stdio_detail);
      r.status = options_.assumed_status;
      r.transport_captured = false;
      r.body = std::move(p.body);
    } else if (!p.answered) {
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
    const bool auth_leg = options_.auth && ex.request &&
                          (is_oauth_leg(*ex.request) || is_auth_request(*ex.request)) && !ex.request->info;
    if (ex.request && any_wrapped_ && !auth_leg) {
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

}  // namespace mcptriage::capture::jsonl
