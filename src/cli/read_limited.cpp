// Bounded input reading: read(2) into one growing buffer that never passes the limit.
#include "cli/read_limited.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace mcptriage::cli {

namespace {

constexpr std::size_t kFirstChunk = 64 * 1024;

std::unexpected<ReadError> io_error(int err) { return std::unexpected(ReadError{ReadError::Kind::io, std::strerror(err)}); }

std::unexpected<ReadError> too_large(std::size_t limit) {
  return std::unexpected(ReadError{ReadError::Kind::too_large, too_large_message(limit)});
}

/// Reads `fd` to its end into `out`, refusing more than `limit` bytes. `size_hint` (the size of
/// a regular file, 0 when unknown) sizes the buffer once.
std::expected<std::string, ReadError> read_all(int fd, std::size_t limit, std::size_t size_hint) {
  std::string out;
  // One byte past the limit tells "exactly the limit" from "more than the limit".
  const std::size_t cap = limit == static_cast<std::size_t>(-1) ? limit : limit + 1;
  std::size_t used = 0;
  out.resize(std::min(cap, size_hint > 0 ? size_hint + 1 : kFirstChunk));
  while (true) {
    if (used == out.size()) {
      if (out.size() >= cap) break;
      out.resize(std::min(cap, std::max(out.size() * 2, kFirstChunk)));
    }
    const ssize_t n = ::read(fd, out.data() + used, out.size() - used);
    if (n < 0) {
      if (errno == EINTR) continue;
      return io_error(errno);
    }
    if (n == 0) break;
    used += static_cast<std::size_t>(n);
  }
  if (used > limit) return too_large(limit);
  out.resize(used);
  out.shrink_to_fit();
  return out;
}

}  // namespace

std::string too_large_message(std::size_t limit) {
  return "input is larger than --max-input (" + std::to_string(limit) +
         " bytes); raise the limit with --max-input BYTES";
}

std::expected<std::string, ReadError> read_fd_limited(int fd, std::size_t limit) {
  struct stat st {};
  std::size_t hint = 0;
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
    hint = static_cast<std::size_t>(st.st_size);
    if (hint > limit) return too_large(limit);
  }
  return read_all(fd, limit, hint);
}

std::expected<std::string, ReadError> read_file_limited(const std::string& path, std::size_t limit) {
  int fd;
  do {
    fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  } while (fd < 0 && errno == EINTR);
  if (fd < 0) return io_error(errno);
  struct stat st {};
  if (::fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
    ::close(fd);
    return io_error(EISDIR);
  }
  auto result = read_fd_limited(fd, limit);
  ::close(fd);
  return result;
}

}  // namespace mcptriage::cli
