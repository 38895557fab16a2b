#!/usr/bin/env bash
# The fetch recipe of docs/capture-sdk.md, tested with the real SDK client and server:
# docs/recipes/logging-fetch.mjs is the code block of docs/capture-sdk.md; the TypeScript SDK's
# StreamableHTTPClientTransport with that fetch (clients/recipe_client.mjs) runs a session against
# @modelcontextprotocol/server-everything on 127.0.0.1 (initialize, tools/list, tools/call echo,
# tools/call of a tool that does not exist, DELETE, close), and mcptriage reads the log it wrote.
# Usage: sdk_fetch.sh MCPTRIAGE_BINARY. Prints ok/not ok lines; exits non-zero on any failure.
BIN=${1:?usage: sdk_fetch.sh MCPTRIAGE_BINARY}
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
px_setup

RECIPE=$PX_ROOT/docs/recipes/logging-fetch.mjs
DOC=$PX_ROOT/docs/capture-sdk.md

# 1. The doc shows the committed file: the fenced block after the marker line, byte for byte.
awk -v marker="<!-- code: docs/recipes/logging-fetch.mjs -->" '
  $0 == marker { armed = 1; next }
  armed == 1 && /^```/ { armed = 2; next }
  armed == 2 && /^```$/ { exit }
  armed == 2 { print }' "$DOC" >"$WORK/doc-code.mjs"
if [[ -s $WORK/doc-code.mjs ]] && cmp -s "$WORK/doc-code.mjs" "$RECIPE"; then
  ok "docs/capture-sdk.md shows docs/recipes/logging-fetch.mjs unchanged"
else
  not_ok "docs/capture-sdk.md shows docs/recipes/logging-fetch.mjs unchanged" \
    "$(diff "$WORK/doc-code.mjs" "$RECIPE" | head -20 | tr '\n' ' ')"
fi

# 2. A real session through the recipe's fetch.
px_start_everything
LOG=$WORK/session.jsonl
CLIENT_OUT=$WORK/client.out
timeout 60 node "$PX_CLIENTS/recipe_client.mjs" "$SE_URL" "$LOG" >"$CLIENT_OUT" 2>"$WORK/client.err"
rc=$?
sed 's/^/# client: /' "$CLIENT_OUT"
if ((rc == 0)); then ok "the SDK client ran the session and every line was written (exit 0)"
else not_ok "the SDK client ran the session" "exit $rc: $(one_line "$WORK/client.err")"; fi
# What the SDK itself got through the tee'd body: the same as without the recipe.
check "the SDK got every reply: initialize, tools/list and echo resolved, the unknown tool resolved with isError, DELETE done" \
  'map({(.label): .}) | add | .initialize.resolved and .["tools/list"].resolved and .echo.resolved and (.echo.isError | not)
   and .["unknown-tool"].resolved and .["unknown-tool"].isError and .terminate.resolved and .flush.resolved' "$CLIENT_OUT"

# 3. The log: one line per exchange, shape 1 of docs/formats.md "JSON Lines".
echo "# log: $(jq -c -s 'map([.request.method, .status, (.request.body // "" | fromjson? | .method // null), .headers["content-type"] // null])' "$LOG" 2>/dev/null)"
check "7 lines: POST initialize, POST notifications/initialized, POST tools/list, 2 POST tools/call, GET, DELETE" \
  'length == 7 and (map(.request.method) | sort) == (["DELETE", "GET"] + [range(5) | "POST"] | sort)
   and ([.[] | .request.body // "" | fromjson? | .method] | sort)
       == (["initialize", "notifications/initialized", "tools/list", "tools/call", "tools/call"] | sort)' "$LOG"
check "every line has status, response headers, a body string and the request (method, url, headers, body)" \
  'all(.[]; (.status | type) == "number" and (.headers | type) == "object" and (.body | type) == "string"
            and (.request | (.method | type) == "string" and (.url | startswith("http://127.0.0.1:"))
                 and (.headers | type) == "object" and has("body")))' "$LOG"
check "requests after initialize carry Mcp-Session-Id (the one initialize's response set); POST bodies logged, GET/DELETE none" \
  '(map(select(.request.body // "" | fromjson? | .method == "initialize")) | .[0].headers["mcp-session-id"]) as $sid
   | $sid != null
   and all(.[] | select((.request.body // "" | fromjson? | .method) != "initialize"); .request.headers["mcp-session-id"] == $sid)
   and all(.[] | select(.request.method == "POST"); .request.body | fromjson | .jsonrpc == "2.0")
   and all(.[] | select(.request.method != "POST"); .request.body == null)' "$LOG"
check "the echo reply was logged whole: its event stream holds the result" \
  'any(.[]; (.request.body // "" | fromjson? | .params.name) == "echo" and .headers["content-type"] == "text/event-stream"
            and (.body | contains("Echo: hello from the recipe")))' "$LOG"
check "Authorization redacted to its scheme: 'Bearer [REDACTED]' on every request" \
  'all(.[]; .request.headers.authorization == "Bearer [REDACTED]")' "$LOG"
if grep -q 'recipe-test-secret-token' "$LOG"; then not_ok "the token is nowhere in the log" "found in $LOG"
else ok "the token is nowhere in the log"; fi
check "a request that is not the transport's own (an OAuth metadata GET) is not logged" \
  'all(.[]; .request.url | contains("/.well-known/") | not)' "$LOG"

# 4. mcptriage on the log. Records are matched to log lines by their source, LOG#N = line N.
RECORDS=$WORK/records.jsonl
timeout 30 "$BIN" --format jsonl "$LOG" >"$RECORDS" 2>"$WORK/triage.err"
rc=$?
if ((rc == 0)); then ok "mcptriage read the log (exit 0)"
else not_ok "mcptriage read the log" "exit $rc: $(one_line "$WORK/triage.err")"; fi
check "one record per log line (exchange or skipped) and a session summary" \
  'map(select(.kind == "exchange" or .kind == "skipped")) | length == 7' "$RECORDS"
# Every request carried the Bearer token and none got 401/403: a one-step, cached-token flow
# (shared/auth-triage.md §1.2, trigger none) that the authorized requests complete: AUTH_OK.
check "one auth_flow record: the cached token worked (AUTH_OK, trigger none)" \
  'map(select(.kind == "auth_flow")) | length == 1 and .[0].verdict == "AUTH_OK" and .[0].trigger == "none"' "$RECORDS"

# expect LABEL LOG_SELECT RECORD_TEST: the one log line that LOG_SELECT (jq, on a line) picks, and
# the record of that line passes RECORD_TEST (jq). The record is printed.
expect() {
  local label=$1 select=$2 test=$3 n rec
  n=$(jq -r -s "[to_entries[] | select(.value | $select) | .key + 1] | if length == 1 then .[0] else empty end" "$LOG" 2>/dev/null)
  if [[ -z $n ]]; then not_ok "$label" "not one log line matches $select"; return; fi
  rec=$(jq -c -s --arg suffix "#$n" '[.[] | select(.kind != "session_summary" and (.source | endswith($suffix)))]
        | if length == 1 then .[0] else empty end' "$RECORDS" 2>/dev/null)
  echo "# line $n: $(jq -c '{kind, outcome, layer, reason, http: .http.status, detail}' <<<"${rec:-null}")"
  if [[ -n $rec ]] && jq -e "$test" <<<"$rec" >/dev/null 2>&1; then ok "$label"
  else not_ok "$label" "record: ${rec:-none}"; fi
}
rpc() { echo "(.request.body // \"\" | fromjson? | $1)"; }
expect "initialize: RPC_SUCCESS" "$(rpc '.method == "initialize"')" '.outcome == "RPC_SUCCESS"'
expect "notifications/initialized: ACCEPTED (202, no body)" "$(rpc '.method == "notifications/initialized"')" \
  '.outcome == "ACCEPTED" and .http.status == 202'
expect "tools/list: RPC_SUCCESS" "$(rpc '.method == "tools/list"')" '.outcome == "RPC_SUCCESS"'
expect "tools/call echo: TOOL_SUCCESS" "$(rpc '.params.name == "echo"')" '.outcome == "TOOL_SUCCESS"'
# server-everything answers an unknown tool with a tool result with isError (its text: "MCP error
# -32602: Tool no-such-tool not found"), not a JSON-RPC error: TOOL_ERROR.
expect "tools/call no-such-tool: TOOL_ERROR (the server's isError result)" "$(rpc '.params.name == "no-such-tool"')" \
  '.outcome == "TOOL_ERROR" and .reason == "tool_error" and (.detail | contains("no-such-tool"))'
# The GET stream and the DELETE are not JSON-RPC exchanges: skipped records, as in a HAR file
# (docs/formats.md "JSON Lines"), never failures.
expect "GET (the standalone stream): skipped standalone_stream" '.request.method == "GET"' \
  '.kind == "skipped" and .reason == "standalone_stream"'
expect "DELETE (session end): skipped session_end" '.request.method == "DELETE"' \
  '.kind == "skipped" and .reason == "session_end"'

px_summary
