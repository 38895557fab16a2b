#!/usr/bin/env bash
# Usage: load.sh PATH_TO_MCPTRIAGE [plain|sanitized] [STREAMS] [EVENTS]
# Load, bounded in time: 200 concurrent event streams (50 events each, one every 10 ms) through
# the proxy to the scripted upstream; every event reaches its client in order with its result,
# every exchange is recorded and triaged (TOOL_SUCCESS with all its events), and the proxy's
# memory stays bounded. Not a benchmark (bench/proxy/run measures latency and throughput).
BIN=$1
PX_MODE=${2:-plain}
STREAMS=${3:-200}
EVENTS=${4:-50}
. "$(dirname "$0")/lib.sh"
px_setup
px_start_fault
REC=$WORK/load.jsonl
px_start_proxy --upstream "http://127.0.0.1:$FAULT_PORT/mcp" --record "$REC" --format jsonl -q
start=$SECONDS
timeout 120 node "$PX_CLIENTS/load_client.mjs" "$PX_PROXY_URL/" "$STREAMS" "$EVENTS" --interval 10 >"$WORK/load-client.json" 2>&1
took=$((SECONDS - start))
hwm=$(awk '/VmHWM/ {print $2}' "/proc/$PX_PROXY_PID/status")
sleep 0.5
px_stop_proxy TERM
if jq -e --argjson s "$STREAMS" --argjson e "$EVENTS" '.complete == $s and .events == $s * $e and .out_of_order == 0 and .errors == []' \
     "$WORK/load-client.json" >/dev/null 2>&1
then ok "load: $STREAMS concurrent streams, all $((STREAMS * EVENTS)) events delivered in order with their results (${took} s)"
else not_ok "load: every event delivered in order" "$(one_line "$WORK/load-client.json")"; fi
[[ $(wc -l <"$REC") == "$STREAMS" ]] && ok "load: every exchange recorded ($STREAMS lines)" || not_ok "load: every exchange recorded" "$(wc -l <"$REC") lines"
check "load: every exchange triaged live as TOOL_SUCCESS with its $EVENTS events" \
  "[.[] | select(.kind == \"exchange\")] | length == $STREAMS and all(.outcome == \"TOOL_SUCCESS\" and .stream.events == $((EVENTS + 1)))" "$PX_PROXY_OUT"
bound=100
if [[ $PX_MODE == sanitized ]]; then
  ok "load: peak RSS $((hwm / 1024)) MiB, not held to a bound under the sanitizers (ASan keeps freed memory in quarantine)"
elif ((hwm < bound * 1024)); then ok "load: the proxy's peak RSS was $((hwm / 1024)) MiB (bound $bound MiB)"
else not_ok "load: peak RSS bounded" "$((hwm / 1024)) MiB"; fi
px_summary
