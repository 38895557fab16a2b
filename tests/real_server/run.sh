#!/usr/bin/env bash
# Usage: run.sh PATH_TO_MCPTRIAGE
#
# End-to-end test against a real MCP server: starts the pinned
# @modelcontextprotocol/server-everything (package-lock.json here) on 127.0.0.1, runs one
# Streamable HTTP session with curl -si, pipes each capture to
# `mcptriage --format jsonl --id N --method M --expect OUTCOME`, and checks the exit code
# and fields of the JSON record with jq. Prints `ok - NAME` / `not ok - NAME: WHY` per check,
# the table view of the session, and last `N passed, M failed`. Exit 0 only if all passed.
#
# Environment: REAL_SERVER_PORT_FIRST/LAST (default 39000..39199),
# REAL_SERVER_START_TIMEOUT (30 s), REAL_SERVER_CURL_MAX_TIME (20 s per request),
# REAL_SERVER_KEEP=1 keeps the work folder (captures, records, server log).
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

if [[ $# -ne 1 || $1 == -h || $1 == --help ]]; then
  echo "usage: $0 PATH_TO_MCPTRIAGE" >&2
  exit 2
fi
BIN=$1
if [[ $BIN == */* ]]; then
  [[ -f $BIN && -x $BIN ]] || rs_die "$BIN is not an executable file"
  BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
else
  BIN=$(command -v "$BIN") || rs_die "$1 not found in PATH"
fi
rs_need_tools node npm curl jq timeout
rs_ensure_deps

WORK=$(mktemp -d "${TMPDIR:-/tmp}/mcptriage-real.XXXXXX")
CAP=$WORK/captures   # raw curl -si output, one file per exchange
RES=$WORK/records    # mcptriage output per exchange
mkdir -p "$CAP" "$RES"
PASS=0
FAIL=0
SUMMARIZED=
cleanup() {
  local rc=$?
  har_stop_proxy
  rs_stop_server
  if [[ -z $SUMMARIZED ]]; then
    echo "# stopped early (exit $rc); work folder kept: $WORK" >&2
  elif ((FAIL == 0)) && [[ ${REAL_SERVER_KEEP:-} != 1 ]]; then
    rm -rf "$WORK"
  fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

ok() { echo "ok - $1"; PASS=$((PASS + 1)); }
not_ok() { echo "not ok - $1: $2"; FAIL=$((FAIL + 1)); }
one_line() { head -c "${2:-300}" "$1" | tr '\n\r' '  '; }
summary() {
  if ((FAIL != 0)) || [[ ${REAL_SERVER_KEEP:-} == 1 ]]; then echo "# work folder kept: $WORK"; fi
  SUMMARIZED=1
  echo "$PASS passed, $FAIL failed"
}

# --- a HAR of a real session, recorded by har_proxy.cjs (loopback) -----------------------
# The proxy forwards to the server and writes $WORK/session.har; it answers the first echo
# call with an injected 503 and the first toggle-simulated-logging call with a 502, so the
# session holds a safe (readOnlyHint) and an unsafe (not idempotent) replay.
HAR=$WORK/session.har
HAR_PROXY_PID=
HAR_PROXY_URL=
har_stop_proxy() {
  local pid=$HAR_PROXY_PID i
  [[ -n $pid ]] || return 0
  HAR_PROXY_PID=
  kill -TERM "$pid" 2>/dev/null || true
  for ((i = 0; i < 50; i++)); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  kill -KILL "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
}
# har_post JSON: one POST through the proxy with the session headers once known.
har_post() {
  local -a h=(-H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream')
  [[ -z ${HAR_SESSION_ID:-} ]] || h+=(-H "Mcp-Session-Id: $HAR_SESSION_ID")
  [[ -z ${RS_PROTOCOL_VERSION:-} || -z ${HAR_SESSION_ID:-} ]] || h+=(-H "MCP-Protocol-Version: $RS_PROTOCOL_VERSION")
  curl -sS -o /dev/null -D "$WORK/har-last.headers" --max-time "$RS_CURL_MAX_TIME" -X POST "$HAR_PROXY_URL/mcp" \
    "${h[@]}" --data-binary "$1" 2>>"$WORK/har-curl.stderr" || true
}
har_record_session() {
  local i
  node "$RS_DIR/har_proxy.cjs" --target "$RS_URL" --har "$HAR" \
    --fail tools/call:echo:503 --fail tools/call:toggle-simulated-logging:502 >"$WORK/proxy.log" 2>&1 &
  HAR_PROXY_PID=$!
  for ((i = 0; i < 100; i++)); do
    HAR_PROXY_URL=$(sed -n 's/^listening on \(127\.0\.0\.1:[0-9]*\)$/http:\/\/\1/p' "$WORK/proxy.log")
    [[ -z $HAR_PROXY_URL ]] || break
    kill -0 "$HAR_PROXY_PID" 2>/dev/null || break
    sleep 0.1
  done
  [[ -n $HAR_PROXY_URL ]] || return 1
  HAR_SESSION_ID=
  har_post "$(cat "$RS_REQ_DIR/initialize.request.json")"
  HAR_SESSION_ID=$(tr -d '\r' <"$WORK/har-last.headers" | awk -F': ' 'tolower($1) == "mcp-session-id" {print $2; exit}')
  har_post '{"jsonrpc":"2.0","method":"notifications/initialized"}'
  har_post '{"jsonrpc":"2.0","id":2,"method":"tools/list"}'
  curl -s -o /dev/null --max-time 5 "$HAR_PROXY_URL/favicon.ico" || true   # a browser's extra request
  har_post '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"message":"again?"},"_meta":{"progressToken":"p3"}}}'
  har_post '{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"echo","arguments":{"message":"again?"},"_meta":{"progressToken":"p4"}}}'
  har_post '{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"toggle-simulated-logging","arguments":{}}}'
  har_post '{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"toggle-simulated-logging","arguments":{}}}'
  har_post '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"get-structured-content","arguments":{"location":"Chicago"}}}'
  curl -s -o /dev/null --max-time 5 -X DELETE "$HAR_PROXY_URL/mcp" -H "Mcp-Session-Id: $HAR_SESSION_ID" || true
  har_stop_proxy
  [[ -s $HAR ]]
}

# --- server and session ----------------------------------------------------------------
rs_start_server "$WORK"
echo "# server-everything pid $RS_PID at $RS_URL"
if ! rs_session "$CAP"; then
  not_ok "server: initialize gives a session id" \
    "curl rc $(cat "$CAP/initialize.curl-rc"): $(one_line "$CAP/initialize.txt") $(one_line "$CAP/initialize.curl-stderr")"
  summary
  exit 1
fi
HAR_RECORDED=0
if har_record_session; then HAR_RECORDED=1; fi
rs_stop_server   # every capture is on disk; nothing needs the server now
echo "# session $RS_SESSION_ID, protocol version ${RS_PROTOCOL_VERSION:-?}; server stopped"

# --- what the server sent (independent of mcptriage) -------------------------------------
for name in "${RS_SESSION[@]}"; do
  rc=$(cat "$CAP/$name.curl-rc")
  if [[ $rc == 0 ]]; then ok "server: $name answered"
  else not_ok "server: $name answered" "curl exit $rc: $(one_line "$CAP/$name.curl-stderr")"; fi
done
if [[ -n $RS_PROTOCOL_VERSION ]]; then ok "server: initialize result has protocolVersion ($RS_PROTOCOL_VERSION)"
else not_ok "server: initialize result has protocolVersion" "$(one_line "$CAP/initialize.txt" 600)"; fi
if [[ $(rs_status "$CAP/initialized-notification.txt") == 202 && -z $(rs_messages "$CAP/initialized-notification.txt") ]]
then ok "server: notifications/initialized gets 202 with no body"
else not_ok "server: notifications/initialized gets 202 with no body" "$(one_line "$CAP/initialized-notification.txt")"; fi
if rs_messages "$CAP/tools-list.txt" | jq -e -s 'any(.[]; .id == 2 and
     ([.result.tools[].name] | index("echo") != null and index("trigger-long-running-operation") != null))' >/dev/null 2>&1
then ok "server: tools/list has echo and trigger-long-running-operation"
else not_ok "server: tools/list has echo and trigger-long-running-operation" "$(one_line "$CAP/tools-list.txt" 600)"; fi
progress=$(rs_messages "$CAP/tools-call-long-running-progress.txt" | jq -s -c \
  '[.[] | if .method == "notifications/progress" then "p" elif .id == 6 then "r" else "?" end] | join("")' 2>/dev/null || true)
if [[ $progress =~ ^\"p+r\"$ ]]; then ok "server: progress notifications stream before the result ($progress)"
else not_ok "server: progress notifications stream before the result" "message order ${progress:-unreadable}"; fi
if [[ $(rs_status "$CAP/bogus-session.txt") == 400 ]]; then ok "server: made-up session id gets 400"
else not_ok "server: made-up session id gets 400" "status $(rs_status "$CAP/bogus-session.txt")"; fi

# --- mcptriage on each capture ------------------------------------------------------------
CUR=
REC=
# classify NAME OUTCOME [mcptriage flags...]: pipes the capture, checks exit 0, one record.
classify() {
  local name=$1 want=$2 rc=0 n
  shift 2
  CUR=$name
  REC=
  "$BIN" --format jsonl "$@" --expect "$want" <"$CAP/$name.txt" >"$RES/$name.jsonl" 2>"$RES/$name.stderr" || rc=$?
  if ((rc == 0)); then ok "$name: exit 0 with --expect $want"
  else not_ok "$name: exit 0 with --expect $want" \
    "exit $rc; stdout: $(one_line "$RES/$name.jsonl") stderr: $(one_line "$RES/$name.stderr")"; fi
  n=$(jq -s length <"$RES/$name.jsonl" 2>/dev/null) || n=
  if [[ $n == 1 ]]; then
    REC=$(jq -c . <"$RES/$name.jsonl")
    ok "$name: one JSON record"
  else
    not_ok "$name: one JSON record" "got ${n:-output that is not JSON}: $(one_line "$RES/$name.jsonl")"
  fi
}
# field PATH WANT_JSON: the record's PATH equals WANT_JSON.
field() {
  local path=$1 want=$2 got label="$CUR: $1 == $2"
  if [[ -z $REC ]]; then not_ok "$label" "no record"; return 0; fi
  if ! got=$(jq -c "$path" <<<"$REC" 2>&1); then not_ok "$label" "jq: $got"; return 0; fi
  if jq -e --argjson w "$want" "($path) == \$w" <<<"$REC" >/dev/null 2>&1; then ok "$label"
  else not_ok "$label" "got $got"; fi
}
# holds DESCRIPTION JQ_EXPR: the jq expression is true of the record.
holds() {
  local label="$CUR: $1" expr=$2
  if [[ -z $REC ]]; then not_ok "$label" "no record"; return 0; fi
  if jq -e "$expr" <<<"$REC" >/dev/null 2>&1; then ok "$label"
  else not_ok "$label" "record: $(head -c 400 <<<"$REC")"; fi
}
# The 200 + text/event-stream + application-layer checks shared by most cases.
sse_200() {
  field .http.status 200
  field .http.content_type '"text/event-stream"'
}

classify initialize RPC_SUCCESS --id 1 --method initialize
field .outcome '"RPC_SUCCESS"'
field .layer '"application"'
sse_200
field .jsonrpc.id 1
field .jsonrpc.error null
field .method '"initialize"'
field .method_source '"flag"'

classify initialized-notification ACCEPTED --method notifications/initialized
field .outcome '"ACCEPTED"'
field .layer '"transport"'
field .http.status 202
field .method '"notifications/initialized"'

classify tools-list RPC_SUCCESS --id 2 --method tools/list
field .outcome '"RPC_SUCCESS"'
field .layer '"application"'
sse_200
field .jsonrpc.id 2
field .method '"tools/list"'

classify tools-call-success TOOL_SUCCESS --id 3 --method tools/call
field .outcome '"TOOL_SUCCESS"'
field .layer '"application"'
sse_200
field .jsonrpc.id 3
field .jsonrpc.error null

# server-everything reports an unknown tool as an isError result, not a JSON-RPC error.
classify tools-call-unknown-tool TOOL_ERROR --id 4 --method tools/call
field .outcome '"TOOL_ERROR"'
field .layer '"application"'
sse_200
field .jsonrpc.id 4
field .jsonrpc.error null

# Input validation errors are tool execution errors (isError) in 2025-11-25.
classify tools-call-invalid-arguments TOOL_ERROR --id 5 --method tools/call
field .outcome '"TOOL_ERROR"'
field .layer '"application"'
sse_200
field .jsonrpc.id 5

# Three notifications/progress events precede the result on the same stream.
classify tools-call-long-running-progress TOOL_SUCCESS --id 6 --method tools/call
field .outcome '"TOOL_SUCCESS"'
field .layer '"application"'
sse_200
field .jsonrpc.id 6
field .jsonrpc.error null

# A tools/call without a name: JSON-RPC -32603 on a 200 event stream.
classify tools-call-missing-name JSONRPC_ERROR --id 8 --method tools/call
field .outcome '"JSONRPC_ERROR"'
field .layer '"protocol"'
sse_200
field .jsonrpc.id 8
field .jsonrpc.error.code -32603

# 400 + -32700: the server speaks 2025-11-25, where the status decides (the 2026-07-28 status/error
# pairs do not apply: docs/classification.md); the JSON-RPC error is kept in the record.
classify malformed-json-body HTTP_ERROR --id 9 --method tools/call
field .outcome '"HTTP_ERROR"'
field .reason '"bad_request"'
field .layer '"transport"'
field .http.status 400
field .http.content_type '"application/json"'
field .jsonrpc.id null
field .jsonrpc.error.code -32700
holds "warns that the error cannot be paired (warnings not empty)" '(.warnings | type) == "array" and (.warnings | length) > 0'

# Extra: a task-augmented call (2025-11-25 tasks) answered with result.task{taskId,status}.
classify tools-call-task-created TASK_CREATED --id 10 --method tools/call
field .outcome '"TASK_CREATED"'
field .layer '"interaction"'
sse_200
field .jsonrpc.id 10
field .jsonrpc.error null

# 400 + -32000 is no spec pair => HTTP_ERROR, whatever the body says.
classify bogus-session HTTP_ERROR --id 7 --method tools/call
field .outcome '"HTTP_ERROR"'
field .layer '"transport"'
field .http.status 400
holds 'http.content_type is application/json' '.http.content_type | ascii_downcase | startswith("application/json")'
holds 'retry advice is given' '(.retry.advice // null) != null'

# --- mcptriage on the recorded HAR: one record per MCP exchange, skipped entries, summary ---
if ((HAR_RECORDED == 1)); then ok "har: the proxy recorded $(jq '.log.entries | length' "$HAR" 2>/dev/null) entries"
else not_ok "har: the proxy recorded the session" "$(one_line "$WORK/proxy.log") $(one_line "$WORK/har-curl.stderr" 2>/dev/null)"; fi
rc=0
"$BIN" --format jsonl -q "$HAR" >"$RES/har.jsonl" 2>"$RES/har.stderr" || rc=$?
if ((rc == 0)); then ok "har: mcptriage exits 0"
else not_ok "har: mcptriage exits 0" "exit $rc: $(one_line "$RES/har.stderr")"; fi
HARS=$(jq -s -c . <"$RES/har.jsonl" 2>/dev/null) || HARS=
# har_holds DESCRIPTION JQ_EXPR: true of the array of all records ($x: exchange records only).
har_holds() {
  local label="har: $1"
  if [[ -z $HARS ]]; then not_ok "$label" "no records"; return 0; fi
  if jq -e "[.[] | select(.kind == \"exchange\")] as \$x | $2" <<<"$HARS" >/dev/null 2>&1; then ok "$label"
  else not_ok "$label" "records: $(jq -c "[.[] | if .kind then [.kind, .reason // .entries] else [.source, .outcome, .reason] end]" <<<"$HARS" | head -c 600)"; fi
}
har_holds "every line is a record of format har" 'all(.[]; .format == "har")'
har_holds "the favicon and the DELETE are skipped (not_mcp, session_end), not classified" \
  '[.[] | select(.kind == "skipped") | .reason] == ["not_mcp", "session_end"]'
har_holds "outcomes in order: RPC_SUCCESS ACCEPTED RPC_SUCCESS HTTP_ERROR TOOL_SUCCESS HTTP_ERROR TOOL_SUCCESS TOOL_SUCCESS" \
  '[$x[].outcome] == ["RPC_SUCCESS","ACCEPTED","RPC_SUCCESS","HTTP_ERROR","TOOL_SUCCESS","HTTP_ERROR","TOOL_SUCCESS","TOOL_SUCCESS"]'
har_holds "request context from the HAR: method_source request, every response id checked against its request" \
  'all($x[]; .method_source == "request") and all($x[] | select(.jsonrpc.id != null); .jsonrpc.id_checked)'
har_holds "POST sequence: post_index 1..8, statuses so far [200,202,200,503,200,502,200,200]" \
  '[$x[].session.post_index] == [1,2,3,4,5,6,7,8] and $x[-1].session.http_statuses == [200,202,200,503,200,502,200,200]'
har_holds "the injected 503 is HTTP_ERROR service_unavailable on tools/call" \
  '$x[3].http.status == 503 and $x[3].reason == "service_unavailable" and $x[3].method == "tools/call"'
har_holds "the echo call sent again is a replay of the 503, safe by readOnlyHint, who retried unknown" \
  '$x[4].session.replay_of.source == $x[3].source and $x[4].session.replay_of.safety == "safe" and
   ($x[4].session.replay_of.decided_by | startswith("readOnlyHint: true")) and $x[4].session.replay_of.who_retried == "unknown"
   and $x[4].session.replay_of.same_id == false'
har_holds "the toggle call sent again is a replay of the 502, unsafe (idempotentHint false)" \
  '$x[6].session.replay_of.source == $x[5].source and $x[6].session.replay_of.safety == "unsafe" and
   ($x[6].session.replay_of.decided_by | contains("idempotentHint false"))'
har_holds "get-structured-content: structuredContent checked against its outputSchema, TOOL_SUCCESS" \
  '$x[7].session.schema_checked == true and $x[7].outcome == "TOOL_SUCCESS"'
har_holds "one session summary, last: 10 entries, 2 skipped, first failure the 503, 2 replays, all answered, no findings" \
  '(.[-1] | .kind == "session_summary" and .entries == 10 and .skipped == 2 and .first_failure.http_status == 503
    and .first_failure.method == "tools/call" and (.replays | length) == 2 and .never_answered == [] and .findings == {})
   and ([.[] | select(.kind == "session_summary")] | length) == 1'
echo "# mcptriage --format table over the recorded HAR:"
"$BIN" --format table --color never -q "$HAR" 2>&1 | sed 's/^/# /' || true

# --- the session reports of the recorded HAR (docs/report.md), checked as tests/report does ---
# The HTML report in headless Chromium and the OTLP report through the opentelemetry-proto
# definitions (tests/report/browser.cjs, otlp_check.cjs); the screenshot is kept in the work
# folder (or $REPORT_ARTIFACTS).
REPORT_DIR=$(cd "$RS_DIR/../report" && pwd)
if [[ -z $HARS ]]; then
  not_ok "har report: a HAR to report on" "no records"
elif [[ ! -x ${CHROMIUM:-/usr/bin/chromium} ]]; then
  echo "# har report: skipped: no chromium (scripts/setup --all installs it)"
else
  [[ -d $REPORT_DIR/node_modules/playwright-core ]] || (cd "$REPORT_DIR" && npm ci --no-audit --no-fund) >&2
  rc=0
  "$BIN" --format jsonl -q --report-html "$RES/har.html" --report-otlp "$RES/har.otlp.json" "$HAR" >/dev/null 2>"$RES/har-report.stderr" || rc=$?
  if ((rc == 0)); then ok "har report: mcptriage writes both reports"
  else not_ok "har report: mcptriage writes both reports" "exit $rc: $(one_line "$RES/har-report.stderr")"; fi
  n=$(jq '[.[] | select(.kind == "exchange")] | length' <<<"$HARS")
  f=$(jq '[.[] | select(.kind == "exchange" and (.outcome | IN("HTTP_ERROR","INVALID_HTTP_RESPONSE","STREAM_INCOMPLETE","MALFORMED_JSON","INVALID_ENVELOPE","JSONRPC_ERROR","INVALID_TOOL_RESULT","INVALID_RESULT","TOOL_ERROR")))] | length' <<<"$HARS")
  art=${REPORT_ARTIFACTS:-$WORK}
  mkdir -p "$art"
  while IFS= read -r line; do
    case $line in
      "ok - "*) ok "har report: ${line#ok - }" ;;
      "not ok - "*) not_ok "har report: ${line#not ok - }" "see above" ;;
    esac
  done < <(cd "$REPORT_DIR" && CHROMIUM=${CHROMIUM:-/usr/bin/chromium} node browser.cjs "$RES/har.html" "$art/real-server-har.png" "$n" "$f" --replays 2>&1
           node otlp_check.cjs "$RES/har.otlp.json" "$n" "$f" 2>&1)
  if jq -e '[.resourceSpans[].scopeSpans[].spans[].attributes[] | select(.key == "mcptriage.time_source") | .value.stringValue] | length > 0 and all(. == "capture")' \
    "$RES/har.otlp.json" >/dev/null 2>&1; then ok "har report: every span's times come from the HAR"
  else not_ok "har report: every span's times come from the HAR" "$(head -c 300 "$RES/har.otlp.json")"; fi
fi

# --- for humans: the whole session as a table -------------------------------------------
echo "# mcptriage --format table over this run's captures:"
files=()
for name in "${RS_SESSION[@]}"; do files+=("$CAP/$name.txt"); done
if ! "$BIN" --format table "${files[@]}" 2>"$RES/table.stderr"; then
  echo "# (exit non-zero: $(one_line "$RES/table.stderr"))"
fi

summary
((FAIL == 0))
