// The pipeline: takes what a source feeds (source.hpp), reads, recognises and classifies it on
// `--jobs` threads and hands the records back in input order; JSON Lines logs are read in blocks
// split at line ends, so that a log of any size is read in bounded memory and split across the
// threads (docs/performance.md). It knows no capture format and no source text: records carry
// SourceRef numbers, and the records of a log read in blocks are renumbered by adding.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "io/source.hpp"
#include "mcptriage/capture.hpp"
#include "mcptriage/classify.hpp"
#include "mcptriage/record.hpp"

namespace mcptriage::io {

struct PipelineOptions {
  CaptureOptions capture;            ///< `--status`, `--max-body`; `--max-input` bounds one document
                                     ///< (a whole input, or one line of a JSON Lines log)
  unsigned jobs = 1;                 ///< worker threads; 1 runs everything on the calling thread
  /// JSON Lines logs are read in blocks of about this size (bytes), and files larger than it go
  /// through block reading; 0: blocks of default_block_size(jobs), files over 512 KiB.
  std::size_t block_size = 0;
};

/// The FileSource sizes `options` ask for.
FileSource::Sizes file_source_sizes(const PipelineOptions& options);

/// What the consumer gets: all the records of one input, or the next part of a log or stream.
struct Batch {
  std::size_t input = 0;             ///< index into the inputs
  std::optional<std::string> error;  ///< the input could not be read or recognised (records so far
                                     ///< stand); no batch of the input follows
  std::vector<Record> records;       ///< in exchange order, numbered across the input's batches
  std::vector<std::string> prepared; ///< a text made beside each record on the worker (Work::records_of),
                                     ///< or empty: dropped where the record was renamed since
  bool first = true;                 ///< the first batch of this input
  bool live = false;                 ///< fed live (Feed::exchanges): output it at once, no session wait
  /// Lines of a log followed as it grows (Feed::lines with `follow`): output it at once, but
  /// with the session rules of one read (the first entry waits for a second).
  bool follow = false;
  std::vector<StreamEvent> events = {};  ///< events of a stream read live (Feed::event), numbered
};

/// The work done on the worker threads for the exchanges of an input.
struct Work {
  /// The request context of input `i` (`--id`, `--request`, a `.request.json` beside it).
  std::function<ContextFlags(std::size_t input)> context;
  /// Turns one exchange, found at `where` (element unset), into its records (one, or one per
  /// batch element), appended to `out`, and a text prepared beside each in `prepared` (or none:
  /// then `prepared` stays empty for every exchange).
  std::function<void(const Exchange& exchange, const ContextFlags& flags, SourceRef where, std::vector<Record>& out,
                     std::vector<std::string>& prepared)>
      records_of;
};

/// Runs what `source` feeds through reading, format detection and classification and calls
/// `consume` on the calling thread with the batches in input order and exchange order. The
/// records, their numbering and their order are the same whatever `jobs` is. Memory stays
/// bounded by the block size and `jobs` for JSON Lines logs and folders, whatever their size;
/// any other input is held whole while it is read. An exception from `consume` stops the run
/// at once (the source's reads are interrupted, the workers end) and leaves run_pipeline.
void run_pipeline(Source& source, std::span<const Input> inputs, const PipelineOptions& options, const Work& work,
                  const std::function<void(Batch&&)>& consume);

/// run_pipeline over a FileSource of `inputs`.
void run_pipeline(std::span<const Input> inputs, const PipelineOptions& options, const Work& work,
                  const std::function<void(Batch&&)>& consume);

/// The block size a run with `jobs` workers reads JSON Lines logs in, in bytes: 128 KiB with one
/// job (a block and its records stay in the core's cache while they are classified: 4-6% less
/// time on the benchmark log than 512 KiB), 512 KiB with more (each block is handed between
/// threads, and smaller blocks cost more hand-overs than they save; docs/performance.md).
std::size_t default_block_size(unsigned jobs);

/// The default of `--jobs`: the number of cores this process may run on (at least 1).
unsigned default_jobs();

}  // namespace mcptriage::io
