// Expectations, manifests, and the JUnit XML / TAP report writers.
#include "mcptriage/report.hpp"
#include "render/text_detail.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <sstream>

namespace mcptriage {
namespace {

std::optional<Layer> parse_layer(std::string_view s) {
  for (Layer l : {Layer::transport, Layer::protocol, Layer::interaction, Layer::application}) {
    if (to_string(l) == s) return l;
  }
  return std::nullopt;
}

/// The reason code `name` (its first Reason: Expectation compares codes). Error: why, with the
/// nearest codes.
std::expected<Reason, std::string> parse_reason(std::string_view name) {
  const std::vector<Reason> named = reasons_named(name);
  if (!named.empty()) return named.front();
  const std::vector<std::string_view> near = nearest_names(name, reason_names());
  std::string hint;
  for (std::size_t i = 0; i < near.size(); ++i) {
    hint += i == 0 ? "" : (i + 1 == near.size() ? " or " : ", ");
    hint += near[i];
  }
  return std::unexpected(
      hint.empty() ? fmt::format("'{}' is not a reason code (docs/classification.md lists them)", name)
                   : fmt::format("'{}' is not a reason code; did you mean {}?", name, hint));
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

/// True when the valid UTF-8 text `s` holds U+FFFE or U+FFFF (bytes EF BF BE / EF BF BF) at byte
/// `i`: besides C0 controls and surrogates, the only code points XML 1.0 `Char` (§2.2) excludes.
bool xml_excluded_noncharacter(std::string_view s, std::size_t i) {
  return i + 2 < s.size() && static_cast<unsigned char>(s[i]) == 0xEF && static_cast<unsigned char>(s[i + 1]) == 0xBF &&
         static_cast<unsigned char>(s[i + 2]) >= 0xBE;
}

/// XML 1.0 text/attribute escaping, after redact(). Every code point outside XML 1.0 `Char`
/// (§2.2: #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF]) becomes U+FFFD:
/// the other C0 controls, U+FFFE and U+FFFF here, invalid UTF-8 and surrogates in to_valid_utf8().
std::string xml_escape(std::string_view raw) {
  const std::string s = to_valid_utf8(redact(raw));  // credentials never reach a report
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char ch = s[i];
    if (static_cast<unsigned char>(ch) < 0x20 && ch != '\t' && ch != '\n' && ch != '\r') {
      out += "\xEF\xBF\xBD";
      continue;
    }
    if (xml_excluded_noncharacter(s, i)) {
      out += "\xEF\xBF\xBD";
      i += 2;
      continue;
    }
    switch (ch) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default: out += ch;
    }
  }
  return out;
}

/// A YAML double-quoted scalar (JSON strings are valid YAML).
std::string yaml_quote(std::string_view s) {
  // JSON's escapes are YAML's; C1 and bidirectional controls too, for a report read on a terminal.
  return "\"" + detail::escape_terminal_controls_json(json_escape(redact(s))) + "\"";
}

/// TAP descriptions must not contain '#' (a directive) or a newline.
std::string tap_text(std::string_view s) {
  std::string out = escape_terminal(redact(s));
  std::replace(out.begin(), out.end(), '#', '_');
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
      if (!o) return std::unexpected(fmt::format("'{}' is not an outcome name", name));
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
        if (!e.layer) return std::unexpected(fmt::format("line {}: '{}' is not a layer", line_no, extra.substr(6)));
      } else {
        return std::unexpected(fmt::format("line {}: unexpected '{}' (write reason=R or layer=L)", line_no, extra));
      }
    }
    m.entries.emplace_back(path, std::move(e));
  }
  return m;
}

std::string junit_report(const std::vector<CaseResult>& cases, const std::vector<InputFailure>& errors) {
  // Group by input, keeping first-seen order.
  std::vector<std::string> inputs;
  for (const auto& c : cases) {
    if (std::find(inputs.begin(), inputs.end(), c.input) == inputs.end()) inputs.push_back(c.input);
  }
  for (const auto& e : errors) {
    if (std::find(inputs.begin(), inputs.end(), e.input) == inputs.end()) inputs.push_back(e.input);
  }
  std::size_t failures = 0;
  for (const auto& c : cases) failures += c.passed ? 0 : 1;
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out += fmt::format("<testsuites name=\"mcptriage\" tests=\"{}\" failures=\"{}\" errors=\"{}\">\n",
                     cases.size() + errors.size(), failures, errors.size());
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const std::string& input = inputs[i];
    std::size_t tests = 0, fails = 0, errs = 0;
    for (const auto& c : cases) {
      if (c.input == input) {
        ++tests;
        fails += c.passed ? 0 : 1;
      }
    }
    for (const auto& e : errors) {
      if (e.input == input) {
        ++tests;
        ++errs;
      }
    }
    out += fmt::format("  <testsuite name=\"{}\" id=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"0\">\n",
                       xml_escape(input), i, tests, fails, errs);
    for (const auto& c : cases) {
      if (c.input != input) continue;
      const Classification& k = c.record.c;
      out += fmt::format("    <testcase classname=\"{}\" name=\"{}\">\n", xml_escape(input), xml_escape(c.record.source));
      std::string body = fmt::format("outcome: {}\nlayer: {}\nreason: {}\ndetail: {}\nretry: {}", to_string(k.outcome),
                                     to_string(k.layer), to_string(k.reason), redact(k.detail), redact(k.retry.text));
      if (!c.passed) {
        out += fmt::format("      <failure message=\"{}\" type=\"{}\">{}</failure>\n", xml_escape(c.failure),
                           to_string(k.outcome), xml_escape(body));
      }
      out += fmt::format("      <system-out>{}</system-out>\n", xml_escape(body));
      out += "    </testcase>\n";
    }
    for (const auto& e : errors) {
      if (e.input != input) continue;
      out += fmt::format("    <testcase classname=\"{}\" name=\"{}\">\n", xml_escape(input), xml_escape(input));
      out += fmt::format("      <error message=\"{}\" type=\"input_error\"/>\n", xml_escape(e.message));
      out += "    </testcase>\n";
    }
    out += "  </testsuite>\n";
  }
  out += "</testsuites>\n";
  return out;
}

std::string tap_report(const std::vector<CaseResult>& cases, const std::vector<InputFailure>& errors) {
  std::string out = "TAP version 13\n";
  out += fmt::format("1..{}\n", cases.size() + errors.size());
  std::size_t n = 0;
  for (const auto& c : cases) {
    const Classification& k = c.record.c;
    ++n;
    out += fmt::format("{} {} - {} {} ({})\n", c.passed ? "ok" : "not ok", n, tap_text(c.record.source),
                       to_string(k.outcome), tap_text(to_string(k.reason)));
    out += "  ---\n";
    out += fmt::format("  outcome: {}\n  layer: {}\n  reason: {}\n  detail: {}\n", to_string(k.outcome), to_string(k.layer),
                       yaml_quote(to_string(k.reason)), yaml_quote(k.detail));
    if (!c.passed) out += fmt::format("  message: {}\n", yaml_quote(c.failure));
    out += "  ...\n";
  }
  for (const auto& e : errors) {
    ++n;
    out += fmt::format("not ok {} - {} could not be read\n", n, tap_text(e.input));
    out += fmt::format("  ---\n  message: {}\n  ...\n", yaml_quote(e.message));
  }
  return out;
}

void Tally::add(Outcome o, bool has_expectation, bool passed) {
  ++exchanges;
  ++counts[o];
  if (has_expectation) (passed ? held : broken) += 1;
}

std::string Tally::summary(std::size_t input_errors) const {
  std::vector<std::pair<Outcome, std::size_t>> sorted(counts.begin(), counts.end());
  std::stable_sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  std::string out = fmt::format("{} exchange{}", exchanges, exchanges == 1 ? "" : "s");
  std::string parts;
  for (const auto& [o, n] : sorted) parts += fmt::format("{}{} {}", parts.empty() ? "" : ", ", n, to_string(o));
  if (!parts.empty()) out += ": " + parts;
  if (held + broken > 0) out += fmt::format("; expectations {} held, {} broken", held, broken);
  if (input_errors > 0) out += fmt::format("; {} input error{}", input_errors, input_errors == 1 ? "" : "s");
  return out;
}

}  // namespace mcptriage
