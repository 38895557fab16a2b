// `mcptriage explain` (explain.hpp): the reason catalogue, printed for a person.
#include "cli/explain.hpp"

#include <fmt/format.h>

#include <unistd.h>

#include <array>
#include <cstdio>

#include "io/output.hpp"
#include "mcptriage/auth.hpp"
#include "mcptriage/render.hpp"
#include "mcptriage/verdict.hpp"

namespace mcptriage::cli {
namespace {

constexpr int kOk = 0;
constexpr int kUsage = 2;        ///< docs/exit-codes.md
constexpr int kWriteError = 4;   ///< standard output could not be written

constexpr std::string_view kUsageText =
    "usage: mcptriage explain NAME...   what a reason code, an outcome or a skipped record's reason means\n"
    "       mcptriage explain --list    every name, reasons under their outcome\n";

void append_reason(std::string& out, const ReasonEntry& e) {
  out += fmt::format("reason {}\n", e.name);
  out += fmt::format("  outcome  {} (layer {})\n", to_string(e.outcome), to_string(layer_of(e.outcome)));
  out += fmt::format("  advice   {}\n", to_string(e.advice));
  out += fmt::format("  spec     {}\n\n", e.spec);
  append_wrapped(out, e.explanation, 2);
  out += '\n';
  append_wrapped(out, e.next_step, 2, "  Next: ");
}

void append_outcome(std::string& out, const OutcomeEntry& e) {
  out += fmt::format("outcome {}\n", to_string(e.outcome));
  out += fmt::format("  layer    {}\n", to_string(layer_of(e.outcome)));
  out += fmt::format("  advice   {} (usually; each reason has its own)\n", to_string(e.advice));
  out += fmt::format("  spec     {}\n", e.spec);
  std::string reasons;
  for (const ReasonEntry& r : reason_catalogue()) {
    if (r.outcome == e.outcome) reasons += (reasons.empty() ? "" : " ") + std::string(r.name);
  }
  append_wrapped(out, reasons, 11, "  reasons  ");
  out += '\n';
  append_wrapped(out, e.explanation, 2);
  out += '\n';
  append_wrapped(out, e.next_step, 2, "  Next: ");
}

void append_skip_reason(std::string& out, const SkipReasonEntry& e) {
  out += fmt::format("skipped-record reason {}\n", e.name);
  out += "  a capture entry that is not classified (no outcome; docs/output.md \"Skipped records\")\n";
  out += fmt::format("  spec     {}\n\n", e.spec.empty() ? "none (a fault of the capture file itself)" : e.spec);
  append_wrapped(out, e.explanation, 2);
  out += '\n';
  append_wrapped(out, e.next_step, 2, "  Next: ");
}

const SkipReasonEntry* find_skip_reason(std::string_view name) {
  for (const SkipReasonEntry& e : skip_reason_catalogue()) {
    if (e.name == name) return &e;
  }
  return nullptr;
}

/// The verdicts of auth_flow records (docs/auth.md), one paragraph each.
constexpr std::array<std::pair<AuthVerdict, std::string_view>, 3> kAuthVerdicts{{
    {AuthVerdict::AUTH_OK,
     "An authorized MCP request of the flow got an answer other than 401 or 403, and no refusal rule fired. Its MCP "
     "outcome is the exchange's own record; warnings and MUST breaches that stopped nothing are listed as findings."},
    {AuthVerdict::AUTH_FAILED,
     "The flow broke at a named step: a refusal rule fired (a conforming client stops there), a failure the flow "
     "never got past, or a stop rule after which the client visibly did something else. reason, failed_step, party, "
     "spec and advice are the deciding rule's."},
    {AuthVerdict::AUTH_INCOMPLETE,
     "The capture ends before the flow reached an authorized MCP request or a failure shown by evidence. likely_reason "
     "names the earliest stop rule, if any; missing_evidence says what to capture and how."},
}};

void append_auth_code(std::string& out, const AuthCodeEntry& e) {
  out += fmt::format("{} (authorization, step {}, level {}, versions {})\n", e.code, e.step, e.level, e.versions);
  out += fmt::format("  Spec: {} ({})\n", auth_spec_url(e, "2025-11-25"), e.sources);
  out += fmt::format("  Party: {}\n", e.party);
  append_wrapped(out, std::string("Fires when ") + std::string(e.fires) + ".", 2);
  out += '\n';
  append_wrapped(out, e.advice, 2, "  Next: ");
}

bool known(std::string_view name) {
  return !reasons_named(name).empty() || parse_outcome(name) || find_skip_reason(name) != nullptr ||
         auth_code_entry(name) != nullptr || parse_auth_verdict(name);
}

/// Every name explain knows: reason codes, outcomes, skipped-record reasons.
std::vector<std::string_view> all_names() {
  std::vector<std::string_view> names = reason_names();
  for (const OutcomeEntry& e : outcome_catalogue()) names.push_back(to_string(e.outcome));
  for (const SkipReasonEntry& e : skip_reason_catalogue()) names.push_back(e.name);
  for (const AuthCodeEntry& e : auth_catalogue()) names.push_back(e.code);
  for (const auto& [v, text] : kAuthVerdicts) names.push_back(to_string(v));
  return names;
}

std::string list_text() {
  std::string out;
  for (const OutcomeEntry& o : outcome_catalogue()) {
    out += fmt::format("{} ({})\n", to_string(o.outcome), to_string(layer_of(o.outcome)));
    for (const ReasonEntry& r : reason_catalogue()) {
      if (r.outcome == o.outcome) out += fmt::format("  {}\n", r.name);
    }
  }
  out += "skipped records (not classified)\n";
  for (const SkipReasonEntry& e : skip_reason_catalogue()) out += fmt::format("  {}\n", e.name);
  out += "authorization flows (auth_flow records)\n";
  for (const auto& [v, text] : kAuthVerdicts) out += fmt::format("  {}\n", to_string(v));
  out += "authorization codes (auth_flow reason, auth.reason, findings)\n";
  for (const AuthCodeEntry& e : auth_catalogue()) out += fmt::format("  {} ({})\n", e.code, e.step);
  return out;
}

/// Writes all of `text` to standard output (the run's checked writer, io::write_all): kOk, also
/// when the reader went away (`| head`: stop quietly, as the main command does), else the error
/// on standard error and kWriteError.
int write_stdout(std::string_view text) {
  try {
    io::write_all(STDOUT_FILENO, text, "standard output");
  } catch (const OutputError& e) {
    if (e.kind() == OutputError::Kind::closed) return kOk;
    std::fprintf(stderr, "mcptriage: error: explain: %s\n", e.what());
    return kWriteError;
  }
  return kOk;
}

}  // namespace

std::string explain_text(const std::vector<std::string_view>& names, bool list) {
  std::string out = list ? list_text() : std::string();
  for (std::string_view name : names) {
    for (Reason r : reasons_named(name)) {
      if (!out.empty()) out += '\n';
      append_reason(out, reason_entry(r));
    }
    if (auto o = parse_outcome(name)) {
      if (!out.empty()) out += '\n';
      append_outcome(out, outcome_entry(*o));
    }
    if (const SkipReasonEntry* s = find_skip_reason(name)) {
      if (!out.empty()) out += '\n';
      append_skip_reason(out, *s);
    }
    if (const AuthCodeEntry* a = auth_code_entry(name)) {
      if (!out.empty()) out += '\n';
      append_auth_code(out, *a);
    }
    for (const auto& [v, text] : kAuthVerdicts) {
      if (to_string(v) != name) continue;
      if (!out.empty()) out += '\n';
      out += fmt::format("{} (authorization flow verdict, auth_flow records; docs/auth.md)\n", name);
      append_wrapped(out, text, 2);
    }
  }
  return out;
}

int explain_main(int argc, char** argv) {
  std::vector<std::string_view> names;
  bool list = false;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "-h" || arg == "--help") return write_stdout(kUsageText);
    if (arg == "--list") {
      list = true;
    } else if (arg.starts_with("-") && arg != "-") {
      std::fprintf(stderr, "mcptriage: error: explain: unknown option '%.*s'\n%.*s", static_cast<int>(arg.size()),
                   arg.data(), static_cast<int>(kUsageText.size()), kUsageText.data());
      return kUsage;
    } else {
      names.push_back(arg);
    }
  }
  if (names.empty() && !list) {
    std::fprintf(stderr, "mcptriage: error: explain: name a reason code or an outcome\n%.*s",
                 static_cast<int>(kUsageText.size()), kUsageText.data());
    return kUsage;
  }
  bool unknown = false;
  const std::vector<std::string_view> candidates = all_names();
  for (std::string_view name : names) {
    if (known(name)) continue;
    unknown = true;
    const std::vector<std::string_view> near = nearest_names(name, candidates);
    std::string hint;
    for (std::size_t i = 0; i < near.size(); ++i) {
      hint += i == 0 ? "" : (i + 1 == near.size() ? " or " : ", ");
      hint += near[i];
    }
    const std::string shown = escape_terminal(name);  // as typed, controls made visible
    const std::string message =
        hint.empty()
            ? fmt::format("mcptriage: error: explain: '{}' is not a reason code, an outcome or a skipped-record reason "
                          "(mcptriage explain --list names them all)\n",
                          shown)
            : fmt::format("mcptriage: error: explain: '{}' is not a reason code, an outcome or a skipped-record reason; "
                          "did you mean {}?\n",
                          shown, hint);
    std::fputs(message.c_str(), stderr);
  }
  if (unknown) return kUsage;
  return write_stdout(explain_text(names, list));
}

}  // namespace mcptriage::cli
