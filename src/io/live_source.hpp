// The live reader of standard input (issue 16): a source that reads a pipe or a terminal as its
// bytes arrive and feeds an exchange the moment it can be judged, not at the end of the input.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <optional>
#include <span>
#include <string>

#include "io/source.hpp"
#include "mcptriage/capture.hpp"
#include "mcptriage/classify.hpp"

namespace mcptriage::io {

/// Reads standard input live when it is the run's one input and a pipe, a socket or a
/// terminal. An HTTP capture (curl -i: a status line, headers, then a body) is fed as one
/// `Feed::exchanges(..., live=true)` batch as soon as it is decidable:
///   - a `text/event-stream` body: the event that decides it (the final response, by the same
///     SseJudge that classify() uses) has arrived; the record is the offline record of the bytes
///     up to that event's end, and what follows is read and left (it is not judged). Past the
///     first kKeptStreamBytes (1 MiB) of a plain event-stream body, its events are judged as they
///     come and dropped: only the block being read is kept (memory flat on endless streams,
///     docs/output.md "Memory on endless streams"), and the exchange carries the verdict
///     (Exchange::judged), equal to the offline one of the same bytes;
///   - a body with Content-Length: all of it has arrived;
///   - otherwise (no length, a redirect, a coding): the end of the input.
/// A signal (a byte on `signal_fd`), `idle` without a byte, or `total` since the input began end
/// the wait: the bytes so far are judged, their last exchange marked (Exchange::live_end) so that
/// the classifier names the cause. A bare event stream (`curl -sN` without -i: the input starts
/// with an SSE field, `data:`, `event:`, `id:`, `retry:` or a `:` comment) is read the same way,
/// its events judged as they come (not summarised past 1 MiB). No byte at all before `idle` or
/// `total` is an input error ("no byte arrived before the --idle-timeout ..."), never an empty
/// run. Anything else (a JSON Lines log, a bare JSON body, a HAR) goes to a FileSource with the
/// bytes read so far, which reads to the end of the input (the deadlines do not apply to it). Scanning is linear: only new bytes are looked
/// at for the end of the headers and of each event.
class LiveSource final : public Source {
 public:
  struct Options {
    FileSource::Sizes sizes;        ///< `--max-input` and the FileSource of other inputs
    CaptureOptions capture;         ///< for read_capture
    ContextFlags flags;             ///< the request context (`--id`, `--request`)
    long long now = 0;              ///< the run's clock (SseJudge)
    std::optional<std::chrono::milliseconds> idle;   ///< `--idle-timeout`
    std::optional<std::chrono::milliseconds> total;  ///< `--timeout`
    int signal_fd = -1;             ///< readable when a signal ended the wait (-1: none)
    /// `--events` (or a table on a terminal): each event of an event stream is fed as it arrives
    /// (Feed::event: priming events, progress, log messages, server requests, responses).
    bool events = false;
    /// Called when the input is no HTTP capture and goes to a FileSource, whose reads no signal
    /// ends: the caller puts the signals' dispositions back (Ctrl-C ends the run as before).
    std::function<void()> not_live;
  };
  LiveSource(std::span<const Input> inputs, Options options) : inputs_(inputs), options_(std::move(options)) {}
  void produce(Feed& feed) override;

  /// Whether `inputs` are read live: one input, standard input, a pipe, a socket or a terminal.
  static bool applies(std::span<const Input> inputs);

 private:
  std::span<const Input> inputs_;
  Options options_;
};

}  // namespace mcptriage::io
