// `mcptriage wrap --config FILE --server NAME` and `--unwrap` (docs/wrap.md "In a host's
// configuration"): rewrites one stdio server entry of a desktop host's MCP configuration so that
// the host starts it through the wrapper, and back. Only `command` and `args` of that entry are
// touched, byte ranges spliced into the file's own text, so every other byte (formatting, key
// order, other servers, `env`, `cwd`, `type`) stays as it was.
//
// Shapes known (anything else is an error and the file is not written):
//   {"mcpServers": {NAME: {"command": ..., "args": [...]}}}   Claude Desktop, Cursor, Claude Code,
//                                                            Windsurf
//   {"servers": {NAME: {...}}}                                VS Code `.vscode/mcp.json`
//   {"mcp": {"servers": {NAME: {...}}}}                       VS Code user settings.json
#pragma once

#include <cstdio>
#include <expected>
#include <string>
#include <string_view>
#include <vector>

namespace mcptriage::wrap {

/// The result of one edit: the whole new file text, and what changed, in words, for the user.
struct ConfigEdit {
  std::string text;                ///< the file's new content
  std::string where;               ///< the servers object the entry is in: "mcpServers", "servers", "mcp.servers"
  std::vector<std::string> before;  ///< the entry's command and args before (command first)
  std::vector<std::string> after;   ///< the entry's command and args after
};

/// Rewrites server `name` of `config` (the file's text, RFC 8259 JSON: comments and trailing commas
/// are refused) to run `wrapper` (an absolute path to mcptriage) with args `wrap`, `wrap_args`, `--`,
/// the entry's own command and its args.
/// Errors (the text of the message is for the user; nothing is to be written on one): not JSON; no
/// known servers object; no server `name` (the names there are listed); an entry with a `url` or a
/// `type` other than `stdio` (a remote server: use `mcptriage proxy`); no string `command`; `args`
/// that is not an array of strings; an entry already wrapped.
std::expected<ConfigEdit, std::string> wrap_server_entry(std::string_view config, std::string_view name,
                                                         std::string_view wrapper,
                                                         const std::vector<std::string>& wrap_args);

/// The reverse of wrap_server_entry: `command` becomes the first word after the wrapper's `--`,
/// `args` the words after it. Errors: as above, and an entry that is not wrapped (its command is not
/// a program named `mcptriage` whose first arg is `wrap`, or there is no server command after `--`).
std::expected<ConfigEdit, std::string> unwrap_server_entry(std::string_view config, std::string_view name);

}  // namespace mcptriage::wrap

namespace mcptriage::wrap {

/// What `wrap --config` was asked to do.
struct ConfigRequest {
  std::string path;                    ///< the host's configuration file
  std::string server;                  ///< the entry's name
  bool unwrap = false;                 ///< --unwrap: restore the entry
  bool dry_run = false;                ///< --dry-run: say what would change, write nothing
  std::string wrapper;                 ///< absolute path of the mcptriage to put in `command`
  std::vector<std::string> wrap_args;  ///< the wrapper's options, between `wrap` and `--`
};

/// Reads the file (at most 16 MiB), edits it, and unless `dry_run` writes it back: first a copy of
/// the file as it was to PATH.mcptriage-backup (its mode kept), then the new text to a temporary
/// file beside it, fsync(2), rename(2) over the file (the target of a symbolic link is written, the
/// link stays). Says what changed on `out`. Returns 0, or 3 with the reason on `err` when the file
/// cannot be read, has an unknown shape, or cannot be written; then the file is as it was.
int edit_config_file(const ConfigRequest& req, std::FILE* out, std::FILE* err);

}  // namespace mcptriage::wrap
