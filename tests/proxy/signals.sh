#!/usr/bin/env bash
# Usage: signals.sh PATH_TO_MCPTRIAGE [plain|sanitized]
# Stopping the proxy: SIGINT while a stream is open records that exchange as cut by the proxy,
# prints the session and proxy summaries, completes the HAR and exits 130; SIGTERM exits 143; a
# broken --expect exits 1 whatever the signal, with the JUnit report written; when standard output
# closes (`| head -1`), the proxy stops by itself, exits 0 and still completes its recordings;
# --report-html and --report-otlp are complete after SIGINT, one row and one span per exchange.
BIN=$1
PX_MODE=${2:-plain}
. "$(dirname "$0")/lib.sh"
px_setup
px_start_fault
UP=http://127.0.0.1:$FAULT_PORT/mcp
CALL='{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{}}}'

# --- SIGINT with a stream open --------------------------------------------------------------------
px_start_proxy --upstream "$UP" --record "$WORK/s.har" --record "$WORK/s.jsonl" --format jsonl
px_post "$PX_PROXY_URL/json?bytes=10" "$CALL" >/dev/null
curl -s -o "$WORK/hang.body" --max-time 20 -X POST "$PX_PROXY_URL/hang" -H 'Content-Type: application/json' -d "$CALL" &
curl_pid=$!
sleep 0.5
px_stop_proxy INT
wait "$curl_pid"; curl_rc=$?
[[ $PX_RC == 130 ]] && ok "SIGINT: exit status 130" || not_ok "SIGINT: exit 130" "status $PX_RC: $(one_line "$PX_PROXY_ERR")"
[[ $curl_rc == 18 ]] && ok "SIGINT: the open stream was closed (the client sees it cut)" || not_ok "SIGINT: the open stream closed" "curl exit $curl_rc"
check "SIGINT: the open stream is recorded, cut by the proxy's stop" \
  'any(.kind == "exchange" and .outcome == "STREAM_INCOMPLETE" and (.warnings | any(contains("the proxy stopped (SIGINT)"))))' "$PX_PROXY_OUT"
check "SIGINT: the session summary, then the proxy summary (stopped by SIGINT)" \
  '.[-2].kind == "session_summary" and .[-2].entries == 2 and .[-1].kind == "proxy_summary" and .[-1].stopped_by == "SIGINT" and .[-1].cut.shutdown == 1' "$PX_PROXY_OUT"
grep -q '^mcptriage: 2 exchanges: ' "$PX_PROXY_ERR" && ok "SIGINT: the summary line on stderr" || not_ok "SIGINT: summary line" "$(one_line "$PX_PROXY_ERR")"
if jq -e '.log.entries | length == 2' "$WORK/s.har" >/dev/null 2>&1; then ok "SIGINT: the HAR is complete (2 entries)"
else not_ok "SIGINT: the HAR is complete" "$(tail -c 200 "$WORK/s.har")"; fi
[[ $(wc -l <"$WORK/s.jsonl") == 2 ]] && ok "SIGINT: the JSON Lines recording holds both exchanges" || not_ok "SIGINT: jsonl holds both" "$(wc -l <"$WORK/s.jsonl")"

# --- SIGTERM --------------------------------------------------------------------------------------
px_start_proxy --upstream "$UP" --format jsonl -q
px_post "$PX_PROXY_URL/json?bytes=10" "$CALL" >/dev/null
px_stop_proxy TERM
[[ $PX_RC == 143 ]] && ok "SIGTERM: exit status 143" || not_ok "SIGTERM: exit 143" "status $PX_RC"

# --- expectations -------------------------------------------------------------------------------------
px_start_proxy --upstream "$UP" --format jsonl -q --expect TOOL_SUCCESS --report-junit "$WORK/junit.xml"
px_post "$PX_PROXY_URL/json?bytes=10" "$CALL" >/dev/null
px_post "$PX_PROXY_URL/shortjson" "$CALL" >/dev/null
px_stop_proxy INT
[[ $PX_RC == 1 ]] && ok "--expect broken: exit status 1, even after SIGINT" || not_ok "--expect broken: exit 1" "status $PX_RC"
grep -q 'expectation broken: .*MALFORMED_JSON' "$PX_PROXY_ERR" && ok "--expect broken: said on stderr as it happened" || not_ok "--expect: stderr" "$(one_line "$PX_PROXY_ERR")"
if grep -q '<testcase' "$WORK/junit.xml" 2>/dev/null && grep -q '<failure' "$WORK/junit.xml"; then ok "--report-junit: written at the end, with the failure"
else not_ok "--report-junit written" "$(one_line "$WORK/junit.xml")"; fi
px_start_proxy --upstream "$UP" --format jsonl -q --fail-on HTTP_ERROR
px_post "$PX_PROXY_URL/json?bytes=10" "$CALL" >/dev/null
px_stop_proxy TERM
[[ $PX_RC == 143 ]] && ok "--fail-on not met: the signal's status (143)" || not_ok "--fail-on not met: 143" "status $PX_RC"

# --- session reports -----------------------------------------------------------------------------------
# --report-html and --report-otlp: written from the proxied session, complete when the proxy stops.
px_start_proxy --upstream "$UP" --format jsonl -q --report-html "$WORK/session.html" --report-otlp "$WORK/session.otlp.json"
px_post "$PX_PROXY_URL/json?bytes=10" "$CALL" >/dev/null
px_post "$PX_PROXY_URL/shortjson" "$CALL" >/dev/null
px_post "$PX_PROXY_URL/json?bytes=12" "$CALL" >/dev/null
px_stop_proxy INT
[[ $PX_RC == 130 ]] && ok "reports: SIGINT exit status 130" || not_ok "reports: exit 130" "status $PX_RC: $(one_line "$PX_PROXY_ERR")"
rows=$(grep -c '^\[2,' "$WORK/session.html" 2>/dev/null)
if [[ $rows == 3 ]] && grep -q '^</html>' "$WORK/session.html" && grep -q '^\[4,"proxy",{' "$WORK/session.html"; then
  ok "--report-html: complete after SIGINT, one row per proxied exchange (3), the session summary"
else not_ok "--report-html: complete, 3 rows" "rows: $rows; $(tail -c 200 "$WORK/session.html" 2>/dev/null)"; fi
if jq -e '[.resourceSpans[].scopeSpans[].spans[]] | length == 3 and (map(select(.status.code == 2)) | length == 1)' "$WORK/session.otlp.json" >/dev/null 2>&1; then
  ok "--report-otlp: one span per proxied exchange (3), the failure's status ERROR"
else not_ok "--report-otlp: 3 spans, 1 error" "$(head -c 200 "$WORK/session.otlp.json" 2>/dev/null)"; fi
# The browser harness of tests/report, when its tools are installed (ctest report.browser installs them).
REPORT_DIR=$(cd "$(dirname "$0")/../report" && pwd)
if [[ -x ${CHROMIUM:-/usr/bin/chromium} && -d $REPORT_DIR/node_modules/playwright-core ]]; then
  if node "$REPORT_DIR/browser.cjs" "$WORK/session.html" "$WORK/session.png" 3 1 >"$WORK/browser.out" 2>&1; then
    ok "--report-html: the browser check passes (3 marks, the failure marked, no console error)"
  else not_ok "--report-html: browser check" "$(grep '^not ok' "$WORK/browser.out" | head -3 | tr '\n' ' ')"; fi
else
  echo "# skipped the browser check of --report-html: no chromium or tests/report/node_modules"
fi

# A report file that cannot be created: said at once, the proxy goes on, exit 4 at the end (as offline).
px_start_proxy --upstream "$UP" --format jsonl -q --report-otlp "$WORK/no-such-dir/x.otlp.json"
px_post "$PX_PROXY_URL/json?bytes=10" "$CALL" >/dev/null
px_stop_proxy INT
if [[ $PX_RC == 4 ]] && grep -q 'OTLP report' "$PX_PROXY_ERR" && [[ $(grep -c '"kind":"exchange"' "$PX_PROXY_OUT") == 1 ]]; then
  ok "--report-otlp into a missing folder: said on stderr, the exchange still triaged, exit 4"
else not_ok "unwritable report: exit 4" "status $PX_RC: $(one_line "$PX_PROXY_ERR")"; fi

# --- standard output closed ----------------------------------------------------------------------------
# The proxy writes into a pipe that `head -n 1` closes after one line; the next record written
# after that meets EPIPE, and the proxy stops by itself.
mkfifo "$WORK/out.fifo"
"$BIN" proxy --listen 127.0.0.1:0 --upstream "$UP" --format jsonl --record "$WORK/h.har" >"$WORK/out.fifo" 2>"$WORK/head.err" &
head_proxy=$!
PX_PIDS+=("$head_proxy")
head -n 1 <"$WORK/out.fifo" >"$WORK/head.out" &
head_pid=$!
px_wait_for "$WORK/head.err" "listening on" || true
url=$(sed -n 's/^mcptriage proxy: listening on \(http:\/\/[0-9.:]*\),.*/\1/p' "$WORK/head.err")
i=0
while kill -0 "$head_proxy" 2>/dev/null && ((i < 50)); do
  i=$((i + 1))
  px_post "$url/json?bytes=$i" "{\"jsonrpc\":\"2.0\",\"id\":$i,\"method\":\"tools/call\",\"params\":{\"name\":\"t$i\"}}" >/dev/null
  sleep 0.1
done
wait "$head_pid" 2>/dev/null
for _ in $(seq 50); do kill -0 "$head_proxy" 2>/dev/null || break; sleep 0.1; done
if kill -0 "$head_proxy" 2>/dev/null; then
  not_ok "stdout closed: the proxy stops by itself" "still running after $i requests"
else
  wait "$head_proxy"; rc=$?
  ((rc == 0)) && ok "stdout closed: the proxy stops by itself, exit status 0 ($i requests)" \
    || not_ok "stdout closed: stops with 0" "status $rc: $(one_line "$WORK/head.err")"
fi
jq -e '.log.entries | length >= 2' "$WORK/h.har" >/dev/null 2>&1 && ok "stdout closed: the HAR is still completed" \
  || not_ok "stdout closed: HAR completed" "$(tail -c 200 "$WORK/h.har")"
px_check_schema "$WORK"/proxy-*.out
px_summary
