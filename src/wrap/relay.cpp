// The wrapper's relay (relay.hpp).
#include "wrap/relay.hpp"

#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <algorithm>
#include <chrono>
#include <thread>

#include "wrap/inject.hpp"

namespace mcptriage::wrap {

std::int64_t now_unix_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

namespace {

/// What an event weighs in the queue's bound: its line and itself (a short line costs more than
/// its bytes).
std::size_t weight(const Event& e) { return e.bytes.size() + sizeof(Event); }

}  // namespace

void EventQueue::push(Event e) {
  std::unique_lock lock(mu_);
  room_.wait(lock, [&] { return bytes_ < max_bytes_ || closed_; });
  bytes_ += weight(e);
  events_.push_back(std::move(e));
  ready_.notify_one();
}

void EventQueue::close() {
  std::lock_guard lock(mu_);
  closed_ = true;
  ready_.notify_all();
  room_.notify_all();
}

bool EventQueue::wait(std::deque<Event>& out, std::optional<std::int64_t> until_unix_ns) {
  std::unique_lock lock(mu_);
  const auto ready = [&] { return !events_.empty() || closed_; };
  if (until_unix_ns) {
    ready_.wait_until(lock, std::chrono::system_clock::time_point(std::chrono::duration_cast<std::chrono::system_clock::duration>(
                                std::chrono::nanoseconds(*until_unix_ns))),
                      ready);
  } else {
    ready_.wait(lock, ready);
  }
  std::size_t taken = 0;
  while (!events_.empty() && (taken == 0 || taken + weight(events_.front()) <= max_take_)) {
    taken += weight(events_.front());
    out.push_back(std::move(events_.front()));
    events_.pop_front();
  }
  bytes_ -= taken;
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

bool HostOut::write_chunk(std::string_view chunk) {
  std::lock_guard lock(mu_);
  if (failed_) return false;
  if (!io::write_all(fd_, chunk)) failed_ = true;
  if (!chunk.empty()) mid_line_ = chunk.back() != '\n';
  at_line_end_.notify_all();
  return !failed_;
}

bool HostOut::write_line(std::string_view line) {
  std::unique_lock lock(mu_);
  at_line_end_.wait(lock, [&] { return !mid_line_ || server_done_; });
  if (failed_) return false;
  std::string bytes(line);
  bytes += '\n';
  if (!io::write_all(fd_, bytes)) failed_ = true;
  return !failed_;
}

void HostOut::server_done() {
  std::lock_guard lock(mu_);
  server_done_ = true;
  at_line_end_.notify_all();
}

bool Pump::pause(std::chrono::milliseconds d) const {
  if (d.count() <= 0) return true;
  if (stop_fd < 0) {
    std::this_thread::sleep_for(d);
    return true;
  }
  const auto until = std::chrono::steady_clock::now() + d;
  while (true) {
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(until - std::chrono::steady_clock::now());
    if (left.count() <= 0) return true;
    pollfd fd{stop_fd, POLLIN, 0};
    const int n = ::poll(&fd, 1, static_cast<int>(std::min<long long>(left.count(), 1'000'000'000)));
    if (n > 0) return false;
    if (n < 0 && errno != EINTR) return false;
  }
}

void Pump::inject_line(std::string_view line, std::string_view raw, std::int64_t read_ns, bool newline) {
  Decision d = injector->on_host_line(line, read_ns);
  Event e;
  e.kind = Event::Kind::line;
  e.dir = dir;
  e.unix_ns = read_ns;
  e.bytes = std::string(line);
  e.size = line.size();
  std::chrono::milliseconds slow{0};
  if (hold_until) {
    const auto now = std::chrono::steady_clock::now();
    if (now < *hold_until) {
      slow = std::chrono::ceil<std::chrono::milliseconds>(*hold_until - now);
    } else {
      hold_until.reset();  // the start is over
    }
  }
  if (d.rule != nullptr || slow.count() > 0) {
    Injection inj;
    const proxy::Rule* ss = injector->slow_start();
    inj.rule = d.rule != nullptr ? d.rule->text : ss->text;
    inj.forwarded = d.forward;
    if (slow.count() > 0) {
      inj.warnings.push_back("injected by mcptriage wrap (--inject " + ss->text + "): the wrapper passed nothing to "
                             "the server until " + std::to_string(ss->delay.count()) + " ms after its start; this " +
                             "line waited " + std::to_string(slow.count()) + " ms");
    }
    if (d.rule != nullptr) inj.warnings.push_back(d.warning);
    e.injection = std::move(inj);
  }
  queue->push(std::move(e));
  auto wrapper_line = [&](std::string text, std::vector<std::string> warnings) {
    const bool ok = host->write_line(text);
    Event r;
    r.kind = Event::Kind::line;
    r.dir = Dir::s2c;
    r.unix_ns = now_unix_ns();
    r.size = text.size();
    r.bytes = std::move(text);
    Injection inj;
    inj.rule = d.rule->text;
    inj.made_by_wrapper = true;
    inj.warnings = std::move(warnings);
    if (!ok) inj.warnings.push_back("the host's output was closed: the host did not get this line");
    r.injection = std::move(inj);
    queue->push(std::move(r));
  };
  if (!d.garbage.empty()) {
    wrapper_line(d.garbage, {"injected by mcptriage wrap (--inject " + d.rule->text +
                             "): the wrapper wrote this line to the host, not the server"});
  }
  if (!pause(slow) || !pause(d.hold)) return;  // stopped: the server is gone
  if (d.forward && !to_failed) {
    std::string bytes(raw);
    if (newline) bytes += '\n';
    if (!io::write_all(to, bytes)) to_failed = true;
  }
  if (!d.reply.empty()) wrapper_line(d.reply, d.notes);
  if (d.exit_code && on_exit) on_exit(*d.exit_code, d.rule->text);
}

bool Pump::run_injecting() {
  std::string line;          // the line being read: whole up to max_line bytes, with its CR
  std::size_t seen = 0;      // its length so far
  bool streaming = false;    // longer than max_line: forwarded as it comes, no rule applied
  char buf[65536];
  auto forward = [&](std::string_view bytes) {
    if (!to_failed && !bytes.empty() && !io::write_all(to, bytes)) to_failed = true;
  };
  auto emit_cut = [&] {
    Event e;
    e.kind = Event::Kind::line;
    e.dir = dir;
    e.unix_ns = now_unix_ns();
    e.cut = true;
    e.size = seen;
    e.bytes = std::move(line);
    line.clear();
    seen = 0;
    streaming = false;
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
    std::string_view rest(buf, static_cast<std::size_t>(n));
    while (!rest.empty()) {
      const std::size_t nl = rest.find('\n');
      const std::string_view part = rest.substr(0, nl);
      seen += part.size();
      if (streaming) {
        forward(part);
      } else if (line.size() + part.size() > max_line) {
        streaming = true;
        forward(line);
        forward(part);
        line.append(part.substr(0, max_line - line.size()));
      } else {
        line.append(part);
      }
      if (nl == std::string_view::npos) break;
      rest.remove_prefix(nl + 1);
      if (streaming) {
        forward("\n");
        emit_cut();
      } else if (line.empty() || line == "\r") {
        // A blank line is no message and no fault: forwarded, not recorded (as run() does).
        line += '\n';
        forward(line);
        line.clear();
        seen = 0;
      } else {
        const std::string_view text = line.back() == '\r' ? std::string_view(line).substr(0, line.size() - 1)
                                                          : std::string_view(line);
        inject_line(text, line, now_unix_ns(), true);
        line.clear();
        seen = 0;
      }
    }
  }
  if (seen > 0) {  // the last line, without its newline
    if (streaming) {
      emit_cut();
    } else {
      // Decided on as the others; forwarded without the newline it never had.
      const std::string_view text = line.back() == '\r' ? std::string_view(line).substr(0, line.size() - 1)
                                                        : std::string_view(line);
      inject_line(text, line, now_unix_ns(), false);
    }
  }
  return true;
}

bool Pump::run() {
  if (injector != nullptr && dir == Dir::c2s) return run_injecting();
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
    if (injector != nullptr && injector->wants_server_lines()) injector->on_server_line(line);
    e.bytes = std::move(line);
    line.clear();
    seen = 0;
    queue->push(std::move(e));
  };
  struct Done {  // the server's output ended: the wrapper's lines no longer wait for its line end
    HostOut* host;
    ~Done() {
      if (host != nullptr) host->server_done();
    }
  } done{host};
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
    if (!to_failed && !(host != nullptr ? host->write_chunk(chunk) : io::write_all(to, chunk))) to_failed = true;
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
