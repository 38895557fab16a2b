// Redaction (docs/security.md): credentials hidden in every text mcptriage prints. A room of its
// own (src/redact/, above src/json/ and src/http/ only), so that the capture readers may redact a
// preview without reaching up to the renderers; the renderers include it through render.hpp.
#pragma once

#include <string>
#include <string_view>

namespace mcptriage {

// Redaction (docs/security.md). On by default in every output: table, JSON Lines, reports and
// error messages. `--no-redact` turns it off for the whole process (the CLI calls
// set_redaction(false) once, before anything is printed); while off, the three functions
// below return their input unchanged.
void set_redaction(bool on);
bool redaction_enabled();

/// Hides credentials in free text: `Bearer <token>` and `Basic <creds>` become `Bearer [REDACTED]`;
/// the value after `Authorization:`, `Proxy-Authorization:`, `Cookie:`, `Set-Cookie:`,
/// `X-API-Key:`, `Api-Key:`, `X-Auth-Token:` (to the end of that line); `access_token=`,
/// `refresh_token=`, `id_token=`, `token=`, `api_key=`, `apikey=`, `client_secret=`,
/// `password=`, `secret=` values; JSON members such as `"password": "..."`; the password of
/// `scheme://user:password@host`; `Mcp-Session-Id: <id>` is shortened to 8 characters and `…`.
std::string redact(std::string_view s);
/// Appends redact(s) to `out` (no temporary string: the renderers call it per field).
void append_redacted(std::string& out, std::string_view s);

/// A header value as it may be printed. By name (case-insensitive): `Authorization` and
/// `Proxy-Authorization` keep the scheme only (`Bearer [REDACTED]`); `Cookie` keeps cookie names
/// (`a=[REDACTED]; b=[REDACTED]`); `Set-Cookie` keeps the name and the attributes;
/// `Mcp-Session-Id` is shortened (first 8 characters and `…`); any name holding `token`,
/// `secret`, `key`, `password`, `passwd`, `credential` or `signature`, or starting `X-Auth`
/// (`X-API-Key`, `Api-Key`, `X-CSRF-Token`), is `[REDACTED]`; `Location`, `Referer`, `Origin`
/// go through redact_url(); `WWW-Authenticate` is kept; every other value through redact().
std::string redact_header(std::string_view name, std::string_view value);

/// A URL as it may be printed: the password of `user:password@` (a lone user name, often a
/// token, is hidden whole), and the values of credential-style parameters in the query and the
/// fragment: names holding `token`, `secret`, `key`, `password`, `credential`, `signature`, and
/// `code`, `sig`, `auth`, `session`, `session_id`, `jwt`, `pwd`, `pass`.
std::string redact_url(std::string_view url);

}  // namespace mcptriage
