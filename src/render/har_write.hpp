// The one HAR 1.2 writer (http://www.softwareishard.com/blog/har-12-spec/): the entries of the
// proxy's `.har` recordings (src/proxy/recording.cpp) and of `--export-har` (src/report/har_export.cpp,
// which `mcptriage bundle` puts in its archive). Both fill a HarEntry and call append_har_entry;
// what the written file holds is read back by the HAR reader (src/capture/har.cpp).
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "mcptriage/exchange.hpp"

namespace mcptriage {

/// mcptriage's version ("0.1.0", CMake's PROJECT_VERSION): `--version`, a HAR's `creator`.
std::string_view tool_version();

/// ISO 8601 UTC with milliseconds, `2026-12-04T16:58:48.123Z` (HAR 1.2 `startedDateTime`).
std::string har_iso_time(std::chrono::system_clock::time_point t);
/// The same, of nanoseconds since the Unix epoch.
std::string har_iso_time_ns(std::int64_t unix_ns);

/// A body as a HAR holds it (`postData.text`, `content.text`): the text, or its base64 when the
/// bytes are not UTF-8 (`encoding: "base64"`). Made by the caller, redacted already.
struct HarText {
  std::string text;
  bool base64 = false;
};

/// One HAR 1.2 entry, as its writer gives it. Header values and URLs are redacted by
/// append_har_entry (redact_header, redact_url); bodies are written as given.
struct HarEntry {
  std::string started;                ///< `startedDateTime` (har_iso_time)
  /// `time`, the whole exchange, and the `timings` (HAR 1.2), in whole microseconds (written as
  /// milliseconds with three decimals, so that the parts add up to `time` exactly); -1 for a
  /// part not measured (`blocked`, `dns`, `connect`, `ssl` may be; `send`, `wait`, `receive` not).
  long long time_us = 0;
  long long blocked_us = -1, dns_us = -1, connect_us = -1, send_us = 0, wait_us = 0, receive_us = 0, ssl_us = -1;
  std::string method;                 ///< `request.method`
  std::string url;                    ///< `request.url`, absolute
  std::string request_http_version = "HTTP/1.1";
  const Headers* request_headers = nullptr;
  std::optional<HarText> post;        ///< `request.postData` (its mimeType from Content-Type)
  long long request_body_size = 0;    ///< `request.bodySize`, bytes (-1: unknown)
  int status = 0;                     ///< `response.status` (0: no response)
  std::string status_text;
  std::string response_http_version = "HTTP/1.1";
  const Headers* response_headers = nullptr;
  std::optional<HarText> content;     ///< `content.text`; none: the body was not kept
  std::string content_comment;        ///< `content.comment` when there is no text ("" for none)
  /// `content.mimeType` when the response has no Content-Type header: the body's media type as its
  /// reader sniffed it (a bare event-stream body: `text/event-stream`); "" for none.
  std::string content_mime;
  std::size_t content_size = 0;       ///< `content.size`: the body's length once decoded, bytes
  long long response_body_size = 0;   ///< `response.bodySize`: bytes on the wire (-1: unknown)
  /// Members of the entry's `_mcptriage` object (HAR 1.2 custom fields), as JSON text without the
  /// braces; "" writes no `_mcptriage`.
  std::string custom;
};

/// Appends `e` as one JSON object (no newline).
void append_har_entry(std::string& out, const HarEntry& e);

/// The start of a HAR 1.2 document up to the entries array's `[`, with a newline:
/// `{"log":{"version":"1.2","creator":{"name":CREATOR,"version":tool_version()},"pages":[],"entries":[`.
std::string har_log_head(std::string_view creator);
/// The end of the document: `]` (after a newline when some entry was written), the log's
/// `comment` when not empty, `}}` and a newline.
std::string har_log_tail(bool any_entry, std::string_view comment = {});

}  // namespace mcptriage
