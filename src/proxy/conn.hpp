// Internal to src/proxy: one client connection (Conn) and the server state it shares
// (Server::State). The methods are in conn_request.cpp (reading a request, injecting or
// forwarding it, the upstream connection) and conn_relay.cpp (relaying the response body,
// completing the record, closing); server.cpp accepts connections.
#pragma once

#include <boost/asio/ip/address.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>

#include <chrono>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "proxy/json_peek.hpp"
#include "proxy/server.hpp"
#include "proxy/sse_framer.hpp"

namespace mcptriage::proxy {

namespace beast = boost::beast;
namespace http = beast::http;
namespace net = boost::asio;
namespace ssl = net::ssl;
using tcp = net::ip::tcp;
using beast::error_code;

namespace conn_detail {

constexpr std::size_t kRelayBuffer = 64 * 1024;       ///< one read of a response body
constexpr std::uint32_t kHeaderLimit = 64 * 1024;     ///< the largest header block read, each side
constexpr std::size_t kMaxSessions = 10'000;          ///< sessions whose POSTs are counted
constexpr std::size_t kInterimNoted = 4;              ///< interim responses of one exchange noted in its record
/// The most bytes of one event a stream keeps to read it (the first event's time, the final
/// response's, the negotiated version): a longer event is forwarded all the same, unread.
constexpr std::size_t kEventBound = 1 << 20;

inline Headers fields_of(const http::fields& f) {
  Headers out;
  for (const auto& field : f) out.push_back({std::string(field.name_string()), std::string(field.value())});
  return out;
}

inline double ms_since(Clock::time_point t0, Clock::time_point t) {
  return std::chrono::duration<double, std::milli>(t - t0).count();
}

}  // namespace conn_detail

using conn_detail::fields_of;
using conn_detail::kEventBound;
using conn_detail::kHeaderLimit;
using conn_detail::kInterimNoted;
using conn_detail::kMaxSessions;
using conn_detail::kRelayBuffer;
using conn_detail::ms_since;

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
  /// At --max-connections: closes the connection that waits longest for a request (idle, or
  /// still sending a header begun over a second ago) to make room. False: none to close.
  bool evict_one();
  std::shared_ptr<Conn> longest_waiting() const;
  bool at_limit() const { return conns.size() - evicted_pending >= cfg.max_connections; }
  /// A connection began to wait for a request: at the limit, accepting resumes (it can make room).
  void connection_waiting() {
    if (at_limit() && !accepting && !stopping) accept();
  }
  void connection_closed(std::uint64_t id, bool evicted);
  std::size_t evicted_pending = 0;  ///< evicted connections not yet destroyed
};
/// One client connection and its upstream connection.
class Conn : public std::enable_shared_from_this<Conn> {
 public:
  Conn(std::shared_ptr<Server::State> st, tcp::socket socket, std::uint64_t id)
      : st_(std::move(st)), id_(id), client_(std::move(socket)), timer_(st_->ioc), buf_(kRelayBuffer) {}

  ~Conn() { st_->connection_closed(id_, evicted_); }

  void start();

  /// The proxy is stopping: ends the exchange in flight (recorded as cut) and closes.
  void shutdown();

 private:
  enum class Phase { idle, reading, delaying, upstream, streaming, made, closed };

  // ------------------------------------------------------------------ client requests

  void wait_request();

  void begin_request(Clock::time_point t0);

  /// The request's header was read: the body next, after a 100 Continue made by the proxy when
  /// the client sent `Expect: 100-continue`.
  void read_body();

  /// One read of the body, within --idle-timeout of the last: the body that stops gets 408.
  void read_body_part();

  /// Arms timer_ for a request being read: when it fires, `which` (the option) is noted and the
  /// read cancelled, so that on_request answers 408.
  void arm_read_timer(std::chrono::milliseconds after, const char* which);

  /// Since when the connection waits for a request (idle) or for its header (reading): the
  /// eviction order. Nullopt: neither, or a header begun under a second ago.
  std::optional<Clock::time_point> waiting_since() const;

  void on_request(error_code ec);

  /// --header-timeout or --idle-timeout ended the request being read: 408 made, recorded, closed.
  void request_timed_out();

  /// Fills cap_ from req_, counts the POST, tells the watcher, then injects or forwards.
  void take_request_facts(bool proceed);

  std::string origin() const;

  // ------------------------------------------------------------------ made responses

  /// A response the proxy makes itself: injected (`why` empty), or because it cannot forward.
  void respond_made(int status, Headers headers, std::string body, std::string why, bool close_after);

  /// The upstream could not be reached or did not answer: 502 made by the proxy.
  void upstream_failed(std::string_view what, error_code ec);

  // ------------------------------------------------------------------ upstream

  void forward();

  /// An idle kept-alive upstream connection is still usable: nothing to read on it (no EOF, no
  /// TLS alert), so a request sent now is not lost to a close the server already made.
  bool upstream_alive();

  beast::tcp_stream& up_tcp() { return up_tls_ ? beast::get_lowest_layer(*up_tls_) : *up_plain_; }

  template <class F>
  void with_upstream(F&& f) {
    if (up_tls_) f(*up_tls_);
    else f(*up_plain_);
  }

  void connect();

  void send();

  void on_sent();

  /// A fresh parser for the upstream's next response (the first, or the one after a 1xx).
  void new_response_parser();

  void read_header();

  /// The upstream sent a 1xx interim response (not 101): passed on, noted, the response read next.
  void on_interim();

  void on_header(error_code ec);

  /// Notices a client that goes away while it waits for the response or while the response
  /// streams (an idle event stream would otherwise notice only at its next event): EOF on its
  /// socket ends the exchange at once and closes the upstream connection (2026-07-28: closing the
  /// stream is the cancellation, Streamable HTTP §Cancellation).
  void watch_client();

  // ------------------------------------------------------------------ relaying the body

  void relay_read();

  void on_read(error_code ec);

  /// Frames the bytes of an event stream: timing, event count, the negotiated version, and, with
  /// `out` (cut-after-events), the whole events to forward from `held_`. True: cut now.
  bool consume_events(std::string_view data, std::string* out);

  void write_body(const char* data, std::size_t n, bool more);

  /// Keeps body bytes for the record, within --max-body and the memory budget.
  void keep(std::string_view bytes);

  void relay_done();

  /// cut-after-events: the client's connection is closed between two events.
  void cut_now();

  /// The relay failed: `client_side` a write to the client, else the upstream read.
  void relay_failed(bool client_side, error_code ec);

  /// The exchange ended before a response reached the client (stopping, or a delay cut short).
  void finish_cut(BodyEnd end, std::string why);

  void note_new_session();

  void complete(BodyEnd end, std::string why);

  bool in_exchange() const { return cap_.seq != 0; }

  void close_upstream();

  void close_client();

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
  Clock::time_point idle_since_{};
  const char* read_timeout_ = nullptr;  ///< the timeout option that cut the request being read
  bool evicted_ = false;
  bool expect_continue_ = false;  ///< the client sent Expect: 100-continue, answered by the proxy
  std::size_t interim_ = 0;       ///< 1xx interim responses from the upstream for this request
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

}  // namespace mcptriage::proxy
