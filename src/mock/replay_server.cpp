// ReplayServer (replay_server.hpp): Boost.Beast, blocking, one thread per connection; an event
// stream is written as chunks, one SSE event per chunk, so that the client reads the recorded
// event boundaries.
#include "mock/replay_server.hpp"

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http.hpp>
#include <fmt/format.h>

#include <map>

namespace mcptriage::mock {
namespace {

namespace net = boost::asio;
namespace http = boost::beast::http;
using tcp = net::ip::tcp;

/// The largest request body read (a tools/call with a large argument fits; the proxy in front
/// already bounds what it forwards by --max-body).
constexpr std::uint64_t kMaxRequestBody = std::uint64_t{64} << 20;

}  // namespace

struct ReplayServer::Impl {
  explicit Impl(Book& b) : book(b), acceptor(ioc) {}
  Book& book;
  net::io_context ioc;
  tcp::acceptor acceptor;
  std::uint16_t port = 0;
  std::atomic<bool> stopping{false};
  std::thread accept_thread;
  std::mutex mu;
  std::map<std::uint64_t, std::shared_ptr<tcp::socket>> sockets;
  std::map<std::uint64_t, std::thread> threads;
  std::vector<std::uint64_t> finished;  ///< connections whose thread has ended, to be joined
  std::uint64_t next_id = 0;

  void accept_loop() {
    for (;;) {
      auto sock = std::make_shared<tcp::socket>(ioc);
      boost::system::error_code ec;
      acceptor.accept(*sock, ec);
      if (stopping) return;
      if (ec) continue;
      std::vector<std::thread> ended;
      {
        std::lock_guard lock(mu);
        // The threads of connections that ended are joined here, so that their stacks go.
        for (std::uint64_t done : finished) {
          ended.push_back(std::move(threads[done]));
          threads.erase(done);
        }
        finished.clear();
        const std::uint64_t id = ++next_id;
        sockets.emplace(id, sock);
        threads.emplace(id, std::thread([this, sock, id] {
          serve(*sock);
          std::lock_guard l(mu);
          sockets.erase(id);
          finished.push_back(id);
        }));
      }
      for (std::thread& t : ended) t.join();
    }
  }

  void serve(tcp::socket& sock) {
    boost::beast::flat_buffer buf;
    for (;;) {
      http::request_parser<http::string_body> parser;
      parser.body_limit(kMaxRequestBody);
      boost::system::error_code ec;
      http::read(sock, buf, parser, ec);
      if (ec) return;
      const auto& req = parser.get();
      Headers headers;
      for (const auto& f : req) headers.push_back({std::string(f.name_string()), std::string(f.value())});
      const Answer a = book.answer(std::string(req.method_string()), headers, req.body());
      const bool keep = req.keep_alive();
      std::string head = fmt::format("HTTP/1.1 {} {}\r\n", a.status,
                                     std::string(http::obsolete_reason(http::int_to_status(static_cast<unsigned>(a.status)))));
      for (const Header& h : a.headers) head += h.name + ": " + h.value + "\r\n";
      if (!keep) head += "Connection: close\r\n";
      if (a.event_stream) {
        head += "Transfer-Encoding: chunked\r\n\r\n";
        net::write(sock, net::buffer(head), ec);
        for (const std::string& piece : a.pieces) {
          if (ec || piece.empty()) continue;
          const std::string size = fmt::format("{:x}\r\n", piece.size());
          net::write(sock, std::array{net::buffer(size), net::buffer(piece), net::buffer("\r\n", 2)}, ec);
        }
        if (!ec) net::write(sock, net::buffer("0\r\n\r\n", 5), ec);
      } else {
        std::size_t n = 0;
        for (const std::string& piece : a.pieces) n += piece.size();
        head += fmt::format("Content-Length: {}\r\n\r\n", n);
        for (const std::string& piece : a.pieces) head += piece;
        net::write(sock, net::buffer(head), ec);
      }
      if (ec || !keep) return;
    }
  }
};

ReplayServer::ReplayServer(Book& book) : impl_(std::make_unique<Impl>(book)) {}

ReplayServer::~ReplayServer() { stop(); }

std::expected<std::uint16_t, std::string> ReplayServer::start() {
  boost::system::error_code ec;
  const tcp::endpoint at(net::ip::make_address_v4("127.0.0.1"), 0);
  impl_->acceptor.open(at.protocol(), ec);
  if (!ec) impl_->acceptor.bind(at, ec);
  if (!ec) impl_->acceptor.listen(net::socket_base::max_listen_connections, ec);
  if (ec) return std::unexpected("the replay server cannot listen on 127.0.0.1: " + ec.message());
  impl_->port = impl_->acceptor.local_endpoint().port();
  impl_->accept_thread = std::thread([this] { impl_->accept_loop(); });
  return impl_->port;
}

void ReplayServer::stop() {
  if (!impl_ || impl_->stopping.exchange(true)) return;
  if (impl_->accept_thread.joinable()) {
    // Wakes the blocking accept with a connection of our own.
    boost::system::error_code ec;
    tcp::socket poke(impl_->ioc);
    poke.connect(tcp::endpoint(net::ip::make_address_v4("127.0.0.1"), impl_->port), ec);
    impl_->accept_thread.join();
  }
  boost::system::error_code ec;
  impl_->acceptor.close(ec);
  std::map<std::uint64_t, std::thread> threads;
  {
    std::lock_guard lock(impl_->mu);
    for (auto& [id, sock] : impl_->sockets) sock->shutdown(tcp::socket::shutdown_both, ec);
    threads.swap(impl_->threads);
  }
  for (auto& [id, t] : threads) t.join();
}

}  // namespace mcptriage::mock
