// The wrapper's relay (relay.hpp).
#include "wrap/relay.hpp"

#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>

namespace mcptriage::wrap {

std::int64_t now_unix_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

void EventQueue::push(Event e) {
  std::unique_lock lock(mu_);
  room_.wait(lock, [&] { return bytes_ < max_bytes_ || closed_; });
  bytes_ += e.bytes.size();
  events_.push_back(std::move(e));
  ready_.notify_one();
}

void EventQueue::close() {
  std::lock_guard lock(mu_);
  closed_ = true;
  ready_.notify_all();
  room_.notify_all();
}

bool EventQueue::wait(std::deque<Event>& out) {
  std::unique_lock lock(mu_);
  ready_.wait(lock, [&] { return !events_.empty() || closed_; });
  out.swap(events_);
  bytes_ = 0;
  room_.notify_all();
  return !(closed_ && out.empty());
}

void Tail::add(std::string_view bytes) {
  std::lock_guard lock(mu_);
  while (!bytes.empty()) {
    const std::size_t nl = bytes.find('\n');
    const std::string_view part = bytes.substr(0, nl);
    if (partial_.size() < max_line_) partial_.append(part.substr(0, max_line_ - partial_.size()));
    if (nl == std::string_view::npos) break;
    if (!partial_.empty() && partial_.back() == '\r') partial_.pop_back();
    done_.push_back(std::move(partial_));
    partial_.clear();
    if (done_.size() > lines_) done_.pop_front();
    bytes.remove_prefix(nl + 1);
  }
}

std::vector<std::string> Tail::lines() const {
  std::lock_guard lock(mu_);
  std::vector<std::string> out(done_.begin(), done_.end());
  if (!partial_.empty()) out.push_back(partial_);
  while (out.size() > lines_) out.erase(out.begin());
  return out;
}

namespace {

/// Waits until `fd` is readable or `stop_fd` is; false when stopped (or poll fails).
bool readable(int fd, int stop_fd) {
  pollfd fds[2] = {{fd, POLLIN, 0}, {stop_fd, POLLIN, 0}};
  while (true) {
    const int n = ::poll(fds, stop_fd >= 0 ? 2 : 1, -1);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    if (stop_fd >= 0 && fds[1].revents != 0) return false;
    if (fds[0].revents != 0) return true;
  }
}

}  // namespace

bool Pump::run() {
  std::string line;      // the line being read, up to max_line bytes
  std::size_t seen = 0;  // its length so far, kept or not
  char buf[65536];
  auto emit = [&] {
    if (!line.empty() && line.back() == '\r' && seen <= max_line) line.pop_back();
    Event e;
    e.kind = Event::Kind::line;
    e.dir = dir;
    e.unix_ns = now_unix_ns();
    e.cut = seen > max_line;
    e.size = e.cut ? seen : line.size();
    e.bytes = std::move(line);
    line.clear();
    seen = 0;
    queue->push(std::move(e));
  };
  while (true) {
    if (!readable(from, stop_fd)) return false;
    const ssize_t n = ::read(from, buf, sizeof buf);
    if (n < 0) {
      if (errno == EINTR || errno == EAGAIN) continue;
      break;
    }
    if (n == 0) break;
    const std::string_view chunk(buf, static_cast<std::size_t>(n));
    std::string_view rest = chunk;
    while (!rest.empty()) {
      const std::size_t nl = rest.find('\n');
      const std::string_view part = rest.substr(0, nl);
      if (line.size() < max_line) line.append(part.substr(0, max_line - line.size()));
      seen += part.size();
      if (nl == std::string_view::npos) break;
      // A blank line between messages is no message and no fault (hosts skip it): not recorded.
      if (seen == 0 || (seen == 1 && line == "\r")) {
        line.clear();
        seen = 0;
      } else {
        emit();
      }
      rest.remove_prefix(nl + 1);
    }
    // Written on after its lines are queued: the other side's answer to a line, queued by the
    // other pump, can then never come before it in the recording (a reply recorded before its
    // request read as a request never answered).
    if (!to_failed && !io::write_all(to, chunk)) to_failed = true;
  }
  if (seen > 0) emit();  // the last line, without its newline
  return true;
}

void pass_stderr(int from, int stop_fd, Tail& tail) {
  char buf[16384];
  while (readable(from, stop_fd)) {
    const ssize_t n = ::read(from, buf, sizeof buf);
    if (n < 0) {
      if (errno == EINTR || errno == EAGAIN) continue;
      return;
    }
    if (n == 0) return;
    const std::string_view chunk(buf, static_cast<std::size_t>(n));
    io::write_all(STDERR_FILENO, chunk);
    tail.add(chunk);
  }
}

}  // namespace mcptriage::wrap
