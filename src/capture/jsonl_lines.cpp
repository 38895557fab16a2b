// JSON Lines reader: what one line of a log says (an Item): a logged exchange, a client or
// server line, a bare JSON-RPC message, or a line skipped with its reason. Shapes accepted:
// docs/formats.md "JSON Lines".
#include "capture/jsonl_reader.hpp"

namespace mcptriage::capture::jsonl {

std::string JsonLinesReader::printable_key(std::string_view key) {
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

json::Parser& JsonLinesReader::thread_parser(int which) {
  thread_local json::Parser parsers[2];
  return parsers[which];
}

void JsonLinesReader::handle_line(std::string_view line, std::size_t line_no) {
  auto parsed = parser_.parse(line, padded_);
  if (!parsed) {
    if (join_line(line, line_no, parsed.error().message, nullptr)) return;  // a message broken over lines
    add_skip(line_no, SkipReason::invalid_line,
             "line " + std::to_string(line_no) + " is not valid JSON (" + std::string(parsed.error().message) + ")",
             /*not_json=*/true);
    return;
  }
  const View root = *parsed;
  if (!options_.key_field.empty()) {
    if (auto key = root.get(options_.key_field)) line_keys_.emplace(line_no, key->is_string() ? std::string(*key->string()) : json::minified(*key));
  }
  if (!root.is_object() && !root.is_array()) {
    // A scalar (the last item of an array pretty-printed one per line) may be part of a message
    // broken over lines; a line that is an object or an array alone never is.
    if (!join_.lines.empty() && join_line(line, line_no, {}, nullptr)) return;
    add_skip(line_no, SkipReason::invalid_line, "line " + std::to_string(line_no) + " is not a JSON object");
    return;
  }
  Item item = read_item(root, line, line_no);
  if (item.wrapped) any_wrapped_ = true;
  if (item.stdio == Item::Stdio::text && !item.stdio_cut && stdio_line_joins(item)) {
    if (join_line(item.stdio_text, line_no, {}, &item)) return;  // a message broken over lines
  }
  end_join();  // any other line ends a message broken over lines
  if (item.stdio != Item::Stdio::none && item.stdio != Item::Stdio::message) return handle_stdio(std::move(item));
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

Item JsonLinesReader::read_item(View root, std::string_view line, std::size_t line_no) {
  if (root.is_object() && root.string_at("transport") == "stdio") return read_stdio_item(root, line_no);
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
  // `timing` (docs/proxy.md "Record format"): when the request began, and how long until the
  // response's last byte; only the reports use it (ExchangeView).
  if (auto timing = m.get("timing"); timing && timing->is_object()) {
    if (auto started = string_member(*timing, "started")) it.time.started_unix_ns = iso8601_unix_ns(*started);
    if (auto end = timing->get("end_ms"); end && end->is_number()) {
      if (auto ms = end->number(); ms && *ms >= 0 && *ms < 1e12) it.time.duration_ms = *ms;
    }
  }
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

Item JsonLinesReader::read_stdio_item(View root, std::size_t line_no) {
  Item it;
  it.line = line_no;
  const std::optional<Side> dir = side_word(root.string_at("dir").value_or(""));
  if (auto t = root.string_at("t")) it.time.started_unix_ns = iso8601_unix_ns(*t);
  // What --inject did to the line (`injected` and the rest): its `warnings` go to the record of
  // the exchange the line belongs to.
  if (auto warnings = root.get("warnings"); warnings && warnings->is_array()) {
    for (View w : warnings->items()) {
      if (auto s = w.string()) it.proxy_warnings.emplace_back(*s);
    }
  }
  if (auto message = root.get("message"); message && (message->is_object() || message->is_array())) {
    // A message as the wrapper relayed it: a bare message, with the direction the wrapper saw.
    it.stdio = Item::Stdio::message;
    it.message = json_text(*message);
    it.info = inspect_message(*message);
    if (it.info.kind == MessageKind::not_jsonrpc) {
      it.stdio = Item::Stdio::text;  // a message member that is no message (an array of numbers)
      it.stdio_text = *it.message;
      it.side = dir.value_or(Side::server);
      return it;
    }
    it.side = dir.value_or(it.info.kind == MessageKind::response || server_method(it.info.method) ? Side::server
                                                                                                    : Side::client);
    if (it.side == Side::client) {
      Request r;
      r.body = it.message;
      r.info = jsonrpc::read_request(*message);
      it.request = std::move(r);
    }
    return it;
  }
  if (auto text = root.string_at("line")) {
    it.stdio = Item::Stdio::text;
    it.stdio_text = std::string(*text);
    it.side = dir.value_or(Side::server);
    it.stdio_cut = root.get("cut").has_value() && root.get("cut")->boolean().value_or(false);
    if (auto size = root.get("bytes"); size && size->int64() && *size->int64() >= 0) {
      it.stdio_size = static_cast<std::size_t>(*size->int64());
    }
    return it;
  }
  if (root.get("eof")) {
    it.stdio = Item::Stdio::input_end;
    it.side = dir.value_or(Side::client);
    return it;
  }
  if (auto exit = root.get("exit"); exit && exit->is_object()) {
    it.stdio = Item::Stdio::exit;
    std::string what;
    if (auto sig = exit->get("signal"); sig && sig->int64() && *sig->int64() > 0) {
      what = "was killed by signal " + std::to_string(*sig->int64());
      if (auto name = exit->string_at("signal_name")) what += " (" + std::string(*name) + ")";
    } else if (auto code = exit->get("code"); code && code->int64()) {
      what = "exited with code " + std::to_string(*code->int64());
    } else {
      what = "ended";
    }
    // The wrapper writes at most 20 lines of 400 bytes: a recording written otherwise is held to that.
    std::vector<std::string_view> lines;
    if (auto tail = root.get("stderr"); tail && tail->is_array()) {
      for (View l : tail->items()) {
        if (auto s = l.string()) lines.push_back(*s);
      }
    }
    constexpr std::size_t kLines = 20, kBytes = 400;
    if (lines.size() > kLines) lines.erase(lines.begin(), lines.end() - kLines);
    if (!lines.empty()) {
      what += "; the last lines of its standard error:";
      for (std::string_view l : lines) {
        std::size_t cut = std::min(l.size(), kBytes);
        while (cut > 0 && cut < l.size() && (static_cast<unsigned char>(l[cut]) & 0xC0) == 0x80) --cut;
        what += " \"" + std::string(l.substr(0, cut)) + (cut < l.size() ? "...\"" : "\"");
      }
    } else {
      what += "; it wrote nothing on standard error";
    }
    it.stdio_text = std::move(what);
    it.side = Side::server;
    return it;
  }
  if (auto watch = root.get("watch"); watch && watch->is_object() && watch->get("id")) {
    // The wrapper's --watch deadline passed with this request unanswered, the server running.
    it.stdio = Item::Stdio::watch;
    it.watch_id = json::minified(*watch->get("id"));
    if (auto ms = watch->get("after_ms"); ms && ms->int64() && *ms->int64() > 0) it.watch_ms = *ms->int64();
    it.side = Side::client;
    return it;
  }
  it.side = Side::unknown;  // a stdio line of no known shape: skipped as invalid_line
  return it;
}

namespace {

std::string watch_seconds(double ms) {
  const std::string s = std::to_string(static_cast<long long>(ms / 100.0 + 0.5));  // tenths of a second
  return (s.size() > 1 ? s.substr(0, s.size() - 1) : std::string("0")) + "." + s.back() + " s";
}

}  // namespace

std::string JsonLinesReader::watch_warning(const Pending& p, std::optional<double> answered_after_ms) {
  const std::string deadline = watch_seconds(static_cast<double>(p.watch_ms));
  if (!answered_after_ms) {
    return "no response within --watch " + deadline + ": the wrapper reported it unanswered at line " +
           std::to_string(p.watch_line) + ", the server still running";
  }
  return "answered late: the response came " + watch_seconds(*answered_after_ms) + " after the request, " +
         watch_seconds(std::max(0.0, *answered_after_ms - static_cast<double>(p.watch_ms))) +
         " past the --watch deadline of " + deadline + " (the wrapper reported it unanswered at line " +
         std::to_string(p.watch_line) + ")";
}

void JsonLinesReader::handle_stdio(Item it) {
  stdio_events_ = true;
  switch (it.stdio) {
    case Item::Stdio::text: {
      // A line on the server's standard output that is no JSON-RPC message: an entry of its own,
      // answering nothing (MCP 2025-11-25 transports, stdio).
      Pending p;
      p.first_line = it.line;
      p.answered = true;
      p.time = it.time;
      p.stdio = StdioEnd::not_jsonrpc_line;
      constexpr std::size_t kShown = 120;
      std::string shown = it.stdio_text.substr(0, kShown);
      while (!shown.empty() && shown.size() < it.stdio_text.size() &&
             (static_cast<unsigned char>(it.stdio_text[shown.size()]) & 0xC0) == 0x80) {
        shown.pop_back();  // whole UTF-8 sequences only
      }
      const bool json = !it.stdio_cut && parser_for_bodies_.parse(json::padded_copy(it.stdio_text), true).has_value();
      const std::size_t size = it.stdio_size.value_or(it.stdio_text.size());
      const bool host = it.side == Side::client;  // the client MUST NOT write one to the server either
      p.stdio_detail = std::string(host ? "the host wrote a line of " : "the server wrote a line of ") +
                       std::to_string(size) +
                       (host ? " bytes on the server's standard input that is " : " bytes on its standard output that is ") +
                       (it.stdio_cut ? "longer than --max-line (kept in part, not judged as a message; a response in it "
                                       "is not paired)"
                        : json       ? "JSON but no JSON-RPC message"
                                     : "no JSON-RPC message (not JSON)") +
                       ": \"" + shown +
                       (shown.size() < it.stdio_text.size() ? "...\"" : "\"") +
                       (host            ? "; the server may fail on it"
                        : it.stdio_cut ? "; raise --max-line to judge it"
                                       : "; a strict host fails on it, the TypeScript SDK drops it with a parse error");
      p.body = std::move(it.stdio_text);
      p.warnings = std::move(it.proxy_warnings);
      add(std::move(p));
      return;
    }
    case Item::Stdio::input_end: stdio_input_closed_ = true; return;
    case Item::Stdio::watch: {
      // Not an entry: the request it names gets a warning when it ends (fill_reply, the exit).
      if (auto f = open_by_id_.find(it.watch_id); f != open_by_id_.end()) {
        Pending& p = pending_[f->second];
        if (p.watch_line == 0) {
          p.watch_line = it.line;
          p.watch_ms = it.watch_ms;
        }
      }
      return;
    }
    case Item::Stdio::exit: {
      // Every request still open is answered by nothing, ever: the server is gone.
      const std::vector<std::size_t> still_open(open_.begin(), open_.end());
      for (std::size_t index : still_open) {
        Pending& p = pending_[index];
        if (p.sent.kind != MessageKind::request && p.sent.kind != MessageKind::batch) continue;
        p.stdio = stdio_input_closed_ ? StdioEnd::shutdown_in_flight : StdioEnd::server_exited;
        p.stdio_detail = std::string(stdio_input_closed_ ? "the host closed the server's input, and the server "
                                                         : "the server ") +
                         it.stdio_text.substr(0, it.stdio_text.find(';')) + " without answering (line " +
                         std::to_string(it.line) + ")" + it.stdio_text.substr(it.stdio_text.find(';'));
        p.closed_line = it.line;
        if (p.watch_line != 0) p.warnings.push_back(watch_warning(p, std::nullopt));
        p.warnings.insert(p.warnings.end(), it.proxy_warnings.begin(), it.proxy_warnings.end());
        close(index);
      }
      server_request_.clear();
      return;
    }
    case Item::Stdio::none:
    case Item::Stdio::message: return;
  }
}

void JsonLinesReader::read_proxy_member(json::View proxy, Item& it) {
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

Request JsonLinesReader::request_of(View v, bool as_text) {
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

}  // namespace mcptriage::capture::jsonl
