// The wrapper as a source of the run core (source.hpp).
#include "wrap/source.hpp"

#include <algorithm>
#include <deque>

#include "mcptriage/output.hpp"

namespace mcptriage::wrap {

void WrapSource::produce(io::Feed& feed) {
  std::deque<Event> events;
  std::size_t lines = 0;  // fed so far: the next block's first line follows them
  std::string block;
  auto feed_block = [&](bool last) {
    if (failed_) return;
    const std::size_t n = static_cast<std::size_t>(std::count(block.begin(), block.end(), '\n'));
    if (n == 0 && !last) return;
    // Parsed in place (Feed::lines): kPadding bytes allocated after the lines (a resize down keeps them).
    const std::size_t size = block.size();
    block.append(json::kPadding, ' ');
    block.resize(size);
    try {
      feed.lines(0, std::move(block), lines, last, /*follow=*/true);
    } catch (const OutputError&) {
      failed_ = std::current_exception();
    }
    block = std::string();
    lines += n;
  };
  bool ended = false;  // the server's exit was fed: the last line of the log
  while (queue_.wait(events)) {
    for (Event& e : events) {
      if (e.kind == Event::Kind::exit) ended = true;
      std::string line;
      switch (e.kind) {
        case Event::Kind::line: {
          bool message = false;
          line = stdio_message_line(e.dir, e.unix_ns, e.bytes, e.cut, e.size, parser_, message,
                                    e.injection ? &*e.injection : nullptr);
          if (!message) ++counts_.not_messages;
          if (e.dir == Dir::c2s) {
            ++counts_.to_server;
            counts_.bytes_to_server += e.size;
          } else if (e.injection && e.injection->made_by_wrapper) {
            ++counts_.from_wrapper;  // --inject: written by the wrapper, not the server
          } else {
            ++counts_.to_host;
            counts_.bytes_to_host += e.size;
          }
          break;
        }
        case Event::Kind::eof:
          line = stdio_eof_line(e.unix_ns);
          counts_.input_closed = true;
          break;
        case Event::Kind::exit:
          line = stdio_exit_line(e.unix_ns, e.status, e.stderr_tail, e.injection ? &*e.injection : nullptr);
          break;
      }
      if (recording_ != nullptr) recording_->write(line, {});
      block += line;
      block += '\n';
    }
    events.clear();
    // The exit ends the log (the requests still open are read as unanswered, at once); lines after
    // it cannot come.
    feed_block(ended);
    if (ended) break;
  }
  if (failed_) std::rethrow_exception(failed_);
}

}  // namespace mcptriage::wrap
