// `mcptriage mock`: reads the recordings into a Book, serves it on 127.0.0.1 from a ReplayServer,
// and runs the proxy in front of that (proxy::run_proxy with a Front), so that records,
// recordings, faults, signals and the summary are the proxy's own (docs/mock.md).
#include "mock/mock.hpp"

#include <fmt/format.h>

#include <memory>
#include <optional>

#include "io/read_limited.hpp"
#include "mcptriage/capture.hpp"
#include "mock/book.hpp"
#include "mock/replay_server.hpp"
#include "proxy/proxy.hpp"

namespace mcptriage::mock {
namespace {

/// The largest recording read (a HAR of a long session; bodies are kept whole).
constexpr std::size_t kMaxRecording = std::size_t{1} << 30;

}  // namespace

int mock_main(int argc, char** argv) {
  std::vector<std::string> recordings;
  bool strict = false;
  std::optional<Book> book;
  std::unique_ptr<ReplayServer> server;

  proxy::Front front;
  front.program = "mcptriage mock";
  front.description =
      "mcptriage mock: serves recorded MCP exchanges again as a Streamable HTTP server, so that a recorded failure\n"
      "reproduces without the server that made it: each request gets the recorded answer of the same call (method\n"
      "and params), its JSON-RPC id rewritten; the recorded failures (a 503, a tool error) come back. Every exchange\n"
      "served is classified, recorded and open to --inject as in mcptriage proxy.";
  front.footer =
      "Examples:\n"
      "  mcptriage proxy --upstream http://127.0.0.1:3001/mcp --record session.jsonl   # record once\n"
      "  mcptriage mock session.jsonl                     # then serve it: point the client at the URL it prints\n"
      "  mcptriage mock --strict --listen 127.0.0.1:0 -f jsonl session.har > served.jsonl   # in CI\n"
      "Recordings: the proxy's .jsonl or .har, HAR files, exchange logs (requests and responses).\n"
      "Every other option is mcptriage proxy's (--inject ACTION[@WHEN] with its grammar: docs/proxy.md).\n"
      "Exit codes: as mcptriage proxy; 1 with --strict when a request matched no recorded call; 3 a recording\n"
      "cannot be read or holds nothing to serve.\n"
      "Docs: docs/mock.md.";
  front.add_options = [&](CLI::App& app) {
    app.add_option("RECORDING", recordings, "Recordings to serve (the proxy's .jsonl or .har, HAR, exchange logs)")
        ->required();
    app.add_flag("--strict", strict, "Exit 1 at the end when a request matched no recorded call (for CI)");
  };
  front.start = [&]() -> std::expected<std::pair<std::string, std::string>, std::string> {
    std::vector<Exchange> all;
    for (const std::string& path : recordings) {
      auto text = io::read_file_limited(path, kMaxRecording);
      if (!text) return std::unexpected(fmt::format("{}: {}", path, text.error().message));
      auto read = read_capture(*text, path);
      if (!read) return std::unexpected(fmt::format("{}: {}", path, read.error().message));
      for (Exchange& x : *read) all.push_back(std::move(x));
    }
    auto built = Book::build(std::move(all));
    if (!built) return std::unexpected(built.error());
    book.emplace(std::move(*built));
    server = std::make_unique<ReplayServer>(*book);
    auto port = server->start();
    if (!port) return std::unexpected(port.error());
    std::string said = fmt::format("serving {} recorded exchange(s)", book->entries());
    if (book->left_out() > 0) said += fmt::format(" ({} left out: not MCP, no response captured, GET or DELETE)", book->left_out());
    if (book->redacted()) {
      said += "; recorded with redaction: credentials are served as [REDACTED], shortened session ids as the mock's own";
    }
    for (const std::string& n : book->notes()) said += "\nmcptriage mock: note: " + n;
    return std::pair{fmt::format("http://127.0.0.1:{}{}", *port, book->path()), said};
  };
  front.finish = [&]() -> std::pair<std::string, bool> {
    if (server) server->stop();
    const std::size_t n = book ? book->unmatched() : 0;
    if (n == 0) return {"", false};
    return {fmt::format("{} request(s) matched no recorded call{}", n, strict ? " (--strict: exit 1)" : ""), strict};
  };
  return proxy::run_proxy(argc, argv, &front);
}

}  // namespace mcptriage::mock
