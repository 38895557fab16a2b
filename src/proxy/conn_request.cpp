// Conn (conn.hpp): a client's request read, injected or forwarded; the upstream connection.
#include <fmt/format.h>

#include <algorithm>
#include <limits>

#include "mcptriage/http.hpp"
#include "proxy/conn.hpp"

namespace mcptriage::proxy {

void Conn::start() {
  error_code ec;
  client_.socket().set_option(tcp::no_delay(true), ec);
  client_.socket().non_blocking(true, ec);
  const auto ep = client_.socket().remote_endpoint(ec);
  peer_ = ec ? std::string("?") : fmt::format("{}:{}", ep.address().to_string(), ep.port());
  wait_request();
}

void Conn::shutdown() {
  if (phase_ == Phase::idle || phase_ == Phase::reading) {
    close_client();
    return;
  }
  stop_cut_ = true;
  close_upstream();
  close_client();
}

void Conn::wait_request() {
  phase_ = Phase::idle;
  if (st_->stopping) return close_client();
  // Forwarding never waits for one large record: large bodies fill the record memory only up to
  // its reserve (RecordBudget::take), cut there with a warning, and a new request waits only when
  // not even a small record fits, i.e. when the triage thread is behind on many exchanges.
  if (!st_->budget.room_for_small()) {
    timer_.expires_after(std::chrono::milliseconds(10));
    timer_.async_wait([self = shared_from_this()](error_code ec) {
      if (!ec) self->wait_request();
    });
    return;
  }
  if (cbuf_.size() > 0) return begin_request(Clock::now());
  // Idle: closed after --idle-timeout (RFC 9112 §9.8: a server may close an idle connection), or
  // sooner when --max-connections are open and a new client comes (Server::State::evict_one).
  idle_since_ = Clock::now();
  timer_.expires_after(st_->cfg.idle_timeout);
  timer_.async_wait([self = shared_from_this()](error_code ec) {
    if (!ec && self->phase_ == Phase::idle) self->close_client();
  });
  st_->connection_waiting();
  client_.socket().async_wait(tcp::socket::wait_read, [self = shared_from_this()](error_code ec) {
    if (ec || self->st_->stopping || self->phase_ != Phase::idle) return self->close_client();
    self->timer_.cancel();
    self->begin_request(Clock::now());
  });
}

std::optional<Clock::time_point> Conn::waiting_since() const {
  if (phase_ == Phase::idle) return idle_since_;
  if (phase_ == Phase::reading && reqp_ && !reqp_->is_header_done() && Clock::now() - cap_.t0 >= std::chrono::seconds(1)) {
    return cap_.t0;
  }
  return std::nullopt;
}

void Conn::arm_read_timer(std::chrono::milliseconds after, const char* which) {
  timer_.expires_after(after);
  timer_.async_wait([self = shared_from_this(), which](error_code ec) {
    if (ec || self->phase_ != Phase::reading) return;
    self->read_timeout_ = which;
    error_code cec;
    self->client_.socket().cancel(cec);  // the pending read ends with operation_aborted: on_request answers 408
  });
}

void Conn::begin_request(Clock::time_point t0) {
  phase_ = Phase::reading;
  cap_ = Captured{};
  cap_.t0 = t0;
  cap_.started = std::chrono::system_clock::now();
  cap_.client = peer_;
  cap_.record_bound = st_->cfg.max_body;
  client_gone_ = false;
  reqp_.emplace();
  reqp_->header_limit(kHeaderLimit);
  reqp_->body_limit(static_cast<std::uint64_t>(st_->cfg.max_body));
  expect_continue_ = false;
  interim_ = 0;
  read_timeout_ = nullptr;
  // The header first: a client that sent `Expect: 100-continue` waits for 100 Continue before
  // the body (curl adds it to bodies over 1 MiB), which the proxy sends itself (read_body).
  arm_read_timer(st_->cfg.header_timeout, "--header-timeout");
  http::async_read_header(client_, cbuf_, *reqp_, [self = shared_from_this()](error_code ec, std::size_t) {
    self->timer_.cancel();
    if (ec) return self->on_request(ec);
    self->read_body();
  });
}

void Conn::read_body() {
  if (reqp_->is_done()) return on_request({});
  const auto& h = reqp_->get();
  const auto expect = h.find(http::field::expect);
  if (h.version() >= 11 && expect != h.end() && beast::iequals(expect->value(), "100-continue")) {
    // RFC 9110 §10.1.1: the proxy meets the expectation itself (it reads the whole request
    // before forwarding it, to record and judge it) and does not forward `Expect`.
    expect_continue_ = true;
    auto cont = std::make_shared<http::response<http::empty_body>>(http::status::continue_, 11);
    http::async_write(client_, *cont, [self = shared_from_this(), cont](error_code ec, std::size_t) {
      if (ec) return self->close_client();
      self->read_body_part();
    });
    return;
  }
  read_body_part();
}

void Conn::read_body_part() {
  if (reqp_->is_done()) return on_request({});
  arm_read_timer(st_->cfg.idle_timeout, "--idle-timeout");
  http::async_read_some(client_, cbuf_, *reqp_, [self = shared_from_this()](error_code ec, std::size_t) {
    self->timer_.cancel();
    if (ec) return self->on_request(ec);
    self->read_body_part();
  });
}

void Conn::on_request(error_code ec) {
  if (ec && read_timeout_ && reqp_->got_some() && !st_->stopping) return request_timed_out();
  if (ec) {
    if (!reqp_->got_some() || st_->stopping || ec == http::error::end_of_stream || ec == net::error::eof ||
        ec == net::error::connection_reset || ec == net::error::operation_aborted) {
      return close_client();
    }
    // A request the proxy cannot forward: answered by the proxy, and recorded.
    const bool too_large = ec == http::error::body_limit;
    const bool header_large = ec == http::error::header_limit;
    if (reqp_->is_header_done()) {
      req_ = reqp_->release();
      take_request_facts(false);
      cap_.request_body_cut = too_large;
    } else {
      cap_.seq = ++st_->seq;
      cap_.method = "?";
    }
    client_keep_alive_ = false;
    const int status = too_large ? 413 : header_large ? 431 : 400;
    return respond_made(status, {{"Content-Type", "text/plain; charset=utf-8"}},
                        fmt::format("{} {} (mcptriage proxy: {})\n", status,
                                    std::string(http::obsolete_reason(static_cast<http::status>(status))), ec.message()),
                        fmt::format("the request could not be forwarded ({}{}); the upstream never saw it",
                                    ec.message(), too_large ? fmt::format(", over the proxy's --max-body of {} bytes",
                                                                          st_->cfg.max_body)
                                                            : std::string()),
                        true);
  }
  req_ = reqp_->release();
  take_request_facts(true);
}

void Conn::request_timed_out() {
  // RFC 9110 §15.5.9: 408, and the connection closed. Recorded like any request the proxy could
  // not forward, so that a stalled client shows in the output.
  const bool header = reqp_->is_header_done();
  const auto limit = header ? st_->cfg.idle_timeout : st_->cfg.header_timeout;
  const std::string what =
      header ? fmt::format("the request's body stopped arriving for {} ms ({})", limit.count(), read_timeout_)
             : fmt::format("the request's header did not arrive whole within {} ms of its first byte ({})", limit.count(),
                           read_timeout_);
  if (header) {
    req_ = reqp_->release();
    take_request_facts(false);
    cap_.request_body_cut = true;
  } else {
    cap_.seq = ++st_->seq;
    cap_.method = "?";
  }
  client_keep_alive_ = false;
  respond_made(408, {{"Content-Type", "text/plain; charset=utf-8"}, {"Connection", "close"}},
               "408 Request Timeout (mcptriage proxy: " + what + ")\n",
               what + "; the upstream never saw the request", true);
}

void Conn::take_request_facts(bool proceed) {
  const Clock::time_point now = Clock::now();
  cap_.seq = ++st_->seq;
  cap_.timing.request_ms = ms_since(cap_.t0, now);
  cap_.method = std::string(req_.method_string());
  cap_.target = std::string(req_.target());
  const bool connect = req_.method() == http::verb::connect;
  // CONNECT's target is host:port (RFC 9110 §9.3.6), never a path of the upstream.
  cap_.url = st_->cfg.upstream.origin + (connect ? std::string("/") : cap_.target);
  client_keep_alive_ = req_.keep_alive();
  head_ = req_.method() == http::verb::head;
  req_.set(http::field::host, st_->cfg.upstream.host_header);
  if (expect_continue_) {
    req_.erase(http::field::expect);
    cap_.notes.push_back("the client sent Expect: 100-continue: the proxy answered 100 Continue itself and read the "
                         "whole request; the Expect header was not forwarded");
  }
  cap_.request_headers = fields_of(req_.base());
  const std::size_t kept = st_->budget.take(req_.body().size());
  cap_.request_body = req_.body().substr(0, kept);
  cap_.request_body_cut = kept < req_.body().size();
  budget_bytes_ = kept;
  if (cap_.request_body_cut) {
    cap_.notes.push_back(fmt::format("the proxy's record memory ({} bytes for every exchange in flight and not yet "
                                     "triaged) was full: the record keeps the request body's first {} of {} bytes "
                                     "(the upstream got it whole)",
                                     st_->budget.limit(), kept, req_.body().size()));
  }

  facts_ = RequestFacts{};
  facts_.http_method = cap_.method;
  facts_.target = cap_.target;
  const auto sid = req_.find("Mcp-Session-Id");
  session_id_ = sid != req_.end() ? std::string(sid->value()) : std::string();
  facts_.session_id = sid != req_.end();
  facts_.authorization = req_.find(http::field::authorization) != req_.end();
  if (cap_.method == "POST") facts_.message = peek_message(req_.body());
  const bool jsonrpc_post = cap_.method == "POST" && facts_.message.kind != MessageKind::other;
  initialize_ = jsonrpc_post && facts_.message.method == "initialize";
  auto& session = st_->session(session_id_);
  if (jsonrpc_post) {
    // The Nth POST of the client's session, every POST counted (as fault-injection servers
    // count): an initialize without a session id starts a new count.
    if (initialize_ && session_id_.empty()) session.posts = 0;
    facts_.post_number = ++session.posts;
  }
  if (const auto v = req_.find("MCP-Protocol-Version"); v != req_.end()) facts_.protocol_version = std::string(v->value());
  else if (!session.version.empty()) facts_.protocol_version = session.version;
  else if (initialize_) facts_.protocol_version = facts_.message.protocol_version;
  else if (!facts_.message.protocol_version.empty()) facts_.protocol_version = facts_.message.protocol_version;
  Started s;
  s.seq = cap_.seq;
  s.t0 = cap_.t0;
  s.http_method = cap_.method;
  s.method = facts_.message.method;
  s.tool = facts_.message.method == "tools/call" ? facts_.message.tool_name : std::string();
  s.last_event_id = req_.find("Last-Event-ID") != req_.end();
  st_->sink.started(std::move(s));
  if (!proceed) return;

  // Not forwarded: a tunnel (CONNECT) or a protocol switch (Upgrade) would turn the exchange into
  // bytes the proxy can neither relay as HTTP nor judge. RFC 9110 §15.6.2: 501 for a method the
  // server does not support; §7.8: a server may ignore Upgrade, which the proxy does for h2c (an
  // offer the client falls back from: curl --http2 on http://), and refuses for the rest
  // (WebSocket cannot go on without 101).
  const auto upgrade = req_.find(http::field::upgrade);
  std::string refused;
  if (connect) {
    refused = fmt::format("CONNECT {} asks for a tunnel; mcptriage proxy forwards HTTP requests to its upstream only",
                          cap_.target);
  } else if (upgrade != req_.end()) {
    const std::string offer(upgrade->value());
    if (beast::iequals(offer, "h2c")) {
      req_.erase(http::field::upgrade);
      req_.erase("HTTP2-Settings");
      // Connection without the tokens that named them (RFC 9110 §7.6.1), the others kept.
      if (auto conn = req_.find(http::field::connection); conn != req_.end()) {
        std::string remaining;
        for (const auto& token : http::token_list(conn->value())) {
          if (beast::iequals(token, "upgrade") || beast::iequals(token, "http2-settings")) continue;
          remaining += (remaining.empty() ? "" : ", ") + std::string(token);
        }
        if (remaining.empty()) req_.erase(http::field::connection);
        else req_.set(http::field::connection, remaining);
      }
      cap_.request_headers = fields_of(req_.base());
      cap_.notes.push_back("the client offered Upgrade: h2c; the proxy speaks HTTP/1.1 only and ignored the offer "
                           "(RFC 9110 §7.8): the request was forwarded without Upgrade and HTTP2-Settings");
    } else {
      refused = fmt::format("the request asks to switch protocols (Upgrade: {}); mcptriage proxy relays HTTP/1.1 "
                            "exchanges only and does not forward protocol upgrades",
                            offer);
    }
  }
  if (!refused.empty()) {
    client_keep_alive_ = false;
    return respond_made(501, {{"Content-Type", "text/plain; charset=utf-8"}, {"Connection", "close"}},
                        "501 Not Implemented (mcptriage proxy: " + refused + ")\n",
                        refused + "; refused with 501, the upstream never saw it", true);
  }

  rule_ = match_rule(st_->cfg.rules, facts_);
  if (rule_ && rule_->action != Action::delay && rule_->action != Action::cut_after_events) {
    std::vector<std::string> notes;
    Injected inj = build_injected(*rule_, facts_, origin(), notes);
    cap_.injected = rule_->text;
    for (auto& n : notes) cap_.notes.push_back(std::move(n));
    return respond_made(inj.status, std::move(inj.headers), std::move(inj.body), "", false);
  }
  if (rule_ && rule_->action == Action::delay) {
    cap_.injected = rule_->text;
    phase_ = Phase::delaying;
    timer_.expires_after(rule_->delay);
    timer_.async_wait([self = shared_from_this()](error_code ec) {
      if (ec || self->stop_cut_) return self->finish_cut(BodyEnd::cut_shutdown, self->st_->stop_why);
      self->forward();
    });
    return;
  }
  forward();
}

std::string Conn::origin() const {
  error_code ec;
  const auto ep = client_.socket().local_endpoint(ec);
  if (ec) return "http://127.0.0.1";
  const std::string host = ep.address().is_v6() ? "[" + ep.address().to_string() + "]" : ep.address().to_string();
  return fmt::format("http://{}:{}", host, ep.port());
}

void Conn::respond_made(int status, Headers headers, std::string body, std::string why, bool close_after) {
  phase_ = Phase::made;
  cap_.made_by_proxy = !why.empty();
  cap_.made_why = std::move(why);
  made_.emplace(static_cast<http::status>(status), 11);
  for (const Header& h : headers) made_->insert(h.name, h.value);
  made_->body() = std::move(body);
  made_->keep_alive(client_keep_alive_ && !close_after);
  made_->prepare_payload();
  cap_.status = status;
  cap_.reason = std::string(made_->reason());
  cap_.response_headers = fields_of(made_->base());
  const std::size_t kept = st_->budget.take(std::min(made_->body().size(), st_->cfg.max_body), budget_bytes_);
  cap_.body = made_->body().substr(0, kept);
  budget_bytes_ += kept;
  body_cut_ = kept < made_->body().size();
  cap_.body_bytes = made_->body().size();
  cap_.timing.response_ms = ms_since(cap_.t0, Clock::now());
  http::async_write(client_, *made_, [self = shared_from_this()](error_code ec, std::size_t) {
    const auto now = Clock::now();
    self->cap_.timing.end_ms = ms_since(self->cap_.t0, now);
    if (peek_message(self->cap_.body).kind == MessageKind::response) self->cap_.timing.final_ms = self->cap_.timing.end_ms;
    const bool keep = !ec && self->made_->keep_alive() && !self->st_->stopping;
    self->made_.reset();
    if (ec) {
      const bool stopping = self->stop_cut_ || self->st_->stopping;
      self->complete(stopping ? BodyEnd::cut_shutdown : BodyEnd::cut_client,
                     stopping ? self->st_->stop_why : ec.message());
      return self->close_client();
    }
    self->complete(BodyEnd::complete, "");
    if (keep) self->wait_request();
    else self->close_client();
  });
}

void Conn::upstream_failed(std::string_view what, error_code ec) {
  close_upstream();
  if (stop_cut_ || st_->stopping) return finish_cut(BodyEnd::cut_shutdown, st_->stop_why);
  if (client_gone_) return finish_cut(BodyEnd::cut_client, client_gone_why_);
  const std::string where = st_->cfg.upstream.host_header;
  const std::string detail = fmt::format("{}: {}", what, ec.message());
  const bool never_saw = what.starts_with("connect") || what.starts_with("resolve") || what.starts_with("TLS");
  if (never_saw && !cap_.timing.connected_ms) cap_.timing.connected_ms = ms_since(cap_.t0, Clock::now());
  respond_made(502, {{"Content-Type", "text/plain; charset=utf-8"}},
               fmt::format("502 Bad Gateway (mcptriage proxy: the upstream {} failed: {})\n", where, detail),
               fmt::format("the upstream {} failed ({}){}", where, detail,
                           never_saw ? "; the server never saw the request" : ""),
               false);
}

void Conn::forward() {
  if (stop_cut_ || st_->stopping) return finish_cut(BodyEnd::cut_shutdown, st_->stop_why);
  phase_ = Phase::upstream;
  cap_.timing.forward_ms = ms_since(cap_.t0, Clock::now());
  if (up_open_ && upstream_alive()) return send();
  close_upstream();
  connect();
}

bool Conn::upstream_alive() {
  char c = 0;
  error_code ec;
  tcp::socket& s = up_tcp().socket();
  s.non_blocking(true, ec);
  const std::size_t n = s.receive(net::buffer(&c, 1), tcp::socket::message_peek, ec);
  if (ec == net::error::would_block || ec == net::error::try_again) return true;
  (void)n;
  return false;
}

void Conn::connect() {
  auto resolver = std::make_shared<tcp::resolver>(st_->ioc);
  const Upstream& u = st_->cfg.upstream;
  resolver->async_resolve(u.host, u.port, [self = shared_from_this(), resolver](error_code ec,
                                                                                 tcp::resolver::results_type results) {
    if (ec) return self->upstream_failed("resolve", ec);
    if (self->stop_cut_) return self->finish_cut(BodyEnd::cut_shutdown, self->st_->stop_why);
    self->ubuf_.clear();
    if (self->st_->cfg.upstream.tls) {
      self->up_tls_ = std::make_unique<beast::ssl_stream<beast::tcp_stream>>(self->st_->ioc, self->st_->tls);
      self->up_plain_.reset();
    } else {
      self->up_plain_ = std::make_unique<beast::tcp_stream>(self->st_->ioc);
      self->up_tls_.reset();
    }
    self->up_tcp().expires_after(self->st_->cfg.connect_timeout);
    self->up_tcp().async_connect(results, [self](error_code cec, const tcp::endpoint&) {
      if (cec) return self->upstream_failed("connect", cec);
      error_code oec;
      self->up_tcp().socket().set_option(tcp::no_delay(true), oec);
      if (!self->up_tls_) {
        self->up_tcp().expires_never();
        self->up_open_ = true;
        self->cap_.timing.connected_ms = ms_since(self->cap_.t0, Clock::now());
        return self->send();
      }
      const std::string& host = self->st_->cfg.upstream.host;
      error_code addr_ec;
      net::ip::make_address(host, addr_ec);
      if (addr_ec) SSL_set_tlsext_host_name(self->up_tls_->native_handle(), host.c_str());  // SNI: names only (RFC 6066 §3)
      if (!self->st_->cfg.insecure) self->up_tls_->set_verify_callback(ssl::host_name_verification(host));
      self->up_tls_->async_handshake(ssl::stream_base::client, [self](error_code hec) {
        if (hec) return self->upstream_failed("TLS handshake", hec);
        self->up_tcp().expires_never();
        self->up_open_ = true;
        self->cap_.timing.connected_ms = ms_since(self->cap_.t0, Clock::now());
        self->send();
      });
    });
  });
}

void Conn::send() {
  with_upstream([&](auto& s) {
    http::async_write(s, req_, [self = shared_from_this()](error_code ec, std::size_t) {
      if (ec) return self->upstream_failed("write the request", ec);
      self->cap_.timing.sent_ms = ms_since(self->cap_.t0, Clock::now());
      self->on_sent();
    });
  });
}

void Conn::on_sent() {
  watch_client();  // a client that gives up waiting closes the upstream request too
  std::string().swap(req_.body());  // sent (and copied for the record): no need to keep it
  // Room for a whole relay buffer per read: beast::read_size() prepares no more than the
  // flat_buffer's spare capacity (at least 512 bytes), so a small buffer means small reads.
  ubuf_.reserve(kRelayBuffer);
  new_response_parser();
  if (!up_tls_ && ubuf_.size() == 0) {
    up_tcp().socket().async_wait(tcp::socket::wait_read, [self = shared_from_this()](error_code ec) {
      if (!ec) self->cap_.timing.response_ms = ms_since(self->cap_.t0, Clock::now());
      self->read_header();
    });
    return;
  }
  read_header();
}

void Conn::new_response_parser() {
  resp_.emplace();
  resp_->header_limit(kHeaderLimit);
  // No limit (the body is relayed, not kept). Not boost::none: Beast 1.74 compares the
  // Content-Length with the optional limit as `len_ > body_limit_`, which is true for any
  // length against an empty optional (basic_parser.ipp, finish_header).
  resp_->body_limit(std::numeric_limits<std::uint64_t>::max());
  if (head_) resp_->skip(true);
}

void Conn::read_header() {
  with_upstream([&](auto& s) {
    http::async_read_header(s, ubuf_, *resp_, [self = shared_from_this()](error_code ec, std::size_t) {
      self->on_header(ec);
    });
  });
}

void Conn::on_header(error_code ec) {
  if (ec) return upstream_failed("read the response", ec);
  if (!cap_.timing.response_ms) cap_.timing.response_ms = ms_since(cap_.t0, Clock::now());
  auto& res = resp_->get();
  if (res.result_int() / 100 == 1 && res.result_int() != 101) return on_interim();
  cap_.status = static_cast<int>(res.result_int());
  cap_.reason = std::string(res.reason());
  cap_.response_headers = fields_of(res.base());
  up_keep_alive_ = resp_->keep_alive();
  const auto ct = res.find(http::field::content_type);
  sse_ = ct != res.end() && mcptriage::http::media_type_is(std::string_view(ct->value().data(), ct->value().size()), "text/event-stream");
  framer_.reset();
  const bool cut_rule = rule_ && rule_->action == Action::cut_after_events;
  // A cut-after-events rule holds whole events (up to --max-body); otherwise an event is read
  // from its first kEventBound bytes.
  if (sse_) framer_.emplace(cut_rule ? st_->cfg.max_body : kEventBound);
  cutting_ = false;
  if (rule_ && rule_->action == Action::cut_after_events) {
    if (sse_) {
      cutting_ = true;
      cap_.injected = rule_->text;
    } else {
      cap_.notes.push_back(fmt::format("--inject {}: the response is not an event stream ({}): nothing was cut",
                                       rule_->text, ct != res.end() ? std::string(ct->value()) : "no Content-Type"));
    }
  }
  if (initialize_) {
    if (const auto sid = res.find("Mcp-Session-Id"); sid != res.end()) new_session_ = std::string(sid->value());
    else new_session_.clear();
  }
  sr_.emplace(res);
  phase_ = Phase::streaming;
  http::async_write_header(client_, *sr_, [self = shared_from_this()](error_code wec, std::size_t) {
    if (wec) return self->relay_failed(true, wec);
    if (self->cutting_ && self->rule_->events == 0) return self->cut_now();
    self->relay_read();
  });
}

void Conn::on_interim() {
  // An interim response (100 Continue, 103 Early Hints): not the response. Said in the record, and
  // the next response read. Passed on to an HTTP/1.1 client (RFC 9110 §15.2: never to an HTTP/1.0
  // client), but for 100 Continue: the proxy sent the request whole, so it answers the request
  // the proxy sent, not the client's (which the proxy read whole, after its own 100 Continue when
  // asked), and a client that gets a second 100 once its body is sent may fail (curl 7.88:
  // "Unsupported response code in HTTP response").
  const auto& res = resp_->get();
  const bool http10 = req_.version() < 11;
  const bool pass_on = !http10 && res.result_int() != 100;
  ++interim_;
  if (interim_ <= kInterimNoted) {
    cap_.notes.push_back(fmt::format("the upstream sent an interim response before the response: {} {}{}{}",
                                     res.result_int(), std::string(res.reason()),
                                     pass_on  ? "; passed on to the client"
                                     : http10 ? "; not passed on (an HTTP/1.0 client)"
                                              : "; not passed on (it answers the proxy, which sent the whole request)",
                                     interim_ == kInterimNoted ? " (further interim responses are not noted)" : ""));
  }
  if (!pass_on) {
    new_response_parser();
    return read_header();
  }
  // By number: Beast 1.74 has no name for 103 (result() would be status::unknown, written 000).
  auto interim = std::make_shared<http::response<http::empty_body>>();
  interim->version(11);
  interim->result(res.result_int());
  interim->reason(res.reason());
  for (const auto& f : res.base()) interim->insert(f.name_string(), f.value());
  new_response_parser();
  http::async_write(client_, *interim, [self = shared_from_this(), interim](error_code ec, std::size_t) {
    if (ec) return self->relay_failed(true, ec);
    self->read_header();
  });
}

void Conn::watch_client() {
  client_.socket().async_wait(tcp::socket::wait_read, [self = shared_from_this(), gen = gen_](error_code ec) {
    if (ec || gen != self->gen_ || (self->phase_ != Phase::streaming && self->phase_ != Phase::upstream)) return;
    char c = 0;
    error_code rec;
    const std::size_t n = self->client_.socket().receive(net::buffer(&c, 1), tcp::socket::message_peek, rec);
    if (rec == net::error::would_block || rec == net::error::try_again) return self->watch_client();
    if (!rec && n > 0) return;  // the next request, pipelined: read once this one is done
    self->client_gone_ = true;
    self->client_gone_why_ = rec ? rec.message() : std::string("end of stream");
    self->close_upstream();  // the pending upstream read ends with an error: the relay records the cut
  });
}

}  // namespace mcptriage::proxy
