// Conn (conn.hpp): the response body relayed as it arrives, the record completed, the connections closed.
#include <fmt/format.h>

#include <algorithm>
#include <limits>

#include "mcptriage/http.hpp"
#include "proxy/conn.hpp"

namespace mcptriage::proxy {

void Conn::relay_read() {
  if (resp_->is_done()) return write_body(nullptr, 0, false);
  auto& body = resp_->get().body();
  body.data = buf_.data();
  body.size = buf_.size();
  with_upstream([&](auto& s) {
    http::async_read_some(s, ubuf_, *resp_, [self = shared_from_this()](error_code ec, std::size_t) {
      self->on_read(ec);
    });
  });
}

void Conn::on_read(error_code ec) {
  if (ec == http::error::need_buffer) ec = {};
  const std::size_t got = buf_.size() - resp_->get().body().size;
  if (ec && got == 0) return relay_failed(false, ec);
  if (got > 0) keep(std::string_view(buf_.data(), got));
  pending_error_ = ec;
  const bool done = !ec && resp_->is_done();
  if (!cutting_) {
    consume_events(std::string_view(buf_.data(), got), nullptr);
    if (got == 0 && !done) return relay_read();
    return write_body(got > 0 ? buf_.data() : nullptr, got, !done);
  }
  // cut-after-events: events are forwarded whole, so that the cut falls between two events.
  held_.append(buf_.data(), got);
  out_.clear();
  const bool cut = consume_events(std::string_view(buf_.data(), got), &out_);
  if (cut) {
    cut_pending_ = true;
    if (out_.empty()) return cut_now();
    return write_body(out_.data(), out_.size(), true);
  }
  if (done) {
    out_ += held_;  // the stream ended: whatever is left, as it came
    held_.clear();
  }
  if (out_.empty() && !done) return relay_read();
  return write_body(out_.empty() ? nullptr : out_.data(), out_.size(), !done);
}

bool Conn::consume_events(std::string_view data, std::string* out) {
  if (!framer_) {
    if (!data.empty() && resp_->is_done() && !cap_.timing.final_ms) {
      // A JSON body: its end is the final response.
      cap_.timing.final_ms = ms_since(cap_.t0, Clock::now());
    }
    return false;
  }
  blocks_.clear();
  framer_->feed(data, blocks_);
  const auto now = Clock::now();
  for (const SseBlock& b : blocks_) {
    if (out) {
      if (!b.whole) {
        // Too long to hold whole: forwarded as it is, and the rule gives up.
        cap_.notes.push_back(fmt::format("--inject {}: an event longer than {} bytes could not be held back; the "
                                         "rest of the stream was forwarded as it came",
                                         rule_->text, st_->cfg.max_body));
        *out += held_;
        held_.clear();
        cutting_ = false;
        out = nullptr;
        continue;
      }
      if (b.response()) return true;  // before the final response
      out->append(held_, 0, b.text.size());
      held_.erase(0, b.text.size());
    }
    if (b.comment_only) continue;
    ++cap_.events;
    if (!cap_.timing.first_event_ms) cap_.timing.first_event_ms = ms_since(cap_.t0, now);
    if (b.response() && !cap_.timing.final_ms &&
        (facts_.message.id_json.empty() || same_id(b.message.id_json, facts_.message.id_json))) {
      cap_.timing.final_ms = ms_since(cap_.t0, now);
    }
    if (initialize_ && b.response() && !b.message.result_protocol_version.empty()) {
      negotiated_ = b.message.result_protocol_version;
    }
    if (out && rule_ && cap_.events >= rule_->events) return true;  // after N events
  }
  return false;
}

void Conn::write_body(const char* data, std::size_t n, bool more) {
  auto& body = resp_->get().body();
  body.data = const_cast<char*>(data);
  body.size = n;
  body.more = more;
  http::async_write(client_, *sr_, [self = shared_from_this()](error_code ec, std::size_t) {
    if (ec == http::error::need_buffer) ec = {};
    if (ec) return self->relay_failed(true, ec);
    if (self->cut_pending_) return self->cut_now();
    if (self->pending_error_) return self->relay_failed(false, self->pending_error_);
    if (self->sr_->is_done()) return self->relay_done();
    self->relay_read();
  });
}

void Conn::keep(std::string_view bytes) {
  cap_.body_bytes += bytes.size();
  if (body_cut_) return;
  const std::size_t room = st_->cfg.max_body > cap_.body.size() ? st_->cfg.max_body - cap_.body.size() : 0;
  const std::size_t want = std::min(room, bytes.size());
  const std::size_t got = st_->budget.take(want, budget_bytes_);
  budget_bytes_ += got;
  cap_.body.append(bytes.data(), got);
  if (got < bytes.size()) {
    body_cut_ = true;
    if (got < want) {
      cap_.notes.push_back(fmt::format("the proxy's record memory ({} bytes for every exchange in flight and not yet "
                                       "triaged) was full: the record was cut there",
                                       st_->budget.limit()));
    }
  }
}

void Conn::relay_done() {
  cap_.timing.end_ms = ms_since(cap_.t0, Clock::now());
  if (!sse_ && !cap_.timing.final_ms && cap_.body_bytes > 0) cap_.timing.final_ms = cap_.timing.end_ms;
  const bool client_keep = client_keep_alive_ && resp_->keep_alive() && !st_->stopping;
  note_new_session();
  complete(BodyEnd::complete, "");
  resp_.reset();
  sr_.reset();
  if (!up_keep_alive_) close_upstream();
  if (client_keep) wait_request();
  else close_client();
}

void Conn::cut_now() {
  cap_.timing.end_ms = ms_since(cap_.t0, Clock::now());
  close_upstream();
  close_client();
  complete(BodyEnd::cut_rule, "");
}

void Conn::relay_failed(bool client_side, error_code ec) {
  cap_.timing.end_ms = ms_since(cap_.t0, Clock::now());
  BodyEnd end = BodyEnd::cut_upstream;
  std::string why = ec.message();
  if (ec == ssl::error::stream_truncated) why = "the TLS connection was closed without close_notify";
  if (stop_cut_ || st_->stopping) {
    end = BodyEnd::cut_shutdown;
    why = st_->stop_why;
  } else if (client_side || client_gone_) {
    end = BodyEnd::cut_client;
    why = client_side ? ec.message() : client_gone_why_;
  }
  close_upstream();
  close_client();
  complete(end, why);
}

void Conn::finish_cut(BodyEnd end, std::string why) {
  cap_.timing.end_ms = ms_since(cap_.t0, Clock::now());
  close_upstream();
  close_client();
  complete(end, std::move(why));
}

void Conn::note_new_session() {
  if (!initialize_) return;
  if (negotiated_.empty() && !sse_) negotiated_ = peek_message(cap_.body).result_protocol_version;
  auto& s = st_->session(new_session_);
  s.posts = 1;
  if (!negotiated_.empty()) s.version = negotiated_;
}

void Conn::complete(BodyEnd end, std::string why) {
  if (!in_exchange()) return;
  cap_.end = end;
  if (end == BodyEnd::complete && body_cut_) cap_.end = BodyEnd::cut_limit;
  cap_.end_detail = std::move(why);
  if (!cap_.timing.end_ms) cap_.timing.end_ms = ms_since(cap_.t0, Clock::now());
  if (!cutting_ && cap_.end == BodyEnd::cut_rule) cap_.end = BodyEnd::cut_upstream;
  cap_.notes.shrink_to_fit();
  Captured done = std::move(cap_);
  done.budget_bytes = budget_bytes_;  // given back by the triage thread once it is done with the record
  cap_ = Captured{};
  cap_.seq = 0;
  budget_bytes_ = 0;
  body_cut_ = false;
  cut_pending_ = false;
  pending_error_ = {};
  rule_ = nullptr;
  initialize_ = false;
  negotiated_.clear();
  held_.clear();
  ++gen_;
  done.record_bound = st_->cfg.max_body;
  st_->sink.completed(std::move(done));
}

void Conn::close_upstream() {
  up_open_ = false;
  error_code ec;
  if (up_plain_ || up_tls_) {
    up_tcp().socket().shutdown(tcp::socket::shutdown_both, ec);
    up_tcp().socket().close(ec);
  }
  ubuf_.clear();
}

void Conn::close_client() {
  if (phase_ == Phase::closed) return;
  phase_ = Phase::closed;
  error_code ec;
  timer_.cancel();
  client_.socket().shutdown(tcp::socket::shutdown_both, ec);
  client_.socket().close(ec);
  close_upstream();
}

}  // namespace mcptriage::proxy
