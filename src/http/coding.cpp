// HTTP content codings (RFC 9110 §8.4.1): gzip (RFC 1952) and deflate (RFC 1950/1951) with zlib,
// br (RFC 7932) with Debian's brotli 1.0.9, zstd (RFC 8878) with zstd 1.5.4; each bounded in
// output (`--max-body`, decompression bombs).
#include <brotli/decode.h>
#include <zlib.h>
#include <zstd.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>

#include "mcptriage/http.hpp"

namespace mcptriage::http {

std::string cut_short_text(std::string_view coding, std::size_t input_bytes) {
  return "truncated " + std::string(coding) + " data: stream ends after " + std::to_string(input_bytes) + " bytes";
}

bool looks_gzip(std::string_view bytes) {
  return bytes.size() >= 2 && static_cast<unsigned char>(bytes[0]) == 0x1f &&
         static_cast<unsigned char>(bytes[1]) == 0x8b;
}

std::expected<std::string, std::string> gunzip(std::string_view bytes, std::size_t max_output) {
  auto inflated = gunzip_prefix(bytes, max_output);
  if (!inflated) return std::unexpected(std::move(inflated.error()));
  if (inflated->cut) return std::unexpected("gzip output exceeds " + std::to_string(max_output) + " bytes");
  if (inflated->input_ended) return std::unexpected(cut_short_text("gzip", bytes.size()));
  return std::move(inflated->bytes);
}

namespace {

/// Inflates `bytes` with zlib, framed as `window_bits` says (inflateInit2: 16 + MAX_WBITS gzip,
/// RFC 1952, member after member; MAX_WBITS zlib, RFC 1950; -MAX_WBITS raw deflate, RFC 1951).
/// Output bounded by `max_output` bytes (then `cut`); `name` names the format in error texts.
std::expected<Inflated, std::string> inflate_prefix(std::string_view bytes, std::size_t max_output, int window_bits,
                                                    const std::string& name) {
  const bool gzip = window_bits > MAX_WBITS;
  z_stream zs{};
  if (inflateInit2(&zs, window_bits) != Z_OK) return std::unexpected("zlib init failed");
  struct Guard {
    z_stream* z;
    ~Guard() { inflateEnd(z); }
  } guard{&zs};

  std::string out;
  std::array<unsigned char, 64 * 1024> buffer{};
  std::size_t in_pos = 0;
  constexpr std::size_t kMaxIn = std::numeric_limits<uInt>::max();
  while (true) {
    if (zs.avail_in == 0 && in_pos < bytes.size()) {
      const std::size_t n = std::min(kMaxIn, bytes.size() - in_pos);
      // zlib's API is not const-correct; it never writes through next_in.
      zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data() + in_pos));
      zs.avail_in = static_cast<uInt>(n);
      in_pos += n;
    }
    zs.next_out = buffer.data();
    zs.avail_out = static_cast<uInt>(buffer.size());
    const int rc = inflate(&zs, Z_NO_FLUSH);
    const std::size_t produced = buffer.size() - zs.avail_out;
    if (produced > max_output - std::min(max_output, out.size())) {
      out.append(reinterpret_cast<const char*>(buffer.data()), max_output - out.size());
      return Inflated{std::move(out), true};
    }
    out.append(reinterpret_cast<const char*>(buffer.data()), produced);
    if (rc == Z_STREAM_END) {
      // RFC 1952 §2.2: a file may hold several members; continue while another one follows.
      const std::size_t used = in_pos - zs.avail_in;
      const std::string_view rest = bytes.substr(used);
      if (!gzip || !looks_gzip(rest)) break;
      if (inflateReset(&zs) != Z_OK) return std::unexpected("zlib reset failed");
      continue;
    }
    if (rc == Z_DATA_ERROR) {
      return std::unexpected("corrupt " + name + " data: " +
                             (zs.msg != nullptr ? zs.msg : "invalid stream"));
    }
    if (rc == Z_MEM_ERROR) return std::unexpected("zlib out of memory");
    if (rc == Z_NEED_DICT || rc == Z_STREAM_ERROR) {
      return std::unexpected("corrupt " + name + " data");
    }
    const bool input_done = zs.avail_in == 0 && in_pos >= bytes.size();
    if (input_done && zs.avail_out != 0) return Inflated{std::move(out), false, true};  // ends inside the stream
    if (rc == Z_BUF_ERROR && zs.avail_in != 0 && zs.avail_out != 0) {
      return std::unexpected("corrupt " + name + " data: no progress");
    }
  }
  return Inflated{std::move(out), false};
}

/// True when `bytes` start with a zlib header (RFC 1950 §2.2: CM 8 deflate, CINFO at most 7,
/// CMF·256 + FLG a multiple of 31).
bool looks_zlib(std::string_view bytes) {
  if (bytes.size() < 2) return false;
  const auto cmf = static_cast<unsigned char>(bytes[0]);
  const auto flg = static_cast<unsigned char>(bytes[1]);
  return (cmf & 0x0F) == 8 && (cmf >> 4) <= 7 && ((cmf << 8) | flg) % 31 == 0;
}

}  // namespace

std::expected<Inflated, std::string> gunzip_prefix(std::string_view bytes, std::size_t max_output) {
  return inflate_prefix(bytes, max_output, 16 + MAX_WBITS, "gzip");
}

std::expected<Inflated, std::string> inflate_deflate_prefix(std::string_view bytes, std::size_t max_output) {
  if (looks_zlib(bytes)) {
    auto wrapped = inflate_prefix(bytes, max_output, MAX_WBITS, "deflate");
    if (wrapped) return wrapped;  // complete, cut at the bound, or ending inside the zlib stream
    if (auto raw = inflate_prefix(bytes, max_output, -MAX_WBITS, "deflate"); raw && !raw->input_ended) return raw;
    return wrapped;  // zlib's reason: the header said zlib
  }
  return inflate_prefix(bytes, max_output, -MAX_WBITS, "deflate");
}

namespace {

constexpr std::size_t kChunk = 64 * 1024;  ///< output produced per decoder call

/// Appends `produced` bytes of `chunk` to `out` unless that passes `max_output`; then fills `out`
/// up to it and returns true (the output is cut there).
bool append_bounded(std::string& out, const std::uint8_t* chunk, std::size_t produced, std::size_t max_output) {
  if (produced > max_output - std::min(max_output, out.size())) {
    out.append(reinterpret_cast<const char*>(chunk), max_output - out.size());
    return true;
  }
  out.append(reinterpret_cast<const char*>(chunk), produced);
  return false;
}

/// True when `bytes` starts a zstd frame or a skippable frame (RFC 8878 §3.1.1, §3.1.2).
bool looks_zstd_frame(std::string_view bytes) {
  if (bytes.size() < 4) return false;
  const auto b = [&](std::size_t i) { return static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[i])); };
  const std::uint32_t magic = b(0) | (b(1) << 8) | (b(2) << 16) | (b(3) << 24);
  return magic == 0xFD2FB528u || (magic & 0xFFFFFFF0u) == 0x184D2A50u;
}

}  // namespace

std::expected<Inflated, std::string> decode_brotli_prefix(std::string_view bytes, std::size_t max_output) {
  BrotliDecoderState* state = BrotliDecoderCreateInstance(nullptr, nullptr, nullptr);
  if (state == nullptr) return std::unexpected("brotli decoder init failed");
  struct Guard {
    BrotliDecoderState* s;
    ~Guard() { BrotliDecoderDestroyInstance(s); }
  } guard{state};
  std::size_t avail_in = bytes.size();
  const auto* next_in = reinterpret_cast<const std::uint8_t*>(bytes.data());
  std::string out;
  std::array<std::uint8_t, kChunk> chunk{};
  while (true) {
    std::size_t avail_out = chunk.size();
    std::uint8_t* next_out = chunk.data();
    const BrotliDecoderResult rc =
        BrotliDecoderDecompressStream(state, &avail_in, &next_in, &avail_out, &next_out, nullptr);
    if (append_bounded(out, chunk.data(), chunk.size() - avail_out, max_output)) return Inflated{std::move(out), true};
    switch (rc) {
      case BROTLI_DECODER_RESULT_SUCCESS: return Inflated{std::move(out), false};  // bytes after the stream: not body
      case BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT: continue;
      case BROTLI_DECODER_RESULT_NEEDS_MORE_INPUT: return Inflated{std::move(out), false, true};  // all input read
      case BROTLI_DECODER_RESULT_ERROR:
      default:
        return std::unexpected(std::string("corrupt br data: ") +
                               BrotliDecoderErrorString(BrotliDecoderGetErrorCode(state)));
    }
  }
}

std::expected<Inflated, std::string> decode_zstd_prefix(std::string_view bytes, std::size_t max_output) {
  ZSTD_DCtx* dctx = ZSTD_createDCtx();
  if (dctx == nullptr) return std::unexpected("zstd decoder init failed");
  struct Guard {
    ZSTD_DCtx* d;
    ~Guard() { ZSTD_freeDCtx(d); }
  } guard{dctx};
  // RFC 9659 §3: a zstd content coding uses a window of at most 8 MB, and a decoder may refuse a
  // larger one. Refused here: a hostile frame asking for the library's default 128 MB window made
  // one decode allocate and free that much (a libFuzzer timeout under ASan, fuzz_read_capture).
  ZSTD_DCtx_setParameter(dctx, ZSTD_d_windowLogMax, 23);
  if (!looks_zstd_frame(bytes)) {
    return std::unexpected(bytes.size() < 4 ? "truncated zstd data: no frame header"
                                            : "corrupt zstd data: no zstd frame magic (RFC 8878 §3.1.1)");
  }
  ZSTD_inBuffer in{bytes.data(), bytes.size(), 0};
  std::string out;
  std::array<std::uint8_t, kChunk> chunk{};
  while (true) {
    ZSTD_outBuffer o{chunk.data(), chunk.size(), 0};
    const std::size_t rc = ZSTD_decompressStream(dctx, &o, &in);
    if (ZSTD_isError(rc)) return std::unexpected(std::string("corrupt zstd data: ") + ZSTD_getErrorName(rc));
    if (append_bounded(out, chunk.data(), o.pos, max_output)) return Inflated{std::move(out), true};
    if (rc == 0) {
      // A frame ended. Frames may follow one another (RFC 8878 §3); other bytes after it are not body.
      if (!looks_zstd_frame(bytes.substr(in.pos))) return Inflated{std::move(out), false};
      continue;
    }
    if (in.pos == in.size && o.pos < o.size) return Inflated{std::move(out), false, true};  // ends inside a frame
  }
}

}  // namespace mcptriage::http
