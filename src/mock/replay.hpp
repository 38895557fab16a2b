// `mcptriage replay RECORDING --upstream URL` (issue 29; docs/mock.md "Replay"): the recorded calls
// sent again to a server, in a session of their own, with edits, and each new verdict beside the
// recorded one. The pure parts: which calls, their edits, whether a call is safe to repeat.
#pragma once

#include <cstddef>
#include <expected>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "mcptriage/exchange.hpp"

namespace mcptriage::mock {

/// One recorded call that can be sent again: a POST whose request body was recorded as text.
struct RecordedCall {
  std::size_t index = 0;   ///< its exchange's N in `source` (name#N)
  std::string source;
  std::string method;
  std::string tool;        ///< tools/call: `params.name`
  std::string body;        ///< the request body as recorded
  bool notification = false;
  const Exchange* exchange = nullptr;  ///< the recorded exchange (its response for the comparison)
};

/// What the recorded tools/list said of a tool (MCP tools, Tool annotations): hints, not
/// guarantees; unknown when absent.
struct ToolHints {
  std::optional<bool> read_only;   ///< annotations.readOnlyHint
  std::optional<bool> idempotent;  ///< annotations.idempotentHint
};

/// The calls of `exchanges` in recorded order (POSTs with a JSON-RPC request or notification body
/// recorded as text; client responses and unreadable bodies left out), and the tool hints of every
/// recorded tools/list result (a JSON body or the final response of an event stream).
struct Script {
  std::vector<RecordedCall> calls;
  std::map<std::string, ToolHints> tools;
  std::size_t left_out = 0;
};
Script read_script(const std::vector<Exchange>& exchanges);

/// Whether a recorded call may be sent again without --allow-unsafe: every method but tools/call,
/// and a tools/call whose tool the recorded tools/list marks readOnlyHint or idempotentHint (MCP
/// 2025-06-18 and later, server/tools, ToolAnnotations). The reason when not.
std::optional<std::string> unsafe_reason(const RecordedCall& call, const std::map<std::string, ToolHints>& tools);

/// `--only SELECTOR`: `method=NAME`, `tool=NAME`, or the recorded exchange's number (`4`, `#4`).
/// Error: one line.
struct Selector {
  enum class Kind { method, tool, index } kind = Kind::method;
  std::string text;
  std::size_t index = 0;
};
std::expected<Selector, std::string> parse_selector(std::string_view text);
bool selected(const RecordedCall& call, const std::vector<Selector>& only);

/// `--set JSON_POINTER=VALUE`: a member of the request message (RFC 6901 pointer through object
/// members, e.g. /params/arguments/message), VALUE as JSON when it is one, else as a string.
struct Edit {
  std::vector<std::string> path;  ///< the pointer's reference tokens, unescaped (~1 is /, ~0 is ~)
  std::string value_json;
  std::string text;               ///< as given
};
std::expected<Edit, std::string> parse_edit(std::string_view text);

/// `body` with `edit` applied: the member replaced, or added to its object when the object is
/// there and the member is not; nullopt when the pointer's object is not in `body`.
std::optional<std::string> apply_edit(std::string_view body, const Edit& edit);

/// The replay command's main: `argv[0]` is "replay". Exit status: 0; 1 with --fail-on-change when
/// a replayed verdict differs from the recorded one; 2 usage; 3 the recording cannot be read or
/// the upstream not reached.
int replay_main(int argc, char** argv);

}  // namespace mcptriage::mock
