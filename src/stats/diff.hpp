// `mcptriage diff BEFORE AFTER` (docs/stats.md "diff"): two runs' records compared per method and
// tool (outcome and reason rates, reasons that are new), and the exchanges whose outcome changed
// where they can be matched: the same request (method and canonical params, the k-th such
// request of one side with the k-th of the other).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "mcptriage/output.hpp"

namespace mcptriage::stats {

/// One side of a diff: what its run's records say.
struct DiffSide {
  struct Group {
    std::uint64_t records = 0;
    std::uint64_t failed = 0;
    std::map<std::string, std::uint64_t> reasons;  ///< "OUTCOME reason" -> records
  };
  struct Seen {
    std::string outcome;
    std::string reason;
    std::string source;  ///< "name#N"
  };
  /// (method, tool) -> counts.
  std::map<std::pair<std::string, std::string>, Group> groups;
  /// Match key -> the verdict of that exchange (first record).
  std::unordered_map<std::uint64_t, Seen> exchanges;
  std::uint64_t unmatched = 0;  ///< records without a request to match on
  std::uint64_t input_errors = 0;
};

/// Collects a DiffSide from a run's records.
class DiffSink final : public RecordSink {
 public:
  /// At most this many exchanges are kept for matching (memory); the counts go on past it.
  static constexpr std::size_t kMaxExchanges = 2'000'000;
  explicit DiffSink(DiffSide& side) : side_(side) {}
  void begin_input(const InputInfo& input) override { name_ = input.name; }
  void record(const Record& r, const Check& check, std::string_view prepared) override;
  void input_failed(std::string_view name, std::string_view why) override;

 private:
  DiffSide& side_;
  std::string name_;
  std::unordered_map<std::uint64_t, std::uint64_t> occurrences_;
};

struct Diff {
  struct Group {
    std::string method, tool;
    DiffSide::Group before, after;
    std::vector<std::string> new_reasons;  ///< failing "OUTCOME reason"s only after
    bool regressed = false;                ///< failure rate rose, or a new failing reason
  };
  struct Changed {
    std::string before_source, after_source, before, after;  ///< "OUTCOME reason"
  };
  std::vector<Group> groups;
  std::vector<Changed> changed;          ///< the first kMaxChanged, in the after side's order of keys
  std::size_t changed_total = 0;
  std::size_t matched = 0;               ///< exchanges matched on both sides
  bool nothing_in_common = false;        ///< no group and no exchange in common
  bool regressed = false;
  static constexpr std::size_t kMaxChanged = 50;
};

Diff compare(const DiffSide& before, const DiffSide& after);
/// The diff as one JSON document and a newline (docs/stats.md "diff").
std::string diff_json(const Diff& d);
/// The diff as a table for a person.
std::string diff_table(const Diff& d, bool color);

}  // namespace mcptriage::stats
