// The authorization catalogue (mcptriage/auth.hpp): every code of shared/auth-triage.md §2 with its
// step, level, sources, party, when it fires and the advice; the names of verdicts, steps and parties.
#include <array>
#include <cctype>

#include "mcptriage/auth.hpp"

namespace mcptriage {

namespace {

constexpr AuthCodeEntry kCodes[] = {
#include "auth/codes.inc"
};

std::string_view trim(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return s;
}

/// "Authorization Server Location" -> "authorization-server-location" (the site's heading anchors).
std::string anchor_of(std::string_view heading) {
  heading = heading.substr(0, heading.find_first_of("(/"));
  heading = trim(heading);
  std::string out;
  for (char ch : heading) {
    const auto u = static_cast<unsigned char>(ch);
    if (std::isalnum(u)) out += static_cast<char>(std::tolower(u));
    else if (ch == ' ' || ch == '-') out += '-';
  }
  return out;
}

/// The dated version a rule's "AUTH/NN" names, given the version in force.
std::string_view version_for(std::string_view tag, std::string_view in_force) {
  constexpr std::array<std::pair<std::string_view, std::string_view>, 4> kShort{
      {{"03", "2025-03-26"}, {"06", "2025-06-18"}, {"11", "2025-11-25"}, {"26", "2026-07-28"}}};
  if (tag == "all") return in_force.empty() ? std::string_view("2025-11-25") : in_force;
  const bool plus = tag.ends_with('+');
  if (plus) tag.remove_suffix(1);
  std::string_view dated = "2025-11-25";
  for (const auto& [s, d] : kShort) {
    if (s == tag) dated = d;
  }
  if (plus && !in_force.empty() && in_force > dated) return in_force;
  return dated;
}

}  // namespace

std::span<const AuthCodeEntry> auth_catalogue() { return kCodes; }

const AuthCodeEntry* auth_code_entry(std::string_view code) {
  for (const AuthCodeEntry& e : kCodes) {
    if (e.code == code) return &e;
  }
  return nullptr;
}

std::string auth_spec_url(const AuthCodeEntry& entry, std::string_view version) {
  std::string_view first = trim(entry.sources.substr(0, entry.sources.find(';')));
  const std::size_t mark = first.find("§");
  const std::string_view head = trim(first.substr(0, mark));
  const std::string_view rest = mark == std::string_view::npos ? std::string_view() : first.substr(mark + 2);
  const std::string base = "https://modelcontextprotocol.io/specification/";
  if (head.size() > 1 && head[0] == 'R' && std::isdigit(static_cast<unsigned char>(head[1]))) {
    std::string section(rest.substr(0, rest.find_first_of(", ")));
    return "https://www.rfc-editor.org/rfc/rfc" + std::string(head.substr(1)) +
           (section.empty() ? std::string() : "#section-" + section);
  }
  if (head.starts_with("AUTH26")) {
    std::string url = base + "2026-07-28/basic/authorization";
    const std::string_view page = head.substr(6);
    if (page == "/disc") url += "/authorization-server-discovery";
    else if (page == "/reg") url += "/client-registration";
    else if (page == "/sec") url += "/security-considerations";
    if (!rest.empty()) url += "#" + anchor_of(rest);
    return url;
  }
  if (head.starts_with("AUTH/")) {
    const std::string_view dated = version_for(head.substr(5), version);
    std::string url = base + std::string(dated) + "/basic/authorization";
    if (!rest.empty()) url += "#" + anchor_of(rest);
    return url;
  }
  if (head.starts_with("Fetch")) return "https://fetch.spec.whatwg.org/#http-cors-protocol";
  if (head.starts_with("CONF")) {
    return "https://github.com/modelcontextprotocol/conformance/tree/main/src/scenarios/client/auth";
  }
  return base + std::string(version_for("all", version)) + "/basic/authorization";
}

std::string_view to_string(AuthVerdict v) {
  switch (v) {
    case AuthVerdict::AUTH_OK: return "AUTH_OK";
    case AuthVerdict::AUTH_FAILED: return "AUTH_FAILED";
    case AuthVerdict::AUTH_INCOMPLETE: return "AUTH_INCOMPLETE";
  }
  return "AUTH_INCOMPLETE";
}

std::optional<AuthVerdict> parse_auth_verdict(std::string_view name) {
  for (AuthVerdict v : {AuthVerdict::AUTH_OK, AuthVerdict::AUTH_FAILED, AuthVerdict::AUTH_INCOMPLETE}) {
    if (to_string(v) == name) return v;
  }
  return std::nullopt;
}

std::string_view to_string(AuthStep s) {
  switch (s) {
    case AuthStep::challenge: return "challenge";
    case AuthStep::prm: return "prm";
    case AuthStep::as_metadata: return "as_metadata";
    case AuthStep::registration: return "registration";
    case AuthStep::authorize: return "authorize";
    case AuthStep::token: return "token";
    case AuthStep::authorized_request: return "authorized_request";
    case AuthStep::step_up: return "step_up";
    case AuthStep::refresh: return "refresh";
  }
  return "challenge";
}

std::string_view to_string(AuthParty p) {
  switch (p) {
    case AuthParty::resource_server: return "resource_server";
    case AuthParty::authorization_server: return "authorization_server";
    case AuthParty::client: return "client";
    case AuthParty::unknown: return "unknown";
  }
  return "unknown";
}

}  // namespace mcptriage
