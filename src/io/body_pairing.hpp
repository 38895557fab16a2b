// Pairs a curl -v stderr capture with the stdout file that holds its body (docs/formats.md,
// "curl -v"): `X-stderr.txt` with `X-stdout.txt`, `X.stderr` with `X.stdout`.
#pragma once

#include <optional>
#include <string>

namespace mcptriage::io {

/// The body file paired with capture `path`: the last `stderr` in its file name (after `-`,
/// `_` or `.`) replaced by `stdout`, when that file exists. nullopt otherwise.
std::optional<std::string> paired_body_path(const std::string& path);

/// True when `path` is the stdout half of a pair: replacing the last `stdout` in its file name
/// by `stderr` names an existing file. Such a file is read with its partner, not on its own.
bool is_paired_body(const std::string& path);

}  // namespace mcptriage::io
