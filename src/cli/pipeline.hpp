// The CLI's input pipeline: reads, recognises and classifies the inputs on `--jobs` threads and
// hands the records back in input order; JSON Lines logs are read in blocks split at line ends,
// so that a log of any size is read in bounded memory and split across the threads
// (docs/performance.md).
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "mcptriage/capture.hpp"
#include "mcptriage/classify.hpp"
#include "mcptriage/render.hpp"

namespace mcptriage::cli {

/// One input of a run.
struct PipelineInput {
  std::string name;  ///< display name (records' `source` prefix)
  std::string path;  ///< "" for standard input
  std::string body_path = {};  ///< a response body saved apart (curl -v stdout, `--body`); "" for none
};

struct PipelineOptions {
  CaptureOptions capture;            ///< `--status`, `--max-body`; `--max-input` bounds one document
                                     ///< (a whole input, or one line of a JSON Lines log)
  unsigned jobs = 1;                 ///< worker threads; 1 runs everything on the calling thread
  /// JSON Lines logs are read in blocks of about this size (bytes), and files larger than it go
  /// through block reading; 0: blocks of default_block_size(jobs), files over 512 KiB.
  std::size_t block_size = 0;
};

/// What the consumer gets: all the records of one input, or the next part of a JSON Lines log.
struct Batch {
  std::size_t input = 0;             ///< index into the inputs
  std::optional<std::string> error;  ///< the input could not be read or recognised (records so far stand)
  std::vector<Record> records;       ///< in exchange order
  bool first = true;                 ///< the first batch of this input
};

/// Turns one exchange into its records (one, or one per batch element). Called on worker threads.
using RecordsOf = std::function<void(const Exchange& exchange, const ContextFlags& flags, std::vector<Record>& out)>;
/// The request context of input `i` (`--id`, `--request`, a `.request.json` beside it). Called on worker threads.
using FlagsFor = std::function<ContextFlags(std::size_t input)>;

/// Runs every input through reading, format detection and classification and calls `consume`
/// on the calling thread with the batches in input order and exchange order. The records, their
/// `source` numbering and their order are the same whatever `jobs` is. Memory stays bounded by
/// the block size and `jobs` for JSON Lines logs and folders, whatever their size; any other
/// input is held whole while it is read.
void run_pipeline(const std::vector<PipelineInput>& inputs, const PipelineOptions& options, const FlagsFor& flags_for,
                  const RecordsOf& records_of, const std::function<void(Batch&&)>& consume);

/// The block size a run with `jobs` workers reads JSON Lines logs in, in bytes: 128 KiB with one
/// job (a block and its records stay in the core's cache while they are classified: 4-6% less
/// time on the benchmark log than 512 KiB), 512 KiB with more (each block is handed between
/// threads, and smaller blocks cost more hand-overs than they save; docs/performance.md).
std::size_t default_block_size(unsigned jobs);

/// The default of `--jobs`: the number of cores this process may run on (at least 1).
unsigned default_jobs();

}  // namespace mcptriage::cli
