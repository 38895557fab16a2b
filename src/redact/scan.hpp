// The two halves of append_redacted() (src/redact/redact.cpp), apart for the unit tests that check
// one against the other (tests/unit/security_test.cpp) and for the renderers' fast path
// (src/render/redact_detail.hpp).
#pragma once

#include <cstddef>
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

}  // namespace mcptriage::detail
