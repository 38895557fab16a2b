// SseFramer: block boundaries of an event stream, found byte by byte as the bytes arrive.
#include "proxy/sse_framer.hpp"

#include <algorithm>
#include <cstring>

#include "mcptriage/sse.hpp"

namespace mcptriage::proxy {

void SseFramer::feed(std::string_view data, std::vector<SseBlock>& out) {
  std::size_t i = 0;
  while (i < data.size()) {
    // The bytes up to the next line end go in whole (kept up to the bound).
    std::size_t end = i;
    while (end < data.size() && data[end] != '\n' && data[end] != '\r') {
      const void* hit = std::memchr(data.data() + end, '\n', data.size() - end);
      const std::size_t lf = hit ? static_cast<std::size_t>(static_cast<const char*>(hit) - data.data()) : data.size();
      const void* cr = std::memchr(data.data() + end, '\r', lf - end);
      end = cr ? static_cast<std::size_t>(static_cast<const char*>(cr) - data.data()) : lf;
    }
    if (end > i) {
      append(data.substr(i, end - i));
      line_len_ += end - i;
      last_cr_ = false;
      i = end;
      continue;
    }
    const char c = data[i++];
    append(std::string_view(&c, 1));
    if (c == '\n' && last_cr_) {
      last_cr_ = false;  // the LF of a CRLF: the line already ended at its CR
      continue;
    }
    last_cr_ = c == '\r';
    // A line end. An empty line ends the block when the block has a line (leading empty
    // lines stay with the block that follows them, so that blocks partition the bytes).
    if (line_len_ == 0 && any_line_) finish_block(out);
    else if (line_len_ > 0) any_line_ = true;
    line_len_ = 0;
  }
}

void SseFramer::append(std::string_view bytes) {
  const std::size_t room = bound_ > current_.size() ? bound_ - current_.size() : 0;
  if (bytes.size() > room) overflow_ = true;
  current_.append(bytes.data(), std::min(room, bytes.size()));
}

void SseFramer::finish_block(std::vector<SseBlock>& out) {
  SseBlock b;
  b.whole = !overflow_;
  b.text = std::move(current_);
  current_.clear();
  overflow_ = false;
  any_line_ = false;
  if (b.whole) {
    const sse::Stream s = sse::parse(b.text);
    b.comment_only = s.events.empty() && s.empty_data_events == 0 && s.comments > 0 && !s.any_id &&
                     !s.retry_ms;
    b.priming = s.events.empty() && s.empty_data_events > 0;
    if (!s.events.empty()) b.message = peek_message(s.events.front().data);
  } else {
    // Too long to read here: an event all the same (a comment line that long is not expected).
    b.comment_only = b.text.starts_with(':');
  }
  out.push_back(std::move(b));
}

}  // namespace mcptriage::proxy
