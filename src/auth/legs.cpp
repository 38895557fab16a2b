// What one exchange says for authorization (mcptriage/auth.hpp extract_auth_leg), read on a worker
// thread: the step it is (shared/auth-triage.md §1.1), the allow-listed fields of its request and
// response (§5), the WWW-Authenticate challenges (RFC 9110 §11.6.1), and keyed hashes of the
// secrets that link legs (codes, tokens, PKCE), never the secrets themselves.
#include <openssl/sha.h>

#include <cctype>
#include <random>

#include "auth/leg_text.hpp"
#include "capture/json_message.hpp"
#include "capture/legs.hpp"
#include "json/dom.hpp"
#include "mcptriage/auth.hpp"
#include "mcptriage/http.hpp"

namespace mcptriage {

namespace auth {

std::uint64_t keyed_hash(std::string_view secret) {
  // The key is drawn once per process, so that no hash means anything outside the run.
  static const std::uint64_t key = [] {
    std::random_device rd;
    return (static_cast<std::uint64_t>(rd()) << 32) ^ rd();
  }();
  std::uint64_t h = 14695981039346656037ULL ^ key;
  for (unsigned char ch : secret) {
    h ^= ch;
    h *= 1099511628211ULL;
  }
  return h | 1;  // 0 means "none"
}

std::string percent_decode(std::string_view s, bool form) {
  std::string out;
  out.reserve(s.size());
  auto hex = [](char ch) -> int {
    if (ch >= '0' && ch <= '9') return ch - '0';
    if (ch >= 'a' && ch <= 'f') return ch - 'a' + 10;
    if (ch >= 'A' && ch <= 'F') return ch - 'A' + 10;
    return -1;
  };
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size() && hex(s[i + 1]) >= 0 && hex(s[i + 2]) >= 0) {
      out += static_cast<char>(hex(s[i + 1]) * 16 + hex(s[i + 2]));
      i += 2;
    } else if (form && s[i] == '+') {
      out += ' ';
    } else {
      out += s[i];
    }
  }
  return out;
}

Params parse_params(std::string_view text, bool form) {
  Params out;
  constexpr std::size_t kMaxParams = 64;
  while (!text.empty() && out.size() < kMaxParams) {
    const std::size_t amp = text.find('&');
    const std::string_view pair = text.substr(0, amp);
    if (!pair.empty()) {
      const std::size_t eq = pair.find('=');
      out.emplace_back(percent_decode(pair.substr(0, eq), form),
                       eq == std::string_view::npos ? std::string() : percent_decode(pair.substr(eq + 1), form));
    }
    if (amp == std::string_view::npos) break;
    text.remove_prefix(amp + 1);
  }
  return out;
}

std::optional<std::string_view> param(const Params& params, std::string_view name) {
  for (const auto& [k, v] : params) {
    if (k == name) return std::string_view(v);
  }
  return std::nullopt;
}

UrlParts split_url(std::string_view url) {
  UrlParts p;
  url = url.substr(0, url.find('#'));
  const std::size_t q = url.find('?');
  if (q != std::string_view::npos) {
    p.query = url.substr(q + 1);
    url = url.substr(0, q);
  }
  const std::size_t scheme = url.find("://");
  if (scheme == std::string_view::npos) {
    p.path = url;
    return p;
  }
  p.scheme = url.substr(0, scheme);
  const std::size_t slash = url.find('/', scheme + 3);
  p.authority = url.substr(scheme + 3, slash == std::string_view::npos ? std::string_view::npos : slash - scheme - 3);
  p.path = slash == std::string_view::npos ? std::string_view() : url.substr(slash);
  return p;
}

std::vector<AuthLeg::Challenge> parse_www_authenticate(std::string_view v) {
  std::vector<AuthLeg::Challenge> out;
  std::size_t i = 0;
  auto ws = [&] {
    while (i < v.size() && (v[i] == ' ' || v[i] == '\t')) ++i;
  };
  auto is_tchar = [](char ch) {
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
           std::string_view("!#$%&'*+-.^_`|~").find(ch) != std::string_view::npos;
  };
  auto token = [&] {
    const std::size_t start = i;
    while (i < v.size() && is_tchar(v[i])) ++i;
    return v.substr(start, i - start);
  };
  constexpr std::size_t kMax = 16;
  while (i < v.size() && out.size() < kMax) {
    ws();
    while (i < v.size() && (v[i] == ',' || v[i] == ' ' || v[i] == '\t')) ++i;
    const std::string_view scheme = token();
    if (scheme.empty()) {
      ++i;  // a stray byte: step over it
      continue;
    }
    AuthLeg::Challenge c;
    c.scheme = std::string(scheme);
    // auth-params (or a token68, which is skipped) until a token that is no parameter name
    for (;;) {
      ws();
      const std::size_t mark = i;
      const std::string_view name = token();
      ws();
      if (name.empty() || i >= v.size() || v[i] != '=') {
        // token68 ("abc==") or the next challenge's scheme
        if (!name.empty() && i < v.size() && v[i] == '=') {
          while (i < v.size() && v[i] == '=') ++i;
          continue;
        }
        i = mark;
        break;
      }
      ++i;  // '='
      ws();
      std::string value;
      if (i < v.size() && v[i] == '"') {
        ++i;
        while (i < v.size() && v[i] != '"') {
          if (v[i] == '\\' && i + 1 < v.size()) ++i;
          value += v[i++];
        }
        if (i < v.size()) ++i;
      } else {
        value = std::string(token());
      }
      std::string lower(name);
      for (char& ch : lower) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
      c.params.emplace_back(std::move(lower), std::move(value));
      ws();
      if (i < v.size() && v[i] == ',') {
        ++i;
        continue;
      }
      break;
    }
    out.push_back(std::move(c));
    // Past the challenge: a comma (or the end) before the next scheme
    ws();
    if (i < v.size() && v[i] == ',') ++i;
  }
  return out;
}

namespace {

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
  }
  return true;
}

std::string base64url_to_std(std::string_view s) {
  std::string out(s);
  for (char& ch : out) {
    if (ch == '-') ch = '+';
    else if (ch == '_') ch = '/';
  }
  while (out.size() % 4 != 0) out += '=';
  return out;
}

std::string base64url_encode(const unsigned char* data, std::size_t n) {
  static constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  std::string out;
  std::uint32_t acc = 0;
  int bits = 0;
  for (std::size_t i = 0; i < n; ++i) {
    acc = (acc << 8) | data[i];
    bits += 8;
    while (bits >= 6) {
      bits -= 6;
      out += kAlphabet[(acc >> bits) & 0x3F];
    }
  }
  if (bits > 0) out += kAlphabet[(acc << (6 - bits)) & 0x3F];
  return out;
}

/// S256 (RFC 7636 §4.2): base64url(SHA-256(ASCII(verifier))), no padding.
std::string s256(std::string_view verifier) {
  unsigned char digest[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(verifier.data()), verifier.size(), digest);
  return base64url_encode(digest, sizeof digest);
}

/// A string, or the strings of an array joined by single spaces ("" for anything else).
std::string strings_of(const json::View& v) {
  if (auto s = v.string()) return std::string(*s);
  std::string out;
  if (v.is_array()) {
    for (json::View item : v.items()) {
      if (auto s = item.string()) {
        if (!out.empty()) out += ' ';
        out += *s;
      }
    }
  }
  return out;
}

void add_json_fields(AuthLeg& leg, const json::View& root, std::initializer_list<std::string_view> names) {
  for (std::string_view name : names) {
    auto v = root.get(name);
    if (!v) continue;
    if (auto b = v->boolean()) {
      leg.fields.emplace_back(std::string(name), *b ? "true" : "false");
    } else if (auto n = v->int64()) {
      leg.fields.emplace_back(std::string(name), std::to_string(*n));
    } else if (v->is_string() || v->is_array()) {
      leg.fields.emplace_back(std::string(name), strings_of(*v));
    } else {
      leg.fields.emplace_back(std::string(name), v->is_null() ? "null" : "(not a string)");
    }
  }
}

/// The token's format and, for a compact JWS, its allow-listed header and claims (§5).
void read_token(AuthLeg& leg, std::string_view token) {
  constexpr std::size_t kMaxPart = std::size_t{1} << 20;  // a larger JWT part is not decoded
  std::size_t dots = 0;
  for (char ch : token) dots += ch == '.' ? 1 : 0;
  if (dots == 4) {
    leg.token_format = "jwe";
    return;
  }
  leg.token_format = "opaque";
  if (dots != 2) return;
  const std::size_t d1 = token.find('.');
  const std::size_t d2 = token.find('.', d1 + 1);
  const std::string_view header = token.substr(0, d1);
  const std::string_view payload = token.substr(d1 + 1, d2 - d1 - 1);
  if (header.empty() || payload.empty() || header.size() > kMaxPart || payload.size() > kMaxPart) {
    if (!header.empty() && !payload.empty()) leg.token_format = "jwt";
    return;
  }
  auto h = capture::base64_decode(base64url_to_std(header));
  auto p = capture::base64_decode(base64url_to_std(payload));
  if (!h || !p) return;
  json::Parser parser;
  AuthLeg::Jwt jwt;
  auto hv = parser.parse(*h);
  if (!hv || !hv->is_object()) return;
  jwt.alg = std::string(hv->string_at("alg").value_or(""));
  jwt.typ = std::string(hv->string_at("typ").value_or(""));
  auto pv = parser.parse(*p);
  if (!pv || !pv->is_object()) return;
  leg.token_format = "jwt";
  jwt.iss = std::string(pv->string_at("iss").value_or(""));
  if (auto aud = pv->get("aud")) {
    if (auto s = aud->string()) jwt.aud.emplace_back(*s);
    for (json::View item : aud->items()) {
      if (auto s = item.string()) jwt.aud.emplace_back(*s);
    }
  }
  auto integer = [&](std::string_view name) -> std::optional<std::int64_t> {
    if (auto v = pv->get(name)) return v->int64();
    return std::nullopt;
  };
  jwt.exp = integer("exp");
  jwt.iat = integer("iat");
  jwt.nbf = integer("nbf");
  if (auto s = pv->string_at("scope")) jwt.scope = std::string(*s);
  else if (auto scp = pv->get("scp")) jwt.scope = strings_of(*scp);
  jwt.client_id = std::string(pv->string_at("client_id").value_or(""));
  jwt.azp = std::string(pv->string_at("azp").value_or(""));
  if (auto cnf = pv->get("cnf")) jwt.cnf_jkt = cnf->get("jkt").has_value();
  leg.jwt = std::move(jwt);
}

/// The step of an OAuth leg: by its request when captured, else by its response's shape.
std::optional<AuthLeg::Kind> oauth_kind(const Request* rq, const Params& query, const Params& form,
                                        std::string_view body) {
  using K = AuthLeg::Kind;
  if (rq != nullptr && !rq->target.empty()) {
    const UrlParts url = split_url(rq->target);
    if (url.path.find("/.well-known/oauth-protected-resource") != std::string_view::npos) return K::prm;
    if (url.path.find("/.well-known/oauth-authorization-server") != std::string_view::npos ||
        url.path.find("/.well-known/openid-configuration") != std::string_view::npos) {
      return K::as_metadata;
    }
    if (auto grant = param(form, "grant_type")) return *grant == "refresh_token" ? K::refresh : K::token;
    if ((param(query, "response_type") && param(query, "client_id")) ||
        (rq->method_line == "GET" && url.path.ends_with("/authorize"))) {
      return K::authorize;
    }
    if (param(query, "state") && (param(query, "code") || param(query, "error"))) return K::callback;
    const bool post = rq->method_line == "POST";
    if (post && url.path.ends_with("/token")) return K::token;
    if (post && (url.path.ends_with("/register") || (rq->body && rq->body->find("\"redirect_uris\"") != std::string::npos))) {
      return K::registration;
    }
  }
  switch (capture::oauth_response_shape(body)) {
    case capture::OAuthShape::resource_metadata: return K::prm;
    case capture::OAuthShape::server_metadata: return K::as_metadata;
    case capture::OAuthShape::registration: return K::registration;
    case capture::OAuthShape::token: return K::token;
    default: return std::nullopt;
  }
}

}  // namespace

}  // namespace auth

std::optional<std::string_view> AuthLeg::Challenge::param(std::string_view name) const {
  for (const auto& [k, v] : params) {
    if (k == name) return std::string_view(v);
  }
  return std::nullopt;
}

std::optional<std::string_view> AuthLeg::field(std::string_view name) const {
  for (const auto& [k, v] : fields) {
    if (k == name) return std::string_view(v);
  }
  return std::nullopt;
}

std::optional<AuthLeg> extract_auth_leg(const Exchange& ex, const std::vector<Classification>& records) {
  using K = AuthLeg::Kind;
  const Request* rq = ex.request ? &*ex.request : nullptr;
  const Response& r = ex.response;
  const std::optional<std::string_view> authorization = rq ? find_header(rq->headers, "authorization") : std::nullopt;
  const bool insufficient_scope = !records.empty() && records.front().reason == Reason::insufficient_scope;
  if (!ex.oauth_leg && !authorization && r.status != 401 && !(r.status == 403 && insufficient_scope)) {
    return std::nullopt;  // the common case: an MCP exchange that takes no part in authorization
  }
  AuthLeg leg;
  leg.request_captured = rq != nullptr && !rq->target.empty();
  if (rq != nullptr) {
    leg.method = rq->method_line;
    const auth::UrlParts url = auth::split_url(rq->target);
    if (!url.scheme.empty()) {
      leg.url = std::string(url.scheme) + "://" + std::string(url.authority) + std::string(url.path);
    } else if (auto host = find_header(rq->headers, "host"); host && !url.path.empty()) {
      leg.url = "https://" + std::string(*host) + std::string(url.path);  // origin-form: the Host names it
    } else {
      leg.url = std::string(url.path);
    }
    if (auto v = find_header(rq->headers, "mcp-protocol-version")) leg.protocol_version = std::string(*v);
  }
  leg.status = r.status;
  leg.transport_captured = r.transport_captured;
  leg.headers_captured = ex.format != CaptureFormat::access_log;
  leg.body_captured = r.body_state == BodyState::complete && !r.body.empty();
  leg.content_type = http::media_type(find_header(r.headers, "content-type").value_or(""));
  if (auto d = find_header(r.headers, "date")) leg.date = std::string(*d);
  if (leg.protocol_version.empty() && !records.empty() && records.front().protocol_version_source == "request") {
    leg.protocol_version = records.front().protocol_version;
  }
  for (const Header& h : r.headers) {
    if (auth::iequals(h.name, "www-authenticate")) {
      leg.www_authenticate = true;
      auto more = auth::parse_www_authenticate(h.value);
      for (auto& c : more) leg.challenges.push_back(std::move(c));
    }
  }
  if (authorization) {
    const std::string_view value = *authorization;
    const std::size_t sp = value.find(' ');
    leg.authorization_scheme = std::string(value.substr(0, sp));
    if (sp != std::string_view::npos) {
      const std::string_view credential = value.substr(sp + 1);
      leg.sent_token = auth::keyed_hash(credential);
      if (!ex.oauth_leg) auth::read_token_into(leg, credential);
    }
  }
  const auth::Params query = rq ? auth::parse_params(auth::split_url(rq->target).query, false) : auth::Params{};
  if (!ex.oauth_leg) {
    leg.kind = (r.status == 401 || (r.status == 403 && insufficient_scope)) ? K::challenge : K::authorized_request;
    leg.token_in_query = auth::param(query, "access_token").has_value();
    if (r.status == 403 && insufficient_scope) leg.fields.emplace_back("error", "insufficient_scope");
    return leg;
  }
  const bool form_body = rq != nullptr && rq->body && rq->body->find('=') != std::string::npos &&
                         !rq->body->starts_with('{');
  const auth::Params form = form_body ? auth::parse_params(*rq->body, true) : auth::Params{};
  const auto kind = auth::oauth_kind(rq, query, form, r.body);
  if (!kind) return std::nullopt;
  leg.kind = *kind;

  json::Parser parser;
  std::optional<json::View> root;
  if (leg.body_captured) {
    if (auto parsed = parser.parse(r.body); parsed && parsed->is_object()) root = *parsed;
  }
  leg.body_json_object = root.has_value();
  auto from_query = [&](std::string_view name) {
    if (auto v = auth::param(query, name)) leg.fields.emplace_back(std::string(name), std::string(*v));
  };
  auto from_form = [&](std::string_view name) {
    if (auto v = auth::param(form, name)) leg.fields.emplace_back(std::string(name), std::string(*v));
  };
  switch (leg.kind) {
    case K::prm:
      if (root) auth::add_json_fields(leg, *root, {"resource", "authorization_servers", "scopes_supported", "bearer_methods_supported"});
      break;
    case K::as_metadata:
      if (root) {
        auth::add_json_fields(leg, *root,
                        {"issuer", "authorization_endpoint", "token_endpoint", "registration_endpoint",
                         "response_types_supported", "grant_types_supported", "code_challenge_methods_supported",
                         "token_endpoint_auth_methods_supported", "scopes_supported",
                         "client_id_metadata_document_supported", "authorization_response_iss_parameter_supported"});
      }
      break;
    case K::registration:
      if (rq != nullptr && rq->body) {
        json::Parser request_parser;
        if (auto body = request_parser.parse(*rq->body); body && body->is_object()) {
          for (std::string_view name : {"redirect_uris", "grant_types", "token_endpoint_auth_method", "application_type",
                                        "client_name"}) {
            if (auto v = body->get(name)) leg.fields.emplace_back("request." + std::string(name), auth::strings_of(*v));
          }
        }
      }
      if (root) auth::add_json_fields(leg, *root, {"client_id", "error", "error_description", "token_endpoint_auth_method"});
      break;
    case K::authorize: {
      for (std::string_view name : {"response_type", "client_id", "redirect_uri", "scope", "resource",
                                    "code_challenge_method"}) {
        from_query(name);
      }
      if (auto v = auth::param(query, "code_challenge")) {
        leg.fields.emplace_back("code_challenge", "present");
        leg.code_challenge = auth::keyed_hash(*v);
      }
      if (auto v = auth::param(query, "state")) {
        leg.fields.emplace_back("state", "present");
        leg.state = auth::keyed_hash(*v);
      }
      // The redirect back to the client (RFC 6749 §4.1.2): its query is the callback's.
      if (auto location = find_header(r.headers, "location")) {
        const auth::Params back = auth::parse_params(auth::split_url(*location).query, false);
        if (auth::param(back, "code") || auth::param(back, "error")) {
          leg.fields.emplace_back("callback", std::string(auth::split_url(*location).path.empty()
                                                              ? *location
                                                              : location->substr(0, location->find('?'))));
          if (auto v = auth::param(back, "code")) {
            leg.fields.emplace_back("callback.code", "present");
            leg.code = auth::keyed_hash(*v);
          }
          for (std::string_view name : {"error", "error_description", "iss"}) {
            if (auto v = auth::param(back, name)) leg.fields.emplace_back("callback." + std::string(name), std::string(*v));
          }
          if (auto v = auth::param(back, "state")) leg.fields.emplace_back("callback.state", std::to_string(auth::keyed_hash(*v)));
        }
      }
      break;
    }
    case K::callback:
      if (auto v = auth::param(query, "code")) {
        leg.fields.emplace_back("code", "present");
        leg.code = auth::keyed_hash(*v);
      }
      if (auto v = auth::param(query, "state")) leg.state = auth::keyed_hash(*v);
      for (std::string_view name : {"error", "error_description", "iss"}) from_query(name);
      break;
    case K::token:
    case K::refresh: {
      for (std::string_view name : {"grant_type", "client_id", "redirect_uri", "resource", "scope"}) from_form(name);
      if (auto v = auth::param(form, "code")) leg.code = auth::keyed_hash(*v);
      if (auto v = auth::param(form, "code_verifier")) {
        leg.fields.emplace_back("code_verifier", "present");
        leg.verifier_challenge = auth::keyed_hash(auth::s256(*v));
      }
      if (auto v = auth::param(form, "refresh_token")) leg.refresh_token_sent = auth::keyed_hash(*v);
      std::string client_auth;
      if (authorization && leg.authorization_scheme == "Basic") client_auth = "client_secret_basic";
      if (auth::param(form, "client_secret")) client_auth += client_auth.empty() ? "client_secret_post" : "+client_secret_post";
      if (auth::param(form, "client_assertion")) client_auth += client_auth.empty() ? "private_key_jwt" : "+private_key_jwt";
      if (rq != nullptr && form_body) leg.fields.emplace_back("client_auth", client_auth.empty() ? "none" : client_auth);
      leg.sent_token = 0;  // Basic credentials are no access token
      if (root) {
        auth::add_json_fields(leg, *root, {"token_type", "expires_in", "scope", "error", "error_description"});
        if (auto at = root->string_at("access_token")) {
          leg.issued_token = auth::keyed_hash(*at);
          auth::read_token_into(leg, *at);
        }
        if (auto rt = root->string_at("refresh_token")) {
          leg.fields.emplace_back("refresh_token", "present");
          leg.refresh_token_issued = auth::keyed_hash(*rt);
        }
      }
      break;
    }
    case K::challenge:
    case K::authorized_request: break;
  }
  return leg;
}

namespace auth {
void read_token_into(AuthLeg& leg, std::string_view token) { read_token(leg, token); }
}  // namespace auth

}  // namespace mcptriage
