#!/usr/bin/env bash
# Usage: inject.sh PATH_TO_MCPTRIAGE [plain|sanitized]
# Every --inject action with the real TypeScript SDK client 1.32.2 and server-everything: the
# client's own result (resolved, isError, the class and code of what it threw) matches the live
# verdict on the exchange, and the client-behaviour report is true to what the client did (the
# SDK does not resend after 503 or 429 and does not re-initialize after 404; after a cut stream
# it resumes with GET and Last-Event-ID). A hand-written client that does resend
# (clients/retry_client.mjs) shows the other branch: resend, Retry-After honoured or not,
# re-initialized, safe or unsafe by the tool's annotations, retry_origin client.
BIN=$1
PX_MODE=${2:-plain}
. "$(dirname "$0")/lib.sh"
px_setup
px_start_everything
echo "# server-everything at $SE_URL"
printf '{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"overloaded"}}' >"$WORK/overloaded.json"

CUR=
# scenario LABEL WINDOW RULE TOOL ARGS: one proxy with RULE, one SDK call, the proxy stopped
# once the watch window has passed; the client's line in $C, the records in $R.
scenario() {
  local label=$1 window=$2 rule=$3 tool=$4 args=$5
  CUR=$label
  px_start_proxy --upstream "$SE_URL" --inject "$rule" --watch "$window" --format jsonl -q
  C=$WORK/client-$PX_N.jsonl
  timeout 30 node "$PX_CLIENTS/sdk_client.mjs" "$PX_PROXY_URL/mcp" call "$tool" "$args" --timeout 5000 >"$C" 2>&1
  sleep "$(jq -rn --arg w "$window" '$w | rtrimstr("s") | tonumber + 0.4')"
  px_stop_proxy TERM
  R=$PX_PROXY_OUT
}
# client JQ: the client's result for its tools/call holds.
client() {
  if jq -e -s "map(select(.label == \"$CALL\"))[0] | $1" "$C" >/dev/null 2>&1; then ok "$CUR: the client $2"
  else not_ok "$CUR: the client $2" "$(one_line "$C" 600)"; fi
}
# verdict JQ: the live record of the injected tools/call holds.
verdict() {
  if jq -e -s "[.[] | select(.kind == \"exchange\" and .proxy.injected != null)][0] | $1" "$R" >/dev/null 2>&1; then ok "$CUR: live verdict $2"
  else not_ok "$CUR: live verdict $2" "$(jq -c -s '[.[] | select(.kind == "exchange") | [.method, .outcome, .reason, .http.status, .proxy]]' "$R" | head -c 700)"; fi
}
# behaviour JQ: the client-behaviour report holds (null when there is none).
behaviour() {
  if jq -e -s "[.[] | select(.kind == \"client_behaviour\")][0] | $1" "$R" >/dev/null 2>&1; then ok "$CUR: client behaviour $2"
  else not_ok "$CUR: client behaviour $2" "$(jq -c -s '[.[] | select(.kind == "client_behaviour")]' "$R" | head -c 700)"; fi
}

CALL=echo
scenario "status=503" 2s 'status=503@method=tools/call' echo '{"message":"x"}'
client '(.resolved | not) and .error_class == "StreamableHTTPError" and .code == 503' "threw StreamableHTTPError 503"
verdict '.outcome == "HTTP_ERROR" and .reason == "service_unavailable" and .http.status == 503 and .proxy.made_by == "proxy"
         and (.warnings | any(startswith("injected by mcptriage proxy")))' "HTTP_ERROR service_unavailable, injected, made by the proxy"
behaviour '.action == "nothing" and .after.http_status == 503 and .after.injected == "status=503@method=tools/call"' "nothing (the SDK does not resend after 503)"

scenario "status=429" 2s 'status=429,retry-after=1@method=tools/call' echo '{"message":"x"}'
client '(.resolved | not) and .error_class == "StreamableHTTPError" and .code == 429' "threw StreamableHTTPError 429"
verdict '.outcome == "HTTP_ERROR" and .reason == "rate_limited" and .retry.advice == "wait_retry_after" and .retry.after_ms == 1000' \
  "HTTP_ERROR rate_limited, wait_retry_after 1000 ms"
behaviour '.action == "nothing" and .after.retry_after_ms == 1000' "nothing (the SDK ignores Retry-After and does not resend)"

scenario "status=502,body" 1s "status=502,body=$WORK/overloaded.json@method=tools/call" echo '{"message":"x"}'
client '(.resolved | not) and .code == 502 and (.message | contains("overloaded"))' "threw StreamableHTTPError 502 with the body"
verdict '.outcome == "HTTP_ERROR" and .reason == "bad_gateway" and .http.content_type == "application/json"' "HTTP_ERROR bad_gateway with the JSON body"

scenario "jsonrpc-error" 1s 'jsonrpc-error=-32603@method=tools/call' echo '{"message":"x"}'
client '(.resolved | not) and .error_class == "McpError" and .code == -32603' "threw McpError -32603"
verdict '.outcome == "JSONRPC_ERROR" and .jsonrpc.error.code == -32603 and .jsonrpc.id_checked' "JSONRPC_ERROR -32603, id checked"
behaviour '.action == "nothing"' "nothing"

scenario "tool-error" 1s 'tool-error@tool=echo' echo '{"message":"x"}'
client '.resolved and .isError' "resolved with isError"
verdict '.outcome == "TOOL_ERROR" and .retry.advice == "hand_error_to_model"' "TOOL_ERROR"

scenario "input-required" 1s 'input-required@tool=echo' echo '{"message":"x"}'
client '.resolved and (.isError | not) and .content == [] and .resultType == "input_required"' \
  "resolved with empty content (SDK 1.32.2 does not know MRTR: resolved is not success)"
verdict '.outcome == "INPUT_REQUIRED" and .result_type == "input_required"' "INPUT_REQUIRED"
behaviour '. == null' "none (INPUT_REQUIRED is no failure)"

CALL=trigger-long-running-operation
scenario "cut-after-events" 3s 'cut-after-events=1@tool=trigger-long-running-operation' trigger-long-running-operation '{"duration":1,"steps":3}'
client '.resolved and (.isError | not)' "resolved after resuming the stream"
verdict '.outcome == "STREAM_INCOMPLETE" and .stream.resumable == true and .retry.advice == "resume_stream"' \
  "STREAM_INCOMPLETE, resumable"
behaviour '.action == "new_request" and .next_request.http_method == "GET" and .next_request.resume' \
  "a new request: GET with Last-Event-ID (resuming)"
if jq -e -s '[.[] | select(.kind == "exchange" and .proxy.injected == null and .method == "tools/call")] | any(.outcome == "TOOL_SUCCESS")' "$R" >/dev/null
then ok "cut-after-events: the resumed GET stream is TOOL_SUCCESS, as the client resolved"
else not_ok "cut-after-events: the resumed stream is TOOL_SUCCESS" "$(one_line "$R" 600)"; fi

CALL=echo
scenario "delay" 1s 'delay=1200ms@method=tools/call' echo '{"message":"x"}'
client '.resolved and .ms >= 1200' "resolved after the delay"
verdict '.outcome == "TOOL_SUCCESS" and .timing.response_ms >= 1200 and .proxy.made_by == "upstream"' "TOOL_SUCCESS, the response 1.2 s late"

scenario "session-expired" 2s 'session-expired@method=tools/call' echo '{"message":"x"}'
client '(.resolved | not) and .code == 404' "threw StreamableHTTPError 404"
verdict '.outcome == "HTTP_ERROR" and .reason == "session_expired" and .retry.advice == "new_session"' "HTTP_ERROR session_expired, new_session"
behaviour '.action == "nothing" and .reinitialized == false' "nothing, and it did not re-initialize (SDK 1.32.2)"

scenario "unauthorized" 1s 'unauthorized@method=tools/call' echo '{"message":"x"}'
client '(.resolved | not) and .code == 401' "threw on 401"
verdict '.outcome == "HTTP_ERROR" and .reason == "unauthorized" and .retry.advice == "reauthorize"' "HTTP_ERROR unauthorized, reauthorize"

# --- the other branch: a client that resends --------------------------------------------------
retry_scenario() {
  local label=$1 rule=$2 tool=$3 args=$4
  shift 4
  CUR=$label
  px_start_proxy --upstream "$SE_URL" --inject "$rule" --watch 3s --format jsonl -q
  C=$WORK/retry-$PX_N.jsonl
  timeout 30 node "$PX_CLIENTS/retry_client.mjs" "$PX_PROXY_URL/mcp" "$tool" "$args" "$@" >"$C" 2>&1
  sleep 0.3
  px_stop_proxy TERM
  R=$PX_PROXY_OUT
  if jq -e -s 'map(select(.label == "result"))[0].resolved' "$C" >/dev/null 2>&1; then ok "$CUR: the client's resend succeeded"
  else not_ok "$CUR: the client's resend succeeded" "$(one_line "$C")"; fi
}
retry_scenario "resend after 503" 'status=503,retry-after=1@post=4' echo '{"message":"again"}'
behaviour '.action == "resend" and .resend.retry_origin == "client" and .resend.after_ms >= 1000 and .resend.honoured_retry_after == true
           and .resend.safety == "safe" and (.resend.decided_by | startswith("readOnlyHint: true"))' \
  "resend by the client after Retry-After (honoured), safe by readOnlyHint"
check "resend after 503: the resend's record says retry_origin client and replay_of the 503" \
  '[.[] | select(.kind == "exchange" and .method == "tools/call")] | .[1].proxy.retry_origin == "client" and .[1].session.replay_of.source == .[0].source' "$R"
retry_scenario "resend at once after 429" 'status=429,retry-after=2@post=4' echo '{"message":"again"}' --no-wait
behaviour '.action == "resend" and .resend.honoured_retry_after == false and .after.retry_after_ms == 2000' "resend, Retry-After not honoured"
retry_scenario "re-initialize after 404" 'session-expired@post=4' toggle-simulated-logging '{}'
behaviour '.action == "resend" and .reinitialized == true and .next_request.method == "initialize" and .resend.safety == "unsafe"' \
  "re-initialized, then resent; unsafe (idempotentHint false)"
px_check_schema "$WORK"/proxy-*.out
px_summary
