// HTTP helpers: header blocks, media types, chunked transfer coding, content codings.
#pragma once

#include <cstddef>
#include <expected>
#include <optional>
#include <string>
#include <string_view>

#include "mcptriage/exchange.hpp"

namespace mcptriage::http {

/// A parsed status line: `HTTP/<1.0|1.1|2|3> <3 digits>[ <reason>]` (trailing space allowed,
/// as curl writes `HTTP/2 200 `).
struct StatusLine {
  std::string version;  ///< "HTTP/1.1", "HTTP/2", ...
  int status = 0;       ///< 100..999
  std::string reason;   ///< trimmed; may be empty
};

/// Parses one status line (without its line end). nullopt when it is not one.
std::optional<StatusLine> parse_status_line(std::string_view line);

/// Lower-cased media type without parameters: "Application/JSON; charset=utf-8" -> "application/json".
/// RFC 9110 §8.3.1.
std::string media_type(std::string_view content_type);

/// media_type(content_type) == `type` without building the string; `type` in lower case
/// ("text/event-stream"). RFC 9110 §8.3.1 (media types are case-insensitive).
bool media_type_is(std::string_view content_type, std::string_view type);

/// Removes chunked transfer coding (RFC 9112 §7.1). Returns nullopt when `body` is not
/// valid chunk framing from its first byte (so it was already de-chunked by the capture tool).
/// `complete` is set false when the framing is valid but ends before the last (0) chunk.
struct Dechunked {
  std::string body;
  bool complete = true;
  std::size_t consumed = 0;  ///< bytes of the input used, trailers and final CRLF included
};
std::optional<Dechunked> dechunk(std::string_view body);

/// True when `bytes` starts with the gzip magic `1f 8b`.
bool looks_gzip(std::string_view bytes);

/// Inflates a gzip member (zlib, RFC 1952). Error text on a corrupt or cut stream.
/// `max_output` bounds the inflated size (bytes).
std::expected<std::string, std::string> gunzip(std::string_view bytes, std::size_t max_output);

/// A decoded content coding (src/http/coding.cpp). Neither an output longer than `max_output`
/// (a body bounded by `--max-body`, a decompression bomb) nor an input that ends inside its
/// stream (a capture cut short) is an error; the error side of the decoders means the bytes are
/// not in that coding at all (the decoder's reason: "corrupt gzip data: incorrect header check").
struct Inflated {
  std::string bytes;
  bool cut = false;          ///< the stream holds more than `max_output` bytes: decoding stopped there
  bool input_ended = false;  ///< the input ends inside the stream: `bytes` is what it decoded to so far
};
/// Like gunzip, but bounded (`cut`) and cut short (`input_ended`) streams give their bytes.
std::expected<Inflated, std::string> gunzip_prefix(std::string_view bytes, std::size_t max_output);

/// "truncated gzip data: stream ends after N bytes": what to say of an input of `input_bytes`
/// bytes that ends inside its `coding` stream (Inflated::input_ended).
std::string cut_short_text(std::string_view coding, std::size_t input_bytes);

/// Like gunzip_prefix, for the HTTP `deflate` content coding: a zlib stream (RFC 1950) holding
/// deflate data (RFC 1951) per RFC 9110 §8.4.1.2, or the raw deflate data some servers send
/// instead (accepted, as browsers do). Output bounded by `max_output` bytes (then `cut`).
std::expected<Inflated, std::string> inflate_deflate_prefix(std::string_view bytes, std::size_t max_output);

/// Like gunzip_prefix, for the `br` content coding: a Brotli stream (RFC 7932; RFC 9110 §8.4.1
/// registry). Bytes after the end of the stream are not decoded (not body).
std::expected<Inflated, std::string> decode_brotli_prefix(std::string_view bytes, std::size_t max_output);

/// Like gunzip_prefix, for the `zstd` content coding: Zstandard frames one after another (RFC 8878
/// §3, its §7.2 registers the coding); skippable frames are passed over, bytes after the last
/// frame are not decoded. Windows up to zstd's default limit (2^27 bytes) are accepted, so the
/// 8 MB that RFC 9659 asks encoders to keep to always is.
std::expected<Inflated, std::string> decode_zstd_prefix(std::string_view bytes, std::size_t max_output);

/// A CDN or WAF challenge in place of the origin's reply (docs/classification.md "CDN and WAF
/// challenges"): the marker that shows it, as "Cloudflare: cf-mitigated: challenge"; nullopt when
/// none. A header marker decides at any status: `cf-mitigated: challenge` (Cloudflare, "Detect a
/// Challenge Page response"), `x-amzn-waf-action: challenge` or `captcha` (AWS WAF, "CAPTCHA and
/// Challenge action behavior": sent with 202 and 405), `x-vercel-mitigated: challenge` (Vercel).
/// A body marker counts only on a 403, 429 or 503 whose Content-Type is text/html: Cloudflare's
/// challenge platform (`/cdn-cgi/challenge-platform/`, `_cf_chl_opt`, `__cf_chl_`, `cf-chl-`) or
/// its page title `<title>Just a moment...</title>`, in the first 64 KiB of `body`, ASCII
/// case-insensitively. Header values are compared case-insensitively, without OWS.
std::optional<std::string> challenge_marker(int status, const Headers& headers, std::string_view body);

/// Parses an HTTP-date (RFC 9110 §5.6.7: IMF-fixdate, or the obsolete RFC 850 and asctime
/// forms), e.g. a `Date` header value. Returns Unix seconds; nullopt when invalid.
/// `now_unix_seconds` only settles the century of an RFC 850 two-digit year.
std::optional<long long> http_date_unix_seconds(std::string_view value, long long now_unix_seconds);

/// Parses a `Retry-After` value (RFC 9110 §10.2.3): delta-seconds or an HTTP-date.
/// Returns milliseconds from `now_unix_seconds` (0 when the date is past); nullopt when invalid.
std::optional<long long> retry_after_ms(std::string_view value, long long now_unix_seconds);

}  // namespace mcptriage::http
