// Where the event blocks of a text/event-stream end, found as its bytes arrive: the one block
// scanner of the live reader (src/io/live_source.cpp) and the proxy (src/proxy/sse_framer.cpp).
// WHATWG HTML §9.2.6 (event stream interpretation): a line ends at CR, LF or CRLF, and an empty
// line dispatches the event the lines before it built (here: ends a block).
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>
#include <utility>

namespace mcptriage::sse {

/// Scans each byte once. Positions are offsets into the caller's buffer, which grows at its end
/// between calls and may lose bytes at its start (shift()). A CRLF that ends a block is kept whole
/// in it when its LF has arrived; when the CR came last, the LF that follows belongs to the next
/// block (it ends no line of its own either way).
class BlockScanner {
 public:
  /// `start`: where the stream begins in the buffer. `join_leading_empty_lines`: an empty line that
  /// comes before any line of a block stays with the block that follows it, so that the blocks are
  /// the stream's events and keep-alives with every byte in one of them (the proxy); false: every
  /// empty line ends a block, even one with no line (the live reader: a block per dispatch point).
  explicit BlockScanner(std::size_t start = 0, bool join_leading_empty_lines = false)
      : pos_(start), block_start_(start), join_(join_leading_empty_lines) {}

  /// The next block that ends in `buf`, as [begin, end) (its closing empty line included), or
  /// nullopt when the bytes of `buf` not scanned yet end none; scans only bytes not seen before.
  std::optional<std::pair<std::size_t, std::size_t>> next(std::string_view buf);

  /// Where the block being read begins: the end of the last block found.
  std::size_t block_start() const { return block_start_; }
  /// The caller dropped the first `n` bytes of its buffer; `n` at most scanned bytes. The open
  /// block's start, when it was among them, becomes 0.
  void shift(std::size_t n) {
    pos_ -= n;
    block_start_ = block_start_ > n ? block_start_ - n : 0;
  }

 private:
  std::size_t pos_;
  std::size_t block_start_;
  bool join_;
  std::size_t line_len_ = 0;  ///< bytes of the current line so far
  bool prev_cr_ = false;      ///< the last byte was a CR (a LF after it ends no line)
  bool any_line_ = false;     ///< the open block has a line (join_ only)
};

}  // namespace mcptriage::sse
