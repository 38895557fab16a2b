// The wrapper as a source of the run core (src/triage): each line the relay saw becomes a line of
// the recording (record_line.hpp), written to --record and fed to the core as a line of a JSON
// Lines log followed as it grows, so that the records are those `mcptriage RECORDING` gives.
#pragma once

#include <cstddef>
#include <exception>
#include <functional>
#include <memory>
#include <string>

#include "io/source.hpp"
#include "json/dom.hpp"
#include "proxy/recording.hpp"
#include "triage/core.hpp"
#include "wrap/relay.hpp"

namespace mcptriage::wrap {

/// What went through the wrapper, for its summary.
struct Counts {
  std::size_t to_server = 0;     ///< lines from the host to the server
  std::size_t to_host = 0;       ///< lines from the server to the host
  std::size_t not_messages = 0;  ///< lines of either that are no JSON-RPC message
  std::size_t from_wrapper = 0;  ///< lines --inject wrote to the host in the server's place
  std::size_t bytes_to_server = 0;
  std::size_t bytes_to_host = 0;
  bool input_closed = false;     ///< the host closed the server's input
};

/// Runs on the triage thread (the core's, with `jobs` 1): until the queue closes, every event's
/// recording line is written (`recording`, may be null) and fed; all the events of one wake-up
/// are fed as one block of lines. An OutputError of the core (the records' output failing) stops
/// the judging, not the recording; it is rethrown at the end.
class WrapSource final : public io::Source {
 public:
  WrapSource(EventQueue& queue, proxy::Recording* recording) : queue_(queue), recording_(recording) {}
  void produce(io::Feed& feed) override;
  const Counts& counts() const { return counts_; }

 private:
  EventQueue& queue_;
  proxy::Recording* recording_;
  json::Parser parser_;
  Counts counts_;
  std::exception_ptr failed_;
};

}  // namespace mcptriage::wrap
