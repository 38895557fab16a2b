// Redaction of credentials in everything mcptriage prints (docs/security.md): free text,
// header values by header name, URLs. On by default; `--no-redact` turns it off.
#include <array>
#include <cctype>
#include <string>
#include <string_view>

#include "mcptriage/redact.hpp"
#include "http/tokens.hpp"
#include "redact/scan.hpp"

namespace mcptriage {
namespace {

constexpr std::string_view kRedacted = "[REDACTED]";
/// "…" (U+2026) after the kept prefix of a shortened Mcp-Session-Id.
constexpr std::string_view kEllipsis = "\xE2\x80\xA6";
constexpr std::size_t kSessionIdKept = 8;

bool g_redaction = true;

// ASCII only, as std::tolower/isalnum/isspace in the "C" locale the program runs in, but inline:
// redact() runs over every string printed (docs/performance.md).
using http::ascii_lower;
using http::is_space;

constexpr bool is_alnum(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

/// is_alnum as a table, for the scan over text where no credential starts.
constexpr std::array<bool, 256> kAlnum = [] {
  std::array<bool, 256> t{};
  for (int c = 0; c < 256; ++c) t[static_cast<std::size_t>(c)] = is_alnum(static_cast<char>(c));
  return t;
}();

/// `s` at `i` starts with the lower-case `word`, compared case-insensitively.
bool lower_at(std::string_view s, std::size_t i, std::string_view word) {
  if (i + word.size() > s.size()) return false;
  for (std::size_t k = 0; k < word.size(); ++k) {
    if (ascii_lower(s[i + k]) != word[k]) return false;
  }
  return true;
}

/// Where a credential value that starts at `i` ends in free text. A backslash ends it too:
/// tokens and cookie values never hold one (RFC 6750 b64token, RFC 6265 cookie-octet), and
/// error messages print line ends as `\r\n`.
std::size_t token_end(std::string_view s, std::size_t i) {
  while (i < s.size() && !is_space(s[i]) && s[i] != '"' && s[i] != '\'' && s[i] != ',' && s[i] != '&' &&
         s[i] != ';' && s[i] != '#' && s[i] != '\\')
    ++i;
  return i;
}

/// Where the `name=value; name=value` pairs of a cookie list that starts at `i` end in free text.
std::size_t cookie_list_end(std::string_view s, std::size_t i) {
  std::size_t end = i;
  while (true) {
    std::size_t j = end;
    while (j < s.size() && s[j] != '=' && s[j] != ';' && !is_space(s[j]) && s[j] != '\\') ++j;
    if (j == end || j >= s.size() || s[j] != '=') return end;
    end = token_end(s, j + 1);
    std::size_t next = end;
    if (next >= s.size() || s[next] != ';') return end;
    ++next;
    while (next < s.size() && s[next] == ' ') ++next;
    // another pair follows only if a `name=` comes next (Set-Cookie attributes stay visible)
    std::size_t k = next;
    while (k < s.size() && s[k] != '=' && s[k] != ';' && !is_space(s[k])) ++k;
    if (k == next || k >= s.size() || s[k] != '=') return end;
    end = next;
  }
}

/// `value` with at most its first 8 bytes kept (never cutting a UTF-8 sequence), then "…".
std::string shorten(std::string_view value) {
  if (value.size() <= kSessionIdKept) return std::string(value);
  std::size_t cut = kSessionIdKept;
  while (cut > 0 && (static_cast<unsigned char>(value[cut]) & 0xC0) == 0x80) --cut;
  return std::string(value.substr(0, cut)) + std::string(kEllipsis);
}

/// A header or parameter name (lower case) that names a credential: *token*, *secret*, *key*,
/// *password*, *passwd*, *credential*, *signature*, *api-key*, and the x-auth-* family.
bool sensitive_name(std::string_view name) {
  for (std::string_view part : {"token", "secret", "key", "password", "passwd", "credential", "signature"}) {
    if (name.find(part) != std::string_view::npos) return true;
  }
  return name.starts_with("x-auth") || name.starts_with("x_auth");
}

/// A URL query or fragment parameter name (lower case) whose value is a credential.
bool sensitive_param(std::string_view name) {
  if (sensitive_name(name)) return true;
  for (std::string_view exact : {"code", "sig", "auth", "session", "sessionid", "session_id", "jwt", "pwd", "pass",
                                  "state", "nonce", "assertion", "code_verifier", "client_assertion", "device_code"}) {
    if (name == exact) return true;
  }
  return false;
}

/// A byte of a URL parameter name (RFC 3986 unreserved, '%' of a percent-encoding, and the
/// brackets of array-style names such as `token[]` or `api_key[0]`).
bool is_param_char(char c) {
  return is_alnum(c) || c == '-' || c == '.' || c == '_' || c == '~' || c == '%' || c == '[' || c == ']';
}

/// The byte before a URL parameter in free text: the query's '?', the fragment's '#', or a
/// separator ('&', ';').
bool is_param_separator(char c) { return c == '?' || c == '&' || c == '#' || c == ';'; }

/// Longest parameter name looked at in free text (a longer one is not a credential rule's).
constexpr std::size_t kParamNameMax = 64;

/// sensitive_param() of `name` in any case, without a copy for names up to kParamNameMax.
bool sensitive_param_any_case(std::string_view name) {
  if (name.empty() || name.size() > kParamNameMax) return false;
  char buf[kParamNameMax];
  for (std::size_t k = 0; k < name.size(); ++k) buf[k] = ascii_lower(name[k]);
  return sensitive_param(std::string_view(buf, name.size()));
}

/// Whether the '=' at `eq` in free text ends a URL parameter name with a credential value: the
/// name follows a '?', '&', '#' or ';' (a URL or query string quoted in a message).
bool url_param_credential(std::string_view s, std::size_t eq) {
  std::size_t k = eq;
  while (k > 0 && eq - k < kParamNameMax && is_param_char(s[k - 1])) --k;
  return k > 0 && k < eq && is_param_separator(s[k - 1]) && sensitive_param_any_case(s.substr(k, eq - k));
}

/// Header names that are credentials whole, as spelled in free text before a colon.
constexpr std::array<std::string_view, 7> kSecretHeaders = {
    "proxy-authorization:", "authorization:", "set-cookie:", "cookie:", "x-api-key:", "api-key:", "x-auth-token:"};

/// Query-style `name=value` credentials in free text (a boundary before the name). The OAuth ones
/// (docs/auth.md "Redaction"): PKCE's verifier, client assertions, device codes and exchanged
/// tokens. `code`, `state`, `nonce` and `assertion` are common words ("exit code=1",
/// "state=working"): they are hidden as URL parameters only (sensitive_param).
constexpr std::array<std::string_view, 18> kParams = {
    "access_token=", "refresh_token=", "id_token=", "api_key=", "apikey=", "api-key=", "token=", "client_secret=",
    "password=",     "passwd=",        "secret=",   "session_id=", "code_verifier=", "client_assertion=",
    "device_code=",  "issued_token=",  "subject_token=", "actor_token="};

/// JSON members whose string value is a credential, as quoted in free text: `"name": "value"`.
constexpr std::array<std::string_view, 14> kJsonMembers = {
    "\"access_token\"", "\"refresh_token\"", "\"id_token\"", "\"token\"",  "\"api_key\"",
    "\"apikey\"",       "\"password\"",      "\"secret\"",   "\"client_secret\"", "\"authorization\"",
    "\"code_verifier\"", "\"client_assertion\"", "\"registration_access_token\"", "\"device_code\""};

/// `Name=value` pairs of a Cookie header (or the first pair of Set-Cookie, `only_first`):
/// names kept, values hidden.
std::string redact_cookie_pairs(std::string_view value, bool only_first) {
  std::string out;
  bool first = true;
  while (true) {
    const std::size_t semi = value.find(';');
    std::string_view pair = value.substr(0, semi);
    if (first || !only_first) {
      const std::size_t eq = pair.find('=');
      if (eq != std::string_view::npos) {
        out.append(pair.substr(0, eq + 1));
        out += kRedacted;
      } else {
        out += pair.find_first_not_of(' ') == std::string_view::npos ? std::string(pair) : std::string(kRedacted);
      }
    } else {
      out.append(pair);  // Set-Cookie attributes (Path, Expires, HttpOnly, ...) stay
    }
    first = false;
    if (semi == std::string_view::npos) break;
    out += ';';
    value.remove_prefix(semi + 1);
  }
  return out;
}

/// `name=value` pairs separated by `&` (or `;`): sensitive values hidden.
std::string redact_params(std::string_view params) {
  std::string out;
  std::size_t start = 0;
  while (start <= params.size()) {
    std::size_t end = params.find_first_of("&;", start);
    if (end == std::string_view::npos) end = params.size();
    const std::string_view pair = params.substr(start, end - start);
    const std::size_t eq = pair.find('=');
    if (eq != std::string_view::npos && sensitive_param(http::lower(pair.substr(0, eq)))) {
      out.append(pair.substr(0, eq + 1));
      out += kRedacted;
    } else {
      out.append(pair);
    }
    if (end == params.size()) break;
    out += params[end];
    start = end + 1;
  }
  return out;
}

/// The two letters (lower case) that end a credential's name before its ':' or '=': the
/// secret headers, `mcp-session-id` and the query-style parameters; or, with `member`, the JSON
/// member names before their closing quote.
bool credential_suffix(std::string_view s, std::size_t end, bool member = false) {
  if (end < 2) return false;
  const char a = ascii_lower(s[end - 2]);
  const char b = ascii_lower(s[end - 1]);
  switch (b) {
    case 'n': return a == 'o' || a == 'e';                          // authorization, token
    case 'y': return a == 'e';                                      // api-key, apikey, api_key
    case 't': return a == 'e';                                      // secret
    case 'd': return a == 'r' || (!member && (a == 'i' || a == 'w'));  // password; session-id, passwd
    case 'e': return a == 'd' || (!member && a == 'i');             // device_code; cookie
    case 'r': return a == 'e';                                      // code_verifier
    default: return false;
  }
}

}  // namespace

void set_redaction(bool on) { g_redaction = on; }

bool redaction_enabled() { return g_redaction; }

std::string redact(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  append_redacted(out, s);
  return out;
}

namespace detail {

bool credential_trigger(std::string_view s, std::size_t i) {
  switch (s[i]) {
    case ' ':
    case '\t':
    case '\n':
    case '\v':
    case '\f':
    case '\r':  // white space after `basic` or `bearer`
      return (i >= 5 && ascii_lower(s[i - 1]) == 'c' && lower_at(s, i - 5, "basic")) ||
             (i >= 6 && ascii_lower(s[i - 1]) == 'r' && lower_at(s, i - 6, "bearer"));
    case ':': {
      if (i + 2 < s.size() && s[i + 1] == '/' && s[i + 2] == '/') return true;
      if (credential_suffix(s, i)) return true;
      std::size_t k = i;
      while (k > 0 && is_space(s[k - 1])) --k;
      return k > 0 && s[k - 1] == '"' && credential_suffix(s, k - 1, true);
    }
    case '=': return credential_suffix(s, i) || url_param_credential(s, i);
    default: return false;
  }
}

bool may_hold_credential(std::string_view s) {
  // Every rule of the scan needs one of a few bytes after the word it matches: white space
  // after `bearer`/`basic`, ':' after a header name, a JSON member name and its quote, or before
  // `//`, '=' after a parameter name. One table look-up per byte; the names are checked
  // backwards from those bytes only (credential_trigger).
  static constexpr std::array<bool, 256> kTrigger = [] {
    std::array<bool, 256> t{};
    t[' '] = t[':'] = t['='] = true;
    for (char c : {'\t', '\n', '\v', '\f', '\r'}) t[static_cast<unsigned char>(c)] = true;  // white space too
    return t;
  }();
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (kTrigger[static_cast<unsigned char>(s[i])] && credential_trigger(s, i)) return true;
  }
  return false;
}

void append_redacted_scan(std::string& out, std::string_view s) {
  static constexpr std::string_view kSchemes[] = {"bearer", "basic"};  // then white space
  // The first two letters (lower case) of every word looked for: at a byte where none starts,
  // none of the checks below can fire, so the loop copies up to the next such byte.
  using Pairs = std::array<bool, 128 * 128>;
  auto pairs_of = [](auto&&... lists) {
    Pairs t{};
    auto mark = [&](std::string_view w) { t[static_cast<std::size_t>(w[0]) * 128 + static_cast<std::size_t>(w[1])] = true; };
    (..., [&] {
      for (std::string_view w : lists) mark(w);
    }());
    return t;
  };
  static const Pairs kWordPairs = pairs_of(kSchemes, kSecretHeaders, kParams, std::array<std::string_view, 1>{"mcp-session-id:"});
  static const Pairs kMemberPairs = [] {
    std::array<std::string_view, kJsonMembers.size()> names{};
    for (std::size_t k = 0; k < names.size(); ++k) names[k] = kJsonMembers[k].substr(1);  // without the quote
    Pairs t{};
    for (std::string_view w : names) t[static_cast<std::size_t>(w[0]) * 128 + static_cast<std::size_t>(w[1])] = true;
    return t;
  }();
  auto pair_at = [&s](const Pairs& t, std::size_t i) {
    if (i + 1 >= s.size()) return false;
    const auto a = static_cast<unsigned char>(ascii_lower(s[i]));
    const auto b = static_cast<unsigned char>(ascii_lower(s[i + 1]));
    return a < 128 && b < 128 && t[a * 128u + b];
  };
  auto word_at = [&](std::size_t i) { return (i == 0 || !is_alnum(s[i - 1])) && pair_at(kWordPairs, i); };
  auto interesting = [&](std::size_t i) {
    return word_at(i) || (s[i] == '"' && pair_at(kMemberPairs, i + 1)) ||
           (s[i] == ':' && i + 2 < s.size() && s[i + 1] == '/' && s[i + 2] == '/') || is_param_separator(s[i]);
  };
  for (std::size_t i = 0; i < s.size();) {
    const bool boundary = word_at(i);
    bool done = false;
    if (boundary) {
      // `Bearer <token>`, `Basic <credentials>`: after any white space (a tab or a line end in
      // an error message as much as a space).
      for (auto scheme : kSchemes) {
        if (!lower_at(s, i, scheme) || i + scheme.size() >= s.size() || !is_space(s[i + scheme.size()])) continue;
        std::size_t start = i + scheme.size();
        while (start < s.size() && is_space(s[start])) ++start;
        const std::size_t end = token_end(s, start);
        if (end > start) {
          out.append(s.substr(i, start - i));
          out += kRedacted;
          i = end;
          done = true;
        }
        break;
      }
      // `Authorization: <scheme> <credentials>`, `Cookie: a=b; c=d`, `X-API-Key: <key>` printed
      // in text: the credentials (the scheme and the cookie names stay).
      for (std::size_t k = 0; !done && k < kSecretHeaders.size(); ++k) {
        if (!lower_at(s, i, kSecretHeaders[k])) continue;
        const std::string_view header = kSecretHeaders[k];
        std::size_t start = i + header.size();
        while (start < s.size() && is_space(s[start])) ++start;
        out.append(s.substr(i, start - i));
        if (header.ends_with("cookie:")) {
          const std::size_t end = cookie_list_end(s, start);
          if (end > start) {
            out += redact_header(header.substr(0, header.size() - 1), s.substr(start, end - start));
            i = end;
          } else {
            out += kRedacted;
            i = token_end(s, start);
          }
        } else {
          std::size_t cred = start;
          if (header.ends_with("authorization:")) {
            // a scheme word and white space, then the credentials
            std::size_t w = start;
            while (w < s.size() && std::isalpha(static_cast<unsigned char>(s[w]))) ++w;
            std::size_t after = w;
            while (after < s.size() && is_space(s[after])) ++after;
            if (w > start && after > w && after < s.size()) cred = after;
          }
          out.append(s.substr(start, cred - start));
          out += kRedacted;
          i = token_end(s, cred);
        }
        done = true;
      }
      // `Mcp-Session-Id: <id>`: shortened.
      if (!done && lower_at(s, i, "mcp-session-id:")) {
        std::size_t start = i + 15;
        while (start < s.size() && is_space(s[start])) ++start;
        const std::size_t end = token_end(s, start);
        out.append(s.substr(i, start - i));
        out += shorten(s.substr(start, end - start));
        i = end;
        done = true;
      }
      // `access_token=...` and friends (URLs, form bodies, log lines).
      for (std::size_t k = 0; !done && k < kParams.size(); ++k) {
        if (!lower_at(s, i, kParams[k])) continue;
        const std::size_t start = i + kParams[k].size();
        out.append(s.substr(i, kParams[k].size()));
        out += kRedacted;
        i = token_end(s, start);
        done = true;
      }
    }
    // `"password": "..."` quoted from JSON.
    if (!done && s[i] == '"') {
      for (auto member : kJsonMembers) {
        if (!lower_at(s, i, member)) continue;
        std::size_t j = i + member.size();
        while (j < s.size() && is_space(s[j])) ++j;  // JSON's white space: space, tab, CR, LF
        if (j >= s.size() || s[j] != ':') break;
        ++j;
        while (j < s.size() && is_space(s[j])) ++j;
        if (j >= s.size() || s[j] != '"') break;
        std::size_t end = j + 1;
        while (end < s.size() && s[end] != '"') end += s[end] == '\\' ? 2 : 1;
        out.append(s.substr(i, j + 1 - i));
        out += kRedacted;
        i = std::min(end, s.size());
        done = true;
        break;
      }
    }
    // A URL's `?code=...`, `&sig=...`, `#access_token=...` in free text: the parameters
    // redact_url() hides (sensitive_param), after a '?', '&', '#' or ';'.
    if (!done && is_param_separator(s[i])) {
      std::size_t eq = i + 1;
      while (eq < s.size() && eq - (i + 1) < kParamNameMax && is_param_char(s[eq])) ++eq;
      if (eq < s.size() && s[eq] == '=' && sensitive_param_any_case(s.substr(i + 1, eq - i - 1))) {
        out.append(s.substr(i, eq + 1 - i));
        out += kRedacted;
        i = token_end(s, eq + 1);
        done = true;
      }
    }
    // `scheme://user:password@host`: the password; `scheme://TOKEN@host` (a token as the user
    // name, no password): the user part whole, as redact_url() does.
    if (!done && s[i] == ':' && i + 2 < s.size() && s[i + 1] == '/' && s[i + 2] == '/') {
      const std::size_t auth = i + 3;
      std::size_t end = auth;
      while (end < s.size() && !is_space(s[end]) && s[end] != '/' && s[end] != '?' && s[end] != '#' && s[end] != '@' &&
             s[end] != '"' && s[end] != '\\')
        ++end;
      const std::size_t colon = s.substr(auth, end - auth).find(':');
      if (end < s.size() && s[end] == '@' && end > auth) {
        // `user:password@`: the user stays; a lone user (`TOKEN@`, `TOKEN:@` with an empty
        // password, as API keys are sent in Basic auth) is the credential itself.
        const bool user_kept = colon != std::string_view::npos && auth + colon + 1 < end;
        const std::size_t kept = user_kept ? 3 + colon + 1 : 3;
        out.append(s.substr(i, kept));
        out += kRedacted;
        out += '@';
        i = end + 1;
        done = true;
      }
    }
    if (!done) {
      // Copy up to the next byte where one of the checks above could fire. Inside a word (a
      // letter or digit after a letter or digit) none can: word checks need a word start, the
      // others a '"' or ':'. So runs of such bytes are skipped with one table look-up each.
      std::size_t j = i + 1;
      while (j < s.size()) {
        if (kAlnum[static_cast<unsigned char>(s[j - 1])] && kAlnum[static_cast<unsigned char>(s[j])]) {
          ++j;
          continue;
        }
        if (interesting(j)) break;
        ++j;
      }
      out.append(s, i, j - i);
      i = j;
    }
  }
}

}  // namespace detail

void append_redacted(std::string& out, std::string_view s) {
  if (!g_redaction || !detail::may_hold_credential(s)) {
    out.append(s);
    return;
  }
  detail::append_redacted_scan(out, s);
}

std::string redact_header(std::string_view name, std::string_view value) {
  if (!g_redaction) return std::string(value);
  const std::string n = http::lower(name);
  if (n == "authorization" || n == "proxy-authorization") {
    // Keep the scheme ("Bearer", "Basic", "Digest"), hide the rest.
    const std::size_t sp = value.find(' ');
    if (sp == std::string_view::npos || sp == 0) return std::string(kRedacted);
    return std::string(value.substr(0, sp)) + " " + std::string(kRedacted);
  }
  if (n == "cookie") return redact_cookie_pairs(value, false);
  if (n == "set-cookie") return redact_cookie_pairs(value, true);
  if (n == "mcp-session-id") return shorten(value);
  if (n == "www-authenticate" || n == "proxy-authenticate") return std::string(value);  // challenges, no secret
  if (sensitive_name(n)) return std::string(kRedacted);
  if (n == "location" || n == "content-location" || n == "referer" || n == "origin") return redact_url(value);
  return redact(value);
}

std::string redact_url(std::string_view url) {
  if (!g_redaction) return std::string(url);
  std::string out;
  std::size_t pos = 0;
  // userinfo: scheme://user:password@host -> user:[REDACTED]@; a lone user part (a token used
  // as the user name, https://TOKEN@host) is hidden whole.
  if (const std::size_t scheme = url.find("://"); scheme != std::string_view::npos) {
    const std::size_t auth = scheme + 3;
    const std::size_t auth_end = std::min(url.find_first_of("/?#", auth), url.size());
    const std::size_t at = url.substr(0, auth_end).rfind('@');
    out.append(url.substr(0, auth));
    pos = auth;
    if (at != std::string_view::npos && at >= auth) {
      const std::string_view userinfo = url.substr(auth, at - auth);
      const std::size_t colon = userinfo.find(':');
      if (colon != std::string_view::npos && colon + 1 < userinfo.size()) {  // `TOKEN:@`: the user is the secret
        out.append(userinfo.substr(0, colon + 1));
      }
      out += kRedacted;
      out += '@';
      pos = at + 1;
    }
  }
  const std::size_t query = url.find_first_of("?#", pos);
  out.append(url.substr(pos, query == std::string_view::npos ? std::string_view::npos : query - pos));
  if (query == std::string_view::npos) return out;
  // query, then fragment (OAuth implicit flow puts access_token there)
  const std::size_t hash = url.find('#', query);
  if (url[query] == '?') {
    const std::size_t qend = hash == std::string_view::npos ? url.size() : hash;
    out += '?';
    out += redact_params(url.substr(query + 1, qend - query - 1));
  }
  if (hash != std::string_view::npos) {
    out += '#';
    out += redact_params(url.substr(hash + 1));
  }
  return out;
}

}  // namespace mcptriage
