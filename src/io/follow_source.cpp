// `--follow` (follow_source.hpp): a JSON Lines log read to its end, then looked at every poll
// interval for new lines, a rotation (the path names another file) or a truncation.
#include "io/follow_source.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string_view>
#include <utility>

#include "io/lines.hpp"
#include "io/read_limited.hpp"
#include "json/dom.hpp"
#include "mcptriage/capture.hpp"

namespace mcptriage::io {

namespace {

using Clock = std::chrono::steady_clock;

/// What the first lines of a followed file say.
enum class Head { log, not_log, unknown };

/// Lines looked at after the first before a head that is no log is called so (sniff_json_lines
/// looks at 16), and the most bytes of head kept waiting for that.
constexpr std::size_t kHeadLines = 17;
constexpr std::size_t kHeadBytes = std::size_t{1} << 20;

/// Whether `buf` (the first bytes of the file) starts a JSON Lines log as is_json_lines reads
/// one; unknown while its first line has not ended or too few lines came to tell.
Head judge_head(std::string_view buf) {
  std::string_view text = buf;
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);
  const std::size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return Head::unknown;
  if (text[first] != '{') return Head::not_log;  // every log's first line is an object
  const std::size_t nl = last_newline(buf);
  if (nl == std::string::npos) return Head::unknown;
  const std::string_view head = buf.substr(0, nl + 1);
  if (is_json_lines(head)) return Head::log;
  return count_newlines(head) >= kHeadLines || head.size() >= kHeadBytes ? Head::not_log : Head::unknown;
}

/// A descriptor closed when it goes.
struct Fd {
  int fd = -1;
  Fd() = default;
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() { reset(-1); }
  void reset(int n) {
    if (fd >= 0) ::close(fd);
    fd = n;
  }
};

int open_file(const std::string& path) {
  int fd = -1;
  do {
    fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  } while (fd < 0 && errno == EINTR);
  return fd;
}

}  // namespace

void FollowSource::produce(Feed& feed) {
  const std::size_t i = 0;
  const Input& in = inputs_[i];
  const std::size_t block = std::max<std::size_t>(options_.sizes.block, 4096);
  const std::size_t limit = options_.sizes.max_input;
  const Clock::time_point start = Clock::now();
  Clock::time_point last_growth = start;

  // One wait: a poll interval, or less when a deadline comes first; a signal or the run's stop
  // end it. errno is kept for `error`.
  enum class Woke { again, deadline, signal, stop, error };
  auto wait_a_while = [&]() -> Woke {
    const Clock::time_point now = Clock::now();
    auto left_ms = [&](std::chrono::milliseconds limit_ms, Clock::time_point from) {
      return std::chrono::duration_cast<std::chrono::milliseconds>(from + limit_ms - now).count();
    };
    long long wait = options_.poll.count();
    for (auto [limit_ms, from] : {std::pair{options_.idle, last_growth}, std::pair{options_.total, start}}) {
      if (!limit_ms) continue;
      const long long left = left_ms(*limit_ms, from);
      if (left <= 0) return Woke::deadline;
      wait = std::min(wait, left);
    }
    pollfd fds[2] = {{options_.signal_fd, POLLIN, 0}, {feed.stop_fd(), POLLIN, 0}};
    const int r = ::poll(fds, 2, static_cast<int>(wait));
    if (r < 0 && errno != EINTR) return Woke::error;
    if (r > 0 && fds[1].revents != 0) return Woke::stop;  // the run stopped (its output closed): nobody listens
    if (r > 0 && fds[0].revents != 0) return Woke::signal;
    return Woke::again;
  };

  Fd file;
  file.reset(open_file(in.path));
  // No file by the name yet (the writer has not started): wait for it, as `tail -F` does.
  while (file.fd < 0 && errno == ENOENT) {
    const Woke woke = wait_a_while();
    if (woke == Woke::error) return feed.failed(i, std::strerror(errno));
    if (woke == Woke::stop) return;
    file.reset(open_file(in.path));
    if (file.fd < 0 && errno == ENOENT && woke != Woke::again) {
      return feed.failed(i, "no such file: it did not appear while it was awaited (--follow)");
    }
  }
  if (file.fd < 0) return feed.failed(i, std::strerror(errno));
  struct stat st {};
  if (::fstat(file.fd, &st) != 0) return feed.failed(i, std::strerror(errno));
  if (!S_ISREG(st.st_mode)) {
    return feed.failed(i, "not a regular file: --follow follows a file that grows (a log), by its name");
  }
  dev_t dev = st.st_dev;
  ino_t ino = st.st_ino;
  off_t offset = 0;        // bytes read of the file open now
  std::string buf;         // bytes read and not fed yet: an unfinished line (before the head is judged: the head)
  bool is_log = false;     // the head was judged a JSON Lines log
  std::size_t lines_before = 0;

  auto feed_block = [&](std::string data, bool last) {
    const std::size_t first_line = lines_before;
    lines_before += count_newlines(data);
    feed.lines(i, std::move(data), first_line, last, /*follow=*/true);
  };
  // Feeds buf[0, end) (whole lines, or everything at the end) in blocks of at most kBlockLines
  // lines, each with simdjson's padding allocated after it; keeps the rest in `buf`.
  auto feed_lines = [&](std::size_t end, bool last) {
    std::size_t from = 0;
    for (;;) {
      const std::size_t cut = line_cut(buf, from, end);
      std::string part = feed.buffer();
      part.reserve(cut - from + json::kPadding);
      part.assign(buf, from, cut - from);
      from = cut;
      if (cut >= end) {
        buf.erase(0, end);
        return feed_block(std::move(part), last);
      }
      feed_block(std::move(part), false);
    }
  };
  // After bytes were read: the head judged, whole lines fed. False when the input failed.
  auto take = [&]() -> bool {
    if (!is_log) {
      switch (judge_head(buf)) {
        case Head::unknown:
          if (buf.size() > limit) {
            feed.failed(i, too_large_message(limit));
            return false;
          }
          return true;
        case Head::not_log:
          feed.failed(i, "not a JSON Lines log: --follow reads exchange logs and JSON-RPC message streams, one "
                         "JSON object a line (read this input without --follow)");
          return false;
        case Head::log: is_log = true; break;
      }
    }
    const std::size_t nl = last_newline(buf);
    if (nl != std::string::npos) {
      feed_lines(nl + 1, false);
    } else if (buf.size() > limit) {
      feed.failed(i, "a line longer than --max-input (" + std::to_string(limit) +
                         " bytes); raise the limit with --max-input BYTES");
      return false;
    }
    return true;
  };
  // Reads the open file to its end. False when the input failed.
  auto drain = [&]() -> bool {
    for (;;) {
      const std::size_t old = buf.size();
      ssize_t n = 0;
      buf.resize_and_overwrite(old + block, [&](char* p, std::size_t) {
        do {
          n = ::read(file.fd, p + old, block);
        } while (n < 0 && errno == EINTR);
        return old + static_cast<std::size_t>(std::max<ssize_t>(n, 0));
      });
      if (n < 0) {
        feed.failed(i, std::strerror(errno));
        return false;
      }
      if (n == 0) return true;
      offset += n;
      last_growth = Clock::now();
      if (!take()) return false;
    }
  };
  // A file left (rotated) or cut (truncated): its unfinished last line is read as a line.
  auto end_of_file = [&]() -> bool {
    if (buf.empty()) return true;
    buf += '\n';
    return take();
  };
  // The end of the follow: what was read is the log's last block (or, for a head too short to
  // tell, one document, as one read would read it).
  auto finish = [&]() {
    if (is_log) return feed_lines(buf.size(), true);
    if (buf.find_first_not_of(" \t\r\n") != std::string::npos) feed.document(i, std::move(buf));
  };

  for (;;) {
    if (!drain()) return;
    // Truncated: read again from the start.
    if (::fstat(file.fd, &st) == 0 && st.st_size < offset) {
      if (!end_of_file()) return;
      if (::lseek(file.fd, 0, SEEK_SET) < 0) return feed.failed(i, std::strerror(errno));
      offset = 0;
      continue;
    }
    // Rotated: the path names another file now. The old one is read to its end (its writer may
    // have written since), then the new one from its start. No file by the name: keep the old.
    struct stat named {};
    if (::stat(in.path.c_str(), &named) == 0 && (named.st_ino != ino || named.st_dev != dev)) {
      if (!drain() || !end_of_file()) return;
      const int fd = open_file(in.path);
      if (fd >= 0) {  // else gone again between stat and open: look again after the wait
        file.reset(fd);
        if (::fstat(file.fd, &st) != 0) return feed.failed(i, std::strerror(errno));
        dev = st.st_dev;
        ino = st.st_ino;
        offset = 0;
        continue;
      }
    }
    switch (wait_a_while()) {
      case Woke::again: break;
      case Woke::error: return feed.failed(i, std::strerror(errno));
      case Woke::stop: return;
      case Woke::deadline:
      case Woke::signal:  // what the file holds now, then the end
        if (!drain()) return;
        return finish();
    }
  }
}

}  // namespace mcptriage::io
