// The statistics room (src/stats): the latency sketch's error bound and exact merge (property
// tests over random data sets), the summary's counts, its JSON read back and merged, and the
// refusal of damaged summaries and of other schema versions.
#include "stats/sketch.hpp"
#include "stats/summary.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "mcptriage/session.hpp"
#include "mcptriage/verdict.hpp"

namespace mcptriage::stats {
namespace {

/// The value of rank floor(q * (n - 1)) of `sorted`: the quantile the sketch promises to approach.
double exact_quantile(const std::vector<double>& sorted, double q) {
  return sorted[static_cast<std::size_t>(std::floor(q * static_cast<double>(sorted.size() - 1)))];
}

std::vector<double> random_latencies(std::mt19937_64& rng, std::size_t n) {
  // Mixed shapes: log-uniform over 1 us .. 1e9 ms, a tight cluster, ties, and zeros.
  std::uniform_real_distribution<double> exponent(-3, 9);
  std::lognormal_distribution<double> cluster(3, 0.3);
  std::uniform_int_distribution<int> shape(0, 9);
  std::vector<double> v;
  for (std::size_t i = 0; i < n; ++i) {
    const int s = shape(rng);
    if (s == 0) v.push_back(0);
    else if (s == 1) v.push_back(42.0);
    else if (s < 5) v.push_back(cluster(rng));
    else v.push_back(std::pow(10.0, exponent(rng)));
  }
  return v;
}

TEST(LatencySketch, EveryQuantileWithinTheRelativeAccuracy) {
  std::mt19937_64 rng(20261204);
  const double bound = LatencySketch::kRelativeAccuracy * (1 + 1e-9);
  for (int round = 0; round < 200; ++round) {
    const std::size_t n = 1 + rng() % 3000;
    std::vector<double> values = random_latencies(rng, n);
    LatencySketch s;
    for (double v : values) ASSERT_TRUE(s.add(v));
    std::sort(values.begin(), values.end());
    ASSERT_EQ(s.count(), n);
    EXPECT_EQ(s.max(), values.back());
    EXPECT_EQ(s.min(), values.front());
    for (double q : {0.0, 0.01, 0.25, 0.5, 0.9, 0.95, 0.99, 0.999, 1.0}) {
      const double truth = exact_quantile(values, q);
      const double got = *s.quantile(q);
      if (truth < LatencySketch::kMinMs) {
        EXPECT_LT(got, LatencySketch::kMinMs) << "q " << q;
        continue;
      }
      EXPECT_LE(std::abs(got - truth) / truth, bound) << "round " << round << " q " << q << " truth " << truth << " got " << got;
    }
    EXPECT_LE(s.buckets().size(), static_cast<std::size_t>(LatencySketch::kMaxBuckets));
  }
}

TEST(LatencySketch, MergeIsTheSketchOfAllTheValues) {
  std::mt19937_64 rng(7);
  for (int round = 0; round < 50; ++round) {
    const auto a = random_latencies(rng, 1 + rng() % 500), b = random_latencies(rng, 1 + rng() % 500);
    LatencySketch sa, sb, all;
    for (double v : a) sa.add(v), all.add(v);
    for (double v : b) sb.add(v), all.add(v);
    sa.merge(sb);
    EXPECT_EQ(sa.buckets(), all.buckets());
    EXPECT_EQ(sa.count(), all.count());
    EXPECT_EQ(sa.zeros(), all.zeros());
    EXPECT_EQ(sa.max(), all.max());
    EXPECT_EQ(sa.min(), all.min());
    for (double q : {0.5, 0.9, 0.99}) EXPECT_EQ(sa.quantile(q), all.quantile(q));
  }
}

TEST(LatencySketch, BucketsBoundedWhateverIsAdded) {
  LatencySketch s;
  for (double v = LatencySketch::kMinMs; v < 1e13; v *= 1.001) s.add(v);
  EXPECT_LE(s.buckets().size(), static_cast<std::size_t>(LatencySketch::kMaxBuckets));
  EXPECT_FALSE(s.add(-1));
  EXPECT_FALSE(s.add(std::nan("")));
  EXPECT_FALSE(LatencySketch().quantile(0.5).has_value());
}

Record record(std::string tool, Outcome outcome, Reason reason, std::optional<double> ms = std::nullopt) {
  Record r;
  r.c.method = "tools/call";
  r.c.tool = std::move(tool);
  r.c.outcome = outcome;
  r.c.layer = layer_of(outcome);
  r.c.reason = reason;
  r.time.duration_ms = ms;
  auto facts = std::make_shared<SessionFacts>();
  facts->server = "gw.example:443";
  r.facts = facts;
  return r;
}

Summary sample(int seed) {
  Summary s;
  s.add_input();
  std::mt19937_64 rng(static_cast<unsigned>(seed));
  for (int i = 0; i < 300; ++i) {
    const bool ok = rng() % 4 != 0;
    Record r = record("tool" + std::to_string(rng() % 5), ok ? Outcome::TOOL_SUCCESS : Outcome::TOOL_ERROR,
                      ok ? Reason::tool_success : Reason::tool_error, rng() % 3 ? std::optional<double>(static_cast<double>(1 + rng() % 900)) : std::nullopt);
    if (rng() % 10 == 0) {
      r.c.outcome = Outcome::JSONRPC_ERROR;
      r.c.reason = Reason::invalid_params;
      r.c.error_code = -32602;
    }
    s.add(r);
  }
  s.add_skipped("not_mcp");
  s.add_replay(true);
  s.add_replay(false);
  s.add_input_error();
  return s;
}

TEST(Summary, JsonReadBackMergesExactly) {
  const Summary a = sample(1), b = sample(2);
  Summary one = a;
  one.merge(b);
  auto ra = from_json(to_json(a)), rb = from_json(to_json(b));
  ASSERT_TRUE(ra.has_value()) << ra.error();
  ASSERT_TRUE(rb.has_value()) << rb.error();
  ra->merge(*rb);
  EXPECT_EQ(to_json(*ra), to_json(one));
  EXPECT_EQ(ra->records(), 600u);
  EXPECT_EQ(ra->replays(), 4u);
  EXPECT_EQ(ra->resends(), 2u);
  EXPECT_EQ(ra->input_errors(), 2u);
  EXPECT_EQ(ra->skipped().at("not_mcp"), 2u);
}

TEST(Summary, ValuesBeyondTheBoundCountUnderOther) {
  Summary s;
  for (std::size_t i = 0; i < Summary::kMaxValues + 50; ++i) s.add(record("t" + std::to_string(i), Outcome::TOOL_SUCCESS, Reason::tool_success));
  std::size_t other = 0, cells = 0;
  for (const auto& [k, c] : s.cells()) {
    ++cells;
    if (k.tool == Summary::kOther) other = c.records;
  }
  EXPECT_EQ(other, 50u);
  EXPECT_EQ(cells, Summary::kMaxValues + 1);
  EXPECT_EQ(s.records(), Summary::kMaxValues + 50);
}

std::string replace(std::string s, std::string_view from, std::string_view to) {
  const auto at = s.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) s.replace(at, from.size(), to);
  return s;
}

TEST(Summary, OtherVersionsAndDamageRefused) {
  const std::string good = to_json(sample(3));
  ASSERT_TRUE(from_json(good).has_value());
  const auto newer = from_json(replace(good, "\"schema_version\":1", "\"schema_version\":2"));
  ASSERT_FALSE(newer.has_value());
  EXPECT_NE(newer.error().find("schema version 2, newer than this mcptriage reads (1)"), std::string::npos) << newer.error();
  const auto older = from_json(replace(good, "\"schema_version\":1", "\"schema_version\":0"));
  ASSERT_FALSE(older.has_value());
  EXPECT_NE(older.error().find("schema version 0, not 1"), std::string::npos);
  for (const auto& [from, to] : std::vector<std::pair<std::string, std::string>>{
           {"\"records\":300", "\"records\":301"},       // totals that the cells do not give
           {"\"cells\":[", "\"cells\":[7,"},
           {"\"resends\":1", "\"resends\":\"1\""},
           {"\"schema\":\"mcptriage-stats\"", "\"schema\":\"other\""},
       }) {
    const auto bad = from_json(replace(good, from, to));
    EXPECT_FALSE(bad.has_value()) << from << " -> " << to;
  }
  // A cell whose reason is not one of its outcome's. The roll-ups (by_reason, ...) come before the
  // cells and are derived: the reader rebuilds them from the cells, so the damage goes in a cell.
  const auto cells_at = good.find("\"cells\":[");
  ASSERT_NE(cells_at, std::string::npos);
  const std::string damaged_cell =
      good.substr(0, cells_at) + replace(good.substr(cells_at), "\"outcome\":\"TOOL_ERROR\",\"reason\":\"tool_error\"",
                                         "\"outcome\":\"TOOL_ERROR\",\"reason\":\"tool_success\"");
  const auto bad_cell = from_json(damaged_cell);
  ASSERT_FALSE(bad_cell.has_value());
  EXPECT_NE(bad_cell.error().find("\"tool_success\" is no reason of TOOL_ERROR"), std::string::npos) << bad_cell.error();
  EXPECT_FALSE(from_json(good.substr(0, good.size() / 2)).has_value());
  EXPECT_FALSE(from_json("").has_value());
}

}  // namespace
}  // namespace mcptriage::stats
