#!/usr/bin/env bash
# `mcptriage wrap --config FILE --server NAME` and `--unwrap` end to end (issue 28; docs/wrap.md
# "In a host's configuration"): a desktop host's configuration rewritten, the entry it now holds
# started as the host would start it (the TypeScript SDK client's StdioClientTransport with the
# entry's command and args) against the real server-everything, then restored byte for byte; every
# refusal leaves the file as it was and writes no backup.
# Usage: config.sh MCPTRIAGE_BINARY [plain|sanitized]. Needs node, jq (the npm fixture of tests/proxy).
BIN=$(readlink -f "$1")
PX_MODE=${2:-plain}
# shellcheck source=../proxy/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../proxy/lib.sh"
px_setup
W=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
CLIENT=$W/clients/stdio_client.mjs
BIN_ABS=$BIN
export HOME=$WORK/home XDG_STATE_HOME=
mkdir -p "$HOME"

# 1. Claude Desktop's shape, with other settings, another server and an env: only the entry changes.
cfg=$WORK/claude_desktop_config.json
cat >"$cfg" <<EOF
{
  "globalShortcut": "",
  "mcpServers": {
    "everything": {
      "command": "node",
      "args": [
        "$PX_SE_JS",
        "stdio"
      ],
      "env": { "LOG_LEVEL": "debug" }
    },
    "other": { "command": "python3", "args": ["-m", "srv"] }
  }
}
EOF
cp "$cfg" "$WORK/original.json"
(cd "$WORK" && "$BIN" wrap --config claude_desktop_config.json --server everything --out records.jsonl --summary) \
  >"$WORK/wrap.said" 2>&1
rc=$?
[[ $rc == 0 ]] && ok "--config: exit 0" || not_ok "--config" "exit $rc: $(one_line "$WORK/wrap.said")"
cmp -s "$cfg.mcptriage-backup" "$WORK/original.json" && ok "--config: the backup is the file as it was" \
  || not_ok "backup" "differs"
rec=$HOME/.local/state/mcptriage/everything.jsonl
check "--config: command is this mcptriage; args: wrap, the recording under ~/.local/state, --out made absolute, --summary, --, the server's own command" \
  ".[0].mcpServers.everything | .command == \"$BIN_ABS\" and .args == [\"wrap\", \"--record\", \"$rec\", \"--out\", \"$WORK/records.jsonl\", \"--summary\", \"--\", \"node\", \"$PX_SE_JS\", \"stdio\"] and .env.LOG_LEVEL == \"debug\"" "$cfg"
if diff <(jq -S 'del(.mcpServers.everything.command, .mcpServers.everything.args)' "$cfg") \
  <(jq -S 'del(.mcpServers.everything.command, .mcpServers.everything.args)' "$WORK/original.json") >/dev/null; then
  ok "--config: every other member is as it was"
else
  not_ok "--config: other members changed" "$(diff "$cfg" "$WORK/original.json" | head -5 | tr '\n' ' ')"
fi
grep -q "Read the recording with: mcptriage $rec" "$WORK/wrap.said" && ok "--config: says where the recording goes" \
  || not_ok "--config output" "$(one_line "$WORK/wrap.said")"

# 2. The host starts the entry: the SDK client with the entry's command and args, from another folder.
mapfile -t entry < <(jq -r '.mcpServers.everything | .command, .args[]' "$cfg")
(cd / && timeout 90 node "$CLIENT" session --timeout 3000 -- "${entry[@]}" >"$WORK/host.client" 2>"$WORK/host.err")
check "the wrapped entry runs: the client connects and its calls resolve" \
  '(map(select(.label == "connect"))[0].resolved) and (map(select(.label == "echo"))[0].resolved)' "$WORK/host.client"
[[ -s $rec ]] && ok "the recording is where the entry says" || not_ok "recording" "missing: $rec"
check "the records went to the absolute --out path" \
  '[.[] | select(.kind == "exchange" and .method == "initialize")][0].outcome == "RPC_SUCCESS"' "$WORK/records.jsonl"
grep -q "mcptriage wrap: node exit 0" "$WORK/host.err" && ok "--summary from the entry's args" \
  || not_ok "entry --summary" "$(one_line "$WORK/host.err")"

# 3. --unwrap: the file byte for byte as it was.
"$BIN" wrap --config "$cfg" --server everything --unwrap >"$WORK/unwrap.said" 2>&1
rc=$?
[[ $rc == 0 ]] && cmp -s "$cfg" "$WORK/original.json" && ok "--unwrap: the file is byte for byte as before --config" \
  || not_ok "--unwrap" "exit $rc, $(diff "$cfg" "$WORK/original.json" | head -4 | tr '\n' ' ')"
grep -q "restored byte for byte" "$WORK/unwrap.said" && ok "--unwrap says it restored the backup's bytes" \
  || not_ok "--unwrap output" "$(one_line "$WORK/unwrap.said")"

# 4. A file edited after --config: --unwrap restores the entry and keeps the edit.
"$BIN" wrap --config "$cfg" --server everything >/dev/null 2>&1
jq '.globalShortcut = "Ctrl+M"' "$cfg" >"$cfg.new" && mv "$cfg.new" "$cfg"
"$BIN" wrap --config "$cfg" --server everything --unwrap >/dev/null 2>&1
check "--unwrap after another edit: the entry is the server's again, the edit stays" \
  ".[0] | .globalShortcut == \"Ctrl+M\" and .mcpServers.everything.command == \"node\" and .mcpServers.everything.args == [\"$PX_SE_JS\", \"stdio\"]" "$cfg"

# 5. VS Code's .vscode/mcp.json through a symbolic link: the link stays, its target changes.
mkdir -p "$WORK/dotfiles" "$WORK/proj/.vscode"
printf '{\n\t"servers": {\n\t\t"fs": {"type": "stdio", "command": "node", "args": ["s.js"]}\n\t},\n\t"inputs": []\n}\n' \
  >"$WORK/dotfiles/mcp.json"
ln -s "$WORK/dotfiles/mcp.json" "$WORK/proj/.vscode/mcp.json"
"$BIN" wrap --config "$WORK/proj/.vscode/mcp.json" --server fs --record "$WORK/fs.jsonl" >/dev/null 2>&1
[[ -L $WORK/proj/.vscode/mcp.json ]] && check "VS Code mcp.json through a link: the link stays, the target's entry is wrapped" \
  ".[0].servers.fs | .command == \"$BIN_ABS\" and .type == \"stdio\" and .args == [\"wrap\", \"--record\", \"$WORK/fs.jsonl\", \"--\", \"node\", \"s.js\"]" "$WORK/dotfiles/mcp.json" \
  || not_ok "symlink" "replaced by a file"

# 6. Refusals: exit 3 (or 2 for usage), the file unchanged, no backup written.
refuse() {
  local label=$1 want=$2 text=$3
  shift 3
  local f=$WORK/refuse.json
  rm -f "$f" "$f.mcptriage-backup"
  printf '%s' "$text" >"$f"
  cp "$f" "$WORK/refuse.orig"
  "$BIN" wrap --config "$f" "$@" >"$WORK/refuse.out" 2>"$WORK/refuse.err"
  local rc=$?
  if [[ $rc == "$want" ]] && cmp -s "$f" "$WORK/refuse.orig" && [[ ! -e $f.mcptriage-backup ]] && [[ -s $WORK/refuse.err || -s $WORK/refuse.out ]]; then
    ok "$label: exit $want, nothing changed ($(cat "$WORK/refuse.err" "$WORK/refuse.out" | head -c 110 | tr "\n" " "))"
  else
    not_ok "$label" "exit $rc, $(one_line "$WORK/refuse.err")"
  fi
}
refuse "JSON with comments (JSONC)" 3 $'{\n  // mine\n  "servers": {"a": {"command": "x"}}\n}' --server a
refuse "an unknown shape" 3 '{"tools": {"a": {"command": "x"}}}' --server a
refuse "no such server" 3 '{"mcpServers": {"a": {"command": "x"}}}' --server b
refuse "a remote server" 3 '{"mcpServers": {"a": {"url": "http://127.0.0.1:1/mcp"}}}' --server a
refuse "already wrapped" 3 '{"mcpServers": {"a": {"command": "/x/mcptriage", "args": ["wrap", "--", "x"]}}}' --server a
refuse "--unwrap of an entry not wrapped" 3 '{"mcpServers": {"a": {"command": "x"}}}' --server a --unwrap
refuse "a bad --inject rule" 2 '{"mcpServers": {"a": {"command": "x"}}}' --server a --inject 'explode'
refuse "--config without --server" 2 '{"mcpServers": {"a": {"command": "x"}}}'
refuse "--unwrap with wrapper options" 2 '{"mcpServers": {"a": {"command": "/x/mcptriage", "args": ["wrap", "--", "x"]}}}' --server a --unwrap --summary
refuse "a command after --" 2 '{"mcpServers": {"a": {"command": "x"}}}' --server a -- node s.js
refuse "--dry-run" 0 '{"mcpServers": {"a": {"command": "x"}}}' --server a --dry-run
"$BIN" wrap --config "$WORK/missing.json" --server a >/dev/null 2>"$WORK/missing.err"
rc=$?
[[ $rc == 3 && ! -e $WORK/missing.json ]] && ok "a missing file: exit 3, nothing created" || not_ok "missing" "exit $rc"
px_summary
