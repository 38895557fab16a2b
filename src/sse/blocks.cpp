// The event-stream block scanner (blocks.hpp).
#include "sse/blocks.hpp"

#include <cstring>

namespace mcptriage::sse {

std::optional<std::pair<std::size_t, std::size_t>> BlockScanner::next(std::string_view buf) {
  while (pos_ < buf.size()) {
    // The bytes of a line up to its end in one step (memchr), not one by one.
    if (buf[pos_] != '\n' && buf[pos_] != '\r') {
      const char* from = buf.data() + pos_;
      const std::size_t left = buf.size() - pos_;
      const void* lf = std::memchr(from, '\n', left);
      const std::size_t to_lf = lf ? static_cast<std::size_t>(static_cast<const char*>(lf) - from) : left;
      const void* cr = std::memchr(from, '\r', to_lf);
      const std::size_t run = cr ? static_cast<std::size_t>(static_cast<const char*>(cr) - from) : to_lf;
      line_len_ += run;
      pos_ += run;
      prev_cr_ = false;
      continue;
    }
    const char ch = buf[pos_++];
    if (ch == '\n' && prev_cr_) {  // the LF of a CRLF: the line ended at its CR
      prev_cr_ = false;
      continue;
    }
    prev_cr_ = ch == '\r';
    const bool empty_line = line_len_ == 0;
    line_len_ = 0;
    if (!empty_line) {
      any_line_ = true;
      continue;
    }
    if (join_ && !any_line_) continue;  // a leading empty line: it stays with the next block
    any_line_ = false;
    std::size_t end = pos_;
    if (ch == '\r' && pos_ < buf.size() && buf[pos_] == '\n') end = pos_ + 1;  // keep the CRLF whole
    const std::pair<std::size_t, std::size_t> block{block_start_, end};
    block_start_ = end;
    if (end > pos_) {
      pos_ = end;
      prev_cr_ = false;
    }
    return block;
  }
  return std::nullopt;
}

}  // namespace mcptriage::sse
