// A mergeable latency sketch (DDSketch, Masson, Rim and Lee, VLDB 2019: "DDSketch: a fast and
// fully-mergeable quantile sketch with relative-error guarantees"): values in logarithmic buckets
// whose width bounds the relative error of every quantile. Debian ships no quantile-sketch library
// for C++ (no DDSketch, t-digest or KLL package), so this is the small one of the project, its
// bound checked by a property test (tests/unit/stats_test.cpp).
#pragma once

#include <cstdint>
#include <map>
#include <optional>

namespace mcptriage::stats {

/// Latencies in milliseconds, summarised so that any quantile of what was added is within
/// kRelativeAccuracy of the true one (relative error |estimate - true| / true <= 1%, for the
/// value of rank floor(q * (count - 1)) among the values sorted), and two sketches merge into
/// the sketch of all their values, exactly (the same buckets). Values below kMinMs (one
/// microsecond) count as 0 and are returned as 0; the count, min, max and sum are exact. At most
/// kMaxBuckets buckets, whatever is added (values from kMinMs to kMaxMs); memory is bounded.
class LatencySketch {
 public:
  static constexpr double kRelativeAccuracy = 0.01;
  static constexpr double kMinMs = 1e-3;  ///< below: the zero bucket
  static constexpr double kMaxMs = 1e12;  ///< above: counted as this (a capture's time is below it)
  /// log_gamma(kMaxMs / kMinMs) + 1: the buckets there can be.
  static constexpr int kMaxBuckets = 1730;

  /// Adds one latency. A negative or non-finite value is not a latency: ignored, returns false.
  bool add(double ms);
  /// Adds every value of `other`.
  void merge(const LatencySketch& other);
  /// The q-quantile (0 <= q <= 1), nullopt when empty: within kRelativeAccuracy of the value of
  /// rank floor(q * (count - 1)), and never outside [min, max].
  std::optional<double> quantile(double q) const;

  std::uint64_t count() const { return count_; }
  std::uint64_t zeros() const { return zeros_; }
  double min() const { return min_; }  ///< meaningful when count() > 0
  double max() const { return max_; }
  double sum() const { return sum_; }
  /// Bucket index -> values in it; bucket i holds (gamma^(i-1), gamma^i].
  const std::map<int, std::uint64_t>& buckets() const { return buckets_; }

  /// The bucket of `ms` (>= kMinMs).
  static int bucket_of(double ms);
  /// The value a bucket stands for: 2 gamma^i / (gamma + 1), within kRelativeAccuracy of all it holds.
  static double value_of(int bucket);
  /// The lowest and highest bucket index add() can make.
  static int min_bucket();
  static int max_bucket();

  /// Rebuilds a sketch from its parts (a summary file read back, stats --merge). nullopt when
  /// they do not fit together: a bucket out of range or empty, counts that do not add up, a min
  /// above the max.
  static std::optional<LatencySketch> from_parts(std::uint64_t zeros, const std::map<int, std::uint64_t>& buckets,
                                                 double min, double max, double sum);

  bool operator==(const LatencySketch&) const = default;

 private:
  std::map<int, std::uint64_t> buckets_;
  std::uint64_t zeros_ = 0;
  std::uint64_t count_ = 0;
  double min_ = 0;
  double max_ = 0;
  double sum_ = 0;
};

}  // namespace mcptriage::stats
