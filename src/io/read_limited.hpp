// Bounded input reading: a file or a descriptor (stdin) read up to a limit, and reads that a
// stopping run can interrupt.
#pragma once

#include <cstddef>
#include <expected>
#include <string>
#include <sys/types.h>

namespace mcptriage::io {

/// Why an input could not be read: the system's error text, or "larger than the limit".
struct ReadError {
  enum class Kind {
    io,         ///< the system said no (`message`: its strerror text)
    too_large,  ///< more than the limit
    stopped,    ///< the run stopped while waiting for bytes (`stop_fd` became readable)
  } kind = Kind::io;
  std::string message;  ///< one line, e.g. "No such file or directory" or the too-large text
};

/// Reads everything from `fd` (not closed), keeping at most `limit` bytes. Stops reading as
/// soon as the input proves larger (one byte past the limit), so an endless or huge stream
/// costs at most `limit` bytes of memory (plus 1 MiB), never twice that. Retries on EINTR.
/// `head`: bytes already read from `fd` (a sniffed beginning); they count toward the limit and
/// start the result. `stop_fd`: see read_interruptible (-1: a plain read).
std::expected<std::string, ReadError> read_fd_limited(int fd, std::size_t limit, std::string head = {},
                                                      int stop_fd = -1);

/// Opens `path` and reads it like read_fd_limited; a regular file larger than `limit` is
/// refused from its size alone, without reading it.
std::expected<std::string, ReadError> read_file_limited(const std::string& path, std::size_t limit);

/// read(2) of at most `n` bytes into `p`, retried on EINTR. With `stop_fd` >= 0 it first waits
/// (poll(2)) for `fd` or `stop_fd`, whichever is readable first, so that a read from a pipe or a
/// terminal that may wait for ever ends when the run stops: then -1 with errno ECANCELED.
/// Returns the bytes read (0 at the end), or -1 with errno.
ssize_t read_interruptible(int fd, char* p, std::size_t n, int stop_fd);

/// "input is larger than --max-input (N bytes); raise the limit with --max-input BYTES"
std::string too_large_message(std::size_t limit);

}  // namespace mcptriage::io
