// The statistics of a run (`mcptriage stats`, docs/stats.md): every record counted in one cell
// per (server, method, tool, outcome, reason, JSON-RPC error code), with a latency sketch
// (sketch.hpp) per cell; skipped entries, input errors, replays and resends counted apart. The
// rollups by each dimension, the failure rates and the top failing tools and reasons are made
// from the cells when written, so that a summary written as JSON (docs/stats.schema.json) and
// read back merges exactly (`stats --merge`).
#pragma once

#include <compare>
#include <cstddef>
#include <cstdint>
#include <expected>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>

#include "mcptriage/record.hpp"
#include "stats/sketch.hpp"

namespace mcptriage::stats {

/// The version of the summary's JSON (docs/stats.schema.json, `schema_version`). A summary of
/// another version is refused by `stats --merge`.
inline constexpr int kSchemaVersion = 1;
/// The value of the summary's `schema` member: what the file is.
inline constexpr std::string_view kSchemaName = "mcptriage-stats";

/// One cell's key: the strings as the records give them ("" when unknown).
struct CellKey {
  std::string server;   ///< SessionFacts::server: the request's authority, lowercased
  std::string method;   ///< the JSON-RPC method
  std::string tool;     ///< a tools/call's params.name
  std::string outcome;  ///< the Outcome's name
  std::string reason;   ///< the Reason's name
  std::optional<std::int64_t> error_code;  ///< JSON-RPC error.code
  auto operator<=>(const CellKey&) const = default;
};

struct Cell {
  std::uint64_t records = 0;
  LatencySketch latency;  ///< of the records whose capture carries a duration
};

/// A whole run's statistics.
class Summary {
 public:
  /// Distinct servers, methods and tools kept at the most (each); further values count under
  /// kOther, so that memory stays bounded on any input (docs/stats.md "Bounds").
  static constexpr std::size_t kMaxValues = 1000;
  /// Distinct JSON-RPC error codes kept at the most; further ones count under no code.
  static constexpr std::size_t kMaxErrorCodes = 256;
  static constexpr std::string_view kOther = "(other)";

  /// Counts one record: its cell, and its latency when the capture gives one (Record::time's
  /// duration, else the live reader's time to the final response).
  void add(const Record& r);
  /// Counts `n` skipped entries of one reason (a SkipReason's name).
  void add_skipped(std::string_view reason, std::uint64_t n = 1);
  void add_input_error() { ++input_errors_; }
  void add_input() { ++inputs_; }
  /// An entry that repeats an earlier failed request (SessionAnnotation::replay); `same_id`: with
  /// the earlier request's JSON-RPC id (a resend).
  void add_replay(bool same_id);
  /// Adds every count of `other` (stats --merge): the cells' counts and sketches summed.
  void merge(const Summary& other);

  const std::map<CellKey, Cell>& cells() const { return cells_; }
  std::uint64_t records() const { return records_; }
  std::uint64_t inputs() const { return inputs_; }
  std::uint64_t input_errors() const { return input_errors_; }
  std::uint64_t replays() const { return replays_; }
  std::uint64_t resends() const { return resends_; }
  const std::map<std::string, std::uint64_t>& skipped() const { return skipped_; }
  std::uint64_t skipped_total() const;

  /// Adds a cell as read back from a summary (merge), its values bounded as add()'s.
  void add_cell(CellKey key, const Cell& cell);
  void set_counts(std::uint64_t inputs, std::uint64_t input_errors, std::uint64_t replays, std::uint64_t resends) {
    inputs_ = inputs;
    input_errors_ = input_errors;
    replays_ = replays;
    resends_ = resends;
  }

 private:
  /// `value`, or kOther when `seen` is full and does not hold it.
  static std::string bounded(std::set<std::string, std::less<>>& seen, std::string_view value);

  std::map<CellKey, Cell> cells_;
  std::set<std::string, std::less<>> servers_, methods_, tools_;
  std::set<std::int64_t> codes_;
  std::map<std::string, std::uint64_t> skipped_;
  std::uint64_t records_ = 0;
  std::uint64_t inputs_ = 0;
  std::uint64_t input_errors_ = 0;
  std::uint64_t replays_ = 0;
  std::uint64_t resends_ = 0;
};

/// How the summary is written.
struct WriteOptions {
  std::size_t top = 10;  ///< entries of the top failing tools and reasons
};

/// The summary as one JSON document (docs/stats.schema.json) and a newline.
std::string to_json(const Summary& s, const WriteOptions& options = {});

/// The summary as text for a person: totals, then a table per dimension; `color`: ANSI colour.
std::string to_table(const Summary& s, bool color, const WriteOptions& options = {});

/// A summary written by to_json, read back. Error (one line, without the file's name): not a
/// summary, another schema version (a newer one named as such), or a damaged one (a member
/// missing or of the wrong type, counts that do not add up).
std::expected<Summary, std::string> from_json(std::string_view text);

}  // namespace mcptriage::stats
