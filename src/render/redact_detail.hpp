// The renderers' fast path beside the redaction scan (src/redact/scan.hpp, included): apart for the
// unit tests that check one against the other (tests/unit/security_test.cpp).
#pragma once

#include <string>
#include <string_view>

#include "redact/scan.hpp"

namespace mcptriage::detail {

/// The common case of a printed string in one pass (src/render/render.cpp): appends `s`
/// RFC 8259-escaped to `out` and returns true when it is valid UTF-8 in which no redaction rule
/// can fire, which is then exactly what redacting, making valid UTF-8 and escaping would give.
/// Returns false, with `out` as it was, when the text needs that general path.
bool append_plain_escaped(std::string& out, std::string_view s);

}  // namespace mcptriage::detail
