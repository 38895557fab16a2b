// Bounded input reading: read(2) into one growing buffer that never passes the limit.
#include "io/read_limited.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <vector>

#include "json/dom.hpp"

namespace mcptriage::io {

namespace {

constexpr std::size_t kFirstChunk = 64 * 1024;

std::unexpected<ReadError> io_error(int err) {
  if (err == ECANCELED) return std::unexpected(ReadError{ReadError::Kind::stopped, "stopped"});
  return std::unexpected(ReadError{ReadError::Kind::io, std::strerror(err)});
}

std::unexpected<ReadError> too_large(std::size_t limit) {
  return std::unexpected(ReadError{ReadError::Kind::too_large, too_large_message(limit)});
}

/// One 1 MiB block of a pipe's bytes, mapped directly so that freeing it during the join gives
/// the memory back to the system at once (malloc would keep it, doubling the peak).
class Block {
 public:
  static constexpr std::size_t kSize = std::size_t{1} << 20;
  Block() {
    void* p = ::mmap(nullptr, kSize, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    data_ = static_cast<char*>(p);
  }
  Block(const Block&) = delete;
  Block& operator=(const Block&) = delete;
  ~Block() { ::munmap(data_, kSize); }
  char* data() const { return data_; }

 private:
  char* data_;
};

/// Reads `fd` to its end, refusing more than `limit` bytes. A regular file (`size_hint` > 0)
/// is read straight into a buffer of its size. A pipe is read into 1 MiB blocks that are joined
/// once at the end, so memory never holds more than `limit` bytes plus one block while reading
/// and the input plus one block while joining (no doubling, no zero-filling).
std::expected<std::string, ReadError> read_all(int fd, std::size_t limit, std::size_t size_hint, std::string head,
                                               int stop_fd) {
  constexpr std::size_t kBlock = Block::kSize;
  std::vector<std::unique_ptr<Block>> blocks;
  std::size_t total = head.size();
  if (total > limit) return too_large(limit);
  std::size_t in_last = kBlock;  // bytes used in the last block
  // Small inputs and regular files: one buffer, no join. Bytes already read come first.
  std::string first = std::move(head);
  std::size_t used = first.size();
  if (used == 0) {
    const std::size_t want = std::min(size_hint > 0 ? size_hint + 1 : kFirstChunk, limit == SIZE_MAX ? limit : limit + 1);
    first.reserve(want + json::kPadding);  // a large document is then parsed in place (CaptureOptions::padded)
    first.resize(want);
  }
  while (true) {
    char* dst;
    std::size_t room;
    if (used < first.size()) {
      dst = first.data() + used;
      room = first.size() - used;
    } else {
      if (in_last == kBlock) {
        blocks.push_back(std::make_unique<Block>());
        in_last = 0;
      }
      dst = blocks.back()->data() + in_last;
      room = kBlock - in_last;
    }
    const ssize_t n = read_interruptible(fd, dst, room, stop_fd);
    if (n < 0) return io_error(errno);
    if (n == 0) break;
    const auto got = static_cast<std::size_t>(n);
    total += got;
    if (total > limit) return too_large(limit);  // stop reading: the rest is never looked at
    if (used < first.size()) {
      used += got;
      // A regular file read to the size fstat gave: no further read for its end (a folder of
      // many small captures pays a system call per file for it). A file that grew since is
      // read as it was then, as if it had been read a moment earlier.
      if (size_hint > 0 && used == size_hint && blocks.empty()) break;
    } else {
      in_last += got;
    }
  }
  if (blocks.empty()) {
    first.resize(used);
    if (first.capacity() - used > 4096) first.shrink_to_fit();  // not for the one spare byte of a sized read
    return first;
  }
  std::string out;
  out.reserve(total + json::kPadding);
  out.append(first.data(), used);
  std::string().swap(first);
  for (std::size_t b = 0; b < blocks.size(); ++b) {
    out.append(blocks[b]->data(), b + 1 == blocks.size() ? in_last : kBlock);
    blocks[b].reset();
  }
  return out;
}

}  // namespace

std::string too_large_message(std::size_t limit) {
  return "input is larger than --max-input (" + std::to_string(limit) +
         " bytes); raise the limit with --max-input BYTES";
}

ssize_t read_interruptible(int fd, char* p, std::size_t n, int stop_fd) {
  for (;;) {
    if (stop_fd >= 0) {
      pollfd fds[2] = {{fd, POLLIN, 0}, {stop_fd, POLLIN, 0}};
      const int ready = ::poll(fds, 2, -1);
      if (ready < 0) {
        if (errno == EINTR) continue;
        return -1;
      }
      if (fds[1].revents != 0) {
        errno = ECANCELED;
        return -1;
      }
    }
    const ssize_t got = ::read(fd, p, n);
    if (got < 0 && errno == EINTR) continue;
    return got;
  }
}

std::expected<std::string, ReadError> read_fd_limited(int fd, std::size_t limit, std::string head, int stop_fd) {
  struct stat st {};
  std::size_t hint = 0;
  if (head.empty() && ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
    hint = static_cast<std::size_t>(st.st_size);
    if (hint > limit) return too_large(limit);
  }
  return read_all(fd, limit, hint, std::move(head), hint > 0 ? -1 : stop_fd);
}

std::expected<std::string, ReadError> read_file_limited(const std::string& path, std::size_t limit) {
  int fd;
  do {
    fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  } while (fd < 0 && errno == EINTR);
  if (fd < 0) return io_error(errno);
  // One fstat for both questions: a folder, and the size to read into (read_fd_limited).
  struct stat st {};
  std::size_t hint = 0;
  if (::fstat(fd, &st) == 0) {
    if (S_ISDIR(st.st_mode)) {
      ::close(fd);
      return io_error(EISDIR);
    }
    if (S_ISREG(st.st_mode) && st.st_size > 0) {
      hint = static_cast<std::size_t>(st.st_size);
      if (hint > limit) {
        ::close(fd);
        return too_large(limit);
      }
    }
  }
  auto result = read_all(fd, limit, hint, std::string(), -1);
  ::close(fd);
  return result;
}

}  // namespace mcptriage::io
