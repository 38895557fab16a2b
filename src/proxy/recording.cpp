// Recordings (recording.hpp): files written with POSIX calls, so that each exchange is in the
// file the moment write(2) returns.
#include "proxy/recording.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <optional>

#include "render/har_write.hpp"

namespace mcptriage::proxy {

namespace {
constexpr const char* kNotRegular = "is not a regular file (a FIFO, device or socket); give a file to write";
}  // namespace

std::optional<Recording::Kind> Recording::kind_of(std::string_view path) {
  if (path.ends_with(".jsonl") || path.ends_with(".ndjson")) return Kind::jsonl;
  if (path.ends_with(".har")) return Kind::har;
  return std::nullopt;
}

std::expected<std::unique_ptr<Recording>, std::string> Recording::open(const std::string& path) {
  const auto kind = kind_of(path);
  if (!kind) return std::unexpected("--record " + path + ": the file name must end in .jsonl (or .ndjson) or .har");
  // Never through a symbolic link (O_NOFOLLOW: the open fails on a link, a dangling one too, so
  // that a link planted at the path cannot make the proxy truncate, rewrite or chmod a file
  // elsewhere), and never a FIFO, device or directory (O_NONBLOCK: a FIFO does not block the
  // open; fstat then refuses it). Truncated only once it is known to be a regular file.
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0600);
  if (fd < 0) {
    const int err = errno;
    struct stat lst {};
    if (::lstat(path.c_str(), &lst) == 0) {
      if (S_ISLNK(lst.st_mode)) {
        return std::unexpected("--record " + path +
                               ": is a symbolic link; the proxy does not write through links (name the file itself)");
      }
      if (!S_ISREG(lst.st_mode) && !S_ISDIR(lst.st_mode)) {  // a FIFO without a reader: ENXIO
        return std::unexpected("--record " + path + ": " + kNotRegular);
      }
    }
    return std::unexpected("--record " + path + ": " + std::strerror(err));
  }
  auto refuse = [&](const std::string& why) -> std::expected<std::unique_ptr<Recording>, std::string> {
    ::close(fd);
    return std::unexpected("--record " + path + ": " + why);
  };
  struct stat st {};
  if (::fstat(fd, &st) != 0) return refuse(std::strerror(errno));
  if (!S_ISREG(st.st_mode)) return refuse(kNotRegular);
  if (st.st_nlink > 1) {
    return refuse("has " + std::to_string(st.st_nlink) +
                  " hard links; the proxy does not rewrite a file that is also elsewhere (remove it or name another)");
  }
  if (::ftruncate(fd, 0) != 0) return refuse(std::strerror(errno));
  if (const int flags = ::fcntl(fd, F_GETFL); flags < 0 || ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0) {
    return refuse(std::strerror(errno));
  }
  // An existing file keeps its mode through the truncation: made 0600 like a new one.
  if (::fchmod(fd, 0600) != 0) return refuse(std::string("cannot make it mode 0600: ") + std::strerror(errno));
  std::unique_ptr<Recording> r(new Recording(fd, *kind, path));
  if (*kind == Kind::har &&
      !r->write_all(har_log_head("mcptriage proxy"))) {
    return std::unexpected("--record " + path + ": " + r->error_);
  }
  return r;
}

Recording::~Recording() { close(); }

bool Recording::write_all(std::string_view bytes) {
  if (fd_ < 0 || !error_.empty()) return false;
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd_, bytes.data(), bytes.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      error_ = std::strerror(errno);
      return false;
    }
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

void Recording::write(std::string_view line, std::string_view har_entry) {
  if (kind_ == Kind::jsonl) {
    std::string text;
    text.reserve(line.size() + 1);
    text.append(line).push_back('\n');
    write_all(text);  // one write(2): the line is whole in the file or not there
    return;
  }
  std::string text;
  text.reserve(har_entry.size() + 2);
  if (!first_) text += ",\n";
  text += har_entry;
  first_ = false;
  write_all(text);
}

void Recording::close() {
  if (fd_ < 0) return;
  if (kind_ == Kind::har) write_all(har_log_tail(!first_));
  ::close(fd_);
  fd_ = -1;
}

}  // namespace mcptriage::proxy
