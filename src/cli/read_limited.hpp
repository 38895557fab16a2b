// Bounded input reading for the CLI: a file or a descriptor (stdin) read up to a limit.
#pragma once

#include <cstddef>
#include <expected>
#include <string>

namespace mcptriage::cli {

/// Why an input could not be read: the system's error text, or "larger than the limit".
struct ReadError {
  enum class Kind { io, too_large } kind = Kind::io;
  std::string message;  ///< one line, e.g. "No such file or directory" or the too-large text
};

/// Reads everything from `fd` (not closed), keeping at most `limit` bytes. Stops reading as
/// soon as the input proves larger (one byte past the limit), so an endless or huge stream
/// costs at most `limit` bytes of memory (plus 1 MiB), never twice that. Retries on EINTR.
/// `head`: bytes already read from `fd` (a sniffed beginning); they count toward the limit and
/// start the result.
std::expected<std::string, ReadError> read_fd_limited(int fd, std::size_t limit, std::string head = {});

/// Opens `path` and reads it like read_fd_limited; a regular file larger than `limit` is
/// refused from its size alone, without reading it.
std::expected<std::string, ReadError> read_file_limited(const std::string& path, std::size_t limit);

/// "input is larger than --max-input (N bytes); raise the limit with --max-input BYTES"
std::string too_large_message(std::size_t limit);

}  // namespace mcptriage::cli
