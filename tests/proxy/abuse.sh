#!/usr/bin/env bash
# Usage: abuse.sh PATH_TO_MCPTRIAGE [plain|sanitized]
# The proxy's promises under abuse (issue 30), each bounded to a few seconds, 127.0.0.1 only:
# a client holding 600 idle connections (more than --max-connections 512) cannot lock other
# clients out; idle connections and half-sent headers are closed after --idle-timeout and
# --header-timeout (a half header answered 408 and recorded); CONNECT and Upgrade are refused
# with 501 and recorded (an h2c offer is ignored, RFC 9110 §7.8).
BIN=$1
PX_MODE=${2:-plain}
. "$(dirname "$0")/lib.sh"
px_setup
px_start_fault
UP=http://127.0.0.1:$FAULT_PORT/mcp
CALL='{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{}}}'
HOLD=$PX_CLIENTS/hold_client.mjs

# --- 600 idle connections, default limits -------------------------------------------------------
px_start_proxy --upstream "$UP" --format jsonl -q
port=${PX_PROXY_URL##*:}
node "$HOLD" "$port" 600 idle 8 >"$WORK/hold.out" 2>&1 &
hold_pid=$!
PX_PIDS+=("$hold_pid")
px_wait_for "$WORK/hold.out" '"connected":600' || not_ok "600 idle connections made" "$(one_line "$WORK/hold.out")"
sleep 0.5
t0=$(date +%s%N)
code=$(px_post "$PX_PROXY_URL/json?bytes=10" "$CALL" --max-time 3)
ms=$((($(date +%s%N) - t0) / 1000000))
[[ $code == 200 ]] && ((ms < 2000)) \
  && ok "600 idle connections (over --max-connections 512) do not lock another client out: answered 200 in $ms ms" \
  || not_ok "600 idle connections do not lock another client out" "status $code after $ms ms"
kill "$hold_pid" 2>/dev/null; wait "$hold_pid" 2>/dev/null
px_stop_proxy TERM

# --- idle and header timeouts ---------------------------------------------------------------------
px_start_proxy --upstream "$UP" --format jsonl --idle-timeout 1s --header-timeout 1s --record "$WORK/t.jsonl"
port=${PX_PROXY_URL##*:}
node "$HOLD" "$port" 20 idle 6 >"$WORK/idle.out" 2>&1 &
idle_pid=$!
node "$HOLD" "$port" 3 half 6 >"$WORK/half.out" 2>&1 &
half_pid=$!
PX_PIDS+=("$idle_pid" "$half_pid")
wait "$idle_pid" "$half_pid"
jq -e '.connected == 20 and .closed_by_peer == 20 and .after_ms < 3000' <(tail -1 "$WORK/idle.out") >/dev/null 2>&1 \
  && ok "--idle-timeout 1s: 20 idle connections closed by the proxy ($(jq -r .after_ms <(tail -1 "$WORK/idle.out")) ms)" \
  || not_ok "--idle-timeout closes idle connections" "$(one_line "$WORK/idle.out")"
jq -e '.connected == 3 and .closed_by_peer == 3 and .after_ms < 3000' <(tail -1 "$WORK/half.out") >/dev/null 2>&1 \
  && ok "--header-timeout 1s: 3 half-sent headers closed by the proxy ($(jq -r .after_ms <(tail -1 "$WORK/half.out")) ms)" \
  || not_ok "--header-timeout closes half-sent headers" "$(one_line "$WORK/half.out")"
# A kept-alive connection works within the idle timeout, and a request after a pause still gets through.
code=$(px_post "$PX_PROXY_URL/json?bytes=10" "$CALL")
[[ $code == 200 ]] && ok "a request still gets through after the timeouts closed the others" || not_ok "request after timeouts" "status $code"
px_stop_proxy TERM
check "a half-sent header is recorded as a 408 made by the proxy, naming --header-timeout" \
  '[.[] | select(.kind == "exchange" and .http.status == 408)] | length == 3 and all(.warnings | any(contains("--header-timeout")))' "$PX_PROXY_OUT"
[[ $(grep -c '"status":408' "$WORK/t.jsonl") == 3 ]] && ok "the 408s are in the recording" || not_ok "408s recorded" "$(grep -c '"status":408' "$WORK/t.jsonl")"

# --- CONNECT and Upgrade ---------------------------------------------------------------------------
# raw REQUEST_TEXT: sends it as it is on one connection to the proxy; prints the status line's code.
raw() {
  local port=${PX_PROXY_URL##*:} line
  exec 3<>"/dev/tcp/127.0.0.1/$port" || return 1
  printf '%b' "$1" >&3
  IFS= read -r -t 5 line <&3
  exec 3<&- 3>&-
  line=${line%$'\r'}
  echo "${line#HTTP/1.1 }" | cut -d' ' -f1
}
px_start_proxy --upstream "$UP" --format jsonl --record "$WORK/u.jsonl"
code=$(raw 'CONNECT 127.0.0.1:9 HTTP/1.1\r\nHost: 127.0.0.1:9\r\n\r\n')
[[ $code == 501 ]] && ok "CONNECT is refused with 501" || not_ok "CONNECT refused with 501" "got '$code'"
code=$(raw 'GET /mcp HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n')
[[ $code == 501 ]] && ok "Upgrade: websocket is refused with 501" || not_ok "Upgrade refused with 501" "got '$code'"
curl -s -o "$WORK/h2c.json" --max-time 5 --http2 -X POST "$PX_PROXY_URL/headers" -H 'Content-Type: application/json' --data-binary "$CALL"
jq -e '.result.content[0].text | test("upgrade|http2-settings"; "i") | not' "$WORK/h2c.json" >/dev/null 2>&1 \
  && ok "Upgrade: h2c (curl --http2) is ignored: forwarded as HTTP/1.1 without Upgrade and HTTP2-Settings" \
  || not_ok "h2c offer ignored" "$(one_line "$WORK/h2c.json")"
px_stop_proxy TERM
check "CONNECT is recorded as a 501 made by the proxy, saying why, with a well-formed URL" \
  'any(.kind == "exchange" and .http.status == 501 and .proxy.made_by == "proxy" and (.warnings | any(contains("CONNECT 127.0.0.1:9 asks for a tunnel"))))' "$PX_PROXY_OUT"
# A GET that is no stream resumption is a skipped entry (no JSON-RPC exchange); its recording says why.
jq -e -s 'any(.response.status == 501 and .proxy.made_by == "proxy" and (.proxy.warnings | any(contains("Upgrade: websocket"))))' "$WORK/u.jsonl" >/dev/null \
  && ok "the refused Upgrade is recorded, saying why (a skipped entry live: a GET is no JSON-RPC exchange)" \
  || not_ok "the refused Upgrade recorded" "$(one_line "$WORK/u.jsonl" 600)"
jq -e -s '[.[] | .request.url] | all(test("^http://127\\.0\\.0\\.1:[0-9]+/"))' "$WORK/u.jsonl" >/dev/null \
  && ok "every recorded request.url is a well-formed URL" || not_ok "well-formed URLs" "$(jq -c -s '[.[] | .request.url]' "$WORK/u.jsonl")"
check "the ignored h2c offer is said in its record" \
  'any(.kind == "exchange" and .outcome == "TOOL_SUCCESS" and (.warnings | any(contains("Upgrade: h2c"))))' "$PX_PROXY_OUT"

# --- bad values --------------------------------------------------------------------------------------
"$BIN" proxy --upstream "$UP" --idle-timeout soon >/dev/null 2>"$WORK/bad.err"; rc=$?
((rc == 2)) && grep -q -- '--idle-timeout' "$WORK/bad.err" && ok "--idle-timeout soon: usage error" || not_ok "--idle-timeout soon" "exit $rc: $(one_line "$WORK/bad.err")"
"$BIN" proxy --upstream "$UP" --header-timeout 0 >/dev/null 2>"$WORK/bad.err"; rc=$?
((rc == 2)) && grep -q -- '--header-timeout' "$WORK/bad.err" && ok "--header-timeout 0: usage error" || not_ok "--header-timeout 0" "exit $rc: $(one_line "$WORK/bad.err")"
px_summary
