// Server-sent events parser: the WHATWG HTML "Interpreting an event stream" algorithm, on bytes.
#include "mcptriage/sse.hpp"

#include <cstddef>
#include <cstring>
#include <limits>
#include <string>
#include <string_view>
#include <utility>

namespace mcptriage::sse {
namespace {

/// The UTF-8 byte order mark; one leading copy is skipped.
constexpr std::string_view kBom = "\xEF\xBB\xBF";

/// Parses an all-ASCII-digit `retry` value; nullopt when empty, not all digits, or too large.
std::optional<long long> parse_retry(std::string_view value) {
  if (value.empty()) return std::nullopt;
  constexpr long long kMax = std::numeric_limits<long long>::max();
  long long result = 0;
  for (const char c : value) {
    if (c < '0' || c > '9') return std::nullopt;
    const int digit = c - '0';
    if (result > (kMax - digit) / 10) return std::nullopt;  // result * 10 + digit would overflow
    result = result * 10 + digit;
  }
  return result;
}

/// Parser state between lines: the spec's buffers plus bookkeeping for `Stream`.
class Parser {
 public:
  /// Processes one complete line (without its line terminator).
  void line(std::string_view text) {
    if (text.empty()) {
      dispatch();
      return;
    }
    if (text.front() == ':') {
      ++out_.comments;
      return;
    }
    pending_ = true;
    std::string_view name = text;
    std::string_view value;
    if (const std::size_t colon = text.find(':'); colon != std::string_view::npos) {
      name = text.substr(0, colon);
      value = text.substr(colon + 1);
      if (!value.empty() && value.front() == ' ') value.remove_prefix(1);
    }
    field(name, value);
  }

  /// Finishes the stream; `partial` is a last line that had no line terminator.
  Stream finish(std::string_view partial) && {
    // The spec discards pending data at end of file; a trailing unterminated field line
    // is never processed but still means the stream stopped inside an event.
    if (!partial.empty() && partial.front() != ':') pending_ = true;
    out_.unterminated_tail = pending_;
    return std::move(out_);
  }

 private:
  void field(std::string_view name, std::string_view value) {
    if (name == "data") {
      data_.append(value);
      data_.push_back('\n');
    } else if (name == "event") {
      type_.assign(value);
    } else if (name == "id") {
      if (value.find('\0') == std::string_view::npos) {
        id_buffer_.assign(value);
        id_set_here_ = true;
        if (!value.empty()) nonempty_id_here_ = true;
      }
    } else if (name == "retry") {
      if (const auto ms = parse_retry(value)) out_.retry_ms = ms;
    }
    // Any other field name is ignored.
  }

  void dispatch() {
    // Spec step 1: the last event ID string takes the buffer's value, even with no data.
    out_.last_event_id = id_buffer_;
    if (nonempty_id_here_) out_.any_id = true;
    if (!data_.empty()) {
      data_.pop_back();  // the buffer always ends with the LF appended by the last data line
      if (data_.empty()) {
        ++out_.empty_data_events;
      } else {
        Event ev;
        if (!type_.empty()) ev.type = type_;
        ev.data = std::move(data_);
        ev.last_event_id = out_.last_event_id;
        ev.id_set_here = id_set_here_;
        out_.events.push_back(std::move(ev));
      }
    }
    data_.clear();
    type_.clear();
    id_set_here_ = false;
    nonempty_id_here_ = false;
    pending_ = false;
  }

  Stream out_;
  std::string data_;       ///< the data buffer
  std::string type_;       ///< the event type buffer
  std::string id_buffer_;  ///< the last event ID buffer (persists across events)
  bool id_set_here_ = false;
  bool nonempty_id_here_ = false;
  bool pending_ = false;  ///< a field line was seen since the last dispatch
};

}  // namespace

Stream parse(std::string_view body) {
  if (body.starts_with(kBom)) body.remove_prefix(kBom.size());
  Parser parser;
  const char* const data = body.data();
  const std::size_t size = body.size();
  // Line ends found with memchr (SIMD): the next LF, then a CR before it, if any. The LF found
  // is kept until the lines pass it, so lines ended by CR alone do not search the rest of the
  // body again each (quadratic: a 5 MB body took 15 s; hostile case sse-cr-comments-then-response).
  std::size_t start = 0;
  std::size_t lf_at = 0;  // the next LF at or after `start`, or `size`; searched when start passes it
  bool lf_known = false;
  while (start < size) {
    if (!lf_known || lf_at < start) {
      const void* lf = std::memchr(data + start, '\n', size - start);
      lf_at = lf ? static_cast<std::size_t>(static_cast<const char*>(lf) - data) : size;
      lf_known = true;
    }
    const void* cr = std::memchr(data + start, '\r', lf_at - start);
    std::size_t i = cr ? static_cast<std::size_t>(static_cast<const char*>(cr) - data) : lf_at;
    if (i == size) break;  // the last line has no line end
    parser.line(body.substr(start, i - start));
    if (data[i] == '\r' && i + 1 < size && data[i + 1] == '\n') ++i;  // CRLF is one line end
    start = i + 1;
  }
  return std::move(parser).finish(body.substr(start));
}

}  // namespace mcptriage::sse
