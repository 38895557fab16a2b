#!/usr/bin/env bash
# Ctrl-C in a real terminal: in a tmux pane (its own server, on a private socket), curl -sN -i
# posts a tools/call of the real server-everything's long-running tool (600 steps of 1 s: a
# stream that does not end within the test) into mcptriage, which shows a table on the pane's
# terminal, with a line per event as it arrives (asserted on the screen before the key). tmux's send-keys C-c gives SIGINT to the pane's foreground job, curl and mcptriage
# alike, as a user's Ctrl-C does. Asserted on the screen (capture-pane): the verdict row
# (STREAM_INCOMPLETE, interrupted, or no_final_response when curl's end of input won the race),
# the summary line, exit status 130, all within a few seconds of the key.
# The server is the pinned one of tests/real_server (npm ci there when missing), on 127.0.0.1.
# Usage: live_tmux.sh MCPTRIAGE_BINARY   (exit 77: tmux, curl, node, npm or jq missing)
set -u
bin=$1
here=$(cd "$(dirname "$0")" && pwd)
source "$here/lib.sh"
for t in tmux curl node npm jq; do
  if ! command -v "$t" >/dev/null; then
    echo "skip: needs $t"
    exit 77
  fi
done
source "$here/../real_server/lib.sh"
rs_ensure_deps
tmp=$(mktemp -d)
sock=$tmp/tmux.sock
trap 'tmux -S "$sock" kill-server 2>/dev/null; rs_stop_server; rm -rf "$tmp"' EXIT
rs_start_server "$tmp"

# A session, as a client opens one: initialize, then notifications/initialized.
rs_post initialize "$tmp"
sid=$(rs_header "$tmp/initialize.txt" mcp-session-id)
check "the server gave a session id" test -n "$sid"
version=$(rs_messages "$tmp/initialize.txt" | jq -r 'select(.id == 1) | .result.protocolVersion // empty' | head -n1)
rs_post initialized-notification "$tmp" -H "Mcp-Session-Id: $sid" -H "MCP-Protocol-Version: $version"
printf '%s\n' '{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"trigger-long-running-operation","arguments":{"duration":600,"steps":600},"_meta":{"progressToken":"p6"}}}' > "$tmp/call.json"

# The pane: the pipeline as a user types it, then its exit status (a trap with a command, not
# SIG_IGN, so that curl and mcptriage get SIGINT's default and their own handling).
cat > "$tmp/pane.sh" <<PANE
trap 'true' INT
curl -sN -i -X POST '$RS_URL' -H 'Content-Type: application/json' \\
  -H 'Accept: application/json, text/event-stream' -H 'Mcp-Session-Id: $sid' \\
  -H 'MCP-Protocol-Version: $version' --data-binary @'$tmp/call.json' | '$bin' --color never
echo "EXIT=\${PIPESTATUS[1]}"
sleep 60
PANE
tmux -S "$sock" -f /dev/null new-session -d -x 160 -y 40 "bash '$tmp/pane.sh'"
sleep 3.5  # the stream is open: the priming event and a few progress notifications came
tmux -S "$sock" capture-pane -p > "$tmp/before.txt"
check "before Ctrl-C, the table shows the events live: the priming event" grep -q 'priming event' "$tmp/before.txt"
check "before Ctrl-C, the table shows the events live: progress 1/600" grep -Eq 'progress 1/600' "$tmp/before.txt"
now() { date +%s.%N; }
t0=$(now)
tmux -S "$sock" send-keys C-c
for _ in $(seq 1 50); do
  tmux -S "$sock" capture-pane -p > "$tmp/screen.txt"
  grep -q '^EXIT=' "$tmp/screen.txt" && break
  sleep 0.1
done
t1=$(now)
sed 's/^/# screen: /' "$tmp/screen.txt" | grep -v '^# screen: $'
check "Ctrl-C: the pipeline ends within 3 s" awk -v a="$t1" -v b="$t0" 'BEGIN { exit !(a - b < 3) }'
check "Ctrl-C: exit status 130" grep -q '^EXIT=130$' "$tmp/screen.txt"
check "Ctrl-C: the verdict row is on the screen" grep -Eq 'STREAM_INCOMPLETE +[a-z_]+ +(interrupted|no_final_response)' "$tmp/screen.txt"
check "Ctrl-C: the reply's status and type in the row" grep -q '200 text/event-stream' "$tmp/screen.txt"
check "Ctrl-C: the summary line is on the screen" grep -q '^mcptriage: 1 exchange' "$tmp/screen.txt"
finish
