// `--follow` (issue 16): a JSON Lines log followed as it grows, as `tail -F` follows a file.
#pragma once

#include <chrono>
#include <optional>
#include <span>
#include <string>

#include "io/source.hpp"

namespace mcptriage::io {

/// Follows the run's one input, a JSON Lines log (an exchange log or a JSON-RPC message stream)
/// in a regular file, as it grows: what is there is fed, then each line as it is written, in
/// blocks of whole lines (Feed::lines with `follow`), so that the pipeline pairs and numbers
/// them as one read of everything read would (the records are those of one read of the same
/// bytes, written as their exchanges complete). The file is looked at every `poll` once it has
/// been read to its end:
///   - rotated (the path names another file: renamed and recreated): the old file is read to its
///     end, then the path is opened and read from its start; while the path names no file, the
///     old one is still read;
///   - truncated (smaller than what was read of it): it is read again from its start;
///   - at a rotation or a truncation, a last line without its line end is read as a line.
/// Lines go on being numbered across rotations and truncations (one log).
/// The follow ends when `signal_fd` becomes readable (SIGINT, SIGTERM, SIGHUP: the file is read
/// to its end first), after `idle` without growth, after `total`, or when the run stops; what was
/// read is then fed as the log's last block (exchanges still waiting are given up as at the end
/// of a log). Memory: the unfinished last line and the lines the pipeline keeps for exchanges still
/// waiting (pipeline.cpp), not the log.
/// A file not there yet (ENOENT) is waited for, as `tail -F` does, until it appears or the follow
/// ends (then "no such file: it did not appear while it was awaited").
/// Errors (Feed::failed, the run's exit 3): the file cannot be opened or read, is no regular file,
/// its first lines are no JSON Lines log ("... is not a JSON Lines log: --follow reads exchange
/// logs and JSON-RPC message streams"), or a line is longer than `sizes.max_input`. A head too
/// short to tell when the follow ends is fed as one document, as one read would read it.
class FollowSource final : public Source {
 public:
  struct Options {
    FileSource::Sizes sizes;  ///< `max_input`: the longest line; `block`: lines are fed in blocks of about this size
    std::chrono::milliseconds poll{200};             ///< the wait between looks at a file read to its end
    std::optional<std::chrono::milliseconds> idle;   ///< `--idle-timeout`: end when the file did not grow for this long
    std::optional<std::chrono::milliseconds> total;  ///< `--timeout`: end this long after the start
    int signal_fd = -1;                              ///< readable when a signal ends the follow (-1: none)
  };
  FollowSource(std::span<const Input> inputs, Options options) : inputs_(inputs), options_(options) {}
  /// Follows `inputs[0]` (the run's one input; a file by its path).
  void produce(Feed& feed) override;

 private:
  std::span<const Input> inputs_;
  Options options_;
};

}  // namespace mcptriage::io
