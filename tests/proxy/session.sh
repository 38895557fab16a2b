#!/usr/bin/env bash
# Usage: session.sh PATH_TO_MCPTRIAGE [plain|sanitized]
# Real clients through `mcptriage proxy` to the real server-everything 2026.8.31: the TypeScript
# SDK client 1.32.2 (initialize, tools/list, a successful call, an unknown tool and bad arguments
# (isError results), a tools/call without a name (-32603), a long-running call with progress, the
# GET stream, DELETE), the same client answering server-everything's elicitation/create and
# sampling/createMessage (clients/server_requests_client.mjs: its POSTed responses are
# response_accepted, not notifications) and the Inspector CLI 1.0.3 (tools/list, tools/call). Checks each live
# record's outcome, that the .jsonl recording read back by `mcptriage FILE` gives the same records
# (timing and the proxy's own members aside), that the .har recording gives the same outcomes,
# the live table, and the summary on SIGINT.
BIN=$1
PX_MODE=${2:-plain}
. "$(dirname "$0")/lib.sh"
px_setup
px_start_everything
echo "# server-everything at $SE_URL"

# --- the SDK client's session -------------------------------------------------------------
REC=$WORK/session.jsonl
HAR=$WORK/session.har
px_start_proxy --upstream "$SE_URL" --record "$REC" --record "$HAR" --format jsonl || not_ok "proxy starts" "$(one_line "$PX_PROXY_ERR")"
LIVE=$PX_PROXY_OUT
CLIENT=$WORK/sdk-session.jsonl
timeout 60 node "$PX_CLIENTS/sdk_client.mjs" "$PX_PROXY_URL/mcp" session >"$CLIENT" 2>"$WORK/sdk-session.err"
client() { jq -e -s "$1" "$CLIENT" >/dev/null 2>&1; }
if client 'map(select(.label == "connect"))[0].resolved'; then ok "sdk: connected through the proxy"
else not_ok "sdk: connected through the proxy" "$(one_line "$CLIENT") $(one_line "$WORK/sdk-session.err")"; fi
client 'map(select(.label == "echo"))[0] | .resolved and (.isError | not)' && ok "sdk: echo resolved" || not_ok "sdk: echo resolved" "$(one_line "$CLIENT")"
client 'map(select(.label == "unknown-tool"))[0] | .resolved and .isError' && ok "sdk: unknown tool resolved with isError" || not_ok "sdk: unknown tool isError" "$(one_line "$CLIENT")"
client 'map(select(.label == "missing-name"))[0] | (.resolved | not) and .error_class == "McpError" and .code == -32603' \
  && ok "sdk: missing name threw McpError -32603" || not_ok "sdk: missing name threw McpError -32603" "$(one_line "$CLIENT")"
# (server-everything may replay earlier events on the resumed GET stream: at least 3.)
client 'map(select(.label == "progress-notifications"))[0].count >= 3' && ok "sdk: the 3 progress notifications reached the client" \
  || not_ok "sdk: 3 progress notifications" "$(one_line "$CLIENT")"
# The Inspector CLI, through the same proxy.
if bash "$PX_CLIENTS/inspector_cli.sh" "$PX_PROXY_URL/mcp" --method tools/call --tool-name echo --tool-arg message=inspector \
     >"$WORK/inspector.json" 2>"$WORK/inspector.err" && jq -e '.content[0].text == "Echo: inspector"' "$WORK/inspector.json" >/dev/null
then ok "inspector: tools/call echo through the proxy"
else not_ok "inspector: tools/call echo through the proxy" "$(one_line "$WORK/inspector.json") $(one_line "$WORK/inspector.err")"; fi
bash "$PX_CLIENTS/inspector_cli.sh" "$PX_PROXY_URL/mcp" --method tools/list >"$WORK/inspector-list.json" 2>&1
jq -e '.tools | length > 10' "$WORK/inspector-list.json" >/dev/null 2>&1 && ok "inspector: tools/list through the proxy" \
  || not_ok "inspector: tools/list" "$(one_line "$WORK/inspector-list.json")"
sleep 0.5
px_stop_proxy INT
[[ $PX_RC == 130 ]] && ok "proxy: exit status 130 after SIGINT" || not_ok "proxy: exit status 130 after SIGINT" "status $PX_RC: $(one_line "$PX_PROXY_ERR")"

# --- the live records -----------------------------------------------------------------------
X='[.[] | select(.kind == "exchange")]'
check "live: every line is JSON and the first exchange is initialize RPC_SUCCESS" \
  "$X | .[0].method == \"initialize\" and .[0].outcome == \"RPC_SUCCESS\"" "$LIVE"
check "live: notifications/initialized ACCEPTED (202)" \
  "$X | any(.method == \"notifications/initialized\" and .outcome == \"ACCEPTED\" and .http.status == 202)" "$LIVE"
check "live: tools/list RPC_SUCCESS" "$X | any(.method == \"tools/list\" and .outcome == \"RPC_SUCCESS\")" "$LIVE"
check "live: echo TOOL_SUCCESS, id checked against the request" \
  "$X | any(.detail == \"1 content item: Echo: hello\" and .outcome == \"TOOL_SUCCESS\" and .jsonrpc.id_checked)" "$LIVE"
check "live: unknown tool and bad arguments are TOOL_ERROR (as the client's isError)" \
  "$X | [.[] | select(.outcome == \"TOOL_ERROR\")] | length == 2" "$LIVE"
check "live: the call without a name is JSONRPC_ERROR -32603 (as the client's McpError)" \
  "$X | any(.outcome == \"JSONRPC_ERROR\" and .jsonrpc.error.code == -32603)" "$LIVE"
check "live: the long-running call is TOOL_SUCCESS with 3 notifications, timed to the first event and the final response" \
  "$X | any((.detail | startswith(\"1 content item: Long running\")) and .outcome == \"TOOL_SUCCESS\" and .stream.events == 4
       and .timing.first_event_ms != null and .timing.final_ms >= 900 and .timing.end_ms >= .timing.final_ms)" "$LIVE"
check "live: the inspector's echo is TOOL_SUCCESS" "$X | any(.detail == \"1 content item: Echo: inspector\")" "$LIVE"
check "live: the GET streams are skipped (standalone_stream) and DELETE is session_end" \
  "[.[] | select(.kind == \"skipped\") | .reason] | (index(\"standalone_stream\") != null and index(\"session_end\") != null)" "$LIVE"
check "live: every exchange record has timing and proxy members, made by the upstream" \
  "$X | all(.timing.response_ms != null and .timing.end_ms != null and .proxy.made_by == \"upstream\" and .proxy.injected == null)" "$LIVE"
check "live: records are named after the recording and carry session members" \
  "$X | all((.source | startswith(\"$REC#\")) and .session.entry >= 1)" "$LIVE"
check "live: the session summary and the proxy summary come last (stopped by SIGINT)" \
  '.[-2].kind == "session_summary" and .[-1].kind == "proxy_summary" and .[-1].stopped_by == "SIGINT" and .[-1].exchanges == .[-2].entries' "$LIVE"

# --- read back offline ------------------------------------------------------------------------
"$BIN" --format jsonl "$REC" >"$WORK/offline.jsonl" 2>"$WORK/offline.err"
jq -c 'select(.kind != "proxy_summary" and .kind != "client_behaviour") | del(.timing, .proxy)' "$LIVE" >"$WORK/live-comparable.jsonl"
if diff -q "$WORK/live-comparable.jsonl" <(jq -c . "$WORK/offline.jsonl") >/dev/null; then
  ok "offline: mcptriage $(basename "$REC") gives the same records as the live run (timing and proxy members aside)"
else
  not_ok "offline: same records as live" "$(diff "$WORK/live-comparable.jsonl" <(jq -c . "$WORK/offline.jsonl") | head -c 800)"
fi
[[ $(stat -c %a "$REC") == 600 && $(stat -c %a "$HAR") == 600 ]] && ok "recordings are mode 0600" \
  || not_ok "recordings are mode 0600" "$(stat -c '%a %n' "$REC" "$HAR")"
check "recording: every line holds the request, the response, timing and the proxy's facts" \
  'all(.request.method and .response.status and .timing.started and .proxy.exchange)' "$REC"
if jq -e '.log.entries | length > 5' "$HAR" >/dev/null 2>&1; then ok "har: complete HAR 1.2 after SIGINT"
else not_ok "har: complete HAR after SIGINT" "$(tail -c 300 "$HAR")"; fi
"$BIN" --format jsonl "$HAR" >"$WORK/har.jsonl" 2>"$WORK/har.err"
if diff <(jq -c 'select(.kind == "exchange") | [.outcome, .reason, .http.status, .method]' "$WORK/offline.jsonl") \
        <(jq -c 'select(.kind == "exchange") | [.outcome, .reason, .http.status, .method]' "$WORK/har.jsonl") >/dev/null &&
   diff <(jq -c 'select(.kind == "skipped") | .reason' "$WORK/offline.jsonl") <(jq -c 'select(.kind == "skipped") | .reason' "$WORK/har.jsonl") >/dev/null
then ok "har: mcptriage $(basename "$HAR") gives the same outcomes and skips as the .jsonl"
else not_ok "har: same outcomes as the .jsonl" "$(one_line "$WORK/har.jsonl" 600) $(one_line "$WORK/har.err")"; fi

# --- the client's responses to server requests (elicitation/create, sampling/createMessage) ---
px_start_proxy --upstream "$SE_URL" --format jsonl || not_ok "proxy starts (server requests)" "$(one_line "$PX_PROXY_ERR")"
timeout 60 node "$PX_CLIENTS/server_requests_client.mjs" "$PX_PROXY_URL/mcp" >"$WORK/server-requests.jsonl" 2>"$WORK/server-requests.err"
sleep 0.3
px_stop_proxy INT
check "server requests: the SDK client resolved both calls that made the server ask it" \
  '[.[] | select(.resolved)] | length == 2' "$WORK/server-requests.jsonl"
check "server requests: each POSTed response is ACCEPTED response_accepted naming the server request's id, not a notification" \
  "$X | [.[] | select(.reason == \"response_accepted\")] | length == 2 and all(.outcome == \"ACCEPTED\" and .notification == false
     and .http.status == 202 and (.detail | test(\"the client's JSON-RPC response to the server's request id [01]\$\")))" "$PX_PROXY_OUT"
check "server requests: notifications/initialized stays accepted" \
  "$X | any(.method == \"notifications/initialized\" and .reason == \"accepted\" and .notification)" "$PX_PROXY_OUT"

# --- the live table ---------------------------------------------------------------------------
px_start_proxy --upstream "$SE_URL" --format table --color never
timeout 30 node "$PX_CLIENTS/sdk_client.mjs" "$PX_PROXY_URL/mcp" call echo '{"message":"table"}' >/dev/null 2>&1
sleep 0.3
px_stop_proxy TERM
[[ $PX_RC == 143 ]] && ok "table: exit status 143 after SIGTERM" || not_ok "table: exit 143 after SIGTERM" "status $PX_RC"
if grep -q '^SOURCE ' "$PX_PROXY_OUT" && grep -q 'TOOL_SUCCESS' "$PX_PROXY_OUT" && grep -q '^session proxy: ' "$PX_PROXY_OUT" &&
   grep -q 'stopped by SIGTERM' "$PX_PROXY_OUT"; then ok "table: rows live, then the session block and the proxy summary"
else not_ok "table: rows, session block, proxy summary" "$(one_line "$PX_PROXY_OUT" 800)"; fi
echo "# the live table of that run:"
sed 's/^/#   /' "$PX_PROXY_OUT"
px_check_schema "$WORK"/proxy-*.out
px_summary
