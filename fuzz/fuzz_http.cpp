// Fuzz target: the HTTP helpers (status line, media type, chunked coding, gzip, Retry-After)
// and the HTTP text head reader called directly (without read_capture's normalisation).
// Checks: bounded outputs, and round trips: chunk-encode then dechunk, gzip then gunzip.
#include <zlib.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "capture/readers.hpp"
#include "fuzz_checks.hpp"
#include "mcptriage/http.hpp"

namespace {

using fuzzcheck::fail;
namespace http = mcptriage::http;

std::string gzip(std::string_view in) {
  z_stream zs{};
  if (deflateInit2(&zs, 1, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) != Z_OK) fail("deflateInit2");
  std::string out(deflateBound(&zs, static_cast<uLong>(in.size())), '\0');
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  zs.avail_in = static_cast<uInt>(in.size());
  zs.next_out = reinterpret_cast<Bytef*>(out.data());
  zs.avail_out = static_cast<uInt>(out.size());
  if (deflate(&zs, Z_FINISH) != Z_STREAM_END) fail("deflate");
  out.resize(zs.total_out);
  deflateEnd(&zs);
  return out;
}

/// Chunked framing of `in`, chunk sizes taken from its own bytes (1..64).
std::string chunked(std::string_view in) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  std::size_t pos = 0;
  while (pos < in.size()) {
    const std::size_t n = std::min<std::size_t>(in.size() - pos, 1 + (static_cast<unsigned char>(in[pos]) & 63));
    std::string size;
    for (std::size_t v = n; v > 0; v /= 16) size.insert(size.begin(), kHex[v % 16]);
    out += size + "\r\n";
    out.append(in.substr(pos, n));
    out += "\r\n";
    pos += n;
  }
  out += "0\r\n\r\n";
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  const std::string_view first_line = bytes.substr(0, bytes.find('\n'));

  if (auto st = http::parse_status_line(first_line)) {
    if (st->status < 100 || st->status > 999) fail("status out of range", first_line);
    if (!st->version.starts_with("HTTP/")) fail("version without HTTP/", first_line);
  }
  (void)http::media_type(first_line);
  if (auto ms = http::retry_after_ms(first_line, 1796083200)) {
    if (*ms < 0) fail("negative Retry-After", first_line);
  }

  if (auto d = http::dechunk(bytes)) {
    if (d->consumed > bytes.size()) fail("dechunk consumed more than its input");
    if (d->body.size() > bytes.size()) fail("dechunk grew the body");
  }
  if (bytes.size() <= 4096) {
    const auto d = http::dechunk(chunked(bytes));
    if (!bytes.empty()) {
      if (!d || !d->complete || d->body != bytes) fail("chunked round trip failed", bytes);
    }
  }

  constexpr std::size_t kMaxOut = 1 << 20;
  if (auto g = http::gunzip(bytes, kMaxOut)) {
    if (g->size() > kMaxOut) fail("gunzip exceeded max_output");
  } else if (g.error().empty()) {
    fail("gunzip error without a message");
  }
  if (bytes.size() <= 16384) {
    const auto g = http::gunzip(gzip(bytes), kMaxOut);
    if (!g || *g != bytes) fail("gzip round trip failed", g ? std::string_view(*g) : std::string_view(g.error()));
  }

  if (mcptriage::capture::sniff_http_text(bytes)) {
    auto r = mcptriage::capture::read_http_text(bytes, "fuzz", mcptriage::CaptureOptions{});
    if (r && r->empty()) fail("read_http_text succeeded with no exchange");
  }
  return 0;
}
