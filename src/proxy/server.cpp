// The proxy's network side (server.hpp): accept, read a request, inject or forward it, relay the
// response as it arrives, record what passed. One thread; callbacks in the Beast example style
// (no coroutines: clang 14 builds of this tree cannot use Asio's with libstdc++).
#include "proxy/server.hpp"

#include <boost/asio/ip/address.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <deque>
#include <map>
#include <optional>
#include <unordered_map>

#include "mcptriage/http.hpp"
#include "proxy/json_peek.hpp"
#include "proxy/sse_framer.hpp"

namespace mcptriage::proxy {

namespace beast = boost::beast;
namespace http = beast::http;
namespace net = boost::asio;
namespace ssl = net::ssl;
using tcp = net::ip::tcp;
using beast::error_code;

std::size_t RecordBudget::take(std::size_t n) {
  std::size_t used = used_.load(std::memory_order_relaxed);
  while (true) {
    const std::size_t room = used >= limit_ ? 0 : limit_ - used;
    const std::size_t got = std::min(n, room);
    if (got == 0) return 0;
    if (used_.compare_exchange_weak(used, used + got, std::memory_order_relaxed)) return got;
  }
}

std::expected<Upstream, std::string> parse_upstream(std::string_view url) {
  Upstream u;
  std::string_view rest;
  if (url.starts_with("http://")) {
    rest = url.substr(7);
  } else if (url.starts_with("https://")) {
    u.tls = true;
    rest = url.substr(8);
  } else {
    return std::unexpected("--upstream " + std::string(url) + ": give an http:// or https:// URL");
  }
  const std::size_t slash = rest.find_first_of("/?#");
  std::string_view authority = rest.substr(0, slash);
  u.path = slash == std::string_view::npos ? "/" : std::string(rest.substr(slash));
  if (u.path.starts_with('?') || u.path.starts_with('#')) u.path = "/" + u.path;
  if (const std::size_t hash = u.path.find('#'); hash != std::string::npos) u.path.resize(hash);
  if (authority.find('@') != std::string_view::npos) {
    return std::unexpected("--upstream: credentials in the URL are not supported (send an Authorization header from the client)");
  }
  std::string_view host = authority;
  std::string_view port;
  if (host.starts_with('[')) {
    const std::size_t close = host.find(']');
    if (close == std::string_view::npos) return std::unexpected("--upstream " + std::string(url) + ": unclosed [ in the host");
    if (close + 1 < host.size()) {
      if (host[close + 1] != ':') return std::unexpected("--upstream " + std::string(url) + ": bad host");
      port = host.substr(close + 2);
    }
    host = host.substr(1, close - 1);
  } else if (const std::size_t colon = host.rfind(':'); colon != std::string_view::npos) {
    port = host.substr(colon + 1);
    host = host.substr(0, colon);
  }
  if (host.empty()) return std::unexpected("--upstream " + std::string(url) + ": no host");
  if (!port.empty() && (port.find_first_not_of("0123456789") != std::string_view::npos || port.size() > 5 ||
                        std::stoul(std::string(port)) == 0 || std::stoul(std::string(port)) > 65535)) {
    return std::unexpected("--upstream " + std::string(url) + ": bad port");
  }
  u.host = std::string(host);
  const std::string_view default_port = u.tls ? "443" : "80";
  u.port = port.empty() ? std::string(default_port) : std::string(port);
  const bool v6 = u.host.find(':') != std::string::npos;
  const std::string shown = v6 ? "[" + u.host + "]" : u.host;
  u.host_header = u.port == default_port ? shown : shown + ":" + u.port;
  u.origin = std::string(u.tls ? "https://" : "http://") + u.host_header;
  return u;
}

namespace {

constexpr std::size_t kRelayBuffer = 64 * 1024;       ///< one read of a response body
constexpr std::uint32_t kHeaderLimit = 64 * 1024;     ///< the largest header block read, each side
constexpr std::size_t kMaxSessions = 10'000;          ///< sessions whose POSTs are counted
/// The most bytes of one event a stream keeps to read it (the first event's time, the final
/// response's, the negotiated version): a longer event is forwarded all the same, unread.
constexpr std::size_t kEventBound = 1 << 20;

Headers fields_of(const http::fields& f) {
  Headers out;
  for (const auto& field : f) out.push_back({std::string(field.name_string()), std::string(field.value())});
  return out;
}

double ms_since(Clock::time_point t0, Clock::time_point t) {
  return std::chrono::duration<double, std::milli>(t - t0).count();
}

}  // namespace

class Conn;

struct Server::State : std::enable_shared_from_this<Server::State> {
  State(net::io_context& io, ServerConfig c, ExchangeSink& s, RecordBudget& b)
      : ioc(io), cfg(std::move(c)), sink(s), budget(b), acceptor(io), tls(ssl::context::tls_client) {}

  net::io_context& ioc;
  ServerConfig cfg;
  ExchangeSink& sink;
  RecordBudget& budget;
  tcp::acceptor acceptor;
  ssl::context tls;
  std::uint64_t seq = 0;
  std::uint64_t next_conn = 0;
  std::unordered_map<std::uint64_t, std::weak_ptr<Conn>> conns;
  bool accepting = false;
  bool stopping = false;
  std::string stop_why;
  std::function<void()> on_stopped;
  // POSTs per session (Mcp-Session-Id; "" for none) and what initialize negotiated.
  struct SessionState {
    std::size_t posts = 0;
    std::string version;
  };
  std::map<std::string, SessionState> sessions;
  std::deque<std::string> session_order;

  SessionState& session(const std::string& id) {
    auto [it, inserted] = sessions.try_emplace(id);
    if (inserted) {
      session_order.push_back(id);
      if (session_order.size() > kMaxSessions) {
        sessions.erase(session_order.front());
        session_order.pop_front();
      }
    }
    return it->second;
  }

  void accept();
  void connection_closed(std::uint64_t id);
};

/// One client connection and its upstream connection.
class Conn : public std::enable_shared_from_this<Conn> {
 public:
  Conn(std::shared_ptr<Server::State> st, tcp::socket socket, std::uint64_t id)
      : st_(std::move(st)), id_(id), client_(std::move(socket)), timer_(st_->ioc), buf_(kRelayBuffer) {}

  ~Conn() { st_->connection_closed(id_); }

  void start() {
    error_code ec;
    client_.socket().set_option(tcp::no_delay(true), ec);
    client_.socket().non_blocking(true, ec);
    const auto ep = client_.socket().remote_endpoint(ec);
    peer_ = ec ? std::string("?") : fmt::format("{}:{}", ep.address().to_string(), ep.port());
    wait_request();
  }

  /// The proxy is stopping: ends the exchange in flight (recorded as cut) and closes.
  void shutdown() {
    if (phase_ == Phase::idle || phase_ == Phase::reading) {
      close_client();
      return;
    }
    stop_cut_ = true;
    close_upstream();
    close_client();
  }

 private:
  enum class Phase { idle, reading, delaying, upstream, streaming, made, closed };

  // ------------------------------------------------------------------ client requests

  void wait_request() {
    phase_ = Phase::idle;
    if (st_->stopping) return close_client();
    if (st_->budget.used() > st_->budget.limit() / 2) {
      // Records wait for the triage thread: take no new request until it catches up.
      timer_.expires_after(std::chrono::milliseconds(10));
      timer_.async_wait([self = shared_from_this()](error_code ec) {
        if (!ec) self->wait_request();
      });
      return;
    }
    if (cbuf_.size() > 0) return begin_request(Clock::now());
    client_.socket().async_wait(tcp::socket::wait_read, [self = shared_from_this()](error_code ec) {
      if (ec || self->st_->stopping) return self->close_client();
      self->begin_request(Clock::now());
    });
  }

  void begin_request(Clock::time_point t0) {
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
    http::async_read(client_, cbuf_, *reqp_, [self = shared_from_this()](error_code ec, std::size_t) {
      self->on_request(ec);
    });
  }

  void on_request(error_code ec) {
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

  /// Fills cap_ from req_, counts the POST, tells the watcher, then injects or forwards.
  void take_request_facts(bool proceed) {
    const Clock::time_point now = Clock::now();
    cap_.seq = ++st_->seq;
    cap_.timing.request_ms = ms_since(cap_.t0, now);
    cap_.method = std::string(req_.method_string());
    cap_.target = std::string(req_.target());
    cap_.url = st_->cfg.upstream.origin + cap_.target;
    client_keep_alive_ = req_.keep_alive();
    head_ = req_.method() == http::verb::head;
    req_.set(http::field::host, st_->cfg.upstream.host_header);
    cap_.request_headers = fields_of(req_.base());
    const std::size_t kept = st_->budget.take(req_.body().size());
    cap_.request_body = req_.body().substr(0, kept);
    cap_.request_body_cut = kept < req_.body().size();
    budget_bytes_ = kept;

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

  std::string origin() const {
    error_code ec;
    const auto ep = client_.socket().local_endpoint(ec);
    if (ec) return "http://127.0.0.1";
    const std::string host = ep.address().is_v6() ? "[" + ep.address().to_string() + "]" : ep.address().to_string();
    return fmt::format("http://{}:{}", host, ep.port());
  }

  // ------------------------------------------------------------------ made responses

  /// A response the proxy makes itself: injected (`why` empty), or because it cannot forward.
  void respond_made(int status, Headers headers, std::string body, std::string why, bool close_after) {
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
    const std::size_t kept = st_->budget.take(std::min(made_->body().size(), st_->cfg.max_body));
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

  /// The upstream could not be reached or did not answer: 502 made by the proxy.
  void upstream_failed(std::string_view what, error_code ec) {
    close_upstream();
    if (stop_cut_ || st_->stopping) return finish_cut(BodyEnd::cut_shutdown, st_->stop_why);
    if (client_gone_) return finish_cut(BodyEnd::cut_client, client_gone_why_);
    const std::string where = st_->cfg.upstream.host_header;
    const std::string detail = fmt::format("{}: {}", what, ec.message());
    const bool never_saw = what.starts_with("connect") || what.starts_with("resolve") || what.starts_with("TLS");
    respond_made(502, {{"Content-Type", "text/plain; charset=utf-8"}},
                 fmt::format("502 Bad Gateway (mcptriage proxy: the upstream {} failed: {})\n", where, detail),
                 fmt::format("the upstream {} failed ({}){}", where, detail,
                             never_saw ? "; the server never saw the request" : ""),
                 false);
  }

  // ------------------------------------------------------------------ upstream

  void forward() {
    if (stop_cut_ || st_->stopping) return finish_cut(BodyEnd::cut_shutdown, st_->stop_why);
    phase_ = Phase::upstream;
    if (up_open_ && upstream_alive()) return send();
    close_upstream();
    connect();
  }

  /// An idle kept-alive upstream connection is still usable: nothing to read on it (no EOF, no
  /// TLS alert), so a request sent now is not lost to a close the server already made.
  bool upstream_alive() {
    char c = 0;
    error_code ec;
    tcp::socket& s = up_tcp().socket();
    s.non_blocking(true, ec);
    const std::size_t n = s.receive(net::buffer(&c, 1), tcp::socket::message_peek, ec);
    if (ec == net::error::would_block || ec == net::error::try_again) return true;
    (void)n;
    return false;
  }

  beast::tcp_stream& up_tcp() { return up_tls_ ? beast::get_lowest_layer(*up_tls_) : *up_plain_; }

  template <class F>
  void with_upstream(F&& f) {
    if (up_tls_) f(*up_tls_);
    else f(*up_plain_);
  }

  void connect() {
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
          self->send();
        });
      });
    });
  }

  void send() {
    with_upstream([&](auto& s) {
      http::async_write(s, req_, [self = shared_from_this()](error_code ec, std::size_t) {
        if (ec) return self->upstream_failed("write the request", ec);
        self->on_sent();
      });
    });
  }

  void on_sent() {
    watch_client();  // a client that gives up waiting closes the upstream request too
    std::string().swap(req_.body());  // sent (and copied for the record): no need to keep it
    // Room for a whole relay buffer per read: beast::read_size() prepares no more than the
    // flat_buffer's spare capacity (at least 512 bytes), so a small buffer means small reads.
    ubuf_.reserve(kRelayBuffer);
    resp_.emplace();
    resp_->header_limit(kHeaderLimit);
    // No limit (the body is relayed, not kept). Not boost::none: Beast 1.74 compares the
    // Content-Length with the optional limit as `len_ > body_limit_`, which is true for any
    // length against an empty optional (basic_parser.ipp, finish_header).
    resp_->body_limit(std::numeric_limits<std::uint64_t>::max());
    if (head_) resp_->skip(true);
    if (!up_tls_ && ubuf_.size() == 0) {
      up_tcp().socket().async_wait(tcp::socket::wait_read, [self = shared_from_this()](error_code ec) {
        if (!ec) self->cap_.timing.response_ms = ms_since(self->cap_.t0, Clock::now());
        self->read_header();
      });
      return;
    }
    read_header();
  }

  void read_header() {
    with_upstream([&](auto& s) {
      http::async_read_header(s, ubuf_, *resp_, [self = shared_from_this()](error_code ec, std::size_t) {
        self->on_header(ec);
      });
    });
  }

  void on_header(error_code ec) {
    if (ec) return upstream_failed("read the response", ec);
    if (!cap_.timing.response_ms) cap_.timing.response_ms = ms_since(cap_.t0, Clock::now());
    auto& res = resp_->get();
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

  /// Notices a client that goes away while it waits for the response or while the response
  /// streams (an idle event stream would otherwise notice only at its next event): EOF on its
  /// socket ends the exchange at once and closes the upstream connection (2026-07-28: closing the
  /// stream is the cancellation, Streamable HTTP §Cancellation).
  void watch_client() {
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

  // ------------------------------------------------------------------ relaying the body

  void relay_read() {
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

  void on_read(error_code ec) {
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

  /// Frames the bytes of an event stream: timing, event count, the negotiated version, and, with
  /// `out` (cut-after-events), the whole events to forward from `held_`. True: cut now.
  bool consume_events(std::string_view data, std::string* out) {
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
          (facts_.message.id_json.empty() || b.message.id_json == facts_.message.id_json)) {
        cap_.timing.final_ms = ms_since(cap_.t0, now);
      }
      if (initialize_ && b.response() && !b.message.result_protocol_version.empty()) {
        negotiated_ = b.message.result_protocol_version;
      }
      if (out && rule_ && cap_.events >= rule_->events) return true;  // after N events
    }
    return false;
  }

  void write_body(const char* data, std::size_t n, bool more) {
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

  /// Keeps body bytes for the record, within --max-body and the memory budget.
  void keep(std::string_view bytes) {
    cap_.body_bytes += bytes.size();
    if (body_cut_) return;
    const std::size_t room = st_->cfg.max_body > cap_.body.size() ? st_->cfg.max_body - cap_.body.size() : 0;
    const std::size_t want = std::min(room, bytes.size());
    const std::size_t got = st_->budget.take(want);
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

  void relay_done() {
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

  /// cut-after-events: the client's connection is closed between two events.
  void cut_now() {
    cap_.timing.end_ms = ms_since(cap_.t0, Clock::now());
    close_upstream();
    close_client();
    complete(BodyEnd::cut_rule, "");
  }

  /// The relay failed: `client_side` a write to the client, else the upstream read.
  void relay_failed(bool client_side, error_code ec) {
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

  /// The exchange ended before a response reached the client (stopping, or a delay cut short).
  void finish_cut(BodyEnd end, std::string why) {
    cap_.timing.end_ms = ms_since(cap_.t0, Clock::now());
    close_upstream();
    close_client();
    complete(end, std::move(why));
  }

  void note_new_session() {
    if (!initialize_) return;
    if (negotiated_.empty() && !sse_) negotiated_ = peek_message(cap_.body).result_protocol_version;
    auto& s = st_->session(new_session_);
    s.posts = 1;
    if (!negotiated_.empty()) s.version = negotiated_;
  }

  void complete(BodyEnd end, std::string why) {
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

  bool in_exchange() const { return cap_.seq != 0; }

  void close_upstream() {
    up_open_ = false;
    error_code ec;
    if (up_plain_ || up_tls_) {
      up_tcp().socket().shutdown(tcp::socket::shutdown_both, ec);
      up_tcp().socket().close(ec);
    }
    ubuf_.clear();
  }

  void close_client() {
    if (phase_ == Phase::closed) return;
    phase_ = Phase::closed;
    error_code ec;
    timer_.cancel();
    client_.socket().shutdown(tcp::socket::shutdown_both, ec);
    client_.socket().close(ec);
    close_upstream();
  }

  std::shared_ptr<Server::State> st_;
  std::uint64_t id_;
  beast::tcp_stream client_;
  beast::flat_buffer cbuf_;
  net::steady_timer timer_;
  std::string peer_;
  Phase phase_ = Phase::idle;
  std::optional<http::request_parser<http::string_body>> reqp_;
  http::request<http::string_body> req_;
  bool client_keep_alive_ = true;
  bool head_ = false;
  RequestFacts facts_;
  std::string session_id_;
  bool initialize_ = false;
  std::string new_session_;
  std::string negotiated_;
  const Rule* rule_ = nullptr;
  // upstream
  std::unique_ptr<beast::tcp_stream> up_plain_;
  std::unique_ptr<beast::ssl_stream<beast::tcp_stream>> up_tls_;
  bool up_open_ = false;
  bool up_keep_alive_ = true;
  beast::flat_buffer ubuf_;
  std::optional<http::response_parser<http::buffer_body>> resp_;
  std::optional<http::response_serializer<http::buffer_body>> sr_;
  std::optional<http::response<http::string_body>> made_;
  std::vector<char> buf_;
  // the exchange in flight
  Captured cap_;
  std::size_t budget_bytes_ = 0;
  bool body_cut_ = false;
  bool sse_ = false;
  std::optional<SseFramer> framer_;
  std::vector<SseBlock> blocks_;
  bool cutting_ = false;
  bool cut_pending_ = false;
  std::string held_;
  std::string out_;
  error_code pending_error_;
  bool client_gone_ = false;
  std::string client_gone_why_;
  bool stop_cut_ = false;
  std::uint64_t gen_ = 0;

  friend struct Server::State;
};

void Server::State::accept() {
  if (stopping || accepting) return;
  if (conns.size() >= cfg.max_connections) return;  // resumed when one closes
  accepting = true;
  acceptor.async_accept([self = shared_from_this()](error_code ec, tcp::socket socket) {
    self->accepting = false;
    if (self->stopping) return;
    if (!ec) {
      const std::uint64_t id = ++self->next_conn;
      auto conn = std::make_shared<Conn>(self, std::move(socket), id);
      self->conns.emplace(id, conn);
      conn->start();
    }
    self->accept();
  });
}

void Server::State::connection_closed(std::uint64_t id) {
  conns.erase(id);
  if (stopping) {
    if (conns.empty() && on_stopped) {
      auto done = std::move(on_stopped);
      on_stopped = nullptr;
      net::post(ioc, std::move(done));
    }
  } else {
    net::post(ioc, [self = shared_from_this()] { self->accept(); });
  }
}

Server::Server(net::io_context& ioc, ServerConfig config, ExchangeSink& sink, RecordBudget& budget)
    : state_(std::make_shared<State>(ioc, std::move(config), sink, budget)) {
  // https upstreams: the system's CA store (OpenSSL's default paths; SSL_CERT_FILE and
  // SSL_CERT_DIR override them), certificate and host name checked unless --insecure.
  error_code ec;
  state_->tls.set_default_verify_paths(ec);
  state_->tls.set_verify_mode(state_->cfg.insecure ? ssl::verify_none : ssl::verify_peer);
}

Server::~Server() = default;

std::expected<void, std::string> Server::listen() {
  error_code ec;
  auto& a = state_->acceptor;
  a.open(state_->cfg.listen.protocol(), ec);
  if (!ec) a.set_option(net::socket_base::reuse_address(true), ec);
  if (!ec) a.bind(state_->cfg.listen, ec);
  if (!ec) a.listen(net::socket_base::max_listen_connections, ec);
  if (ec) {
    return std::unexpected(fmt::format("cannot listen on {}:{}: {}", state_->cfg.listen.address().to_string(),
                                       state_->cfg.listen.port(), ec.message()));
  }
  return {};
}

tcp::endpoint Server::local_endpoint() const {
  error_code ec;
  return state_->acceptor.local_endpoint(ec);
}

void Server::start() { state_->accept(); }

void Server::stop(std::string why, std::function<void()> done) {
  auto& st = *state_;
  st.stopping = true;
  st.stop_why = std::move(why);
  st.on_stopped = std::move(done);
  error_code ec;
  st.acceptor.close(ec);
  std::vector<std::shared_ptr<Conn>> open;
  for (auto& [id, weak] : st.conns) {
    if (auto c = weak.lock()) open.push_back(std::move(c));
  }
  for (auto& c : open) c->shutdown();
  open.clear();
  if (st.conns.empty() && st.on_stopped) {
    auto cb = std::move(st.on_stopped);
    st.on_stopped = nullptr;
    net::post(st.ioc, std::move(cb));
  }
}

std::size_t Server::open_connections() const { return state_->conns.size(); }

}  // namespace mcptriage::proxy
