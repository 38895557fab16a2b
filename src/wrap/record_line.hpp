// The lines of a `mcptriage wrap` recording (docs/formats.md "Recordings of mcptriage wrap"): one
// JSON object per line, `"transport": "stdio"`, the direction and the time it was relayed, and a
// message, a line that is no message, the end of the host's input or the server's exit. The JSON
// Lines reader reads them back (capture/jsonl_lines.cpp, read_stdio_item), so that the records
// of `mcptriage FILE` are the records the wrapper wrote.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "io/process.hpp"
#include "json/dom.hpp"

namespace mcptriage::wrap {

/// Which way a line went: from the host to the server (its standard input) or back.
enum class Dir { c2s, s2c };

/// What `--inject` did to a line (docs/formats.md "Recordings of mcptriage wrap": the members
/// `injected`, `made_by`, `forwarded`, `wrapper_exit` and `warnings`, written after the others).
struct Injection {
  std::string rule;                   ///< the rule as given (`injected`)
  bool made_by_wrapper = false;       ///< a line the wrapper wrote to the host, not the server (`made_by`)
  bool forwarded = true;              ///< false: a line of the host the server never got (`forwarded`)
  int wrapper_exit = -1;              ///< an exit: the code the wrapper exited with in the server's place
  std::vector<std::string> warnings;  ///< added to the warnings of the record the line belongs to
};

/// The recording's line (no newline) for one relayed line `bytes` (its newline and a trailing CR
/// removed) at `unix_ns`: `message` when it parses as a JSON-RPC message (an object with a
/// `jsonrpc` member, or an array), written as it came with its credentials redacted
/// (redact_body); else `line`, the text as a JSON string (credentials redacted, bytes that are not
/// UTF-8 as U+FFFD). `cut`: the line was longer than the record's bound, and only its first bytes
/// are in `bytes` (`"cut": true`; judged as a line that is no message). `parser`: reused.
/// `size`: the line's whole length, written as `bytes` beside a `line` (its text may be cut, and
/// bytes that are not UTF-8 are longer once replaced). `message` says which it was. `injection`
/// (may be null): what --inject did to the line, written as its last members.
std::string stdio_message_line(Dir dir, std::int64_t unix_ns, std::string_view bytes, bool cut, std::size_t size,
                               json::Parser& parser, bool& message, const Injection* injection = nullptr);

/// `{"transport":"stdio","dir":"c2s","t":...,"eof":true}`: the host closed the server's input.
std::string stdio_eof_line(std::int64_t unix_ns);

/// `{"transport":"stdio","t":...,"exit":{"code":N}|{"signal":N,"signal_name":"SIGKILL"},"stderr":[...]}`:
/// how the server ended, with the last lines it wrote on standard error (redacted); `injection`
/// (may be null): the `exit=CODE` rule that ended it, and the code the wrapper exited with.
std::string stdio_exit_line(std::int64_t unix_ns, const io::ExitStatus& status, const std::vector<std::string>& stderr_tail,
                            const Injection* injection = nullptr);

/// `{"transport":"stdio","t":...,"watch":{"id":ID,"method":"tools/call","after_ms":N}}`: the host's
/// request `id_json` (its id as minified JSON) had no response `after_ms` milliseconds (--watch)
/// after it was sent, and the server was still running. The reader adds a warning to the
/// request's record when it ends (docs/formats.md "Recordings of mcptriage wrap").
std::string stdio_watch_line(std::int64_t unix_ns, std::string_view id_json, std::string_view method, long long after_ms);

/// ISO 8601 UTC with microseconds: "2026-12-05T14:03:07.123456Z".
std::string iso_time_us(std::int64_t unix_ns);

}  // namespace mcptriage::wrap
