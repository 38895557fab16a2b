// The latency sketch (sketch.hpp).
#include "stats/sketch.hpp"

#include <algorithm>
#include <cmath>

namespace mcptriage::stats {

namespace {

constexpr double kGamma = (1 + LatencySketch::kRelativeAccuracy) / (1 - LatencySketch::kRelativeAccuracy);
const double kLogGamma = std::log(kGamma);

}  // namespace

int LatencySketch::bucket_of(double ms) { return static_cast<int>(std::ceil(std::log(ms) / kLogGamma)); }

double LatencySketch::value_of(int bucket) { return 2 * std::exp(bucket * kLogGamma) / (kGamma + 1); }

int LatencySketch::min_bucket() { return bucket_of(kMinMs); }
int LatencySketch::max_bucket() { return bucket_of(kMaxMs); }

bool LatencySketch::add(double ms) {
  if (!std::isfinite(ms) || ms < 0) return false;
  ms = std::min(ms, kMaxMs);
  if (count_ == 0) min_ = max_ = ms;
  min_ = std::min(min_, ms);
  max_ = std::max(max_, ms);
  ++count_;
  sum_ += ms;
  if (ms < kMinMs) ++zeros_;
  else ++buckets_[bucket_of(ms)];
  return true;
}

void LatencySketch::merge(const LatencySketch& other) {
  if (other.count_ == 0) return;
  if (count_ == 0) {
    min_ = other.min_;
    max_ = other.max_;
  }
  min_ = std::min(min_, other.min_);
  max_ = std::max(max_, other.max_);
  count_ += other.count_;
  zeros_ += other.zeros_;
  sum_ += other.sum_;
  for (const auto& [b, n] : other.buckets_) buckets_[b] += n;
}

std::optional<double> LatencySketch::quantile(double q) const {
  if (count_ == 0 || !(q >= 0 && q <= 1)) return std::nullopt;
  const auto rank = static_cast<std::uint64_t>(std::floor(q * static_cast<double>(count_ - 1)));
  if (rank < zeros_) return std::clamp(0.0, min_, max_);
  std::uint64_t seen = zeros_;
  for (const auto& [b, n] : buckets_) {
    seen += n;
    if (seen > rank) return std::clamp(value_of(b), min_, max_);
  }
  return max_;
}

std::optional<LatencySketch> LatencySketch::from_parts(std::uint64_t zeros, const std::map<int, std::uint64_t>& buckets,
                                                       double min, double max, double sum) {
  LatencySketch s;
  s.zeros_ = zeros;
  s.count_ = zeros;
  for (const auto& [b, n] : buckets) {
    if (n == 0 || b < min_bucket() || b > max_bucket()) return std::nullopt;
    if (s.count_ + n < s.count_) return std::nullopt;  // overflow
    s.count_ += n;
  }
  s.buckets_ = buckets;
  if (s.count_ == 0) return s;
  if (!std::isfinite(min) || !std::isfinite(max) || !std::isfinite(sum) || min < 0 || min > max || max > kMaxMs ||
      sum < 0)
    return std::nullopt;
  s.min_ = min;
  s.max_ = max;
  s.sum_ = sum;
  return s;
}

}  // namespace mcptriage::stats
