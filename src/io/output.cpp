// Checked writes to descriptors and files (output.hpp).
#include "io/output.hpp"

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace mcptriage::io {

void write_all(int fd, std::string_view bytes, std::string_view name) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n >= 0) {
      bytes.remove_prefix(static_cast<std::size_t>(n));
      continue;
    }
    if (errno == EINTR) continue;
    if (errno == EAGAIN || errno == EWOULDBLOCK) {
      pollfd p{fd, POLLOUT, 0};
      if (::poll(&p, 1, -1) >= 0 || errno == EINTR) continue;
    }
    const int err = errno;
    if (err == EPIPE) throw OutputError(OutputError::Kind::closed, std::string(name) + " was closed");
    throw OutputError(OutputError::Kind::failed, "cannot write " + std::string(name) + ": " + std::strerror(err));
  }
}

void FdOutput::write_out(std::string_view bytes) { write_all(fd_, bytes, name_); }

FileOutput::~FileOutput() {
  if (fd_ >= 0) ::close(fd_);
}

void FileOutput::close() {
  flush();
  if (fd_ < 0) return;
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0 && errno != EINTR) {
    throw OutputError(OutputError::Kind::failed, "cannot write " + what_ + " " + path_ + ": " + std::strerror(errno));
  }
}

void FileOutput::write_out(std::string_view bytes) {
  const std::string name = what_ + " " + path_;
  if (fd_ < 0) {
    do {
      fd_ = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    } while (fd_ < 0 && errno == EINTR);
    if (fd_ < 0) {
      throw OutputError(OutputError::Kind::failed, "cannot write " + name + ": " + std::strerror(errno));
    }
  }
  write_all(fd_, bytes, name);
}

}  // namespace mcptriage::io
