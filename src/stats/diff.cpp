// `mcptriage diff` (diff.hpp).
#include "stats/diff.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "json/dom.hpp"
#include "mcptriage/render.hpp"
#include "mcptriage/session.hpp"
#include "mcptriage/verdict.hpp"

namespace mcptriage::stats {

void DiffSink::record(const Record& r, const Check&, std::string_view) {
  if (r.source.element && *r.source.element > 0) return;  // a batch reply: its first element
  const std::string outcome(to_string(r.c.outcome)), reason(to_string(r.c.reason));
  DiffSide::Group& g = side_.groups[{r.c.method, r.c.tool}];
  ++g.records;
  if (!is_success(r.c.outcome)) ++g.failed;
  ++g.reasons[outcome + " " + reason];
  const RequestInfo* req = r.facts && r.facts->request ? &*r.facts->request : nullptr;
  if (req == nullptr || !req->method) {
    ++side_.unmatched;
    return;
  }
  // The same request: method and canonical params; the k-th of its kind on each side.
  const std::uint64_t kind = json::hash_bytes(*req->method, req->params_hash);
  const std::uint64_t k = occurrences_[kind]++;
  if (side_.exchanges.size() >= kMaxExchanges) return;
  std::string source;
  append_source_text(source, name_, r.source);
  side_.exchanges.emplace(json::hash_bytes(std::string_view(reinterpret_cast<const char*>(&k), sizeof k), kind),
                          DiffSide::Seen{outcome, reason, std::move(source)});
}

void DiffSink::input_failed(std::string_view, std::string_view) { ++side_.input_errors; }

namespace {

double rate(const DiffSide::Group& g) {
  return g.records == 0 ? 0.0 : static_cast<double>(g.failed) / static_cast<double>(g.records);
}

bool failing_reason(std::string_view outcome_reason) {
  const auto o = parse_outcome(outcome_reason.substr(0, outcome_reason.find(' ')));
  return !o || !is_success(*o);
}

}  // namespace

Diff compare(const DiffSide& before, const DiffSide& after) {
  Diff d;
  std::set<std::pair<std::string, std::string>> keys;
  for (const auto& [k, g] : before.groups) keys.insert(k);
  for (const auto& [k, g] : after.groups) keys.insert(k);
  std::size_t common_groups = 0;
  for (const auto& key : keys) {
    Diff::Group g;
    g.method = key.first;
    g.tool = key.second;
    if (auto b = before.groups.find(key); b != before.groups.end()) g.before = b->second;
    if (auto a = after.groups.find(key); a != after.groups.end()) g.after = a->second;
    if (g.before.records > 0 && g.after.records > 0) ++common_groups;
    for (const auto& [reason, n] : g.after.reasons) {
      if (failing_reason(reason) && !g.before.reasons.contains(reason)) g.new_reasons.push_back(reason);
    }
    const bool rose = g.before.records > 0 && g.after.records > 0 && rate(g.after) > rate(g.before);
    // A failing reason new in a group the before side had: a regression; a group only after is
    // new traffic, whose failures are new reasons too.
    g.regressed = rose || !g.new_reasons.empty();
    d.regressed = d.regressed || g.regressed;
    d.groups.push_back(std::move(g));
  }
  // Changed exchanges, in a stable order: by the after side's source.
  std::vector<Diff::Changed> changed;
  for (const auto& [key, a] : after.exchanges) {
    auto b = before.exchanges.find(key);
    if (b == before.exchanges.end()) continue;
    ++d.matched;
    if (b->second.outcome == a.outcome && b->second.reason == a.reason) continue;
    changed.push_back({b->second.source, a.source, b->second.outcome + " " + b->second.reason, a.outcome + " " + a.reason});
  }
  d.changed_total = changed.size();
  std::sort(changed.begin(), changed.end(), [](const auto& x, const auto& y) { return x.after_source < y.after_source; });
  if (changed.size() > Diff::kMaxChanged) changed.resize(Diff::kMaxChanged);
  d.changed = std::move(changed);
  d.nothing_in_common = common_groups == 0 && d.matched == 0;
  return d;
}

namespace {

void side_json(std::string& out, const DiffSide::Group& g) {
  out += fmt::format("{{\"records\":{},\"failed\":{},\"failure_rate\":{},\"reasons\":{{", g.records, g.failed, rate(g));
  bool first = true;
  for (const auto& [reason, n] : g.reasons) {
    if (!first) out += ',';
    first = false;
    append_json_string(out, reason);
    out += fmt::format(":{}", n);
  }
  out += "}}";
}

}  // namespace

std::string diff_json(const Diff& d) {
  std::string out = fmt::format("{{\"schema\":\"mcptriage-diff\",\"schema_version\":1,\"regressed\":{},\"nothing_in_common\":{},"
                                "\"matched_exchanges\":{},\"changed_exchanges\":{},\"groups\":[",
                                d.regressed, d.nothing_in_common, d.matched, d.changed_total);
  bool first = true;
  for (const Diff::Group& g : d.groups) {
    if (!first) out += ',';
    first = false;
    out += "{\"method\":";
    append_json_string(out, g.method);
    out += ",\"tool\":";
    append_json_string(out, g.tool);
    out += ",\"before\":";
    side_json(out, g.before);
    out += ",\"after\":";
    side_json(out, g.after);
    out += ",\"new_reasons\":[";
    for (std::size_t i = 0; i < g.new_reasons.size(); ++i) {
      if (i) out += ',';
      append_json_string(out, g.new_reasons[i]);
    }
    out += fmt::format("],\"regressed\":{}}}", g.regressed);
  }
  out += "],\"changed\":[";
  first = true;
  for (const Diff::Changed& c : d.changed) {
    if (!first) out += ',';
    first = false;
    out += "{\"before_source\":";
    append_json_string(out, c.before_source);
    out += ",\"after_source\":";
    append_json_string(out, c.after_source);
    out += ",\"before\":";
    append_json_string(out, c.before);
    out += ",\"after\":";
    append_json_string(out, c.after);
    out += '}';
  }
  out += "]}\n";
  return out;
}

std::string diff_table(const Diff& d, bool color) {
  const std::string bold = color ? "\x1b[1m" : "", red = color ? "\x1b[31m" : "", reset = color ? "\x1b[0m" : "";
  std::string out;
  if (d.nothing_in_common) {
    out += "mcptriage diff: the two sides have nothing in common: no method and tool, and no request, on both\n";
  }
  bool any = false;
  out += fmt::format("{}{:<24} {:<24} {:>15} {:>15}  {}{}\n", bold, "method", "tool", "failed before", "failed after",
                     "new failing reasons", reset);
  for (const Diff::Group& g : d.groups) {
    const bool changed = g.regressed || g.before.records != g.after.records || g.before.failed != g.after.failed ||
                         g.before.reasons != g.after.reasons;
    if (!changed) continue;
    any = true;
    std::string reasons;
    for (const std::string& r : g.new_reasons) reasons += (reasons.empty() ? "" : ", ") + r;
    out += fmt::format("{}{:<24} {:<24} {:>15} {:>15}  {}{}\n", g.regressed ? red : "",
                       escape_terminal(g.method.empty() ? "(unknown)" : g.method), escape_terminal(g.tool.empty() ? "-" : g.tool),
                       fmt::format("{}/{} {:.1f}%", g.before.failed, g.before.records, 100 * rate(g.before)),
                       fmt::format("{}/{} {:.1f}%", g.after.failed, g.after.records, 100 * rate(g.after)), reasons,
                       g.regressed ? reset : "");
  }
  if (!any) out += "(no change in any method and tool)\n";
  out += fmt::format("\n{} exchanges matched (same method and params); {} changed outcome or reason\n", d.matched, d.changed_total);
  for (const Diff::Changed& c : d.changed)
    out += fmt::format("  {} {} -> {} {}\n", escape_terminal(c.before_source), c.before, escape_terminal(c.after_source), c.after);
  if (d.changed_total > d.changed.size()) out += fmt::format("  ... {} more\n", d.changed_total - d.changed.size());
  out += d.regressed ? "regressed: a failure rate rose or a new failing reason appeared\n" : "no regression\n";
  return out;
}

}  // namespace mcptriage::stats
