// Finds the event blocks of a text/event-stream body as its bytes arrive (WHATWG HTML §9.2.6:
// a block ends at an empty line; lines end with CR, LF or CRLF; the scanner is sse::BlockScanner,
// as the live reader's), so that the proxy can time the
// first event and the final response, count events for `cut-after-events=N`, and hold an event
// back until it is whole when a rule may cut before it. The bytes of a block are kept only up
// to a bound; what an event means is read with sse::parse and peek_message.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "proxy/json_peek.hpp"
#include "sse/blocks.hpp"

namespace mcptriage::proxy {

/// One complete block of an event stream.
struct SseBlock {
  std::string text;          ///< the block's bytes, its closing empty line included (at most the bound)
  bool whole = true;         ///< false: the block was longer than the bound and `text` is its start
  bool comment_only = false; ///< only `:` lines (a keep-alive), no field: the client sees no event
  bool priming = false;      ///< a `data` field with empty data (MCP 2025-11-25 priming event)
  Peek message;              ///< the event's data read as a JSON-RPC message (when whole)
  /// The event carries a JSON-RPC response (`id` with `result` or `error`): the final
  /// response of a POST's stream when its id is the request's.
  bool response() const { return message.kind == MessageKind::response; }
};

class SseFramer {
 public:
  /// `bound`: the most bytes of one block kept (its text and its inspection); a longer block
  /// is reported with `whole` false once it ends.
  explicit SseFramer(std::size_t bound) : bound_(bound) {}

  /// Feeds the next bytes; appends each block they complete to `out`, in order. The blocks
  /// partition the stream: the texts of the whole blocks, one after the other, are the bytes
  /// fed so far but those of the block still open (empty lines before a block belong to it).
  void feed(std::string_view data, std::vector<SseBlock>& out);

  /// Bytes of the block still open (at most the bound).
  const std::string& open_block() const { return current_; }
  /// The open block has more bytes than were kept.
  bool open_block_overflowed() const { return overflow_; }

 private:
  void finish_block(std::vector<SseBlock>& out);
  void append(std::string_view bytes);

  std::size_t bound_;
  std::string current_;
  bool overflow_ = false;
  /// Where the blocks end (the live reader's scanner, src/sse/blocks.hpp); leading empty lines stay
  /// with the block that follows them, so that the blocks partition the bytes.
  sse::BlockScanner scanner_{0, /*join_leading_empty_lines=*/true};
};

}  // namespace mcptriage::proxy
