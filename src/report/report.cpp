// The JUnit XML / TAP report writers and the run's tally.
#include "mcptriage/report.hpp"
#include "render/text_detail.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>

namespace mcptriage {
namespace {

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

/// A TAP description: no newline (escape_terminal), and '#' (which starts a directive) and '\\'
/// escaped with a backslash (TAP 14 "Escaping"; tap-parser and prove read `\#` back as '#'),
/// so that `file#1` is named as in every other output.
std::string tap_text(std::string_view s) {
  const std::string text = escape_terminal(redact(s));
  std::string out;
  out.reserve(text.size() + 4);
  for (char ch : text) {
    if (ch == '#' || ch == '\\') out += '\\';
    out += ch;
  }
  return out;
}

}  // namespace

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
      const Classification& k = c.c;
      out += fmt::format("    <testcase classname=\"{}\" name=\"{}\">\n", xml_escape(input), xml_escape(c.source));
      std::string body =
          c.flow ? fmt::format("verdict: {}\nfailed step: {}\nreason: {}\ndetail: {}\nadvice: {}", c.flow->verdict,
                               c.flow->failed_step.empty() ? "none" : c.flow->failed_step, c.flow->reason,
                               redact(c.flow->detail), c.flow->advice)
                 : fmt::format("outcome: {}\nlayer: {}\nreason: {}\ndetail: {}\nretry: {}", to_string(k.outcome),
                               to_string(k.layer), to_string(k.reason), redact(k.detail), redact(k.retry.text));
      if (!c.passed) {
        out += fmt::format("      <failure message=\"{}\" type=\"{}\">{}</failure>\n", xml_escape(c.failure),
                           c.flow ? std::string_view(c.flow->verdict) : to_string(k.outcome), xml_escape(body));
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
    const Classification& k = c.c;
    ++n;
    if (c.flow) {
      out += fmt::format("{} {} - {} {} ({})\n", c.passed ? "ok" : "not ok", n, tap_text(c.source), c.flow->verdict,
                         tap_text(c.flow->reason));
      out += "  ---\n";
      out += fmt::format("  verdict: {}\n  failed_step: {}\n  reason: {}\n  detail: {}\n", c.flow->verdict,
                         c.flow->failed_step.empty() ? "null" : yaml_quote(c.flow->failed_step),
                         yaml_quote(c.flow->reason), yaml_quote(c.flow->detail));
      if (!c.passed) out += fmt::format("  message: {}\n", yaml_quote(c.failure));
      out += "  ...\n";
      continue;
    }
    out += fmt::format("{} {} - {} {} ({})\n", c.passed ? "ok" : "not ok", n, tap_text(c.source),
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
