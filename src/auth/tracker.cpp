// The authorization flows of one session (mcptriage/auth.hpp AuthTracker): legs joined into flows
// (shared/auth-triage.md §1.2), the rules of each step (§2) and the verdict with its precedence (§3).
#include <algorithm>
#include <array>
#include <cctype>
#include <ctime>

#include "auth/leg_text.hpp"
#include "mcptriage/auth.hpp"
#include "mcptriage/http.hpp"

namespace mcptriage {

namespace {

using K = AuthLeg::Kind;

AuthStep step_of(K kind) {
  switch (kind) {
    case K::challenge: return AuthStep::challenge;
    case K::prm: return AuthStep::prm;
    case K::as_metadata: return AuthStep::as_metadata;
    case K::registration: return AuthStep::registration;
    case K::authorize:
    case K::callback: return AuthStep::authorize;
    case K::token: return AuthStep::token;
    case K::refresh: return AuthStep::refresh;
    case K::authorized_request: return AuthStep::authorized_request;
  }
  return AuthStep::challenge;
}

/// The precedence of steps in §3 (challenge, prm, as_metadata, registration, step_up, authorize,
/// token/refresh, authorized_request).
int rank_of(AuthStep s) {
  switch (s) {
    case AuthStep::challenge: return 0;
    case AuthStep::prm: return 1;
    case AuthStep::as_metadata: return 2;
    case AuthStep::registration: return 3;
    case AuthStep::step_up: return 4;
    case AuthStep::authorize: return 5;
    case AuthStep::token:
    case AuthStep::refresh: return 6;
    case AuthStep::authorized_request: return 7;
  }
  return 7;
}

int level_rank(AuthLevel l) {
  switch (l) {
    case AuthLevel::R: return 0;
    case AuthLevel::F: return 1;
    case AuthLevel::S: return 2;
    case AuthLevel::M: return 3;
    case AuthLevel::W: return 4;
  }
  return 4;
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& ch : out) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return out;
}

/// The protocol version's short form for the rule tables: "03", "06", "11" or "26".
std::string_view short_version(std::string_view v) {
  if (v < "2025-06-18") return "03";
  if (v < "2025-11-25") return "06";
  if (v < "2026-07-28") return "11";
  return "26";
}

bool v11(std::string_view v) {
  const std::string_view s = short_version(v);
  return s == "11" || s == "26";
}

bool loopback(std::string_view authority) {
  std::string host = lower(authority.substr(0, authority.rfind(':') == std::string_view::npos ||
                                                     authority.ends_with(']')
                                                 ? std::string_view::npos
                                                 : authority.rfind(':')));
  return host == "localhost" || host.starts_with("127.") || host == "[::1]";
}

/// `url`'s origin and path, the scheme and host lower-cased (AUTH/06+ §Canonical Server URI).
struct Canonical {
  std::string origin, path;
  bool ok = false;
};
Canonical canonical(std::string_view url) {
  const auth::UrlParts p = auth::split_url(url);
  Canonical c;
  if (p.scheme.empty() || p.authority.empty()) return c;
  c.origin = lower(p.scheme) + "://" + lower(p.authority);
  c.path = std::string(p.path);
  c.ok = true;
  return c;
}

std::vector<std::string> words(std::string_view s) {
  std::vector<std::string> out;
  std::size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && s[i] == ' ') ++i;
    const std::size_t start = i;
    while (i < s.size() && s[i] != ' ') ++i;
    if (i > start) out.emplace_back(s.substr(start, i - start));
  }
  return out;
}

bool has_word(std::string_view list, std::string_view word) {
  for (const std::string& w : words(list)) {
    if (w == word) return true;
  }
  return false;
}

/// An IMF-fixdate (RFC 9110 §5.6.7) as seconds since the epoch, or nullopt.
std::optional<std::int64_t> http_date(std::string_view text) {
  std::tm tm{};
  const std::string s(text);
  if (strptime(s.c_str(), "%a, %d %b %Y %H:%M:%S GMT", &tm) == nullptr) return std::nullopt;
  return static_cast<std::int64_t>(timegm(&tm));
}

struct Leg {
  std::string source;
  AuthStep step = AuthStep::challenge;
  std::string verdict;  // passed, failed, warning, probe_miss, not_judged
  std::string reason;
  std::string detail;
};

struct Flow {
  std::size_t number = 0;
  std::string trigger;
  std::string resource, resource_metadata_url, challenge_scope;
  std::string prm_resource, prm_scopes;
  std::vector<std::string> authorization_servers;
  std::string issuer, issuer_source;
  std::string authorization_endpoint, token_endpoint, registration_endpoint, as_scopes;
  bool iss_supported = false;
  std::string version, version_source;
  std::string client_id, registration = "unknown", grant;
  std::uint64_t state = 0, code_challenge = 0, code = 0;
  bool verifier_missing = false;
  std::vector<std::uint64_t> tokens;
  std::vector<AuthFlow::Token> token_records;
  std::vector<std::uint64_t> refresh_tokens;
  std::vector<AuthFinding> findings;
  std::vector<Leg> legs;
  std::size_t leg_count = 0;
  std::vector<std::string> warnings;
  bool ended = false, ok = false, refused = false, ignored_noted = false;
  std::string ok_source;
  // step-up
  bool step_up_pending = false;
  std::string step_up_scope;
  std::size_t reauths = 0;
  bool reauthorized = false;
  std::string last_requested_scope;
  std::size_t last_leg_order = 0;  // the session's leg count when the flow last got a leg
};

}  // namespace

struct AuthTracker::State {
  std::string session;
  std::string flag_version;
  std::vector<Flow> flows;
  std::size_t order = 0;  // legs seen in the session
  std::size_t dropped_flows = 0;
};

AuthTracker::AuthTracker(std::string session, std::string protocol_version) : state_(std::make_unique<State>()) {
  state_->session = std::move(session);
  state_->flag_version = std::move(protocol_version);
}
AuthTracker::~AuthTracker() = default;
AuthTracker::AuthTracker(AuthTracker&&) noexcept = default;
AuthTracker& AuthTracker::operator=(AuthTracker&&) noexcept = default;

namespace {

/// The version a flow's rules follow (§1.3): the leg's, the flag's, else 2025-11-25 assumed.
void note_version(Flow& f, const AuthLeg& leg, const std::string& flag) {
  if (!leg.protocol_version.empty() && (f.version_source.empty() || f.version_source == "assumed" ||
                                        f.version_source == "flag")) {
    f.version = leg.protocol_version;
    f.version_source = "request";
  } else if (f.version.empty()) {
    f.version = flag.empty() ? "2025-11-25" : flag;
    f.version_source = flag.empty() ? "assumed" : "flag";
  }
}

struct LegJudgement {
  std::string verdict = "passed";
  std::string reason;
  std::vector<std::string> findings;
  std::string detail;
};

class Judge {
 public:
  Judge(Flow& f, std::string source) : f_(f), source_(std::move(source)) {}

  /// Fires `code` on this leg.
  void fire(std::string_view code, AuthLevel level, AuthParty party, std::string detail) {
    AuthFinding finding{std::string(code), step_, level, party, source_, detail};
    f_.findings.push_back(std::move(finding));
    if (level == AuthLevel::R) f_.refused = true;
    const bool decides = level == AuthLevel::F || level == AuthLevel::R || level == AuthLevel::S;
    if (decides && out_.reason.empty()) {
      out_.reason = std::string(code);
      out_.verdict = "failed";
      out_.detail = std::move(detail);
    } else {
      out_.findings.emplace_back(code);
      if (out_.verdict == "passed") out_.verdict = "warning";
      if (out_.detail.empty()) out_.detail = std::move(detail);
    }
  }
  void step(AuthStep s) { step_ = s; }
  LegJudgement& out() { return out_; }
  AuthStep current_step() const { return step_; }

 private:
  Flow& f_;
  std::string source_;
  AuthStep step_ = AuthStep::challenge;
  LegJudgement out_;
};

std::string clip(std::string_view s) {
  constexpr std::size_t kMax = 200;
  if (s.size() <= kMax) return std::string(s);
  std::size_t cut = kMax;
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
  return std::string(s.substr(0, cut)) + "...";
}

std::string head_of(const AuthLeg& leg) {
  std::string out = leg.method.empty() ? "?" : leg.method;
  out += ' ';
  out += leg.url.empty() ? "(request not captured)" : leg.url;
  out += " -> ";
  out += leg.transport_captured ? std::to_string(leg.status) : std::string("(bare body)");
  return out;
}

/// The well-known PRM URL is path-suffixed (`/.well-known/oauth-protected-resource/<path>`).
bool path_suffixed(std::string_view url, std::string_view well_known) {
  const auth::UrlParts p = auth::split_url(url);
  const std::size_t at = p.path.find(well_known);
  return at != std::string_view::npos && p.path.size() > at + well_known.size() + 1;
}

/// The RFC 8414 §3.1 / OIDC discovery URLs of `issuer`, in the §1.3 order for version `v`.
std::vector<std::string> as_urls(std::string_view issuer, std::string_view v) {
  const Canonical c = canonical(issuer);
  std::vector<std::string> out;
  if (!c.ok) return out;
  std::string path = c.path;
  while (!path.empty() && path.back() == '/') path.pop_back();
  out.push_back(c.origin + "/.well-known/oauth-authorization-server" + path);
  if (short_version(v) == "11" || short_version(v) == "26") {
    out.push_back(c.origin + "/.well-known/openid-configuration" + path);
    if (!path.empty()) out.push_back(c.origin + path + "/.well-known/openid-configuration");
  }
  return out;
}

void error_code_rule(Judge& j, std::string_view prefix, std::string_view error, std::string_view description,
                     AuthParty party) {
  std::string detail = "error " + clip(error);
  if (!description.empty()) detail += ": " + clip(description);
  const std::string code = std::string(prefix) + std::string(error);
  if (auth_code_entry(code) != nullptr) {
    j.fire(code, AuthLevel::F, party, std::move(detail));
  } else if (prefix == "token_") {
    j.fire("token_endpoint_failed", AuthLevel::F, AuthParty::authorization_server, std::move(detail));
  } else {
    j.fire("authorize_rejected_no_redirect", AuthLevel::F, AuthParty::unknown, std::move(detail));
  }
}

}  // namespace

AuthAnnotation AuthTracker::add(const AuthLeg& leg, std::string source) {
  State& st = *state_;
  ++st.order;
  const bool has_token = leg.sent_token != 0;
  // --- which flow (§1.2)
  Flow* flow = nullptr;
  auto latest_open = [&](auto&& match) -> Flow* {
    for (auto it = st.flows.rbegin(); it != st.flows.rend(); ++it) {
      if (!it->ended && match(*it)) return &*it;
    }
    return nullptr;
  };
  auto owner_of_token = [&](std::uint64_t token) -> Flow* {
    for (auto it = st.flows.rbegin(); it != st.flows.rend(); ++it) {
      if (std::find(it->tokens.begin(), it->tokens.end(), token) != it->tokens.end()) return &*it;
    }
    return nullptr;
  };
  std::string trigger;
  const bool mcp = leg.kind == K::challenge || leg.kind == K::authorized_request;
  Flow* token_owner = has_token && mcp ? owner_of_token(leg.sent_token) : nullptr;
  bool rejected_token = false;  // a 401 on the flow's own new token
  if (mcp) {
    if (token_owner != nullptr && !token_owner->ended) {
      flow = token_owner;
      rejected_token = leg.kind == K::challenge && leg.status == 401;
    } else if (token_owner != nullptr && leg.kind == K::authorized_request) {
      flow = token_owner;  // a later use of a token whose flow is over
    } else if (leg.kind == K::challenge) {
      flow = latest_open([&](const Flow& f) { return f.resource == leg.url && !f.ok; });
      if (flow == nullptr) {
        trigger = leg.status == 403 ? "insufficient_scope" : has_token ? "reauth" : "unauthenticated";
      }
    } else {
      flow = latest_open([&](const Flow& f) { return f.resource == leg.url || f.resource.empty(); });
      if (flow == nullptr) trigger = "none";
    }
  } else {
    auto linked = [&](const Flow& f) {
      switch (leg.kind) {
        case K::prm: return leg.url == f.resource_metadata_url || canonical(leg.url).origin == canonical(f.resource).origin;
        case K::as_metadata:
          for (const std::string& issuer : f.authorization_servers) {
            for (const std::string& u : as_urls(issuer, f.version)) {
              if (u == leg.url) return true;
            }
          }
          return false;
        case K::callback:
        case K::authorize: return (leg.state != 0 && leg.state == f.state) || (!f.client_id.empty() && leg.field("client_id") == std::optional<std::string_view>(f.client_id));
        case K::token: return (leg.code != 0 && leg.code == f.code) || (!f.client_id.empty() && leg.field("client_id") == std::optional<std::string_view>(f.client_id));
        case K::refresh:
          return std::find(f.refresh_tokens.begin(), f.refresh_tokens.end(), leg.refresh_token_sent) != f.refresh_tokens.end();
        default: return false;
      }
    };
    flow = latest_open(linked);
    if (flow == nullptr) flow = latest_open([](const Flow& f) { return !f.ok; });
    if (flow == nullptr && leg.kind == K::refresh) {
      // A refresh answers a 401 on a token whose flow is over: a new flow, triggered by it.
      trigger = "reauth";
    } else if (flow == nullptr) {
      trigger = "none";
    }
  }
  if (flow == nullptr) {
    if (st.flows.size() >= kMaxFlows) {
      // Bounded: the oldest flow is closed and judged away from here (its legs keep their annotation).
      st.flows.erase(st.flows.begin());
      ++st.dropped_flows;
    }
    const std::size_t number = st.flows.size() + st.dropped_flows + 1;
    Flow& f = st.flows.emplace_back();
    f.number = number;
    f.trigger = trigger;
    if (mcp) f.resource = leg.url;
    flow = &f;
  }
  Flow& f = *flow;
  note_version(f, leg, st.flag_version);
  const std::string_view v = short_version(f.version);
  const bool v06plus = v != "03";
  const bool v11plus = v == "11" || v == "26";
  if (f.refused && !f.ignored_noted) {
    f.ignored_noted = true;
    f.findings.push_back(AuthFinding{"client_ignored_refusal", step_of(leg.kind), AuthLevel::M, AuthParty::client, source,
                                     "the client went on after a refusal (" + f.findings.back().code + ")"});
  }

  Judge j(f, source);
  j.step(step_of(leg.kind));
  AuthAnnotation a;
  a.flow = f.number;
  a.request = leg.method.empty() && leg.url.empty() ? std::string() : (leg.method.empty() ? "?" : leg.method) + " " + leg.url;
  auto show = [&](std::string_view name, std::string value) { a.params.emplace_back(std::string(name), std::move(value)); };
  auto field = [&](std::string_view name) { return std::string(leg.field(name).value_or("")); };
  std::string detail = head_of(leg);
  const bool failure_status = leg.status == 404 || leg.status == 410 || leg.status >= 500 ||
                              (leg.status >= 300 && leg.status < 400);

  switch (leg.kind) {
    case K::challenge: {
      if (rejected_token) {
        // The flow's new token came back 401: the authorized request failed (§2.7).
        j.step(AuthStep::authorized_request);
        const std::optional<std::int64_t> now = http_date(leg.date);
        const bool aud_known = leg.jwt && !leg.jwt->aud.empty();
        const bool aud_ok = !aud_known || std::find(leg.jwt->aud.begin(), leg.jwt->aud.end(), f.resource) != leg.jwt->aud.end() ||
                            std::find(leg.jwt->aud.begin(), leg.jwt->aud.end(), f.prm_resource) != leg.jwt->aud.end();
        if (leg.jwt && leg.jwt->exp && now && *leg.jwt->exp < *now) {
          j.fire("token_expired", AuthLevel::F, AuthParty::unknown,
                 "the token's exp " + std::to_string(*leg.jwt->exp) + " is before the response's Date " + leg.date);
        } else if (v06plus && !aud_ok) {
          j.fire("token_audience_mismatch", AuthLevel::F, AuthParty::client,
                 "the token's aud does not name " + (f.prm_resource.empty() ? f.resource : f.prm_resource));
        } else {
          std::string why = "the resource server answered 401 to the token its authorization server issued in this flow";
          for (const auto& c : leg.challenges) {
            if (auto d = c.param("error_description")) why += ": " + clip(*d);
          }
          j.fire("token_rejected", AuthLevel::F, AuthParty::resource_server, std::move(why));
        }
        f.ended = true;
        break;
      }
      if (leg.status == 403) {
        // A 403 insufficient_scope: step-up (§2.8).
        j.step(AuthStep::step_up);
        std::string scope;
        for (const auto& c : leg.challenges) {
          if (auto s = c.param("scope")) scope = std::string(*s);
        }
        if (f.step_up_pending && f.reauthorized) {
          j.fire("insufficient_scope_persists", AuthLevel::F,
                 has_word(f.last_requested_scope, scope) ? AuthParty::authorization_server : AuthParty::client,
                 "after re-authorization the request got the same 403 insufficient_scope (scope " + clip(scope) + ")");
          f.ended = true;
        } else {
          detail += ": 403 insufficient_scope, scope " + (scope.empty() ? std::string("not named") : clip(scope));
        }
        f.step_up_pending = true;
        f.reauthorized = false;
        f.step_up_scope = scope;
        if (!leg.www_authenticate && leg.headers_captured) {
          j.fire("challenge_no_www_authenticate", AuthLevel::M, AuthParty::resource_server,
                 "a 403 insufficient_scope without WWW-Authenticate");
        }
        show("scope", scope);
        break;
      }
      if (f.resource.empty()) f.resource = leg.url;
      if (!leg.headers_captured) {
        j.out().verdict = "not_judged";
        detail += ": the log shows the status only, not the WWW-Authenticate challenge";
        break;
      }
      if (!leg.www_authenticate) {
        j.fire("challenge_no_www_authenticate", AuthLevel::M, AuthParty::resource_server,
               "a 401 without WWW-Authenticate: the client cannot find the protected resource metadata from it");
        break;
      }
      const AuthLeg::Challenge* bearer = nullptr;
      for (const auto& c : leg.challenges) {
        if (lower(c.scheme) == "bearer" || lower(c.scheme) == "dpop") {
          bearer = &c;
          break;
        }
      }
      if (bearer == nullptr) {
        std::string schemes;
        for (const auto& c : leg.challenges) schemes += (schemes.empty() ? "" : ", ") + clip(c.scheme);
        if (f.trigger == "unauthenticated") f.trigger = "non_oauth";
        j.fire("challenge_not_bearer", AuthLevel::F, AuthParty::unknown,
               "the challenge names " + (schemes.empty() ? std::string("no scheme") : schemes) + ", not Bearer");
        break;
      }
      const auto rm = bearer->param("resource_metadata");
      const auto scope = bearer->param("scope");
      const auto error = bearer->param("error");
      show("resource_metadata", rm ? std::string(*rm) : std::string());
      show("scope", scope ? std::string(*scope) : std::string());
      show("error", error ? std::string(*error) : std::string());
      if (rm) f.resource_metadata_url = std::string(*rm);
      if (scope) f.challenge_scope = std::string(*scope);
      detail += rm ? ": a bearer-token challenge with resource_metadata" : ": a bearer-token challenge without resource_metadata";
      if (!rm && v == "06") {
        j.fire("challenge_no_resource_metadata", AuthLevel::M, AuthParty::resource_server,
               "a Bearer 401 without resource_metadata (a MUST in 2025-06-18)");
      }
      if (!scope && v11plus) {
        j.fire("challenge_scope_missing", AuthLevel::W, AuthParty::resource_server, "the bearer-token challenge names no scope");
      }
      if (error && !has_token) {
        j.fire("challenge_error_without_credentials", AuthLevel::W, AuthParty::resource_server,
               "error=" + clip(*error) + " on a request that carried no credentials");
      }
      if (scope && has_word(*scope, "offline_access") && v == "26") {
        j.fire("offline_access_advertised_by_resource", AuthLevel::W, AuthParty::resource_server,
               "the challenge's scope names offline_access");
      }
      break;
    }
    case K::prm: {
      show("resource", field("resource"));
      show("authorization_servers", field("authorization_servers"));
      const bool suffixed = path_suffixed(leg.url, "/.well-known/oauth-protected-resource");
      if (leg.status == 401 || leg.status == 403) {
        j.fire("prm_requires_auth", AuthLevel::F, AuthParty::resource_server,
               "the protected resource metadata answered " + std::to_string(leg.status) + ": it must be public");
        break;
      }
      if (failure_status) {
        const bool more = (v11plus && suffixed && leg.url != f.resource_metadata_url) || v == "03";
        if (more) {
          j.out().verdict = "probe_miss";
          detail += ": a later URL of the discovery list replaces it";
        } else {
          j.fire("prm_not_found", AuthLevel::F, AuthParty::resource_server,
                 "no protected resource metadata at " + clip(leg.url) + " (" + std::to_string(leg.status) + ")");
        }
        break;
      }
      if (!leg.body_captured) {
        j.out().verdict = "not_judged";
        detail += ": the body was not captured";
        break;
      }
      if (!leg.body_json_object || (leg.transport_captured && !leg.content_type.empty() &&
                                    leg.content_type != "application/json" && !leg.content_type.ends_with("+json"))) {
        j.fire("prm_not_json", AuthLevel::F, AuthParty::resource_server,
               "the protected resource metadata is not a JSON object" +
                   (leg.content_type.empty() ? std::string() : " (" + clip(leg.content_type) + ")"));
        break;
      }
      const auto resource = leg.field("resource");
      const auto servers = leg.field("authorization_servers");
      if (!resource || resource->empty()) {
        j.fire("prm_invalid", AuthLevel::F, AuthParty::resource_server, "no string resource (/resource)");
        break;
      }
      if (!servers || servers->empty()) {
        j.fire("prm_invalid", AuthLevel::F, AuthParty::resource_server,
               "no authorization server listed (/authorization_servers)");
        break;
      }
      f.prm_resource = std::string(*resource);
      f.authorization_servers = words(*servers);
      f.prm_scopes = field("scopes_supported");
      detail += ": resource " + clip(*resource) + "; authorization servers " + clip(*servers);
      if (has_word(f.prm_scopes, "offline_access") && v == "26") {
        j.fire("offline_access_advertised_by_resource", AuthLevel::W, AuthParty::resource_server,
               "scopes_supported names offline_access");
      }
      // §2.2 prm_resource_mismatch / prm_resource_not_exact, against the MCP URL
      const Canonical want = canonical(f.resource);
      const Canonical got = canonical(*resource);
      if (!want.ok) {
        detail += " (the MCP URL is not in the capture: resource not compared)";
      } else if (!got.ok || got.origin != want.origin) {
        j.fire("prm_resource_mismatch", AuthLevel::R, AuthParty::resource_server,
               "PRM resource " + clip(*resource) + " is another origin than " + clip(f.resource) +
                   "; a conforming client stops here");
      } else if (got.path != want.path) {
        const bool root_fallback = !suffixed && (got.path.empty() || got.path == "/");
        std::string gp = got.path, wp = want.path;
        while (!gp.empty() && gp.back() == '/') gp.pop_back();
        while (!wp.empty() && wp.back() == '/') wp.pop_back();
        const bool prefix = wp.starts_with(gp) && (wp.size() == gp.size() || wp[gp.size()] == '/');
        if (root_fallback) {
          // the bare origin from the root fallback is exact too (§2.2)
        } else if (prefix) {
          j.fire("prm_resource_not_exact", AuthLevel::S, AuthParty::resource_server,
                 "PRM resource " + clip(*resource) + " is not exactly " + clip(f.resource) +
                     " (RFC 9728 demands identity; some clients accept a prefix)");
        } else {
          j.fire("prm_resource_mismatch", AuthLevel::R, AuthParty::resource_server,
                 "PRM resource path " + clip(got.path) + " is not a prefix of " + clip(want.path) +
                     "; a conforming client stops here");
        }
      }
      break;
    }
    case K::as_metadata: {
      show("issuer", field("issuer"));
      if (failure_status || leg.status == 401 || leg.status == 403) {
        const bool oauth_form = leg.url.find("/.well-known/oauth-authorization-server") != std::string::npos;
        const bool more = v11plus && (oauth_form || (leg.url.find("/.well-known/openid-configuration/") != std::string::npos));
        if (v == "03") {
          j.out().verdict = "probe_miss";
          detail += ": 2025-03-26 clients fall back to the default endpoints";
        } else if (more) {
          j.out().verdict = "probe_miss";
          detail += ": a later URL of the discovery list replaces it";
        } else {
          j.fire("as_metadata_not_found", AuthLevel::F, AuthParty::authorization_server,
                 "no authorization server metadata at " + clip(leg.url) + " (" + std::to_string(leg.status) + ")");
        }
        break;
      }
      if (!leg.body_captured) {
        j.out().verdict = "not_judged";
        detail += ": the body was not captured";
        break;
      }
      const auto issuer = leg.field("issuer");
      if (!leg.body_json_object || !issuer || issuer->empty() || !leg.field("token_endpoint")) {
        j.fire("as_metadata_invalid", AuthLevel::F, AuthParty::authorization_server,
               !leg.body_json_object ? std::string("the metadata is not a JSON object")
                                     : !issuer ? std::string("no issuer (/issuer)") : std::string("no token_endpoint (/token_endpoint)"));
        break;
      }
      f.authorization_endpoint = field("authorization_endpoint");
      f.token_endpoint = field("token_endpoint");
      f.registration_endpoint = field("registration_endpoint");
      f.as_scopes = field("scopes_supported");
      f.iss_supported = field("authorization_response_iss_parameter_supported") == "true";
      detail += ": issuer " + clip(*issuer) + "; token endpoint " + clip(f.token_endpoint);
      // The identifier the URL was built from: a PRM entry whose URLs include this one.
      std::string expected;
      for (const std::string& entry : f.authorization_servers) {
        for (const std::string& u : as_urls(entry, f.version)) {
          if (u == leg.url) expected = entry;
        }
      }
      if (expected.empty() && f.authorization_servers.size() == 1) expected = f.authorization_servers.front();
      f.issuer = std::string(*issuer);
      f.issuer_source = "metadata";
      if (!expected.empty() && expected != *issuer) {
        std::string a1 = expected, b1 = std::string(*issuer);
        while (!a1.empty() && a1.back() == '/') a1.pop_back();
        while (!b1.empty() && b1.back() == '/') b1.pop_back();
        if (a1 == b1) {
          j.fire("as_issuer_not_exact", AuthLevel::S,
                 expected.ends_with('/') ? AuthParty::resource_server : AuthParty::authorization_server,
                 "issuer " + clip(*issuer) + " differs from " + clip(expected) + " by a trailing slash");
        } else {
          j.fire("as_issuer_mismatch", AuthLevel::R, AuthParty::authorization_server,
                 "issuer " + clip(*issuer) + " is not " + clip(expected) + ", the identifier the URL was built from");
        }
      }
      const auto pkce = leg.field("code_challenge_methods_supported");
      if (!pkce || !has_word(*pkce, "S256")) {
        j.fire("pkce_not_advertised", v11plus ? AuthLevel::R : AuthLevel::W, AuthParty::authorization_server,
               pkce ? "code_challenge_methods_supported has no S256 (no_s256)"
                    : "no code_challenge_methods_supported (absent)");
      }
      for (const std::string* e : {&f.authorization_endpoint, &f.token_endpoint, &f.registration_endpoint}) {
        const auth::UrlParts p = auth::split_url(*e);
        if (lower(p.scheme) == "http" && !loopback(p.authority)) {
          j.fire("insecure_endpoint", AuthLevel::M, AuthParty::authorization_server, "endpoint " + clip(*e) + " is http");
          break;
        }
      }
      break;
    }
    case K::registration: {
      show("client_id", field("client_id"));
      const std::string error = field("error");
      if (leg.status >= 300 || !error.empty()) {
        const bool rfc7591 = error == "invalid_redirect_uri" || error == "invalid_client_metadata" ||
                             error == "invalid_software_statement" || error == "unapproved_software_statement";
        j.fire("registration_rejected", AuthLevel::F, rfc7591 ? AuthParty::client : AuthParty::authorization_server,
               "registration answered " + std::to_string(leg.status) +
                   (error.empty() ? std::string() : " error " + clip(error)) +
                   (field("error_description").empty() ? std::string() : ": " + clip(field("error_description"))));
        break;
      }
      if (!leg.body_captured) {
        j.out().verdict = "not_judged";
        break;
      }
      if (field("client_id").empty()) {
        j.fire("registration_invalid_response", AuthLevel::F, AuthParty::authorization_server,
               "a registration response without client_id");
        break;
      }
      f.client_id = field("client_id");
      f.registration = "dcr";
      detail += ": client_id " + clip(f.client_id);
      if (v == "26" && leg.request_captured && leg.field("request.redirect_uris") && !leg.field("request.application_type")) {
        j.fire("dcr_application_type_missing", AuthLevel::M, AuthParty::client, "the registration request has no application_type");
      }
      break;
    }
    case K::authorize:
    case K::callback: {
      if (leg.kind == K::authorize && leg.request_captured) {
        for (std::string_view name : {"response_type", "client_id", "redirect_uri", "scope", "resource", "code_challenge_method"}) {
          show(name, field(name));
        }
        show("code_challenge", leg.code_challenge != 0 ? "present" : "absent");
        show("state", leg.state != 0 ? "present" : "absent");
        if (f.step_up_pending) {
          ++f.reauths;
          f.reauthorized = true;
          if (!f.step_up_scope.empty()) {
            for (const std::string& s : words(f.step_up_scope)) {
              if (!has_word(field("scope"), s)) {
                j.fire("step_up_scope_not_requested", AuthLevel::W, AuthParty::client,
                       "the re-authorization does not request " + clip(s));
                break;
              }
            }
          }
          if (f.reauths > 3) {
            j.fire("step_up_retry_limit_exceeded", AuthLevel::W, AuthParty::client,
                   std::to_string(f.reauths) + " re-authorizations for the same request");
          }
        }
        f.last_requested_scope = field("scope");
        if (!field("client_id").empty()) {
          const std::string id = field("client_id");
          if (f.registration != "dcr" || f.client_id != id) {
            const Canonical c = canonical(id);
            f.registration = c.ok && lower(id).starts_with("https://") && c.path.size() > 1 ? "cimd" : "pre_registered";
          }
          f.client_id = id;
        }
        if (leg.state != 0) f.state = leg.state;
        if (leg.code_challenge != 0) f.code_challenge = leg.code_challenge;
        if (leg.code_challenge == 0) {
          j.fire("code_challenge_missing", AuthLevel::M, AuthParty::client, "the authorization request has no code_challenge");
        } else if (v11plus && field("code_challenge_method") != "S256") {
          j.fire("code_challenge_method_not_s256", AuthLevel::M, AuthParty::client,
                 "code_challenge_method is " + (field("code_challenge_method").empty() ? std::string("absent (plain)") : clip(field("code_challenge_method"))));
        }
        if (v06plus && !leg.field("resource")) {
          j.fire("resource_param_missing", AuthLevel::M, AuthParty::client, "the authorization request has no resource");
        }
        if (v06plus && leg.state == 0) {
          j.fire("state_missing", AuthLevel::W, AuthParty::client, "the authorization request has no state");
        }
        const std::string redirect_uri = field("redirect_uri");  // split_url's views point into it
        const auth::UrlParts redirect = auth::split_url(redirect_uri);
        if (lower(redirect.scheme) == "http" && !loopback(redirect.authority)) {
          j.fire("insecure_endpoint", AuthLevel::M, AuthParty::client, "redirect URI " + clip(redirect_uri) + " is http");
        }
        detail += ": authorization request";
      }
      // The authorization response: the callback's query, or the redirect's Location.
      const bool callback = leg.kind == K::callback;
      const std::string prefix = callback ? "" : "callback.";
      const bool has_response = callback || leg.field("callback");
      if (!has_response) {
        if (!callback && leg.status >= 400) {
          j.fire("authorize_rejected_no_redirect", AuthLevel::F, AuthParty::unknown,
                 "the authorization endpoint answered " + std::to_string(leg.status) + " without a redirect");
        } else if (!callback && leg.status == 0 && leg.transport_captured) {
          j.out().verdict = "not_judged";
        }
        break;
      }
      const std::string error = field(prefix + "error");
      const auto iss = leg.field(prefix + "iss");
      if (callback && leg.state != 0 && f.state != 0 && leg.state != f.state) {
        j.fire("state_mismatch", AuthLevel::S, AuthParty::authorization_server, "the callback's state differs from the request's");
      }
      if (!callback) {
        if (auto cs = leg.field("callback.state"); f.state != 0 && (!cs || *cs != std::to_string(f.state))) {
          j.fire("state_mismatch", AuthLevel::S, AuthParty::authorization_server,
                 cs ? "the redirect's state differs from the request's" : "the redirect carries no state");
        }
      }
      const AuthLevel iss_level = v == "26" ? AuthLevel::R : AuthLevel::S;
      if (iss && !f.issuer.empty() && *iss != f.issuer) {
        j.fire("iss_mismatch", iss_level, AuthParty::authorization_server,
               "iss " + clip(*iss) + " is not the issuer " + clip(f.issuer));
      } else if (!iss && f.iss_supported) {
        j.fire("iss_missing", iss_level, AuthParty::authorization_server,
               "the metadata advertises authorization_response_iss_parameter_supported, and the response has no iss");
      }
      if (!error.empty()) {
        const AuthParty party = error == "access_denied" ? AuthParty::unknown
                                : error == "server_error" || error == "temporarily_unavailable" ||
                                        error == "unsupported_response_type"
                                    ? AuthParty::authorization_server
                                    : AuthParty::client;
        std::string e = error == "temporarily_unavailable" ? std::string("server_error") : error;
        error_code_rule(j, "authorize_", e, field(prefix + "error_description"), party);
        if (error == "redirect_uri_mismatch") j.out().reason = "redirect_uri_mismatch";
      } else if (leg.code != 0) {
        f.code = leg.code;
        detail += callback ? ": callback with a code" : ": redirect with a code";
      }
      show("code", leg.code != 0 ? "present" : "absent");
      show("iss", iss ? std::string(*iss) : std::string());
      show("error", error);
      break;
    }
    case K::token:
    case K::refresh: {
      for (std::string_view name : {"grant_type", "client_id", "redirect_uri", "resource", "scope", "client_auth"}) {
        if (leg.field(name)) show(name, field(name));
      }
      const std::string grant = field("grant_type");
      if (!grant.empty()) {
        f.grant = grant == "urn:ietf:params:oauth:grant-type:jwt-bearer"         ? "jwt_bearer"
                  : grant == "urn:ietf:params:oauth:grant-type:token-exchange" ? "token_exchange"
                                                                               : grant;
      }
      if (!field("client_id").empty() && f.client_id.empty()) f.client_id = field("client_id");
      if (leg.code != 0 && f.code == 0) f.code = leg.code;
      if (leg.request_captured && grant == "authorization_code") {
        if (!leg.field("code_verifier")) {
          f.verifier_missing = true;
          j.fire("code_verifier_missing", AuthLevel::M, AuthParty::client, "the token request has no code_verifier");
        }
      }
      if (leg.request_captured && !grant.empty() && v06plus && !leg.field("resource")) {
        j.fire("resource_param_missing", AuthLevel::M, AuthParty::client, "the token request has no resource");
      }
      if (leg.kind == K::token && f.step_up_pending && grant == "authorization_code" && !f.reauthorized) {
        f.reauthorized = true;  // an authorize step not captured
        ++f.reauths;
      }
      const std::string error = field("error");
      if (!error.empty() || (leg.status >= 300 && leg.transport_captured)) {
        if (leg.kind == K::refresh) {
          j.fire("refresh_rejected", AuthLevel::F, AuthParty::unknown,
                 "the refresh grant answered " + std::to_string(leg.status) + (error.empty() ? std::string() : " error " + clip(error)));
        } else if (!error.empty()) {
          const AuthParty party = error == "unsupported_grant_type" || error == "invalid_target" ? AuthParty::authorization_server : AuthParty::client;
          error_code_rule(j, "token_", error, field("error_description"), party);
        } else {
          // Without the body, whose OAuth error names the party, the party is unknown.
          j.fire("token_endpoint_failed", AuthLevel::F, leg.body_captured ? AuthParty::authorization_server : AuthParty::unknown,
                 "the token endpoint answered " + std::to_string(leg.status) +
                     (leg.body_captured ? " without an OAuth error body" : " (its body, with the OAuth error, was not captured)"));
        }
        break;
      }
      if (!leg.body_captured) {
        j.out().verdict = "not_judged";
        detail += ": the token response was not captured";
        break;
      }
      const std::string type = field("token_type");
      if (leg.issued_token == 0 || type.empty() || (lower(type) != "bearer" && lower(type) != "dpop")) {
        j.fire("token_invalid_response", AuthLevel::F, AuthParty::authorization_server,
               leg.issued_token == 0 ? std::string("no access_token") :
               type.empty() ? std::string("no token_type") : "token_type " + clip(type) + " is not one of DPoP, Bearer");
        break;
      }
      f.tokens.push_back(leg.issued_token);
      if (leg.refresh_token_issued != 0) f.refresh_tokens.push_back(leg.refresh_token_issued);
      if (f.verifier_missing) {
        j.fire("pkce_not_enforced", AuthLevel::M, AuthParty::authorization_server,
               "a token was issued for a code redeemed without code_verifier");
      } else if (leg.verifier_challenge != 0 && f.code_challenge != 0 && leg.verifier_challenge != f.code_challenge) {
        j.fire("pkce_not_enforced", AuthLevel::M, AuthParty::authorization_server,
               "a token was issued although S256(code_verifier) does not match the code_challenge");
      }
      AuthFlow::Token t;
      t.ref = "token#" + std::to_string(f.tokens.size());
      t.grant = grant;
      t.source = source;
      t.token_type = type;
      t.scope = field("scope");
      t.format = leg.token_format;
      if (auto e = leg.field("expires_in")) {
        std::int64_t n = 0;
        bool digits = !e->empty();
        for (char ch : *e) {
          if (ch < '0' || ch > '9' || n > 1'000'000'000'000LL) digits = false;
          else n = n * 10 + (ch - '0');
        }
        if (digits) t.expires_in = n;
      }
      t.claims = leg.jwt;
      f.token_records.push_back(std::move(t));
      a.token = f.token_records.back().ref;
      show("token_type", type);
      show("access_token", a.token);
      show("refresh_token", leg.refresh_token_issued != 0 ? "present" : "absent");
      detail += ": " + a.token + " issued (" + clip(type) + ")";
      break;
    }
    case K::authorized_request: {
      if (has_token && token_owner == nullptr &&
          std::find(f.tokens.begin(), f.tokens.end(), leg.sent_token) == f.tokens.end()) {
        // A token the capture never saw issued (cached, pre-provisioned, or issued off the
        // capture): kept with the flow it opens, so that its later uses join this flow instead
        // of each opening a one-step flow of its own (§1.2: a Bearer request with no flow before
        // it is a one-step, cached-token flow).
        f.tokens.push_back(leg.sent_token);
        AuthFlow::Token t;
        t.ref = "token#" + std::to_string(f.tokens.size());
        t.grant = "not_captured";
        t.source = source;
        t.token_type = leg.authorization_scheme;
        t.format = leg.token_format;
        t.claims = leg.jwt;
        f.token_records.push_back(std::move(t));
      }
      for (std::size_t k = 0; k < f.tokens.size(); ++k) {
        if (f.tokens[k] == leg.sent_token) {
          a.token = f.token_records[k].ref;
          f.token_records[k].used_by.push_back(source);
        }
      }
      if (leg.token_in_query) {
        j.fire("token_in_query", AuthLevel::M, AuthParty::client, "an access token in the URL query");
      }
      if (leg.status == 403) {
        j.fire("token_forbidden", AuthLevel::F, AuthParty::resource_server, "403 without insufficient_scope");
        if (!f.ok) f.ended = true;
        break;
      }
      if (v06plus && leg.jwt && !leg.jwt->aud.empty() && !f.resource.empty() &&
          std::find(leg.jwt->aud.begin(), leg.jwt->aud.end(), f.resource) == leg.jwt->aud.end() &&
          std::find(leg.jwt->aud.begin(), leg.jwt->aud.end(), f.prm_resource) == leg.jwt->aud.end()) {
        j.fire("audience_not_validated", AuthLevel::M, AuthParty::resource_server,
               "the request went through although the token's aud names another resource");
      }
      if (!f.ok && !f.ended) {
        f.ok = true;
        f.ended = true;
        f.ok_source = source;
        if (f.resource.empty()) f.resource = leg.url;
      }
      detail += ": an authorized MCP request (" + leg.authorization_scheme + ")";
      break;
    }
  }
  if (rejected_token) {
    for (std::size_t k = 0; k < f.tokens.size(); ++k) {
      if (f.tokens[k] == leg.sent_token) {
        a.token = f.token_records[k].ref;
        f.token_records[k].rejected_by.push_back(source);
      }
    }
  }
  LegJudgement& out = j.out();
  a.step = j.current_step();
  a.verdict = out.verdict;
  a.reason = out.reason;
  a.findings = out.findings;
  a.detail = out.detail.empty() ? detail : detail + ": " + out.detail;
  a.detail = clip(a.detail);
  ++f.leg_count;
  f.last_leg_order = st.order;
  if (f.legs.size() < kMaxLegs) f.legs.push_back(Leg{source, a.step, a.verdict, a.reason, a.detail});
  return a;
}

std::vector<AuthFlow> AuthTracker::finish() {
  State& st = *state_;
  std::vector<AuthFlow> out;
  for (std::size_t n = 0; n < st.flows.size(); ++n) {
    Flow& f = st.flows[n];
    AuthFlow r;
    r.source = st.session;
    r.flow = f.number;
    r.trigger = f.trigger;
    r.resource = f.resource;
    r.prm_resource = f.prm_resource;
    r.issuer = f.issuer;
    r.issuer_source = f.issuer_source;
    if (r.issuer.empty() && f.authorization_servers.size() == 1) {
      r.issuer = f.authorization_servers.front();
      r.issuer_source = "prm";
    }
    r.protocol_version = f.version;
    r.protocol_version_source = f.version_source;
    r.client_id = f.client_id;
    r.registration = f.registration;
    r.grant = f.grant;
    r.findings = f.findings;
    r.tokens = f.token_records;
    r.legs = f.leg_count;
    r.warnings = f.warnings;
    if (f.leg_count > f.legs.size()) {
      r.warnings.push_back(std::to_string(f.leg_count - f.legs.size()) + " legs of the flow past the first " +
                           std::to_string(kMaxLegs) + " are counted, not listed");
    }
    // Steps, in flow order of their first leg.
    for (const Leg& leg : f.legs) {
      r.leg_lines.push_back(AuthFlow::LegLine{leg.source, leg.step, leg.verdict, leg.reason, leg.detail});
      auto it = std::find_if(r.steps.begin(), r.steps.end(), [&](const AuthFlow::Step& s) { return s.step == leg.step; });
      if (it == r.steps.end()) {
        r.steps.push_back(AuthFlow::Step{leg.step, leg.verdict, {}, "captured"});
        it = r.steps.end() - 1;
      } else if (leg.verdict != "probe_miss" && (it->status == "probe_miss" || leg.verdict == "failed" ||
                                                  (leg.verdict == "passed" && it->status != "failed"))) {
        it->status = leg.verdict;
      }
      it->sources.push_back(leg.source);
    }
    auto has_step = [&](AuthStep s) {
      return std::any_of(r.steps.begin(), r.steps.end(), [&](const AuthFlow::Step& x) { return x.step == s; });
    };
    if ((f.grant == "authorization_code") && !has_step(AuthStep::authorize)) {
      r.steps.push_back(AuthFlow::Step{AuthStep::authorize, "not_captured", {}, "inferred"});
    }
    if ((f.registration == "pre_registered" || f.registration == "cimd" || f.grant == "client_credentials") &&
        !has_step(AuthStep::registration)) {
      r.steps.push_back(AuthFlow::Step{AuthStep::registration, "skipped", {}, "inferred"});
    }
    std::stable_sort(r.steps.begin(), r.steps.end(),
                     [](const AuthFlow::Step& a, const AuthFlow::Step& b) { return static_cast<int>(a.step) < static_cast<int>(b.step); });
    r.last_step = f.legs.empty() ? std::string() : std::string(to_string(f.legs.back().step));

    // §3: the deciding finding.
    auto better = [](const AuthFinding* a, const AuthFinding& b) {
      if (a == nullptr) return true;
      if (rank_of(b.step) != rank_of(a->step)) return rank_of(b.step) < rank_of(a->step);
      return level_rank(b.level) < level_rank(a->level);
    };
    // An F finding the flow got past: a later leg of its step passed, or AUTH_OK.
    auto got_past = [&](const AuthFinding& x) {
      if (f.ok) return true;
      bool after = false;
      for (const Leg& leg : f.legs) {
        if (leg.source == x.source && leg.step == x.step) after = true;
        else if (after && leg.step == x.step && leg.verdict == "passed") return true;
      }
      // a later step passed (the client got a token after a failed probe)
      after = false;
      for (const Leg& leg : f.legs) {
        if (leg.source == x.source) after = true;
        else if (after && rank_of(leg.step) > rank_of(x.step) && leg.verdict == "passed" &&
                 (x.step == AuthStep::prm || x.step == AuthStep::as_metadata)) {
          return true;
        }
      }
      return false;
    };
    const AuthFinding* refuse = nullptr;
    const AuthFinding* fail = nullptr;
    const AuthFinding* stop = nullptr;
    for (const AuthFinding& x : f.findings) {
      if (x.level == AuthLevel::R && better(refuse, x)) refuse = &x;
      if (x.level == AuthLevel::F && !got_past(x) && better(fail, x)) fail = &x;
      if (x.level == AuthLevel::S && better(stop, x)) stop = &x;
    }
    // The client visibly moved on: a later flow started after this one's last leg.
    bool moved_on = false;
    for (std::size_t m = n + 1; m < st.flows.size(); ++m) moved_on = true;
    if (f.step_up_pending && !f.reauthorized && !f.ended && v11(f.version)) {
      f.findings.push_back(AuthFinding{"step_up_not_attempted", AuthStep::step_up, AuthLevel::S, AuthParty::client,
                                       f.legs.empty() ? std::string() : f.legs.back().source,
                                       "no re-authorization followed the 403 insufficient_scope"});
      r.findings = f.findings;
      if (stop == nullptr) stop = &f.findings.back();
    }
    const AuthFinding* decide = nullptr;
    if (refuse != nullptr) {
      r.verdict = AuthVerdict::AUTH_FAILED;
      decide = refuse;
    } else if (f.ok) {
      r.verdict = AuthVerdict::AUTH_OK;
    } else if (fail != nullptr) {
      r.verdict = AuthVerdict::AUTH_FAILED;
      decide = fail;
    } else if (stop != nullptr && moved_on) {
      r.verdict = AuthVerdict::AUTH_FAILED;
      decide = stop;
    } else {
      r.verdict = AuthVerdict::AUTH_INCOMPLETE;
      if (stop != nullptr) r.likely_reason = stop->code;
    }
    const std::string version = f.version.empty() ? std::string("2025-11-25") : f.version;
    if (decide != nullptr) {
      r.failed_step = std::string(to_string(decide->step));
      r.reason = decide->code;
      r.party = decide->party;
      r.detail = decide->detail;
      if (refuse != nullptr && f.ok) r.detail += "; the MCP request went through anyway (" + f.ok_source + ")";
    } else if (r.verdict == AuthVerdict::AUTH_OK) {
      r.reason = "auth_ok";
      r.detail = "the authorized request " + f.ok_source + " was answered (neither 401 nor 403)";
    } else {
      r.reason = "capture_ended";
      r.detail = "the capture ends after " + (r.last_step.empty() ? std::string("the start") : r.last_step) +
                 " without an authorized MCP request answered";
    }
    if (const AuthCodeEntry* e = auth_code_entry(r.reason)) {
      r.spec = auth_spec_url(*e, version);
      r.advice = std::string(e->advice);
    }
    if (r.verdict == AuthVerdict::AUTH_INCOMPLETE) {
      // §7: what is missing, by the first step not captured.
      const AuthStep last = f.legs.empty() ? AuthStep::challenge : f.legs.back().step;
      if (last == AuthStep::challenge) {
        std::string how = f.resource_metadata_url.empty()
                              ? std::string("curl -si https://<host>/.well-known/oauth-protected-resource/<path>, then the issuer's well-known URLs; or record the client through mitmproxy")
                              : "curl -si '" + clip(f.resource_metadata_url) + "', then the issuer's well-known URLs; or record the client through mitmproxy";
        r.missing_evidence.push_back({"prm", "the protected resource metadata and the authorization server metadata", how});
      } else if (last == AuthStep::prm || last == AuthStep::as_metadata || last == AuthStep::registration) {
        r.missing_evidence.push_back({"token", "the registration, authorization and token legs at the authorization server",
                                      "run the client through mitmproxy (HTTPS_PROXY, trust its CA), or use its debug log; mcptriage proxy cannot see another host"});
      } else if (last == AuthStep::authorize || last == AuthStep::step_up) {
        r.missing_evidence.push_back({"authorize", "the authorization response (callback) and the token request",
                                      "DevTools -> Network -> Preserve log, then export the HAR with sensitive data (mcptriage redacts codes; keep the file private)"});
      } else {
        r.missing_evidence.push_back({"authorized_request", "an MCP request carrying the new token and its answer",
                                      "mcptriage proxy --upstream <MCP URL> --record s.jsonl with the client pointed at the proxy"});
      }
    }
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace mcptriage
