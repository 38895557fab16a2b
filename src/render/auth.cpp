// The authorization members and records (docs/auth.md): a leg's `auth` member, the `auth_flow`
// record in JSON Lines and its block in the table. Every string passes the redactor (redact()),
// then JSON or terminal escaping; no secret is held by these types in the first place.
#include <fmt/format.h>

#include "mcptriage/auth.hpp"
#include "mcptriage/render.hpp"

namespace mcptriage {

namespace {

void str(std::string& out, std::string_view s) { append_json_string(out, redact(s)); }

void str_or_null(std::string& out, std::string_view s) {
  if (s.empty()) out += "null";
  else str(out, s);
}

void strings(std::string& out, const std::vector<std::string>& list) {
  out += '[';
  for (std::size_t i = 0; i < list.size(); ++i) {
    if (i > 0) out += ',';
    str(out, list[i]);
  }
  out += ']';
}

void integer_or_null(std::string& out, const std::optional<std::int64_t>& v) {
  if (v) out += std::to_string(*v);
  else out += "null";
}

/// The allow-listed claims of a JWT (shared/auth-triage.md §5), decoded before the token was
/// dropped; signature unverified.
void claims(std::string& out, const std::optional<AuthLeg::Jwt>& jwt) {
  if (!jwt) {
    out += "null";
    return;
  }
  out += "{\"verified\":false,\"alg\":";
  str_or_null(out, jwt->alg);
  out += ",\"typ\":";
  str_or_null(out, jwt->typ);
  out += ",\"iss\":";
  str_or_null(out, jwt->iss);
  out += ",\"aud\":";
  strings(out, jwt->aud);
  out += ",\"exp\":";
  integer_or_null(out, jwt->exp);
  out += ",\"iat\":";
  integer_or_null(out, jwt->iat);
  out += ",\"nbf\":";
  integer_or_null(out, jwt->nbf);
  out += ",\"scope\":";
  str_or_null(out, jwt->scope);
  out += ",\"client_id\":";
  str_or_null(out, jwt->client_id);
  out += ",\"azp\":";
  str_or_null(out, jwt->azp);
  out += ",\"cnf_jkt\":";
  out += jwt->cnf_jkt ? "\"present\"" : "\"absent\"";
  out += '}';
}

std::string_view level_name(AuthLevel l) {
  switch (l) {
    case AuthLevel::F: return "F";
    case AuthLevel::R: return "R";
    case AuthLevel::S: return "S";
    case AuthLevel::M: return "M";
    case AuthLevel::W: return "W";
  }
  return "W";
}

}  // namespace

void append_auth_member(std::string& out, const AuthAnnotation& a) {
  out += "\"auth\":{\"flow\":";
  out += std::to_string(a.flow);
  out += ",\"step\":\"";
  out += to_string(a.step);
  out += "\",\"verdict\":";
  str(out, a.verdict);
  out += ",\"reason\":";
  str_or_null(out, a.reason);
  out += ",\"findings\":";
  strings(out, a.findings);
  out += ",\"request\":";
  str_or_null(out, a.request);
  out += ",\"params\":{";
  for (std::size_t i = 0; i < a.params.size(); ++i) {
    if (i > 0) out += ',';
    str(out, a.params[i].first);
    out += ':';
    str_or_null(out, a.params[i].second);
  }
  out += "},\"token\":";
  str_or_null(out, a.token);
  out += ",\"detail\":";
  str(out, a.detail);
  out += '}';
}

std::string render_auth_flow_jsonl(const AuthFlow& f) {
  std::string out = "{\"schema\":" + std::to_string(kSchemaVersion) + ",\"kind\":\"auth_flow\",\"source\":";
  str(out, f.source);
  out += ",\"flow\":" + std::to_string(f.flow) + ",\"trigger\":";
  str(out, f.trigger);
  out += ",\"failed\":";
  out += f.verdict == AuthVerdict::AUTH_OK ? "false" : "true";
  out += ",\"resource\":";
  str_or_null(out, f.resource);
  out += ",\"prm_resource\":";
  str_or_null(out, f.prm_resource);
  out += ",\"issuer\":";
  str_or_null(out, f.issuer);
  out += ",\"issuer_source\":";
  str_or_null(out, f.issuer_source);
  out += ",\"protocol_version\":";
  str(out, f.protocol_version);
  out += ",\"protocol_version_source\":";
  str(out, f.protocol_version_source);
  out += ",\"client\":{\"client_id\":";
  str_or_null(out, f.client_id);
  out += ",\"registration\":";
  str(out, f.registration);
  out += ",\"grant\":";
  str_or_null(out, f.grant);
  out += "},\"verdict\":\"";
  out += to_string(f.verdict);
  out += "\",\"failed_step\":";
  str_or_null(out, f.failed_step);
  out += ",\"reason\":";
  str(out, f.reason);
  out += ",\"likely_reason\":";
  str_or_null(out, f.likely_reason);
  out += ",\"last_step\":";
  str_or_null(out, f.last_step);
  out += ",\"spec\":";
  str(out, f.spec);
  out += ",\"party\":\"";
  out += to_string(f.party);
  out += "\",\"advice\":";
  str(out, f.advice);
  out += ",\"detail\":";
  str(out, f.detail);
  out += ",\"steps\":[";
  for (std::size_t i = 0; i < f.steps.size(); ++i) {
    const AuthFlow::Step& s = f.steps[i];
    if (i > 0) out += ',';
    out += "{\"step\":\"";
    out += to_string(s.step);
    out += "\",\"status\":";
    str(out, s.status);
    out += ",\"sources\":";
    strings(out, s.sources);
    out += ",\"source_kind\":";
    str(out, s.source_kind);
    out += '}';
  }
  out += "],\"findings\":[";
  for (std::size_t i = 0; i < f.findings.size(); ++i) {
    const AuthFinding& x = f.findings[i];
    if (i > 0) out += ',';
    out += "{\"code\":";
    str(out, x.code);
    out += ",\"step\":\"";
    out += to_string(x.step);
    out += "\",\"level\":\"";
    out += level_name(x.level);
    out += "\",\"party\":\"";
    out += to_string(x.party);
    out += "\",\"source\":";
    str(out, x.source);
    out += ",\"detail\":";
    str(out, x.detail);
    out += '}';
  }
  out += "],\"tokens\":[";
  for (std::size_t i = 0; i < f.tokens.size(); ++i) {
    const AuthFlow::Token& t = f.tokens[i];
    if (i > 0) out += ',';
    out += "{\"ref\":";
    str(out, t.ref);
    out += ",\"grant\":";
    str_or_null(out, t.grant);
    out += ",\"source\":";
    str(out, t.source);
    out += ",\"token_type\":";
    str_or_null(out, t.token_type);
    out += ",\"expires_in\":";
    integer_or_null(out, t.expires_in);
    out += ",\"scope\":";
    str_or_null(out, t.scope);
    out += ",\"format\":";
    str_or_null(out, t.format);
    out += ",\"claims\":";
    claims(out, t.claims);
    out += ",\"used_by\":";
    strings(out, t.used_by);
    out += ",\"rejected_by\":";
    strings(out, t.rejected_by);
    out += '}';
  }
  out += "],\"missing_evidence\":[";
  for (std::size_t i = 0; i < f.missing_evidence.size(); ++i) {
    if (i > 0) out += ',';
    out += "{\"step\":";
    str(out, f.missing_evidence[i].step);
    out += ",\"what\":";
    str(out, f.missing_evidence[i].what);
    out += ",\"how\":";
    str(out, f.missing_evidence[i].how);
    out += '}';
  }
  out += "],\"legs\":" + std::to_string(f.legs) + ",\"warnings\":";
  strings(out, f.warnings);
  out += '}';
  return out;
}

std::string render_auth_flow_table(const AuthFlow& f) {
  std::string out = fmt::format("auth flow {} ({}): {}", f.flow, escape_terminal(redact(f.source)), to_string(f.verdict));
  if (f.verdict == AuthVerdict::AUTH_FAILED) {
    out += fmt::format(" at {}: {} ({})", f.failed_step, f.reason, to_string(f.party));
  } else if (f.verdict == AuthVerdict::AUTH_INCOMPLETE) {
    out += " after " + (f.last_step.empty() ? std::string("the start") : f.last_step);
    if (!f.likely_reason.empty()) out += ", likely " + f.likely_reason;
  }
  out += '\n';
  constexpr std::size_t kTableLegs = 20;  // a flow of thousands of retried 401s stays readable
  std::size_t shown = 0;
  for (const AuthFlow::LegLine& leg : f.leg_lines) {
    if (++shown > kTableLegs) {
      out += fmt::format("  ... {} more legs (--format jsonl lists them)\n", f.leg_lines.size() - kTableLegs);
      break;
    }
    std::string verdict = leg.verdict;
    if (!leg.reason.empty()) verdict += " " + leg.reason;
    out += fmt::format("  {:<18} {:<30} {}\n", to_string(leg.step), escape_terminal(verdict),
                       escape_terminal(redact(leg.source)));
    append_wrapped(out, escape_terminal(redact(leg.detail)), 4);
  }
  if (f.verdict != AuthVerdict::AUTH_OK) {
    append_wrapped(out, escape_terminal(redact(f.detail)), 2, "  why: ");
    append_wrapped(out, escape_terminal(redact(f.advice)), 2, "  next: ");
    if (!f.spec.empty()) out += "  spec: " + f.spec + "\n";
    for (const AuthFlow::Missing& m : f.missing_evidence) {
      append_wrapped(out, escape_terminal(redact(m.how)), 2, "  capture: ");
    }
  } else {
    for (const AuthFinding& x : f.findings) {
      out += fmt::format("  finding {} ({}, {})\n", x.code, level_name(x.level), to_string(x.party));
    }
  }
  return out;
}

}  // namespace mcptriage
