// The replay server of `mcptriage mock` (docs/mock.md "How it works"): an HTTP/1.1 server on
// 127.0.0.1 (a port the system picks) that answers every request from a Book. Only the mock's own
// proxy connects to it; the client talks to that proxy, which records, judges and injects as
// `mcptriage proxy` does.
#pragma once

#include <atomic>
#include <cstdint>
#include <expected>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "mock/book.hpp"

namespace mcptriage::mock {

class ReplayServer {
 public:
  explicit ReplayServer(Book& book);
  ~ReplayServer();
  ReplayServer(const ReplayServer&) = delete;
  ReplayServer& operator=(const ReplayServer&) = delete;

  /// Listens on 127.0.0.1 on a port the system picks, and serves in threads of its own (one per
  /// connection). The port, or why it cannot listen.
  std::expected<std::uint16_t, std::string> start();
  /// Stops listening, ends every connection, joins every thread. Idempotent.
  void stop();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace mcptriage::mock
