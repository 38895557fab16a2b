// The two halves of append_redacted() (src/render/redact.cpp), apart for the unit tests that
// check one against the other (tests/unit/security_test.cpp), and the renderers' fast path.
#pragma once

#include <string>
#include <string_view>

namespace mcptriage::detail {

/// False only when no rule of append_redacted_scan() can match anywhere in `s`, so the text is
/// printed as it is. True is a hint, not a finding: the scan decides. A filter over every byte
/// printed (docs/performance.md); it must never say false where the scan would change `s`.
bool may_hold_credential(std::string_view s);

/// True when the byte at `s[i]` (a ' ', ':' or '=') may end the name of a credential rule of
/// the scan: may_hold_credential() is this over every such byte of `s`.
bool credential_trigger(std::string_view s, std::size_t i);

/// The redaction scan itself (the rules of redact(), docs/security.md), whatever
/// set_redaction() says; appends to `out`.
void append_redacted_scan(std::string& out, std::string_view s);

/// The common case of a printed string in one pass (src/render/render.cpp): appends `s`
/// RFC 8259-escaped to `out` and returns true when it is valid UTF-8 in which no redaction rule
/// can fire, which is then exactly what redacting, making valid UTF-8 and escaping would give.
/// Returns false, with `out` as it was, when the text needs that general path.
bool append_plain_escaped(std::string& out, std::string_view s);

}  // namespace mcptriage::detail
