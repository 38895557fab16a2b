// Input sources: where a run's exchanges come from. A source hands the pipeline (pipeline.hpp)
// the inputs' bytes or exchanges in order through a Feed; the pipeline reads, classifies and
// numbers them. The command line's files and standard input are a FileSource; the live reader
// of standard input (live_source.hpp) and the proxy feed exchanges as they complete
// (Feed::exchanges, with `live` set); a log followed as it grows (follow_source.hpp) feeds
// blocks of lines as they are written (Feed::lines, with `follow` set).
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "mcptriage/exchange.hpp"
#include "mcptriage/output.hpp"

namespace mcptriage::io {

/// One input of a run.
struct Input {
  std::string name = {};  ///< display name: the path as given or walked, "stdin" for standard input
  std::string path = {};  ///< "" for standard input (and for inputs with no file, such as the proxy)
  std::string body_path = {};  ///< a response body saved apart (curl -v stdout, `--body`); "" for none
  /// For a file found by a folder walk: its request sidecar (`X.request.json`) as the walk saw
  /// it, "" for none, so that a folder of many files costs no file-system lookup per file;
  /// nullopt: look beside the file (inputs.hpp, context_for).
  std::optional<std::string> walked_sidecar = std::nullopt;
  std::optional<std::size_t> manifest_entry = std::nullopt;  ///< the manifest line it came from
};

/// What a source hands the pipeline, in the order of its inputs (and, within an input, in the
/// order of its bytes). Calls for one input come together; an input may end with failed().
/// Called on the pipeline's producer thread. Once the run stops (its output was closed), every
/// call throws, so that the source unwinds at once (keep resources in RAII holders).
class Feed {
 public:
  virtual ~Feed() = default;
  /// A regular file of the input, read whole by a worker (small files: Input::path).
  virtual void file(std::size_t input) = 0;
  /// The input read whole: one capture document.
  virtual void document(std::size_t input, std::string bytes) = 0;
  /// Whole lines of a JSON Lines log: `first_line` lines of it came before, `last` ends the
  /// log. Leave kPadding (json/dom.hpp) spare bytes allocated after them: they are parsed in place.
  /// `follow`: the log is followed as it grows (`--follow`, follow_source.hpp): its records
  /// must reach the output at once (RecordSink::flush), read as one read of the log reads them.
  virtual void lines(std::size_t input, std::string block, std::size_t first_line, bool last, bool follow) = 0;
  /// Exchanges already read (a live source, the proxy), numbered on from the input's earlier
  /// ones. `live`: their records must reach the output at once (RecordSink::flush).
  virtual void exchanges(std::size_t input, std::vector<Exchange> exchanges, bool live) = 0;
  /// An event of the exchange being read live (StreamEvent::source.exchange: 1 for the next
  /// exchange fed, 2 for the one after); given to the sinks at once, before that exchange's record.
  virtual void event(std::size_t input, StreamEvent event) {
    (void)input;
    (void)event;
  }
  /// The input could not be read further; what was fed of it stands.
  virtual void failed(std::size_t input, std::string why) = 0;
  /// A descriptor that becomes readable when the run stops: wait on it beside a read that may
  /// block (io::read_interruptible), which then fails with ECANCELED; return at once.
  virtual int stop_fd() const = 0;
  /// A buffer to read a block into: one the output side is done with, or a new one.
  virtual std::string buffer() = 0;
};

/// A producer of inputs.
class Source {
 public:
  virtual ~Source() = default;
  /// Feeds every input, in order; returns when there is no more.
  virtual void produce(Feed& feed) = 0;
};

/// The command line's inputs (files, walked folders' files, standard input): small regular
/// files are left to the workers to read; larger files and standard input are read here, a
/// JSON Lines log in blocks of whole lines (bounded memory whatever its size), anything else
/// whole up to `max_input`.
class FileSource final : public Source {
 public:
  struct Sizes {
    std::size_t max_input = 0;       ///< `--max-input`: one document, or one line of a log
    std::size_t block = 0;           ///< a JSON Lines log is read in blocks of about this many bytes
    std::size_t whole_file_max = 0;  ///< files up to this size are read whole by a worker
    /// Row mode (`stats --rows`): the whole lines of each read of a JSON Lines log from a pipe
    /// are fed at once, and their records flushed (Feed::lines with `follow`), instead of
    /// waiting for a block: a ClickHouse executable_pool sends a few rows and waits for theirs.
    bool eager = false;
  };
  FileSource(std::span<const Input> inputs, Sizes sizes) : inputs_(inputs), sizes_(sizes) {}
  void produce(Feed& feed) override;
  /// Bytes already read from standard input (a live reader's sniff): they start its input.
  void set_stdin_head(std::string head) { stdin_head_ = std::move(head); }

 private:
  void stream(std::size_t input, Feed& feed);
  std::span<const Input> inputs_;
  Sizes sizes_;
  std::string stdin_head_;
};

}  // namespace mcptriage::io
