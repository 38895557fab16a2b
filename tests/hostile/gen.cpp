// hostile_gen: writes one generated hostile input to stdout, so that the suite (run.sh) needs
// no large files in the repository. Deterministic: the same arguments give the same bytes.
//
// Usage: hostile_gen KIND [N]     (run with no argument for the list of kinds)
#include <zlib.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <string>
#include <string_view>

namespace {

constexpr std::string_view kJsonHead = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n";
constexpr std::string_view kSseHead = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\n";
constexpr std::string_view kToolResult =
    R"({"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"ok"}]}})";
constexpr std::string_view kTextOpen = R"({"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":")";
constexpr std::string_view kTextClose = R"("}]}})";

void out(std::string_view s) {
  if (!s.empty() && std::fwrite(s.data(), 1, s.size(), stdout) != s.size()) std::exit(0);  // reader gone
}

/// Writes `n` copies of `unit`, in large blocks.
void repeat(std::string_view unit, std::size_t n) {
  std::string block;
  const std::size_t per_block = std::max<std::size_t>(1, (1 << 20) / std::max<std::size_t>(1, unit.size()));
  for (std::size_t i = 0; i < per_block; ++i) block += unit;
  while (n >= per_block) {
    out(block);
    n -= per_block;
  }
  for (; n > 0; --n) out(unit);
}

/// `n` filler bytes 'a' (a 1 GB single line is written 1 MiB at a time, never held whole).
void filler(std::size_t n) { repeat("a", n); }

std::string gzip(std::string_view in) {
  z_stream zs{};
  deflateInit2(&zs, 9, Z_DEFLATED, 16 + MAX_WBITS, 9, Z_DEFAULT_STRATEGY);
  std::string result(deflateBound(&zs, static_cast<uLong>(in.size())), '\0');
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  zs.avail_in = static_cast<uInt>(in.size());
  zs.next_out = reinterpret_cast<Bytef*>(result.data());
  zs.avail_out = static_cast<uInt>(result.size());
  deflate(&zs, Z_FINISH);
  result.resize(zs.total_out);
  deflateEnd(&zs);
  return result;
}

/// A gzip stream of `n` bytes of 'a' inside a tool result, compressed piecewise (the
/// inflated text is never held whole).
void gzip_bomb(std::size_t n) {
  z_stream zs{};
  deflateInit2(&zs, 9, Z_DEFLATED, 16 + MAX_WBITS, 9, Z_DEFAULT_STRATEGY);
  std::string chunk(1 << 20, 'a');
  std::string buffer(1 << 20, '\0');
  auto feed = [&](std::string_view in, int flush) {
    zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
    zs.avail_in = static_cast<uInt>(in.size());
    do {
      zs.next_out = reinterpret_cast<Bytef*>(buffer.data());
      zs.avail_out = static_cast<uInt>(buffer.size());
      deflate(&zs, flush);
      out(std::string_view(buffer.data(), buffer.size() - zs.avail_out));
    } while (zs.avail_out == 0);
  };
  feed(kTextOpen, Z_NO_FLUSH);
  for (std::size_t left = n; left > 0;) {
    const std::size_t k = std::min(left, chunk.size());
    feed(std::string_view(chunk.data(), k), Z_NO_FLUSH);
    left -= k;
  }
  feed(kTextClose, Z_FINISH);
  deflateEnd(&zs);
}

struct Kind {
  std::string help;
  std::size_t default_n;
  std::function<void(std::size_t)> write;
};

const std::map<std::string, Kind>& kinds() {
  static const std::map<std::string, Kind> k = {
      {"random-binary",
       {"N pseudo-random bytes (xorshift, fixed seed; starts with a NUL byte)", 1 << 20,
        [](std::size_t n) {
          std::uint64_t x = 0x9E3779B97F4A7C15ull;
          std::string s(n, '\0');
          for (std::size_t i = 1; i < n; ++i) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            s[i] = static_cast<char>(x >> 56);
          }
          out(s);
        }}},
      {"pcap",
       {"a libpcap file: global header and one packet holding an HTTP response", 0,
        [](std::size_t) {
          const unsigned char header[24] = {0xd4, 0xc3, 0xb2, 0xa1, 2, 0, 4, 0, 0, 0, 0, 0,
                                            0,    0,    0,    0,    0xff, 0xff, 0, 0, 1, 0, 0, 0};
          out(std::string_view(reinterpret_cast<const char*>(header), sizeof header));
          const std::string payload = std::string(kJsonHead) + "\r\n" + std::string(kToolResult);
          unsigned char rec[16] = {};
          const auto len = static_cast<std::uint32_t>(payload.size());
          std::memcpy(rec + 8, &len, 4);
          std::memcpy(rec + 12, &len, 4);
          out(std::string_view(reinterpret_cast<const char*>(rec), sizeof rec));
          out(payload);
        }}},
      {"pcapng",
       {"a pcapng section header block", 0,
        [](std::size_t) {
          const unsigned char shb[28] = {0x0a, 0x0d, 0x0d, 0x0a, 28, 0, 0, 0, 0x4d, 0x3c, 0x2b, 0x1a, 1, 0,
                                         0,    0,    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 28, 0, 0, 0};
          out(std::string_view(reinterpret_cast<const char*>(shb), sizeof shb));
        }}},
      {"deep-json",
       {"a 200 application/json body nested N arrays deep", 100000,
        [](std::size_t n) {
          out(kJsonHead);
          out("\r\n");
          repeat("[", n);
          repeat("]", n);
        }}},
      {"deep-json-bare",
       {"a bare JSON body: N nested objects {\"a\":{\"a\":...}}", 100000,
        [](std::size_t n) {
          repeat("{\"a\":", n);
          out("1");
          repeat("}", n);
        }}},
      {"deep-json-sse",
       {"an SSE stream whose one event is N nested arrays", 100000,
        [](std::size_t n) {
          out(kSseHead);
          out("data: ");
          repeat("[", n);
          repeat("]", n);
          out("\n\n");
        }}},
      {"utf8-string",
       {"a tool result whose text holds invalid UTF-8 (FF FE, a lone C3, an overlong C0 AF)", 0,
        [](std::size_t) {
          out(kJsonHead);
          out("\r\n");
          out(kTextOpen);
          out("bad \xff\xfe and \xc3 and \xc0\xaf");
          out(kTextClose);
        }}},
      {"utf8-header",
       {"invalid UTF-8 in the reason phrase and in header values (Content-Type included)", 0,
        [](std::size_t) {
          out("HTTP/1.1 200 OK \xff\xfe\r\nContent-Type: application/json\xc3\x28\r\nX-Note: \xe2\x82\r\n\r\n");
          out(kToolResult);
        }}},
      {"utf8-sse-id",
       {"an SSE stream with invalid UTF-8 in the event id and no response (resumable detail)", 0,
        [](std::size_t) {
          out(kSseHead);
          out("id: ev-\xff\xfe-1\nretry: 1000\ndata:\n\n");
        }}},
      {"nul-bytes",
       {"NUL bytes in a header value and raw inside a JSON string", 0,
        [](std::size_t) {
          out(kJsonHead);
          out(std::string_view("X-Nul: a\0b\r\n\r\n", 14));
          out(kTextOpen);
          out(std::string_view("a\0b", 3));
          out(kTextClose);
        }}},
      {"nul-status",
       {"a NUL byte inside the reason phrase of the status line", 0,
        [](std::size_t) {
          out(std::string_view("HTTP/1.1 200 O\0K\r\n", 19));
          out("Content-Type: application/json\r\n\r\n");
          out(kToolResult);
        }}},
      {"nul-only",
       {"N NUL bytes", 4096, [](std::size_t n) { repeat(std::string_view("\0", 1), n); }}},
      {"big-header-line",
       {"one header line of N bytes, then a successful tool result", 1 << 20,
        [](std::size_t n) {
          out(kJsonHead);
          out("X-Big: ");
          filler(n);
          out("\r\n\r\n");
          out(kToolResult);
        }}},
      {"many-headers",
       {"N header fields, then a successful tool result", 100000,
        [](std::size_t n) {
          out(kJsonHead);
          for (std::size_t i = 0; i < n; ++i) out("X-Header-" + std::to_string(i) + ": value " + std::to_string(i) + "\r\n");
          out("\r\n");
          out(kToolResult);
        }}},
      {"sse-empty-events",
       {"an SSE stream of N empty events (data: with nothing) and no response", 1000000,
        [](std::size_t n) {
          out(kSseHead);
          repeat("data:\n\n", n);
        }}},
      {"sse-cr-comments-then-response",
       {"an SSE stream whose lines end in CR only: N comment lines, then the response (session 4:"
        " a search for the next LF from every line made this quadratic)",
        2000000,
        [](std::size_t n) {
          out(kSseHead);
          repeat(":\r", n);
          out("data: ");
          out(kToolResult);
          out("\r\r");
        }}},
      {"curlv-body-of-glued-notes",
       {"a curl -v 2>&1 capture whose close-delimited body is N lines of `{\"a\":1} Note: x` (session 5:"
        " each line that could end in a glued curl line parsed the whole body so far: quadratic)",
        1000000,
        [](std::size_t n) {
          out("*   Trying 127.0.0.1:8000...\n> POST /mcp HTTP/1.1\n> Host: x\n>\n< HTTP/1.1 200 OK\n"
              "< Content-Type: application/json\n<\n");
          repeat("{\"a\":1} Note: x\n", n);
        }}},
      {"sse-empty-events-then-response",
       {"N empty events, then the response", 1000000,
        [](std::size_t n) {
          out(kSseHead);
          repeat("data:\n\n", n);
          out("data: ");
          out(kToolResult);
          out("\n\n");
        }}},
      {"sse-bad-events",
       {"an SSE stream of N events whose data is not JSON", 100000,
        [](std::size_t n) {
          out(kSseHead);
          repeat("data: not json\n\n", n);
        }}},
      {"batch",
       {"a 2025-03-26 JSON batch reply of N tool results (one record each)", 100000,
        [](std::size_t n) {
          out(kJsonHead);
          out("\r\n[");
          for (std::size_t i = 0; i < n; ++i) {
            out(i ? "," : "");
            out(R"({"jsonrpc":"2.0","id":)" + std::to_string(i) +
                R"(,"result":{"content":[{"type":"text","text":"ok"}]}})");
          }
          out("]");
        }}},
      {"glued",
       {"N glued curl --next responses (202, no body)", 100000,
        [](std::size_t n) { repeat("HTTP/1.1 202 Accepted\r\nContent-Length: 0\r\n\r\n", n); }}},
      {"har",
       {"a HAR 1.2 log of N POST /mcp entries answered by a tool result", 100000,
        [](std::size_t n) {
          out(R"({"log":{"version":"1.2","creator":{"name":"hostile_gen","version":"1"},"entries":[)");
          for (std::size_t i = 0; i < n; ++i) {
            const std::string id = std::to_string(i + 1);
            out(i ? "," : "");
            out(R"({"startedDateTime":"2026-01-01T00:00:00.000Z","time":1,"request":{"method":"POST","url":"http://127.0.0.1:3001/mcp","httpVersion":"HTTP/1.1","headers":[{"name":"Content-Type","value":"application/json"}],"queryString":[],"cookies":[],"headersSize":-1,"bodySize":-1,"postData":{"mimeType":"application/json","text":"{\"jsonrpc\":\"2.0\",\"id\":)" +
                id +
                R"(,\"method\":\"tools/call\",\"params\":{\"name\":\"echo\"}}"}},"response":{"status":200,"statusText":"OK","httpVersion":"HTTP/1.1","headers":[{"name":"Content-Type","value":"application/json"}],"cookies":[],"content":{"size":-1,"mimeType":"application/json","text":"{\"jsonrpc\":\"2.0\",\"id\":)" +
                id +
                R"(,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"ok\"}]}}"},"redirectURL":"","headersSize":-1,"bodySize":-1},"cache":{},"timings":{"send":0,"wait":1,"receive":0}})");
          }
          out("]}}");
        }}},
      {"header-cut",
       {"a 200 capture that ends inside its header block", 0,
        [](std::size_t) { out("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Len"); }}},
      {"header-cut-202",
       {"a 202 capture that ends inside its header block", 0,
        [](std::size_t) { out("HTTP/1.1 202 Accepted\r\nContent-Ty"); }}},
      {"big-body",
       {"a curl -i 200 JSON tool result whose text is N bytes, on one line", std::size_t{1} << 30,
        [](std::size_t n) {
          out(kJsonHead);
          out("\r\n");
          out(kTextOpen);
          filler(n);
          out(kTextClose);
        }}},
      {"big-body-bare",
       {"a bare JSON tool result whose text is N bytes, on one line", std::size_t{1} << 30,
        [](std::size_t n) {
          out(kTextOpen);
          filler(n);
          out(kTextClose);
        }}},
      {"gzip-bomb",
       {"a 200 JSON response with Content-Encoding: gzip that inflates to N bytes", std::size_t{1} << 30,
        [](std::size_t n) {
          out(kJsonHead);
          out("Content-Encoding: gzip\r\n\r\n");
          gzip_bomb(n);
        }}},
      {"gzip-input",
       {"a whole capture gzip-compressed (inflates to N bytes of capture)", std::size_t{1} << 30,
        [](std::size_t n) {
          std::string head = std::string(kJsonHead) + "\r\n";
          out(gzip(head));  // a gzip member; the bomb member follows (RFC 1952 multi-member)
          gzip_bomb(n);
        }}},
      {"long-garbage-line",
       {"one line of N bytes that is no capture", 1 << 20, [](std::size_t n) { filler(n); }}},
  };
  return k;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || kinds().count(argv[1]) == 0) {
    std::fprintf(stderr, "usage: hostile_gen KIND [N]\nkinds:\n");
    for (const auto& [name, kind] : kinds()) {
      std::fprintf(stderr, "  %-32s %s (N default %zu)\n", name.c_str(), kind.help.c_str(), kind.default_n);
    }
    return 2;
  }
  const Kind& kind = kinds().at(argv[1]);
  const std::size_t n = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : kind.default_n;
  kind.write(n);
  std::fflush(stdout);
  return 0;
}
