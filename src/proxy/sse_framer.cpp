// SseFramer: block boundaries of an event stream, found byte by byte as the bytes arrive.
#include "proxy/sse_framer.hpp"

#include <algorithm>
#include <cstring>

#include "mcptriage/sse.hpp"

namespace mcptriage::proxy {

void SseFramer::feed(std::string_view data, std::vector<SseBlock>& out) {
  std::size_t from = 0;  // the bytes of `data` before it are in a block already
  while (auto block = scanner_.next(data)) {
    append(data.substr(from, block->second - from));
    from = block->second;
    finish_block(out);
  }
  append(data.substr(from));
  scanner_.shift(data.size());  // positions count from the next data's start
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
