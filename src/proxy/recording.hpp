// `--record FILE`: the exchanges as they complete, in a format mcptriage reads back. `.jsonl`
// (or `.ndjson`): one exchange-log line per exchange, written with one write(2) each by the
// triage thread; after a crash or SIGKILL the exchanges in flight and those still queued for the
// triage thread are lost, and a kill during a large write can cut the last line (docs/proxy.md,
// "Recordings"). `.har`: HAR 1.2, entries written as they complete and the document closed on
// exit (also on SIGINT and SIGTERM). Both are created mode 0600 (they hold what the client sent),
// never through a symbolic link.
#pragma once

#include <expected>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace mcptriage::proxy {

class Recording {
 public:
  enum class Kind { jsonl, har };

  /// Creates (or truncates) `path`, mode 0600. Never follows a symbolic link at `path` (a link,
  /// dangling or not, is refused: O_NOFOLLOW) and writes only a regular file with one link (a
  /// FIFO, device or a file hard-linked elsewhere is refused); docs/security.md. Error: one line
  /// (a usage error for an unknown extension, else why the file cannot be made: exit 3).
  static std::expected<std::unique_ptr<Recording>, std::string> open(const std::string& path);
  /// The kind `path`'s extension asks for, or nullopt.
  static std::optional<Kind> kind_of(std::string_view path);
  ~Recording();
  Recording(const Recording&) = delete;
  Recording& operator=(const Recording&) = delete;

  Kind kind() const { return kind_; }
  const std::string& path() const { return path_; }
  /// One exchange: its JSON Lines line (for .jsonl) or its HAR entry (for .har).
  void write(std::string_view line, std::string_view har_entry);
  /// Completes the file (the HAR's closing brackets) and closes it. Idempotent.
  void close();
  /// A write failed (disk full): the message, once; later exchanges are not recorded.
  const std::string& error() const { return error_; }

 private:
  Recording(int fd, Kind kind, std::string path) : fd_(fd), kind_(kind), path_(std::move(path)) {}
  bool write_all(std::string_view bytes);

  int fd_ = -1;
  Kind kind_;
  std::string path_;
  bool first_ = true;
  std::string error_;
};

}  // namespace mcptriage::proxy
