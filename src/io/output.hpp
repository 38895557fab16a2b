// Outputs that write to the system (mcptriage/output.hpp, Output): standard output and report
// files. Every write(2) is checked; the first failure throws OutputError.
#pragma once

#include <string>
#include <string_view>

#include "mcptriage/output.hpp"

namespace mcptriage::io {

/// Writes to an open descriptor it does not own (standard output). A reader that went away
/// (EPIPE; SIGPIPE is ignored) is OutputError::Kind::closed; any other failure is `failed`,
/// "cannot write NAME: REASON" (`name`: "standard output").
class FdOutput final : public Output {
 public:
  FdOutput(int fd, std::string name) : fd_(fd), name_(std::move(name)) {}

 protected:
  void write_out(std::string_view bytes) override;

 private:
  int fd_;
  std::string name_;
};

/// A file, created (or truncated) when first written, so that a run that stops before the end
/// leaves an earlier file alone. Failures: "cannot write WHAT PATH: REASON" (`what`: "JUnit
/// report"). `path` "-" is no file: use the FdOutput of standard output instead.
class FileOutput final : public Output {
 public:
  FileOutput(std::string path, std::string what) : path_(std::move(path)), what_(std::move(what)) {}
  ~FileOutput() override;
  FileOutput(const FileOutput&) = delete;
  FileOutput& operator=(const FileOutput&) = delete;
  /// Closes the file, checked (close(2) reports late write errors, on NFS for one).
  void close();

 protected:
  void write_out(std::string_view bytes) override;

 private:
  std::string path_;
  std::string what_;
  int fd_ = -1;
};

/// Writes all of `bytes` to `fd`, retrying on EINTR and short writes, waiting (poll) while a
/// non-blocking descriptor is full. Throws OutputError: `closed` on EPIPE, else `failed` with
/// "cannot write NAME: REASON".
void write_all(int fd, std::string_view bytes, std::string_view name);

}  // namespace mcptriage::io
