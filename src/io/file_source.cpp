// The command line's inputs as a source (source.hpp, FileSource): small regular files go to the
// workers whole; larger files and standard input are read here, a JSON Lines log in blocks cut
// at line ends, anything else whole.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>
#include <vector>

#include "io/lines.hpp"
#include "io/read_limited.hpp"
#include "io/source.hpp"
#include "json/dom.hpp"
#include "mcptriage/capture.hpp"

namespace mcptriage::io {

namespace {

std::string errno_text(int err) { return std::strerror(err); }

/// Appends up to `want` bytes read from `fd` to `buf` (read_interruptible with `stop_fd`).
/// Returns false on a read error (`err` set; ECANCELED: the run stopped); `eof` is set when the
/// input ended. `once`: returns after the first read that gave bytes (Sizes::eager).
bool read_more(int fd, std::string& buf, std::size_t want, bool& eof, int& err, int stop_fd, bool once = false) {
  const std::size_t old = buf.size();
  bool ok = true;
  buf.resize_and_overwrite(old + want, [&](char* p, std::size_t) {
    std::size_t got = 0;
    while (got < want) {
      const ssize_t n = read_interruptible(fd, p + old + got, want - got, stop_fd);
      if (n < 0) {
        err = errno;
        ok = false;
        break;
      }
      if (n == 0) {
        eof = true;
        break;
      }
      got += static_cast<std::size_t>(n);
      if (once) break;
    }
    return old + got;
  });
  return ok;
}

}  // namespace

void FileSource::produce(Feed& feed) {
  for (std::size_t i = 0; i < inputs_.size(); ++i) {
    const std::string& path = inputs_[i].path;
    if (!path.empty() && !sizes_.eager) {  // row mode reads every input as a log
      struct stat st {};
      if (::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
          static_cast<std::size_t>(st.st_size) <= sizes_.whole_file_max) {
        feed.file(i);
        continue;
      }
    }
    stream(i, feed);
  }
}

/// A large file or standard input: a JSON Lines log goes out in blocks, anything else whole.
void FileSource::stream(std::size_t i, Feed& feed) {
  auto fail = [&](int err) {
    if (err != ECANCELED) feed.failed(i, errno_text(err));  // ECANCELED: the run stopped, nobody listens
  };
  const std::string& path = inputs_[i].path;
  int fd = STDIN_FILENO;
  if (!path.empty()) {
    do {
      fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    } while (fd < 0 && errno == EINTR);
    if (fd < 0) return fail(errno);
  }
  struct Closer {
    int fd;
    ~Closer() {
      if (fd != STDIN_FILENO) ::close(fd);
    }
  } closer{fd};
  struct stat st {};
  const bool have_stat = ::fstat(fd, &st) == 0;
  if (!path.empty() && have_stat && S_ISDIR(st.st_mode)) return fail(EISDIR);
  // A regular file never keeps a read waiting; a pipe or a terminal may, until the run stops.
  const int stop_fd = have_stat && S_ISREG(st.st_mode) ? -1 : feed.stop_fd();
  const std::size_t block = sizes_.block;
  const std::size_t limit = sizes_.max_input;
  std::string buf = fd == STDIN_FILENO ? std::move(stdin_head_) : std::string();
  buf.reserve(std::max(buf.size(), block) + json::kPadding);  // room for simdjson's padding after the first block
  bool eof = false;
  int err = 0;
  // The head: at least one block, and whole lines.
  const bool eager = sizes_.eager;
  while (!eof && buf.size() < block && !(eager && buf.find('\n') != std::string::npos)) {
    if (!read_more(fd, buf, block, eof, err, stop_fd, eager)) return fail(err);
  }
  if (!eof && buf.find('\n') == std::string::npos) {
    // A first line longer than a block (a log's big first entry, or no line at all: a document,
    // /dev/zero): read in blocks until a line end, joined once, so that the head costs its
    // size plus a block, not the doublings of one growing string (twice --max-input).
    std::vector<std::string> parts;
    std::size_t total = buf.size();
    while (!eof) {
      if (total > limit) return feed.failed(i, too_large_message(limit));
      std::string part;
      if (!read_more(fd, part, block, eof, err, stop_fd, eager)) return fail(err);
      total += part.size();
      const bool line_end = part.find('\n') != std::string::npos;
      parts.push_back(std::move(part));
      if (line_end) break;
    }
    if (total > limit) return feed.failed(i, too_large_message(limit));
    std::string head;
    head.reserve(total + json::kPadding);
    head += buf;
    std::string().swap(buf);
    for (std::string& part : parts) {
      head += part;
      std::string().swap(part);
    }
    buf = std::move(head);
  }
  const std::size_t head_end = last_newline(buf);
  // Row mode reads a log whatever its first line is: a damaged first line is a row too.
  if (!eager && !is_json_lines(std::string_view(buf).substr(0, head_end == std::string::npos ? buf.size() : head_end + 1))) {
    // Not a log: the input is one document, read whole (up to --max-input) in blocks joined
    // once, never past the limit (read_limited.hpp): a huge stream costs --max-input.
    if (!eof) {
      auto whole = read_fd_limited(fd, limit, std::move(buf), stop_fd);
      if (!whole) {
        if (whole.error().kind == ReadError::Kind::stopped) return;
        return feed.failed(i, whole.error().message);
      }
      buf = std::move(*whole);
    }
    if (buf.size() > limit) return feed.failed(i, too_large_message(limit));
    return feed.document(i, std::move(buf));
  }
  std::size_t lines_before = 0;
  auto emit_block = [&](std::string data, bool last) {
    const std::size_t first_line = lines_before;
    lines_before += count_newlines(data);
    feed.lines(i, std::move(data), first_line, last, /*follow=*/eager);
  };
  for (;;) {
    const std::size_t nl = eof ? std::string::npos : last_newline(buf);
    if (eof || nl != std::string::npos) {
      const std::size_t end = eof ? buf.size() : nl + 1;  // the whole lines read
      // Blocks of at most kBlockLines lines: a block's records take about the same memory per
      // exchange whatever the length of its lines, so short lines make short blocks (peak RSS,
      // docs/performance.md). Those are copied out; the last block keeps the buffer.
      std::size_t start = 0;
      for (std::size_t cut = line_cut(buf, 0, end); cut < end; cut = line_cut(buf, start, end)) {
        std::string part = feed.buffer();
        part.reserve(cut - start + json::kPadding);
        part.assign(buf, start, cut - start);
        emit_block(std::move(part), false);
        start = cut;
      }
      // The last block keeps the buffer read into; only the cut line after its last line end
      // is copied, into a buffer that went round (a fresh one costs a page fault per page),
      // where the next read goes.
      std::string next = feed.buffer();
      if (!eof) {
        next.reserve(block + (buf.size() - end) + json::kPadding);
        next.assign(buf, end);
      }
      buf.resize(end);
      if (start > 0) buf.erase(0, start);
      emit_block(std::move(buf), eof);
      buf = std::move(next);
      if (eof) return;
    } else if (buf.size() > limit) {
      return feed.failed(i, "a line longer than --max-input (" + std::to_string(limit) +
                                " bytes); raise the limit with --max-input BYTES");
    }
    if (!read_more(fd, buf, block, eof, err, stop_fd, eager)) return fail(err);
  }
}

}  // namespace mcptriage::io
