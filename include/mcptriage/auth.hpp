// Authorization triage (issue 26; contract shared/auth-triage.md, docs/auth.md): the OAuth legs of
// an MCP authorization read out of a capture, grouped into flows, and a verdict per flow naming the
// step that broke, the rule, the party at fault and what to do next.
//
// Two stages, like the session analysis: extract_auth_leg() on the worker threads reads what one
// exchange says for authorization (owned data, no secret kept: tokens, codes and verifiers only as
// keyed 64-bit hashes); an AuthTracker per session then walks the legs in capture order on the run's
// thread, annotates each leg's record (its `auth` member) and ends with one AuthFlow per flow.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "mcptriage/classify.hpp"
#include "mcptriage/exchange.hpp"

namespace mcptriage {

/// The verdict on one authorization flow (auth-triage.md §3).
enum class AuthVerdict { AUTH_OK, AUTH_FAILED, AUTH_INCOMPLETE };
std::string_view to_string(AuthVerdict v);
/// Parses "AUTH_OK", "AUTH_FAILED" or "AUTH_INCOMPLETE" (exact). nullopt otherwise.
std::optional<AuthVerdict> parse_auth_verdict(std::string_view name);

/// The nine steps of a flow, in flow order (auth-triage.md §1.1).
enum class AuthStep { challenge, prm, as_metadata, registration, authorize, token, authorized_request, step_up, refresh };
std::string_view to_string(AuthStep s);

/// The party a rule blames (auth-triage.md, "Parties").
enum class AuthParty { resource_server, authorization_server, client, unknown };
std::string_view to_string(AuthParty p);

/// How a rule acts on the verdict (auth-triage.md §2 "Levels"): F fail, R refuse, S stop, M must, W warn.
enum class AuthLevel { F, R, S, M, W };

/// One row of the authorization catalogue (auth-triage.md §2, `mcptriage explain CODE`).
struct AuthCodeEntry {
  std::string_view code;      ///< snake_case, as in records
  std::string_view step;      ///< the step it belongs to, or "any" / "flow"
  std::string_view level;     ///< the contract's level text ("F", "R in 26; S before", ...)
  std::string_view versions;  ///< the versions it applies to ("all", "06+", "11+", "26", "ext")
  std::string_view sources;   ///< the spec sources, first one first ("R9728 §3.3, §7.3; CONF ...")
  std::string_view party;     ///< the party text
  std::string_view fires;     ///< when it fires, one paragraph
  std::string_view advice;    ///< what to do next
};
/// Every authorization code, in the contract's order, then the flow reasons `auth_ok` and `capture_ended`.
std::span<const AuthCodeEntry> auth_catalogue();
/// The row of `code`, or null.
const AuthCodeEntry* auth_code_entry(std::string_view code);
/// The URL of a row's first source for protocol version `version` ("2025-11-25"): a
/// modelcontextprotocol.io authorization page with the heading's anchor, an rfc-editor.org
/// section, the Fetch standard or the conformance suite's scenario folder. Plain ASCII.
std::string auth_spec_url(const AuthCodeEntry& entry, std::string_view version);

/// What one exchange says for authorization, read on a worker thread (extract_auth_leg). Strings
/// are as captured but never a secret: tokens, codes, verifiers, assertions and client secrets are
/// only present/absent flags and keyed hashes that no output prints.
struct AuthLeg {
  enum class Kind {
    challenge,           ///< an MCP request answered 401, or 403 with insufficient_scope
    prm,                 ///< protected resource metadata (RFC 9728)
    as_metadata,         ///< authorization server metadata (RFC 8414, OIDC discovery)
    registration,        ///< dynamic client registration (RFC 7591)
    authorize,           ///< an authorization request (RFC 6749 §4.1.1) or its redirect
    callback,            ///< a request to the redirect URI carrying `code` or `error`
    token,               ///< a token request or response (RFC 6749 §4.1.3, §5)
    refresh,             ///< a token request with grant_type=refresh_token (RFC 6749 §6)
    authorized_request,  ///< an MCP request carrying Authorization (Bearer or DPoP)
  };
  Kind kind = Kind::challenge;
  bool request_captured = false;   ///< the capture holds the request line (method and URL)
  std::string method;              ///< "GET", "" when not captured
  std::string url;                 ///< the request URL without query or fragment ("" when unknown)
  int status = 0;                  ///< the response status (0: none)
  bool transport_captured = true;  ///< false for a bare body (status assumed)
  bool body_captured = false;      ///< the response body is there to judge
  /// The response's header fields are in the capture: false for a server access log line, which
  /// has the status only (so a missing WWW-Authenticate is no evidence).
  bool headers_captured = true;
  bool body_json_object = false;   ///< the response body is a JSON object
  std::string content_type;        ///< the response's media type, lower case, no parameters
  std::string protocol_version;    ///< MCP-Protocol-Version of the request, or an initialize's
                                   ///< params.protocolVersion ("" when neither)
  std::string date;                ///< the response's Date header ("" when none)
  std::string authorization_scheme;  ///< "Bearer", "DPoP", another, or "" (no Authorization)
  std::uint64_t sent_token = 0;      ///< keyed hash of the Authorization credential (0: none)
  bool token_in_query = false;       ///< access_token in the request URL's query
  /// The WWW-Authenticate challenges (RFC 9110 §11.6.1): scheme and parameters (lower-case names).
  struct Challenge {
    std::string scheme;
    std::vector<std::pair<std::string, std::string>> params;
    std::optional<std::string_view> param(std::string_view name) const;
  };
  std::vector<Challenge> challenges;
  bool www_authenticate = false;   ///< the response has a WWW-Authenticate field at all
  /// Allow-listed fields (auth-triage.md §5 "May be shown") read from the request query, form body
  /// and response JSON, arrays joined by single spaces; secrets only as "present".
  std::vector<std::pair<std::string, std::string>> fields;
  std::optional<std::string_view> field(std::string_view name) const;
  /// Keyed hashes linking legs: the authorization code, the access token issued, the refresh token
  /// sent or issued, the code_verifier's S256 against the code_challenge (compared, never printed).
  std::uint64_t code = 0;
  std::uint64_t issued_token = 0;
  std::uint64_t refresh_token_sent = 0;
  std::uint64_t refresh_token_issued = 0;
  std::uint64_t state = 0;               ///< keyed hash of `state` (request or callback)
  std::uint64_t code_challenge = 0;      ///< keyed hash of `code_challenge`
  std::uint64_t verifier_challenge = 0;  ///< keyed hash of base64url(SHA-256(code_verifier))
  /// The issued or sent token when it is a compact JWS: its allow-listed header and claims
  /// (auth-triage.md §5), decoded before the token is dropped, signature unchecked.
  struct Jwt {
    std::string alg, typ, iss, scope, client_id, azp;
    std::vector<std::string> aud;
    std::optional<std::int64_t> exp, iat, nbf;
    bool cnf_jkt = false;
  };
  std::optional<Jwt> jwt;           ///< of the token this leg issued or carried
  std::string token_format;         ///< "jwt", "jwe", "opaque" or "" (no token)
  std::string detail;               ///< what the leg says, one line, no secret
};

/// The leg `exchange` is, or nullopt when it takes no part in authorization (an MCP exchange
/// without Authorization answered neither 401 nor 403). `records` are its classification records;
/// `mcp`: the exchange was classified as MCP (not an OAuth leg, outcome AUTH_LEG).
std::optional<AuthLeg> extract_auth_leg(const Exchange& exchange, const std::vector<Classification>& records);

/// The `auth` member of one leg's record (auth-triage.md §4).
struct AuthAnnotation {
  std::size_t flow = 0;
  AuthStep step = AuthStep::challenge;
  std::string verdict;                ///< passed, failed, warning, probe_miss, not_judged
  std::string reason;                 ///< the deciding code, "" for none
  std::vector<std::string> findings;  ///< the other codes that fired on the leg
  std::string request;                ///< "METHOD URL" without query
  std::vector<std::pair<std::string, std::string>> params;  ///< allow-listed (auth-triage.md §5)
  std::string token;                  ///< "token#N" or ""
  std::string detail;
};

/// One finding of a flow.
struct AuthFinding {
  std::string code;
  AuthStep step = AuthStep::challenge;
  AuthLevel level = AuthLevel::W;
  AuthParty party = AuthParty::unknown;
  std::string source;  ///< the leg's record source
  std::string detail;
};

/// One `auth_flow` record (auth-triage.md §4).
struct AuthFlow {
  std::string source;  ///< the session's name
  std::size_t flow = 0;
  std::string trigger;  ///< unauthenticated, reauth, insufficient_scope, none, non_oauth
  std::string resource, prm_resource, issuer, issuer_source;  ///< "" for null
  std::string protocol_version, protocol_version_source;
  std::string client_id, registration = "unknown", grant;
  AuthVerdict verdict = AuthVerdict::AUTH_INCOMPLETE;
  std::string failed_step, reason, likely_reason, last_step;
  std::string spec, advice, detail;
  AuthParty party = AuthParty::unknown;
  struct Step {
    AuthStep step = AuthStep::challenge;
    std::string status;  ///< passed, failed, warning, skipped, not_captured, fallback_defaults, probe_miss
    std::vector<std::string> sources;
    std::string source_kind = "captured";
  };
  std::vector<Step> steps;
  std::vector<AuthFinding> findings;
  struct Token {
    std::string ref, grant, source, token_type, scope, format;
    std::optional<std::int64_t> expires_in;
    std::optional<AuthLeg::Jwt> claims;
    std::vector<std::string> used_by, rejected_by;
  };
  std::vector<Token> tokens;
  struct Missing {
    std::string step, what, how;
  };
  std::vector<Missing> missing_evidence;
  std::size_t legs = 0;
  std::vector<std::string> warnings;
  /// The legs in flow order: (record source, step, leg verdict, detail) for the table's block.
  struct LegLine {
    std::string source;
    AuthStep step = AuthStep::challenge;
    std::string verdict, reason, detail;
  };
  std::vector<LegLine> leg_lines;
};

/// Walks the authorization legs of one session in capture order (auth-triage.md §1.2) and gives
/// each its annotation; finish() judges every flow (§2, §3). Memory: at most kMaxFlows flows are
/// kept open; the legs of one flow at most kMaxLegs (later ones are counted, not kept).
class AuthTracker {
 public:
  static constexpr std::size_t kMaxFlows = 256;
  static constexpr std::size_t kMaxLegs = 512;
  /// `session` names the session (AuthFlow::source); `protocol_version`: `--protocol-version`, or "".
  AuthTracker(std::string session, std::string protocol_version);
  ~AuthTracker();
  AuthTracker(AuthTracker&&) noexcept;
  AuthTracker& operator=(AuthTracker&&) noexcept;
  /// One leg, from the record named `source`. Value: the record's `auth` member.
  AuthAnnotation add(const AuthLeg& leg, std::string source);
  /// Every flow, judged, in the order they started. Call once, at the end of the session.
  std::vector<AuthFlow> finish();

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace mcptriage
