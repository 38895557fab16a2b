// Retry advice: a pure decision from a Classification and the response headers.
#pragma once

#include "mcptriage/classify.hpp"

namespace mcptriage {

/// The retry advice for a classified exchange (classification.md §Retry advice).
/// Reads `Retry-After` (RFC 9110 §10.2.3; delta-seconds, or an HTTP-date measured from the
/// response's `Date` header (§6.6.1), else from `now_unix_seconds`) and `WWW-Authenticate` (RFC 6750 §3, MCP authorization) from
/// `response_headers`. The advice text always states its condition.
RetryAdvice advise(const Classification& c, const Headers& response_headers,
                   long long now_unix_seconds);

}  // namespace mcptriage
