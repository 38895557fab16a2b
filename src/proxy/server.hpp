// The proxy's network side (Boost.Beast/Asio 1.74, OpenSSL 3): a listener on the client side,
// one ClientConnection per accepted connection, each with its own upstream connection (plain
// or TLS) opened on demand and kept alive as the upstream allows. Runs on one thread (the
// io_context's); hands every exchange it completes to an ExchangeSink. Design and bounds:
// docs/proxy.md "How it works".
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <expected>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "proxy/captured.hpp"
#include "proxy/inject.hpp"

namespace mcptriage::proxy {

/// Where the proxy forwards to (`--upstream URL`).
struct Upstream {
  bool tls = false;
  std::string host;         ///< as in the URL ("127.0.0.1", "mcp.example.com"), brackets removed
  std::string port;         ///< "3001", "443"
  std::string host_header;  ///< the `Host` the upstream gets: host[:port], the port left out when default
  std::string origin;       ///< scheme://host[:port]
  std::string path;         ///< the URL's path ("/mcp"): the endpoint the client is pointed at
};

/// Parses `--upstream`: http:// or https://, a host, an optional port, a path. Error: one line.
std::expected<Upstream, std::string> parse_upstream(std::string_view url);

/// A request that began, for the client-behaviour watcher (watcher.hpp).
struct Started {
  std::uint64_t seq = 0;
  Clock::time_point t0{};
  std::string http_method;
  std::string method;   ///< JSON-RPC method of a POST ("" otherwise)
  std::string tool;     ///< params.name of a tools/call
  bool last_event_id = false;  ///< a GET that resumes a stream
};

/// Receives what the network thread hands over. Called on the network thread; must not block.
class ExchangeSink {
 public:
  virtual ~ExchangeSink() = default;
  virtual void started(Started s) = 0;
  virtual void completed(Captured c) = 0;
};

/// Bytes the proxy keeps for records: those of exchanges in flight and those handed over and not
/// yet triaged. Shared by the network thread (take) and the triage thread (give back).
class RecordBudget {
 public:
  /// The first bytes of each exchange's record (its request and a small response whole) may use
  /// the whole limit; bytes past them only the limit less a reserve of an eighth, so that a few
  /// large bodies cannot leave small exchanges without a record.
  static constexpr std::size_t kSmallRecord = 64 * 1024;

  explicit RecordBudget(std::size_t limit) : limit_(limit) {}
  /// Up to `n` bytes more for an exchange that holds `held` already; returns how many may be kept.
  std::size_t take(std::size_t n, std::size_t held = 0);
  /// Room for one more small record: forwarding takes new requests only while there is (else the
  /// triage thread is behind on many exchanges, and the connections wait for it).
  bool room_for_small() const { return used() + kSmallRecord <= limit_; }
  void give_back(std::size_t n) { used_.fetch_sub(n, std::memory_order_relaxed); }
  std::size_t used() const { return used_.load(std::memory_order_relaxed); }
  std::size_t limit() const { return limit_; }

 private:
  std::size_t limit_;
  std::atomic<std::size_t> used_{0};
};

struct ServerConfig {
  Upstream upstream;
  boost::asio::ip::tcp::endpoint listen;
  std::vector<Rule> rules;
  std::size_t max_body = std::size_t{16} << 20;  ///< bytes of one body kept in a record (--max-body)
  std::size_t max_connections = 512;             ///< client connections open at once (--max-connections)
  std::chrono::milliseconds connect_timeout{10'000};
  /// A client connection with no request in progress (before its first request, between two)
  /// is closed after this long (--idle-timeout); a request body that stops arriving for this long
  /// gets 408. When --max-connections are open, the connection idle longest is closed at once to
  /// make room for a new one, so idle connections never lock other clients out.
  std::chrono::milliseconds idle_timeout{30'000};
  /// A request's header must arrive whole within this long of its first byte, else 408 and the
  /// connection closed (--header-timeout).
  std::chrono::milliseconds header_timeout{10'000};
  bool insecure = false;                         ///< --insecure: no certificate checks
};

class Server {
 public:
  Server(boost::asio::io_context& ioc, ServerConfig config, ExchangeSink& sink, RecordBudget& budget);
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  /// Binds and listens. Error: one line (address in use, permission).
  std::expected<void, std::string> listen();
  /// The address the proxy listens on (the port chosen when 0 was asked for).
  boost::asio::ip::tcp::endpoint local_endpoint() const;
  /// Accepts connections until stop().
  void start();
  /// Stops accepting and ends every open exchange (recorded as cut by `why`, e.g. "SIGINT"),
  /// closing its connections; `done` runs on the network thread once every connection is closed.
  void stop(std::string why, std::function<void()> done);
  std::size_t open_connections() const;

  struct State;

 private:
  std::shared_ptr<State> state_;
};

}  // namespace mcptriage::proxy
