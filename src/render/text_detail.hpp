// Shared by the JSON string escapers (src/render/text.cpp, src/render/render.cpp).
#pragma once

#include <string>

namespace mcptriage::detail {

/// Appends the RFC 8259 §7 escape of the ASCII byte `c` that a JSON string cannot hold as it is
/// ('"', '\\', a control character, and DEL as `\u007f`): the short forms where JSON has them,
/// else `\u00XX`.
void append_json_escape(std::string& out, unsigned char c);

}  // namespace mcptriage::detail
