// The proxy's network side (server.hpp): accept, read a request, inject or forward it, relay the
// response as it arrives, record what passed. One thread; callbacks in the Beast example style
// (no coroutines: clang 14 builds of this tree cannot use Asio's with libstdc++).
#include "proxy/server.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "proxy/conn.hpp"

namespace mcptriage::proxy {

std::size_t RecordBudget::take(std::size_t n, std::size_t held) {
  const std::size_t large_limit = limit_ - limit_ / 8;
  std::size_t used = used_.load(std::memory_order_relaxed);
  while (true) {
    const std::size_t small = held < kSmallRecord ? std::min(n, kSmallRecord - held) : 0;
    const std::size_t room = used >= limit_ ? 0 : limit_ - used;
    const std::size_t got_small = std::min(small, room);
    std::size_t got = got_small;
    if (got_small == small && n > small) {  // the rest only below the reserve, and only after the whole small part
      const std::size_t after = used + got_small;
      got += std::min(n - small, after >= large_limit ? 0 : large_limit - after);
    }
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

std::shared_ptr<Conn> Server::State::longest_waiting() const {
  std::shared_ptr<Conn> oldest;
  Clock::time_point since{};
  for (auto& [id, weak] : conns) {
    auto c = weak.lock();
    if (!c) continue;
    const auto w = c->waiting_since();
    if (w && (!oldest || *w < since)) {
      oldest = std::move(c);
      since = *w;
    }
  }
  return oldest;
}

bool Server::State::evict_one() {
  auto oldest = longest_waiting();
  if (!oldest) return false;
  oldest->evicted_ = true;
  ++evicted_pending;
  oldest->close_client();
  return true;
}

void Server::State::accept() {
  if (stopping || accepting) return;
  // At the limit, a connection that waits for a request makes room (closed as --idle-timeout
  // would close it, only sooner); when every open connection has a request in flight, the new
  // ones wait in the listen queue until one closes.
  if (at_limit() && !longest_waiting()) return;  // resumed when one closes or waits for a request
  accepting = true;
  acceptor.async_accept([self = shared_from_this()](error_code ec, tcp::socket socket) {
    self->accepting = false;
    if (self->stopping) return;
    if (!ec) {
      if (self->at_limit()) self->evict_one();
      const std::uint64_t id = ++self->next_conn;
      auto conn = std::make_shared<Conn>(self, std::move(socket), id);
      self->conns.emplace(id, conn);
      conn->start();
    }
    self->accept();
  });
}

void Server::State::connection_closed(std::uint64_t id, bool evicted) {
  conns.erase(id);
  if (evicted && evicted_pending > 0) --evicted_pending;
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
