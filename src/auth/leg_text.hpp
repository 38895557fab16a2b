// The text helpers of the authorization room (src/auth): URLs, queries and forms, WWW-Authenticate
// challenges, keyed hashes of secrets and token reading. Internal to src/auth and the folders above.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "mcptriage/auth.hpp"

namespace mcptriage::auth {

/// A 64-bit hash of a secret under a key drawn once per process (never 0): legs are linked by
/// comparing these, and no output prints one (shared/auth-triage.md §5).
std::uint64_t keyed_hash(std::string_view secret);

/// Decodes %XX escapes (and `+` as a space when `form`: application/x-www-form-urlencoded).
std::string percent_decode(std::string_view s, bool form);

/// Name-value pairs of a query or form body, decoded, in order (at most 64).
using Params = std::vector<std::pair<std::string, std::string>>;
Params parse_params(std::string_view text, bool form);
/// The first value of `name`, or nullopt.
std::optional<std::string_view> param(const Params& params, std::string_view name);

/// The parts of a URL (or an origin-form target: path and query only). Views into the text.
struct UrlParts {
  std::string_view scheme, authority, path, query;
};
UrlParts split_url(std::string_view url);

/// The challenges of one WWW-Authenticate field value (RFC 9110 §11.6.1): schemes with their
/// parameters (names lower-cased, quoted strings unescaped); a token68 is skipped. At most 16.
std::vector<AuthLeg::Challenge> parse_www_authenticate(std::string_view value);

/// Sets `leg.token_format` and, for a compact JWS, `leg.jwt` from `token` (shared/auth-triage.md
/// §5: allow-listed header and claims, signature unchecked; a part over 1 MiB is not decoded).
void read_token_into(AuthLeg& leg, std::string_view token);

}  // namespace mcptriage::auth
