// Shared by the JSON string escapers (src/render/text.cpp, src/render/render.cpp).
#pragma once

#include <string>
#include <string_view>

namespace mcptriage::detail {

/// Appends the RFC 8259 §7 escape of the ASCII byte `c` that a JSON string cannot hold as it is
/// ('"', '\\', a control character, and DEL as `\u007f`): the short forms where JSON has them,
/// else `\u00XX`.
void append_json_escape(std::string& out, unsigned char c);

/// `escaped` (a JSON string's escaped text, valid UTF-8 or not) with the code points a terminal
/// acts on beyond C0 controls, C1 controls (U+0080..U+009F) and the bidirectional formatting
/// controls (escape_terminal's list), written as `\uXXXX`: for text that JSON or YAML readers
/// parse but a person may read on a terminal (the TAP report's YAML).
std::string escape_terminal_controls_json(std::string_view escaped);

}  // namespace mcptriage::detail
