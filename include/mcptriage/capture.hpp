// Capture readers: bytes of one input (file or stdin) in, HTTP exchanges out. No file I/O.
#pragma once

#include <cstddef>
#include <expected>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <span>
#include <string_view>
#include <vector>

#include "mcptriage/exchange.hpp"

namespace mcptriage {

/// Why an input could not be turned into exchanges.
struct CaptureError {
  std::string message;  ///< one line, names what was seen, e.g. "mitmproxy flow file (tnetstring): unsupported"
};

/// Default of `--max-input`: the largest input (file or stdin) read, 512 MiB.
inline constexpr std::size_t kDefaultMaxInput = std::size_t{512} << 20;
/// Default of `--max-body`: the largest response body kept, 256 MiB.
inline constexpr std::size_t kDefaultMaxBody = std::size_t{256} << 20;

/// Options for reading captures (docs/security.md, "Limits").
struct CaptureOptions {
  int assumed_status = 200;  ///< status used when the transport was not captured (`--status`)
  /// `--max-input`: a gzip-compressed input is inflated at most this far (else an error).
  /// The CLI reads no more than this from a file or stdin.
  std::size_t max_input = kDefaultMaxInput;
  /// `--max-body`: the largest response body kept, after de-chunking and gunzip. A longer body
  /// is cut to this many bytes and marked BodyState::truncated, with a warning naming the flag
  /// (so it is never a success); a gzip body stops inflating there.
  std::size_t max_body = kDefaultMaxBody;
  /// The response body saved apart from the capture (`--body FILE`, or the `X-stdout.txt`
  /// beside a curl `-v` `X-stderr.txt`). Read by the curl `-v` reader; other formats ignore
  /// it with a warning. Not owned: must outlive the read_capture call.
  std::optional<std::string_view> separate_body = std::nullopt;
  /// The caller promises 64 readable bytes after the input it passes (it was read with room to
  /// spare), so a large JSON document (a HAR file) is parsed in place instead of copied first.
  bool padded = false;
  /// Row mode (`mcptriage stats --rows`, docs/scale.md): every line of a JSON Lines log gives an
  /// entry, a blank line too (a skipped `invalid_line`), so that each line has its row.
  bool rows = false;
  /// `--key-field NAME`: the member of a JSON Lines log line copied to its exchange
  /// (Exchange::key); "" for none.
  std::string key_field = {};
  /// `--auth on` (the default): the legs of MCP authorization are kept as exchanges marked
  /// Exchange::oauth_leg (docs/auth.md); off: skipped `not_mcp` (HAR, logs) or judged as any body.
  bool auth = true;
};

/// Detects the capture format of `bytes` and reads every exchange in it.
///
/// `name` is the input's display name; each Exchange::source becomes `name#N` (N from 1).
/// Formats (see docs/formats.md): curl `-i`/`-D -` output with any number of header blocks
/// and glued `--next` responses, raw HTTP/1.1 wire bytes (chunked framing removed when it is
/// really there), request-then-response text (HTTPie `-v`, a saved TCP conversation),
/// bare JSON / JSON batch / SSE bodies. A body starting with `1f 8b` is gunzipped (zlib).
/// Errors: empty input, binary or unknown formats, pcap and mitmproxy flow files.
std::expected<std::vector<Exchange>, CaptureError> read_capture(std::string_view bytes,
                                                                std::string_view name,
                                                                const CaptureOptions& options = {});

/// Receives the exchanges of one input in order, a batch at a time (read_capture_batches). The
/// batch may be moved from. `from_start`: the reading started again from the first exchange (a
/// HAR file read a second way, as one document, after its entry-by-entry reading stopped
/// short): drop what the earlier batches gave.
using ExchangeBatches = std::function<void(std::vector<Exchange>& batch, bool from_start)>;

/// read_capture, handing the exchanges over in batches as they are read, so the entries of a
/// large HAR file are never all in memory at once (every other format comes as one batch).
/// The same exchanges as read_capture, in the same order. Returns how many were handed over,
/// or the error, in which case whatever was handed over is to be dropped.
std::expected<std::size_t, CaptureError> read_capture_batches(std::string_view bytes, std::string_view name,
                                                              const CaptureOptions& options,
                                                              const ExchangeBatches& batches);

/// read_capture_batches for a HAR file whose batches are final: the whole document is checked
/// first (capture::har_entries_readable, one more walk of it), so no batch is ever taken back
/// (`from_start` is always false) and each can be classified and written out at once; memory
/// holds the file and its structural index, not a record per entry (docs/performance.md, "One
/// large HAR"). nullopt, with nothing handed over, when `bytes` is not such a file: another
/// format, a compressed or colour-coded one, or a HAR with a fault anywhere in it (read it with
/// read_capture_batches, which says why). Otherwise what read_capture_batches returns; an error
/// then (out of memory, an internal one) comes after batches that stand.
std::optional<std::expected<std::size_t, CaptureError>> read_checked_har_batches(std::string_view bytes,
                                                                                std::string_view name,
                                                                                const CaptureOptions& options,
                                                                                const ExchangeBatches& batches);

// Block-wise reading of JSON Lines logs, so that a log of any size is read in bounded memory and
// by several threads (the CLI's streaming path; docs/performance.md).

/// True when an input whose first bytes are `head` (whole lines, the first two at least) is a
/// JSON Lines log that read_capture would read as one (not gzip, not a terminal recording).
bool is_json_lines(std::string_view head);

/// Some whole lines of a JSON Lines log, read as read_capture reads the whole log; exchanges
/// are numbered from `first_index + 1`. Reading a log block by block gives what one read
/// gives when every block but the last is `self_contained`, the numbering carries on, and
/// the format is "exchange-log" once one block was `wrapped`.
struct LinesBlock {
  std::vector<Exchange> exchanges;
  bool self_contained = true;  ///< no line waits for a later line (a request for its reply, events for their response)
  bool wrapped = false;        ///< some line wraps a message with HTTP facts (format "exchange-log")
  /// With `more_follows`, when the block's end leaves lines waiting: where the lines to read
  /// again with the lines that follow start in `lines` (`exchanges` are those before the first
  /// exchange still waiting, or before the last point where nothing waited). 0: every line was
  /// read.
  std::size_t consumed = 0;
  std::size_t consumed_lines = 0;  ///< the lines of `lines` before that point
  /// Line numbers among the lines to read again that are read as blank: replies already read
  /// into `exchanges`. Pass them as `skip_lines` to the read of those lines.
  std::vector<std::size_t> carry_skip;
};
/// The format of the exchanges of a JSON Lines log: exchange_log once some line wraps a message
/// with HTTP facts (`wrapped`; read block by block: once some block so far was), else
/// jsonrpc_messages. What read_capture names a whole log; the pipeline renames a block's
/// exchanges by it.
CaptureFormat lines_format(bool wrapped);

/// `first_line` is the number of lines of the log before `lines`, so that line numbers in
/// details and warnings count from the start of the log. `padded`: the caller promises that 64
/// allocated bytes (simdjson's SIMDJSON_PADDING, any content) follow `lines` in memory, so each
/// line is parsed where it is instead of being copied first. `more_follows`: the log goes on
/// after `lines` (see LinesBlock::consumed), so a block cut between a request and its reply
/// gives back only its cut end, not the whole block, to read again. `skip_lines`: line numbers
/// (counted as in `first_line`, sorted) read as blank: a LinesBlock::carry_skip.
std::expected<LinesBlock, CaptureError> read_lines_block(std::string_view lines, std::string_view name,
                                                         std::size_t first_index, const CaptureOptions& options = {},
                                                         std::size_t first_line = 0, bool padded = false,
                                                         bool more_follows = false,
                                                         std::span<const std::size_t> skip_lines = {});

/// A JSON Lines log read as it grows, one call per block of whole lines, by one reader kept from
/// one block to the next: no line is read twice, however many requests wait for their replies
/// (a client that pipes thousands at once; read_lines_block's carry reads the lines after the
/// first that waits again with each block). The followed and live logs of the run core use it
/// once a block leaves lines waiting (io/pipeline.cpp); read to the end, a log gives the
/// exchanges read_capture gives, in its order, and the same pairing window (docs/formats.md,
/// "Pairing window").
class LinesStream {
 public:
  /// `first_line`: the lines of the log before the first block read (line numbers in details).
  /// `skip_lines`: line numbers of the first block to read as blank (a LinesBlock::carry_skip).
  LinesStream(std::string name, const CaptureOptions& options, std::size_t first_line = 0,
              std::vector<std::size_t> skip_lines = {});
  ~LinesStream();
  LinesStream(const LinesStream&) = delete;
  LinesStream& operator=(const LinesStream&) = delete;

  /// The next whole lines. Gives the exchanges no later line changes (those before the first
  /// still waiting), each once, numbered from 1 in each call, with `wrapped` once some line of
  /// the log wrapped a message; `consumed` is 0, `self_contained` says whether anything waits.
  /// `padded`: json::kPadding allocated bytes follow `lines`. `last`: the log ends here, and
  /// what waits is given out as the end of a log gives it. Errors: as read_lines_block (a log of
  /// another shape in its first lines, out of memory); the stream is then done.
  std::expected<LinesBlock, CaptureError> read(std::string_view lines, bool padded, bool last);

  /// Everything read was given out and nothing waits for a later line.
  bool quiet() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace mcptriage
