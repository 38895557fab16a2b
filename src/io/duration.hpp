// The one duration grammar of the command lines: the triage run's --idle-timeout and --timeout,
// the proxy's --watch, --connect-timeout and --inject delay=.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

namespace mcptriage::io {

/// A whole number and a unit: `ms`, `s`, `m` or `h` (`500ms`, `30s`, `2m`, `1h`; a bare number is
/// seconds), more than zero and at most 10^9 of its unit. nullopt for anything else (`1.5s`,
/// `0s`, `-1s`, `10 s`, `2x`, "").
std::optional<std::chrono::milliseconds> parse_duration(std::string_view text);

/// How a usage error about a text parse_duration refuses ends: "write a number and a unit, e.g.
/// 30s, 2m, 500ms".
std::string_view duration_grammar();

}  // namespace mcptriage::io
