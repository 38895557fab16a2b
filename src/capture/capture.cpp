// Capture format detection: normalise the input, reject known-unsupported formats, dispatch.
#include "mcptriage/capture.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstddef>
#include <exception>
#include <functional>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

#include "capture/body.hpp"
#include "capture/jsonl_reader.hpp"
#include "capture/legs.hpp"
#include "capture/readers.hpp"
#include "http/tokens.hpp"
#include "mcptriage/jsonrpc.hpp"
#include "mcptriage/http.hpp"
#include "mcptriage/redact.hpp"

namespace mcptriage {

namespace {

using capture::sniff_bare_json;
using capture::sniff_bare_sse;
using capture::sniff_http_text;
using ReadFn = std::expected<std::vector<Exchange>, CaptureError> (*)(std::string_view,
                                                                     std::string_view,
                                                                     const CaptureOptions&);

using ReadBatchesFn = std::expected<std::vector<Exchange>, CaptureError> (*)(std::string_view, std::string_view,
                                                                             const CaptureOptions&,
                                                                             const ExchangeBatches&);

/// One supported capture format: a cheap test on the normalised input, and its reader; a
/// reader that can hand its exchanges over in batches has a second entry point for it.
struct Format {
  std::string_view id;
  bool (*sniff)(std::string_view text);
  ReadFn read;
  ReadBatchesFn read_batches = nullptr;
};

// The first format whose sniff accepts the input reads it, so more specific formats go first:
// HAR, JSON Lines and curl -v/trace readers belong above the bare-body fallbacks.
constexpr std::array kFormats = {
    Format{"http-text", sniff_http_text, capture::read_http_text},
    Format{"har", capture::sniff_har, capture::read_har, capture::read_har_batches},
    Format{"json-lines", capture::sniff_json_lines, capture::read_json_lines},
    Format{"curl-v", capture::sniff_curl_verbose, capture::read_curl_verbose},
    Format{"access-log", capture::sniff_access_log, capture::read_access_log},
    Format{"bare-json", sniff_bare_json, capture::read_bare_json},
    Format{"bare-sse", sniff_bare_sse, capture::read_bare_sse},
};

/// The format that reads `text` (normalised): the first whose sniff accepts it; nullptr for none.
const Format* format_of(std::string_view text) {
  for (const Format& format : kFormats) {
    if (format.sniff(text)) return &format;
  }
  return nullptr;
}

constexpr std::size_t kAnsiProbeLimit = 64 * 1024;        // where terminal escapes are looked for

using http::is_space;

bool starts_with_bytes(std::string_view s, std::string_view magic) {
  return s.substr(0, magic.size()) == magic;
}

/// Length of the ANSI escape sequence at `s[i]` (which is ESC), or 0 when none is there.
/// CSI: ESC [ parameter bytes 0x30-0x3F, intermediate bytes 0x20-0x2F, final byte
/// 0x40-0x7E (ECMA-48 §5.4); also the 3-byte charset selections ESC ( B and ESC ) 0.
std::size_t ansi_length(std::string_view s, std::size_t i) {
  if (i + 1 >= s.size()) return 0;
  const char kind = s[i + 1];
  if (kind == '(' || kind == ')') return i + 2 < s.size() ? 3 : 0;
  if (kind != '[') return 0;
  std::size_t j = i + 2;
  while (j < s.size() && s[j] >= 0x30 && s[j] <= 0x3f) ++j;
  while (j < s.size() && s[j] >= 0x20 && s[j] <= 0x2f) ++j;
  if (j < s.size() && s[j] >= 0x40 && s[j] <= 0x7e) return j + 1 - i;
  return 0;
}

/// True when the head of the input (its header blocks, at most the first 64 KiB) holds an
/// ANSI escape: a terminal recording. Bodies are not probed, so that a gzip or binary body
/// that happens to contain ESC [ is left intact.
bool has_ansi_in_head(std::string_view s) {
  // A bare JSON body has no head: an ESC inside it is the body's own (invalid JSON), never a
  // terminal's bold header names, so it must reach the JSON parser untouched.
  if (!s.empty() && (s.front() == '{' || s.front() == '[')) return false;
  const std::size_t limit = std::min(s.size(), kAnsiProbeLimit);
  std::size_t line_start = 0;
  for (std::size_t i = 0; i < limit; ++i) {
    const char c = s[i];
    if (c == '\x1b' && ansi_length(s, i) != 0) return true;
    if (c != '\n') continue;
    const bool blank =
        s.substr(line_start, i - line_start).find_first_not_of('\r') == std::string_view::npos;
    // curl -v: `< ` (with its CR) ends a response header block; what follows is curl's own
    // lines and the body, whose bytes (gzip, deflate) may look like escapes (trial 6).
    const std::string_view line = s.substr(line_start, i - line_start);
    const bool curl_v_end =
        !line.empty() && line.front() == '<' &&
        line.substr(1).find_first_not_of(" \r") == std::string_view::npos;
    line_start = i + 1;
    if (curl_v_end) return false;
    // An empty line ends a header block; keep probing only when another block follows
    // (curl -i: "HTTP/1.1 100 Continue" has no field names to print in bold).
    if (blank && s.substr(line_start, 5) != "HTTP/" && s.substr(line_start, 1) != "\x1b") {
      return false;
    }
  }
  return false;
}

std::string strip_ansi(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  std::size_t i = 0;
  while (i < s.size()) {
    const std::size_t esc = s.find('\x1b', i);
    if (esc == std::string_view::npos) {
      out.append(s.substr(i));
      break;
    }
    out.append(s.substr(i, esc - i));
    const std::size_t n = ansi_length(s, esc);
    if (n == 0) {
      out.push_back('\x1b');
      i = esc + 1;
    } else {
      i = esc + n;
    }
  }
  return out;
}

/// First `max` bytes of `s` with non-printable bytes escaped (\n, \r, \t, \xNN).
std::string printable_prefix(std::string_view s, std::size_t max) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (std::size_t i = 0; i < s.size() && i < max; ++i) {
    const auto u = static_cast<unsigned char>(s[i]);
    switch (s[i]) {
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '\\': out += "\\\\"; break;
      default:
        if (u >= 0x20 && u < 0x7f) {
          out.push_back(s[i]);
        } else {
          out += "\\x";
          out.push_back(kHex[u >> 4]);
          out.push_back(kHex[u & 0x0f]);
        }
    }
  }
  return out;
}

/// mitmproxy `-w` flow files are tnetstrings: `<digits>:4:type;...`.
bool looks_mitmproxy_flow(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size() && i < 20 && s[i] >= '0' && s[i] <= '9') ++i;
  return i > 0 && s.substr(i, 8) == ":4:type;";
}

/// The exchanges of `bytes`; with `batches`, a reader that can hands them over there instead
/// (each wrapper on the way adds what read_any adds to the returned ones) and returns none.
std::expected<std::vector<Exchange>, CaptureError> read_any(std::string_view bytes,
                                                            std::string_view name,
                                                            const CaptureOptions& options,
                                                            bool inside_gzip,
                                                            const ExchangeBatches* batches = nullptr) {
  if (bytes.empty()) return std::unexpected(CaptureError{"empty input"});
  // pcap (either byte order) and pcapng section header block magic.
  if (starts_with_bytes(bytes, "\xd4\xc3\xb2\xa1") ||
      starts_with_bytes(bytes, "\xa1\xb2\xc3\xd4") ||
      starts_with_bytes(bytes, "\x0a\x0d\x0d\x0a")) {
    return std::unexpected(
        CaptureError{"pcap capture: unsupported, export the HTTP stream as text or HAR"});
  }
  if (http::looks_gzip(bytes)) {
    if (inside_gzip) {
      return std::unexpected(CaptureError{"gzip input inside gzip input: unsupported"});
    }
    auto inflated = http::gunzip_prefix(bytes, options.max_input);
    if (!inflated) {
      return std::unexpected(CaptureError{"gzip input: " + inflated.error()});
    }
    if (inflated->input_ended) {
      return std::unexpected(CaptureError{"gzip input: " + http::cut_short_text("gzip", bytes.size())});
    }
    if (inflated->cut) {
      return std::unexpected(CaptureError{"gzip input inflates to more than --max-input (" +
                                          std::to_string(options.max_input) + " bytes)"});
    }
    CaptureOptions inner = options;
    inner.padded = false;  // the inflated copy has no room promised after it
    auto warn = [](std::vector<Exchange>& exchanges) {
      for (Exchange& ex : exchanges) ex.warnings.push_back("input was gzip-compressed");
    };
    ExchangeBatches warned;
    if (batches != nullptr) {
      warned = [&](std::vector<Exchange>& batch, bool from_start) {
        warn(batch);
        (*batches)(batch, from_start);
      };
    }
    auto result = read_any(inflated->bytes, name, inner, true, batches != nullptr ? &warned : nullptr);
    if (result) warn(*result);
    return result;
  }

  std::string_view text = bytes;
  if (starts_with_bytes(text, "\xef\xbb\xbf")) text.remove_prefix(3);
  const std::string_view lines = text;  // a JSON Lines log is read from its first line on (line numbers)
  while (!text.empty() && is_space(text.front())) text.remove_prefix(1);
  std::string stripped;
  const bool ansi = has_ansi_in_head(text);
  if (ansi) {
    stripped = strip_ansi(text);
    text = stripped;
  }
  while (!text.empty() && is_space(text.front())) text.remove_prefix(1);
  if (text.empty()) return std::unexpected(CaptureError{"empty input"});

  if (looks_mitmproxy_flow(text)) {
    return std::unexpected(CaptureError{
        "mitmproxy flow file: unsupported, export it as HAR (mitmdump --set hardump=FILE)"});
  }
  CaptureOptions as_read = options;
  as_read.padded = options.padded && !ansi;  // `stripped` has no room promised after it
  auto warn = [ansi](std::vector<Exchange>& exchanges) {
    if (!ansi) return;
    for (Exchange& ex : exchanges) ex.warnings.push_back("ANSI escape sequences removed (terminal recording)");
  };
  if (const Format* found = format_of(text)) {
    const Format& format = *found;
    const std::string_view input = format.id == "json-lines" && !ansi ? lines : text;
    std::expected<std::vector<Exchange>, CaptureError> result;
    if (batches != nullptr && format.read_batches != nullptr) {
      const ExchangeBatches warned = [&](std::vector<Exchange>& batch, bool from_start) {
        warn(batch);
        (*batches)(batch, from_start);
      };
      result = format.read_batches(input, name, as_read, warned);
    } else {
      result = format.read(input, name, as_read);
    }
    if (result) warn(*result);
    return result;
  }
  // Redacted before it is made printable: escaping first turned a tab after `Bearer` into the
  // two characters `\t`, which no rule reads as white space (new-user trial, session 4).
  const std::string shown = redact(text.substr(0, 40));
  return std::unexpected(CaptureError{"unrecognised input: " + printable_prefix(shown, shown.size())});
}

/// `--max-body`, for every reader (capture/body.hpp limit_body).
void limit_bodies(std::vector<Exchange>& exchanges, std::size_t max_body) {
  for (Exchange& ex : exchanges) capture::limit_body(ex.response, ex.warnings, max_body);
}

/// The request bodies the readers kept as text, read as JSON-RPC requests (Request::info), so
/// that the classifier and the session analysis read the one RequestInfo and no body twice.
void read_requests(std::vector<Exchange>& exchanges) {
  for (Exchange& ex : exchanges) {
    if (ex.skipped || !ex.request || ex.request->info || !ex.request->body || ex.request->body->empty()) continue;
    ex.request->info = jsonrpc::read_request(*ex.request->body);
  }
}

}  // namespace

namespace capture {

std::string source_name(std::string_view name, std::size_t index) {
  std::string out(name);
  out += '#';
  out += std::to_string(index);
  return out;
}

}  // namespace capture

std::expected<std::vector<Exchange>, CaptureError> read_capture(std::string_view bytes,
                                                                std::string_view name,
                                                                const CaptureOptions& options) {
  try {
    auto result = read_any(bytes, name, options, false);
    if (result) {
      limit_bodies(*result, options.max_body);
      read_requests(*result);
      if (options.auth) capture::mark_oauth_legs(*result);
    }
    return result;
  } catch (const std::bad_alloc&) {
    return std::unexpected(CaptureError{"out of memory while reading the capture"});
  } catch (const std::exception& e) {
    return std::unexpected(CaptureError{std::string("internal error while reading the capture: ") +
                                        e.what()});
  }
}

std::expected<std::size_t, CaptureError> read_capture_batches(std::string_view bytes, std::string_view name,
                                                              const CaptureOptions& options,
                                                              const ExchangeBatches& batches) {
  std::size_t count = 0;
  const ExchangeBatches finished = [&](std::vector<Exchange>& batch, bool from_start) {
    limit_bodies(batch, options.max_body);
    read_requests(batch);
    if (options.auth) capture::mark_oauth_legs(batch);
    if (from_start) count = 0;
    count += batch.size();
    batches(batch, from_start);
  };
  try {
    auto rest = read_any(bytes, name, options, false, &finished);
    if (!rest) return std::unexpected(std::move(rest.error()));
    if (!rest->empty()) finished(*rest, false);  // a reader without batches: everything at once
    return count;
  } catch (const std::bad_alloc&) {
    return std::unexpected(CaptureError{"out of memory while reading the capture"});
  } catch (const std::exception& e) {
    return std::unexpected(CaptureError{std::string("internal error while reading the capture: ") +
                                        e.what()});
  }
}

std::optional<std::expected<std::size_t, CaptureError>> read_checked_har_batches(std::string_view bytes,
                                                                                std::string_view name,
                                                                                const CaptureOptions& options,
                                                                                const ExchangeBatches& batches) {
  // The text read_any would give the HAR reader, when it would give it to the HAR reader.
  if (http::looks_gzip(bytes)) return std::nullopt;
  std::string_view text = bytes;
  if (starts_with_bytes(text, "\xef\xbb\xbf")) text.remove_prefix(3);
  while (!text.empty() && is_space(text.front())) text.remove_prefix(1);
  if (text.empty() || has_ansi_in_head(text) || looks_mitmproxy_flow(text)) return std::nullopt;
  const Format* format = format_of(text);
  if (format == nullptr || format->id != "har") return std::nullopt;
  try {
    if (!capture::har_entries_readable(text, options)) return std::nullopt;
  } catch (const std::bad_alloc&) {
    return std::nullopt;  // read_capture_batches says so
  }
  // What the receiver throws (the output closed, the run stopped) is its own, not a reading
  // error: carried past read_capture_batches's handlers in a type that is no std::exception.
  struct FromTheReceiver {
    std::exception_ptr error;
  };
  const ExchangeBatches final_batches = [&](std::vector<Exchange>& batch, bool from_start) {
    if (from_start) throw std::logic_error("a HAR file checked whole was read again from its start");
    try {
      batches(batch, false);
    } catch (...) {
      throw FromTheReceiver{std::current_exception()};
    }
  };
  try {
    return read_capture_batches(bytes, name, options, final_batches);
  } catch (const FromTheReceiver& thrown) {
    std::rethrow_exception(thrown.error);
  }
}

bool is_json_lines(std::string_view head) {
  if (head.empty() || http::looks_gzip(head)) return false;
  std::string_view text = head;
  if (starts_with_bytes(text, "\xef\xbb\xbf")) text.remove_prefix(3);
  while (!text.empty() && is_space(text.front())) text.remove_prefix(1);
  if (text.empty() || has_ansi_in_head(text) || looks_mitmproxy_flow(text)) return false;
  const Format* format = format_of(text);
  return format != nullptr && format->id == "json-lines";
}

namespace {

/// What every reading of a log's lines does to the exchanges it gives.
void finish_lines(std::vector<Exchange>& exchanges, const CaptureOptions& options) {
  limit_bodies(exchanges, options.max_body);
  read_requests(exchanges);
  if (options.auth) capture::mark_oauth_legs(exchanges);
}

}  // namespace

std::expected<LinesBlock, CaptureError> read_lines_block(std::string_view lines, std::string_view name,
                                                         std::size_t first_index, const CaptureOptions& options,
                                                         std::size_t first_line, bool padded, bool more_follows,
                                                         std::span<const std::size_t> skip_lines) {
  std::size_t bom = 0;
  if (starts_with_bytes(lines, "\xef\xbb\xbf")) {
    lines.remove_prefix(3);
    bom = 3;
  }
  if (std::all_of(lines.begin(), lines.end(), is_space)) return LinesBlock{};
  try {
    auto block = capture::read_json_lines_block(lines, name, first_index, options, first_line, padded, more_follows,
                                                skip_lines);
    if (!block) return std::unexpected(std::move(block.error()));
    finish_lines(block->exchanges, options);
    return LinesBlock{std::move(block->exchanges), block->self_contained, block->wrapped,
                      block->consumed > 0 ? block->consumed + bom : 0, block->consumed_lines,
                      std::move(block->carry_skip)};
  } catch (const std::bad_alloc&) {
    return std::unexpected(CaptureError{"out of memory while reading the capture"});
  } catch (const std::exception& e) {
    return std::unexpected(CaptureError{std::string("internal error while reading the capture: ") + e.what()});
  }
}

struct LinesStream::State {
  State(std::string n, const CaptureOptions& o, std::size_t first_line, std::vector<std::size_t> skip)
      : name(std::move(n)), options(o), reader(name, options, 0, first_line), skip_lines(std::move(skip)) {}
  std::string name;
  CaptureOptions options;                // the reader keeps references to these two
  capture::jsonl::JsonLinesReader reader;
  std::vector<std::size_t> skip_lines;   // for the first block only
  bool started = false;
  bool failed = false;
};

LinesStream::LinesStream(std::string name, const CaptureOptions& options, std::size_t first_line,
                         std::vector<std::size_t> skip_lines)
    : state_(std::make_unique<State>(std::move(name), options, first_line, std::move(skip_lines))) {}

LinesStream::~LinesStream() = default;

bool LinesStream::quiet() const { return state_->reader.quiet(); }

std::expected<LinesBlock, CaptureError> LinesStream::read(std::string_view lines, bool padded, bool last) {
  State& s = *state_;
  if (s.failed) return std::unexpected(CaptureError{"the log's reading stopped at an earlier error"});
  if (!s.started && starts_with_bytes(lines, "\xef\xbb\xbf")) lines.remove_prefix(3);
  s.started = true;
  try {
    auto exchanges = s.reader.read_more(lines, padded, last, s.skip_lines);
    std::vector<std::size_t>().swap(s.skip_lines);
    if (!exchanges) {
      s.failed = true;
      return std::unexpected(std::move(exchanges.error()));
    }
    finish_lines(*exchanges, s.options);
    LinesBlock out;
    out.exchanges = std::move(*exchanges);
    out.self_contained = s.reader.quiet();
    out.wrapped = s.reader.any_wrapped();
    return out;
  } catch (const std::bad_alloc&) {
    s.failed = true;
    return std::unexpected(CaptureError{"out of memory while reading the capture"});
  } catch (const std::exception& e) {
    s.failed = true;
    return std::unexpected(CaptureError{std::string("internal error while reading the capture: ") + e.what()});
  }
}

}  // namespace mcptriage
