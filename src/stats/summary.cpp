// The statistics of a run (summary.hpp): counting, merging, and the JSON and table texts.
#include "stats/summary.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <vector>

#include "json/dom.hpp"
#include "mcptriage/render.hpp"
#include "mcptriage/session.hpp"
#include "mcptriage/verdict.hpp"

namespace mcptriage::stats {

// ---------------------------------------------------------------------------------------------
// Counting.

std::string Summary::bounded(std::set<std::string, std::less<>>& seen, std::string_view value) {
  if (seen.contains(value)) return std::string(value);
  if (seen.size() >= kMaxValues) return std::string(kOther);
  return *seen.emplace(value).first;
}

void Summary::add(const Record& r) {
  CellKey key;
  if (r.facts) key.server = bounded(servers_, r.facts->server);
  key.method = bounded(methods_, r.c.method);
  key.tool = bounded(tools_, r.c.tool);
  key.outcome = std::string(to_string(r.c.outcome));
  key.reason = std::string(to_string(r.c.reason));
  if (r.c.error_code && (codes_.contains(*r.c.error_code) || codes_.size() < kMaxErrorCodes)) {
    codes_.insert(*r.c.error_code);
    key.error_code = r.c.error_code;
  }
  Cell& cell = cells_[std::move(key)];
  ++cell.records;
  ++records_;
  if (r.time.duration_ms) cell.latency.add(*r.time.duration_ms);
  else if (r.timing && r.timing->final_ms) cell.latency.add(*r.timing->final_ms);
}

void Summary::add_skipped(std::string_view reason, std::uint64_t n) { skipped_[std::string(reason)] += n; }

void Summary::add_replay(bool same_id) {
  ++replays_;
  if (same_id) ++resends_;
}

std::uint64_t Summary::skipped_total() const {
  std::uint64_t n = 0;
  for (const auto& [reason, count] : skipped_) n += count;
  return n;
}

void Summary::add_cell(CellKey key, const Cell& cell) {
  key.server = bounded(servers_, key.server);
  key.method = bounded(methods_, key.method);
  key.tool = bounded(tools_, key.tool);
  if (key.error_code && !codes_.contains(*key.error_code)) {
    if (codes_.size() < kMaxErrorCodes) codes_.insert(*key.error_code);
    else key.error_code.reset();
  }
  Cell& into = cells_[std::move(key)];
  into.records += cell.records;
  into.latency.merge(cell.latency);
  records_ += cell.records;
}

void Summary::merge(const Summary& other) {
  for (const auto& [key, cell] : other.cells_) add_cell(key, cell);
  for (const auto& [reason, n] : other.skipped_) skipped_[reason] += n;
  inputs_ += other.inputs_;
  input_errors_ += other.input_errors_;
  replays_ += other.replays_;
  resends_ += other.resends_;
}

// ---------------------------------------------------------------------------------------------
// Rollups.

namespace {

bool failing(std::string_view outcome) {
  const auto o = parse_outcome(outcome);
  return !o || !is_success(*o);
}

std::string_view layer_name(std::string_view outcome) {
  const auto o = parse_outcome(outcome);
  return o ? to_string(layer_of(*o)) : std::string_view("transport");
}

struct Rollup {
  std::uint64_t records = 0;
  std::uint64_t failed = 0;
  LatencySketch latency;
  double rate() const { return records == 0 ? 0.0 : static_cast<double>(failed) / static_cast<double>(records); }
};

/// One dimension's rollup: its label per cell (a JSON text of the members that name it, and a
/// text for the table) -> the counts.
struct Dimension {
  std::string_view name;   ///< "server", ... (JSON: "by_server")
  std::string_view title;  ///< the table's heading
  std::function<std::string(const CellKey&)> json_label;   ///< `"server":"x"` (members, no braces)
  std::function<std::string(const CellKey&)> text_label;   ///< for the table
};

std::string string_member(std::string_view name, std::string_view value) {
  std::string out;
  append_json_string(out, name);
  out += ':';
  append_json_string(out, value);
  return out;
}

std::string code_text(const std::optional<std::int64_t>& code) { return code ? std::to_string(*code) : "null"; }

std::vector<Dimension> dimensions() {
  return {
      {"server", "server", [](const CellKey& k) { return string_member("server", k.server); },
       [](const CellKey& k) { return k.server.empty() ? std::string("(unknown)") : k.server; }},
      {"method", "method", [](const CellKey& k) { return string_member("method", k.method); },
       [](const CellKey& k) { return k.method.empty() ? std::string("(unknown)") : k.method; }},
      {"tool", "tool", [](const CellKey& k) { return string_member("tool", k.tool); },
       [](const CellKey& k) { return k.tool.empty() ? std::string("(none)") : k.tool; }},
      {"layer", "layer", [](const CellKey& k) { return string_member("layer", layer_name(k.outcome)); },
       [](const CellKey& k) { return std::string(layer_name(k.outcome)); }},
      {"outcome", "outcome", [](const CellKey& k) { return string_member("outcome", k.outcome); },
       [](const CellKey& k) { return k.outcome; }},
      {"reason", "reason", [](const CellKey& k) { return string_member("outcome", k.outcome) + "," + string_member("reason", k.reason); },
       [](const CellKey& k) { return k.outcome + " " + k.reason; }},
      {"error_code", "JSON-RPC error code", [](const CellKey& k) { return "\"error_code\":" + code_text(k.error_code); },
       [](const CellKey& k) { return k.error_code ? std::to_string(*k.error_code) : std::string("(none)"); }},
  };
}

/// (label, rollup), most records first, then by label.
std::vector<std::pair<std::string, Rollup>> roll_up(const Summary& s, const std::function<std::string(const CellKey&)>& label) {
  std::map<std::string, Rollup> by;
  for (const auto& [key, cell] : s.cells()) {
    Rollup& r = by[label(key)];
    r.records += cell.records;
    if (failing(key.outcome)) r.failed += cell.records;
    r.latency.merge(cell.latency);
  }
  std::vector<std::pair<std::string, Rollup>> out(std::make_move_iterator(by.begin()), std::make_move_iterator(by.end()));
  std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.second.records > b.second.records; });
  return out;
}

Rollup total(const Summary& s) {
  Rollup t;
  for (const auto& [key, cell] : s.cells()) {
    t.records += cell.records;
    if (failing(key.outcome)) t.failed += cell.records;
    t.latency.merge(cell.latency);
  }
  return t;
}

std::string number(double v) { return fmt::format("{}", v); }

std::string quantile_json(const LatencySketch& l, double q) {
  const auto v = l.quantile(q);
  // Rounded to the microsecond: the sketch's error is far larger.
  return v ? number(std::round(*v * 1000) / 1000) : "null";
}

void append_latency(std::string& out, const LatencySketch& l) {
  out += fmt::format("\"latency_ms\":{{\"count\":{},\"p50\":{},\"p90\":{},\"p99\":{},\"max\":{}}}", l.count(),
                     quantile_json(l, 0.5), quantile_json(l, 0.9), quantile_json(l, 0.99),
                     l.count() ? number(l.max()) : "null");
}

void append_counts(std::string& out, const Rollup& r) {
  out += fmt::format("\"records\":{},\"failed\":{},\"failure_rate\":{},", r.records, r.failed, number(r.rate()));
  append_latency(out, r.latency);
}

/// The top `n` failing entries of a rollup (most failures first; ties: most records, label).
std::vector<std::pair<std::string, Rollup>> top_failing(std::vector<std::pair<std::string, Rollup>> rows, std::size_t n,
                                                        bool skip_empty_label) {
  std::erase_if(rows, [&](const auto& r) { return r.second.failed == 0 || (skip_empty_label && r.first.empty()); });
  std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.second.failed > b.second.failed; });
  if (rows.size() > n) rows.resize(n);
  return rows;
}

}  // namespace

std::string to_json(const Summary& s, const WriteOptions& options) {
  std::string out;
  const Rollup t = total(s);
  out += fmt::format("{{\"schema\":\"{}\",\"schema_version\":{},", kSchemaName, kSchemaVersion);
  out += fmt::format("\"latency_sketch\":{{\"kind\":\"ddsketch\",\"relative_accuracy\":{},\"min_ms\":{}}},",
                     number(LatencySketch::kRelativeAccuracy), number(LatencySketch::kMinMs));
  out += fmt::format("\"inputs\":{},\"input_errors\":{},", s.inputs(), s.input_errors());
  append_counts(out, t);
  out += fmt::format(",\"skipped\":{{\"total\":{},\"reasons\":{{", s.skipped_total());
  bool first = true;
  for (const auto& [reason, n] : s.skipped()) {
    if (!first) out += ',';
    first = false;
    append_json_string(out, reason);
    out += fmt::format(":{}", n);
  }
  out += fmt::format("}}}},\"replays\":{},\"resends\":{}", s.replays(), s.resends());
  for (const Dimension& d : dimensions()) {
    out += fmt::format(",\"by_{}\":[", d.name);
    first = true;
    for (const auto& [label, r] : roll_up(s, d.json_label)) {
      if (!first) out += ',';
      first = false;
      out += '{';
      out += label;
      out += ',';
      append_counts(out, r);
      out += '}';
    }
    out += ']';
  }
  out += ",\"top_failing_tools\":[";
  first = true;
  for (const auto& [tool, r] : top_failing(roll_up(s, [](const CellKey& k) { return k.tool; }), options.top, true)) {
    if (!first) out += ',';
    first = false;
    out += '{' + string_member("tool", tool) +
           fmt::format(",\"failed\":{},\"records\":{},\"failure_rate\":{}}}", r.failed, r.records, number(r.rate()));
  }
  out += "],\"top_failing_reasons\":[";
  first = true;
  for (const auto& [label, r] : top_failing(roll_up(s, dimensions()[5].json_label), options.top, false)) {
    if (!first) out += ',';
    first = false;
    out += '{' + label + fmt::format(",\"records\":{}}}", r.failed);
  }
  out += "],\"cells\":[";
  first = true;
  for (const auto& [k, cell] : s.cells()) {
    if (!first) out += ',';
    first = false;
    out += '{' + string_member("server", k.server) + ',' + string_member("method", k.method) + ',' +
           string_member("tool", k.tool) + ',' + string_member("outcome", k.outcome) + ',' +
           string_member("reason", k.reason) + ",\"error_code\":" + code_text(k.error_code) +
           fmt::format(",\"records\":{},\"latency\":", cell.records);
    const LatencySketch& l = cell.latency;
    if (l.count() == 0) {
      out += "null}";
      continue;
    }
    out += fmt::format("{{\"zeros\":{},\"min_ms\":{},\"max_ms\":{},\"sum_ms\":{},\"buckets\":[", l.zeros(), number(l.min()),
                       number(l.max()), number(l.sum()));
    bool b1 = true;
    for (const auto& [b, n] : l.buckets()) {
      if (!b1) out += ',';
      b1 = false;
      out += fmt::format("[{},{}]", b, n);
    }
    out += "]}}";
  }
  out += "]}\n";
  return out;
}

// ---------------------------------------------------------------------------------------------
// The table.

namespace {

std::string ms_text(const LatencySketch& l, double q) {
  if (l.count() == 0) return "-";
  const double v = q >= 1 ? l.max() : *l.quantile(q);
  return v >= 100 ? fmt::format("{:.0f}", v) : v >= 10 ? fmt::format("{:.1f}", v) : fmt::format("{:.2f}", v);
}

std::string clip(std::string text, std::size_t width) {
  text = escape_terminal(text);
  if (text.size() > width) text = text.substr(0, width - 3) + "...";
  return text;
}

}  // namespace

std::string to_table(const Summary& s, bool color, const WriteOptions& options) {
  const std::string bold = color ? "\x1b[1m" : "", red = color ? "\x1b[31m" : "", reset = color ? "\x1b[0m" : "";
  const Rollup t = total(s);
  std::string out;
  out += fmt::format("{}mcptriage stats{}: {} records from {} input{}, {} failed ({:.1f}%)", bold, reset, t.records,
                     s.inputs(), s.inputs() == 1 ? "" : "s", t.failed, 100 * t.rate());
  out += fmt::format("; {} skipped, {} input error{}; {} replay{} ({} resent with the same id)\n", s.skipped_total(),
                     s.input_errors(), s.input_errors() == 1 ? "" : "s", s.replays(), s.replays() == 1 ? "" : "s",
                     s.resends());
  if (t.latency.count() > 0) {
    out += fmt::format("latency ms ({} of {} records timed): p50 {}  p90 {}  p99 {}  max {}\n", t.latency.count(), t.records,
                       ms_text(t.latency, 0.5), ms_text(t.latency, 0.9), ms_text(t.latency, 0.99), ms_text(t.latency, 1));
  }
  constexpr std::size_t kRows = 20;
  for (const Dimension& d : dimensions()) {
    const auto rows = roll_up(s, d.text_label);
    out += fmt::format("\n{}{:<40} {:>9} {:>9} {:>7} {:>8} {:>8} {:>8} {:>8}{}\n", bold, d.title, "records", "failed",
                       "rate", "p50 ms", "p90 ms", "p99 ms", "max ms", reset);
    for (std::size_t i = 0; i < rows.size() && i < kRows; ++i) {
      const auto& [label, r] = rows[i];
      const std::string rate = fmt::format("{:.1f}%", 100 * r.rate());
      out += fmt::format("{:<40} {:>9} {:>9} {}{:>7}{} {:>8} {:>8} {:>8} {:>8}\n", clip(label, 40), r.records, r.failed,
                         r.failed ? red : "", rate, r.failed ? reset : "", ms_text(r.latency, 0.5),
                         ms_text(r.latency, 0.9), ms_text(r.latency, 0.99), ms_text(r.latency, 1));
    }
    if (rows.size() > kRows) out += fmt::format("... {} more (--format json has them all)\n", rows.size() - kRows);
  }
  const auto tools = top_failing(roll_up(s, [](const CellKey& k) { return k.tool; }), options.top, true);
  if (!tools.empty()) {
    out += fmt::format("\n{}top failing tools{}\n", bold, reset);
    for (const auto& [tool, r] : tools)
      out += fmt::format("  {:<40} {:>9} of {:>9} ({:.1f}%)\n", clip(tool, 40), r.failed, r.records, 100 * r.rate());
  }
  const auto reasons = top_failing(roll_up(s, dimensions()[5].text_label), options.top, false);
  if (!reasons.empty()) {
    out += fmt::format("\n{}top failing reasons{}\n", bold, reset);
    for (const auto& [reason, r] : reasons) out += fmt::format("  {:<60} {:>9}\n", clip(reason, 60), r.failed);
  }
  if (!s.skipped().empty()) {
    out += fmt::format("\n{}skipped entries{}\n", bold, reset);
    for (const auto& [reason, n] : s.skipped()) out += fmt::format("  {:<40} {:>9}\n", clip(reason, 40), n);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Reading a summary back.

namespace {

struct Damaged {
  std::string why;
};

std::uint64_t count_at(const json::View& obj, std::string_view key) {
  const auto v = obj.get(key);
  if (!v) throw Damaged{fmt::format("no \"{}\"", key)};
  const auto n = v->uint64();
  if (!n) throw Damaged{fmt::format("\"{}\" is not a count", key)};
  return *n;
}

std::string text_at(const json::View& obj, std::string_view key) {
  const auto v = obj.string_at(key);
  if (!v) throw Damaged{fmt::format("\"{}\" is not a string", key)};
  return std::string(*v);
}

double number_at(const json::View& obj, std::string_view key) {
  const auto v = obj.get(key);
  const auto n = v ? v->number() : std::nullopt;
  if (!n) throw Damaged{fmt::format("\"{}\" is not a number", key)};
  return *n;
}

bool reason_of_outcome(std::string_view outcome, std::string_view reason) {
  for (const ReasonEntry& e : reason_catalogue()) {
    if (e.name == reason && to_string(e.outcome) == outcome) return true;
  }
  return false;
}

Summary read(const json::View& root) {
  if (!root.is_object()) throw Damaged{"it is not a JSON object"};
  Summary s;
  s.set_counts(count_at(root, "inputs"), count_at(root, "input_errors"), count_at(root, "replays"),
               count_at(root, "resends"));
  if (s.resends() > s.replays()) throw Damaged{"more resends than replays"};
  const auto skipped = root.get("skipped");
  const auto reasons = skipped ? skipped->get("reasons") : std::nullopt;
  if (!reasons || !reasons->is_object()) throw Damaged{"no \"skipped\".\"reasons\" object"};
  for (const json::Member& m : reasons->members()) {
    const auto n = m.value.uint64();
    if (!n || *n == 0) throw Damaged{"a skipped count is not a count"};
    s.add_skipped(m.key, *n);
  }
  if (s.skipped_total() != count_at(*skipped, "total")) throw Damaged{"its skipped reasons do not add up to its total"};
  const auto cells = root.get("cells");
  if (!cells || !cells->is_array()) throw Damaged{"no \"cells\" array"};
  std::uint64_t failed = 0;
  for (const json::View c : cells->items()) {
    if (!c.is_object()) throw Damaged{"a cell is not an object"};
    CellKey key{text_at(c, "server"), text_at(c, "method"), text_at(c, "tool"), text_at(c, "outcome"),
                text_at(c, "reason"), std::nullopt};
    if (!parse_outcome(key.outcome)) throw Damaged{fmt::format("unknown outcome \"{}\"", key.outcome)};
    if (!reason_of_outcome(key.outcome, key.reason))
      throw Damaged{fmt::format("\"{}\" is no reason of {}", key.reason, key.outcome)};
    const auto code = c.get("error_code");
    if (!code) throw Damaged{"a cell has no \"error_code\""};
    if (!code->is_null()) {
      const auto n = code->int64();
      if (!n) throw Damaged{"an \"error_code\" is not an integer"};
      key.error_code = *n;
    }
    Cell cell;
    cell.records = count_at(c, "records");
    if (cell.records == 0) throw Damaged{"a cell counts no record"};
    const auto latency = c.get("latency");
    if (!latency) throw Damaged{"a cell has no \"latency\""};
    if (!latency->is_null()) {
      if (!latency->is_object()) throw Damaged{"a \"latency\" is not an object"};
      std::map<int, std::uint64_t> buckets;
      const auto b = latency->get("buckets");
      if (!b || !b->is_array()) throw Damaged{"a \"latency\" has no \"buckets\" array"};
      for (const json::View pair : b->items()) {
        if (!pair.is_array() || pair.size() != 2) throw Damaged{"a latency bucket is not [index, count]"};
        const std::int64_t index = pair.at(0)->int64().value_or(std::numeric_limits<std::int64_t>::min());
        const std::uint64_t count = pair.at(1)->uint64().value_or(0);
        if (count == 0 || index < LatencySketch::min_bucket() || index > LatencySketch::max_bucket() ||
            !buckets.emplace(static_cast<int>(index), count).second)
          throw Damaged{"a latency bucket is not [index, count]"};
      }
      auto sketch = LatencySketch::from_parts(count_at(*latency, "zeros"), buckets, number_at(*latency, "min_ms"),
                                              number_at(*latency, "max_ms"), number_at(*latency, "sum_ms"));
      if (!sketch || sketch->count() == 0) throw Damaged{"a latency sketch does not add up"};
      if (sketch->count() > cell.records) throw Damaged{"a cell has more latencies than records"};
      cell.latency = std::move(*sketch);
    }
    if (failing(key.outcome)) failed += cell.records;
    s.add_cell(std::move(key), cell);
  }
  if (s.records() != count_at(root, "records")) throw Damaged{"its cells do not add up to its \"records\""};
  if (failed != count_at(root, "failed")) throw Damaged{"its cells do not add up to its \"failed\""};
  return s;
}

}  // namespace

std::expected<Summary, std::string> from_json(std::string_view text) {
  json::Parser parser;
  const auto root = parser.parse(text);
  if (!root) return std::unexpected(fmt::format("not a stats summary: not one JSON value ({})", root.error().message));
  const auto schema = root->is_object() ? root->string_at("schema") : std::nullopt;
  if (!schema || *schema != kSchemaName)
    return std::unexpected(fmt::format("not a stats summary (no \"schema\": \"{}\" member)", kSchemaName));
  const auto version_view = root->get("schema_version");
  const auto version = version_view ? version_view->int64() : std::nullopt;
  if (!version) return std::unexpected("a damaged stats summary: \"schema_version\" is not an integer");
  if (*version > kSchemaVersion)
    return std::unexpected(fmt::format(
        "a stats summary of schema version {}, newer than this mcptriage reads ({}): merge it with a newer mcptriage",
        *version, kSchemaVersion));
  if (*version != kSchemaVersion)
    return std::unexpected(
        fmt::format("a stats summary of schema version {}, not {}: make it again with this mcptriage", *version, kSchemaVersion));
  try {
    return read(*root);
  } catch (const Damaged& d) {
    return std::unexpected("a damaged stats summary: " + d.why);
  }
}

}  // namespace mcptriage::stats
