// Expectations: --expect, --fail-on and manifest lines (report.hpp), parsed and checked.
#include <fmt/format.h>

#include <algorithm>
#include <sstream>

#include "mcptriage/report.hpp"

namespace mcptriage {
namespace {

std::optional<Layer> parse_layer(std::string_view s) {
  for (Layer l : {Layer::transport, Layer::protocol, Layer::interaction, Layer::application, Layer::auth}) {
    if (to_string(l) == s) return l;
  }
  return std::nullopt;
}

/// "; did you mean A, B or C?" for the names of `names` nearest to `word`, or "" when none is near.
std::string did_you_mean(std::string_view word, const std::vector<std::string_view>& names) {
  const std::vector<std::string_view> near = nearest_names(word, names);
  if (near.empty()) return {};
  std::string hint = "; did you mean ";
  for (std::size_t i = 0; i < near.size(); ++i) {
    hint += i == 0 ? "" : (i + 1 == near.size() ? " or " : ", ");
    hint += near[i];
  }
  return hint + "?";
}

std::vector<std::string_view> outcome_names() {
  std::vector<std::string_view> out;
  for (const OutcomeEntry& e : outcome_catalogue()) out.push_back(to_string(e.outcome));
  return out;
}

/// The reason code `name` (its first Reason: Expectation compares codes). Error: why, with the
/// nearest codes.
std::expected<Reason, std::string> parse_reason(std::string_view name) {
  const std::vector<Reason> named = reasons_named(name);
  if (!named.empty()) return named.front();
  const std::string hint = did_you_mean(name, reason_names());
  return std::unexpected(hint.empty() ? fmt::format("'{}' is not a reason code (docs/classification.md lists them)", name)
                                      : fmt::format("'{}' is not a reason code{}", name, hint));
}

std::vector<std::string> split(std::string_view s, char sep) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= s.size()) {
    std::size_t end = s.find(sep, start);
    if (end == std::string_view::npos) end = s.size();
    out.emplace_back(s.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

}  // namespace

std::string Expectation::describe() const {
  std::string out;
  for (auto o : outcomes) out += (out.empty() ? "" : " or ") + std::string(to_string(o));
  if (out.empty()) out = "any outcome";
  if (reason) out += fmt::format(", reason {}", to_string(*reason));
  if (layer) out += fmt::format(", layer {}", to_string(*layer));
  return out;
}

bool Expectation::holds(const Classification& c) const {
  if (!outcomes.empty() && std::find(outcomes.begin(), outcomes.end(), c.outcome) == outcomes.end()) return false;
  if (reason && !same_code(*reason, c.reason)) return false;
  if (layer && *layer != c.layer) return false;
  return true;
}

std::expected<std::vector<Outcome>, std::string> parse_outcome_list(const std::vector<std::string>& words) {
  std::vector<Outcome> out;
  for (const auto& word : words) {
    for (const auto& name : split(word, ',')) {
      if (name.empty()) continue;
      auto o = parse_outcome(name);
      if (!o) return std::unexpected(fmt::format("'{}' is not an outcome name{}", name, did_you_mean(name, outcome_names())));
      out.push_back(*o);
    }
  }
  if (out.empty()) return std::unexpected(std::string("no outcome name given"));
  return out;
}

std::expected<Manifest, std::string> parse_manifest(std::string_view text) {
  Manifest m;
  std::size_t line_no = 0;
  for (const auto& raw : split(text, '\n')) {
    ++line_no;
    std::string line = raw;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    std::istringstream words(line);
    std::string path;
    if (!(words >> path) || path.starts_with("#")) continue;
    std::string outcomes;
    if (!(words >> outcomes)) return std::unexpected(fmt::format("line {}: '{}' has no expected outcome", line_no, path));
    Expectation e;
    auto list = parse_outcome_list({outcomes});
    if (!list) return std::unexpected(fmt::format("line {}: {}", line_no, list.error()));
    e.outcomes = *list;
    std::string extra;
    while (words >> extra) {
      if (extra.starts_with("#")) break;
      if (extra.starts_with("reason=")) {
        auto named = parse_reason(extra.substr(7));
        if (!named) return std::unexpected(fmt::format("line {}: {}", line_no, named.error()));
        e.reason = *named;
      } else if (extra.starts_with("layer=")) {
        e.layer = parse_layer(extra.substr(6));
        if (!e.layer) {
          return std::unexpected(fmt::format("line {}: '{}' is not a layer{}", line_no, extra.substr(6),
                                             did_you_mean(extra.substr(6), {"transport", "protocol", "interaction", "application"})));
        }
      } else {
        return std::unexpected(fmt::format("line {}: unexpected '{}' (write reason=R or layer=L)", line_no, extra));
      }
    }
    m.entries.emplace_back(path, std::move(e));
  }
  return m;
}

std::vector<AuthVerdict> take_auth_verdicts(std::vector<std::string>& words) {
  std::vector<AuthVerdict> out;
  std::vector<std::string> kept;
  for (const auto& word : words) {
    std::string rest;
    for (const auto& name : split(word, ',')) {
      if (auto v = parse_auth_verdict(name)) {
        out.push_back(*v);
      } else if (!name.empty()) {
        rest += (rest.empty() ? "" : ",") + name;
      }
    }
    if (!rest.empty()) kept.push_back(std::move(rest));
  }
  words = std::move(kept);
  return out;
}

Check check_auth_flow(const AuthFlow& flow, const Expectation* expect, std::span<const AuthVerdict> fail_on) {
  Check check;
  const std::string name = flow.source + " auth flow " + std::to_string(flow.flow);
  if (expect != nullptr && !expect->auth.empty()) {
    check.has_expectation = true;
    if (std::find(expect->auth.begin(), expect->auth.end(), flow.verdict) == expect->auth.end()) {
      std::string wanted;
      for (AuthVerdict v : expect->auth) wanted += (wanted.empty() ? "" : " or ") + std::string(to_string(v));
      check.passed = false;
      check.failure = fmt::format("{} is {} ({}), expected {}", name, to_string(flow.verdict), flow.reason, wanted);
    }
  }
  if (!fail_on.empty()) check.has_expectation = true;
  if (std::find(fail_on.begin(), fail_on.end(), flow.verdict) != fail_on.end()) {
    check.passed = false;
    check.failure = fmt::format("{} is {} ({}), listed in --fail-on", name, to_string(flow.verdict), flow.reason);
  }
  return check;
}

Check check_expectations(std::string_view source, const Classification& c, const Expectation* expect,
                         std::span<const Outcome> fail_on) {
  Check check;
  // An expectation of flow verdicts only judges no exchange record; an AUTH_LEG record is judged
  // only when the expectation names AUTH_LEG (docs/auth.md).
  if (expect != nullptr && ((expect->outcomes.empty() && !expect->auth.empty()) ||
                            (c.outcome == Outcome::AUTH_LEG &&
                             std::find(expect->outcomes.begin(), expect->outcomes.end(), Outcome::AUTH_LEG) ==
                                 expect->outcomes.end()))) {
    expect = nullptr;
  }
  if (expect != nullptr) {
    check.has_expectation = true;
    if (!expect->holds(c)) {
      check.passed = false;
      check.failure = fmt::format("{} is {} ({}, layer {}), expected {}", source, to_string(c.outcome),
                                  to_string(c.reason), to_string(c.layer), expect->describe());
    }
  }
  // Every record is checked against --fail-on: one not listed holds (the summary, JUnit and TAP
  // count the same checks).
  if (!fail_on.empty()) check.has_expectation = true;
  if (std::find(fail_on.begin(), fail_on.end(), c.outcome) != fail_on.end()) {
    check.passed = false;
    check.failure = fmt::format("{} is {} ({}), listed in --fail-on", source, to_string(c.outcome), to_string(c.reason));
  }
  return check;
}

}  // namespace mcptriage
