#!/usr/bin/env bash
# Usage: large.sh PATH_TO_MCPTRIAGE [plain|sanitized]
# Forwarding never waits for recording or triage (issue 30 item 8): while 8 requests of 15 MB
# are in flight and triaged (more than --record-memory 48M can keep), a small request on
# another connection is answered within 100 ms (one the proxy answers itself, an injected
# tool-error, so that the upstream's own queue is not measured) and a small forwarded one
# soon after; the records over the record memory are cut there and say so, every exchange is
# recorded, and the proxy's peak memory stays bounded. Bounded: about 20 s on a busy machine.
BIN=$1
PX_MODE=${2:-plain}
. "$(dirname "$0")/lib.sh"
px_setup
px_start_fault
UP=http://127.0.0.1:$FAULT_PORT/mcp
N=6
# A 12 MB tools/call: one string argument of 12,000,000 bytes.
node -e 'process.stdout.write(JSON.stringify({jsonrpc:"2.0",id:7,method:"tools/call",params:{name:"upload",arguments:{data:"x".repeat(12e6)}}}))' >"$WORK/big.json"
PING='{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"ping","arguments":{}}}'
px_start_proxy --upstream "$UP" --format jsonl -q --record "$WORK/r.jsonl" --inject 'tool-error@tool=ping' --record-memory 48M
pids=()
for ((i = 0; i < N; i++)); do
  curl -s -o /dev/null --max-time 60 -X POST "$PX_PROXY_URL/json?bytes=10" -H 'Content-Type: application/json' \
    --data-binary @"$WORK/big.json" &
  pids+=($!)
done
PX_PIDS+=("${pids[@]}")
# Measure while they are in flight and while their records wait for triage: a small request every
# 50 ms until every exchange is recorded (at most 30 s), the worst latency kept.
worst=0
n=0
fwd_ms=
hwm=0
deadline=$((SECONDS + 30))
while ((SECONDS < deadline)); do
  t=$(curl -s -o /dev/null -w '%{time_total}' --max-time 10 -X POST "$PX_PROXY_URL/mcp" -H 'Content-Type: application/json' \
    --data-binary "$PING")
  ms=$(awk -v t="$t" 'BEGIN { printf "%d", t * 1000 }')
  ((ms > worst)) && worst=$ms
  echo "$ms" >>"$WORK/lat"
  n=$((n + 1))
  if [[ -z $fwd_ms ]] && ((n == 10)); then
    fwd=$(curl -s -o /dev/null -w '%{time_total}' --max-time 10 -X POST "$PX_PROXY_URL/json?bytes=10" -H 'Content-Type: application/json' \
      --data-binary "${PING/ping/small}")
    fwd_ms=$(awk -v t="$fwd" 'BEGIN { printf "%d", t * 1000 }')
  fi
  h=$(awk '/VmHWM/ {print $2}' "/proc/$PX_PROXY_PID/status")
  ((h > hwm)) && hwm=$h
  (($(wc -l <"$WORK/r.jsonl") >= N + n + 1)) && break
  sleep 0.05
done
wait "${pids[@]}"
median=$(sort -n "$WORK/lat" | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
scale=1
[[ $PX_MODE == sanitized ]] && scale=3
((median < 100 * scale && worst < 1000 * scale)) \
  && ok "small requests answered by the proxy while $N x 12 MB are in flight and triaged: median of $n $median ms, worst $worst ms (bounds $((100 * scale)) and $((1000 * scale)) ms)" \
  || not_ok "small requests are not held behind large ones" "median of $n: $median ms, worst $worst ms"
((${fwd_ms:-99999} < 1000)) && ok "a small forwarded request meanwhile: $fwd_ms ms (the upstream parses the large ones too)" \
  || not_ok "a small forwarded request is not held behind large ones" "${fwd_ms:-none} ms"
total=$((N + n + 1))
for ((i = 0; i < 100; i++)); do [[ $(wc -l <"$WORK/r.jsonl") -ge $total ]] && break; sleep 0.2; done
px_stop_proxy TERM
[[ $(wc -l <"$WORK/r.jsonl") == "$total" ]] && ok "every exchange is recorded ($total lines)" || not_ok "every exchange recorded" "$(wc -l <"$WORK/r.jsonl") lines"
check "the records of the large requests: each judged, the ones past --record-memory cut there with a warning" \
  "[.[] | select(.kind == \"exchange\" and .proxy.injected == null)] | length == $((N + 1))
   and any(.warnings | any(contains(\"record memory\") and contains(\"was full\")))" "$PX_PROXY_OUT"
check "the small exchanges keep whole records meanwhile: every one judged (the injected TOOL_ERRORs, the forwarded TOOL_SUCCESS)" \
  "([.[] | select(.kind == \"exchange\" and .tool == \"ping\" and .outcome == \"TOOL_ERROR\")] | length == $n)
   and ([.[] | select(.kind == \"exchange\" and .tool == \"small\" and .outcome == \"TOOL_SUCCESS\")] | length == 1)" "$PX_PROXY_OUT"
bound=500
if [[ $PX_MODE == sanitized ]]; then ok "peak RSS $((hwm / 1024)) MiB, not held to a bound under the sanitizers"
elif ((hwm < bound * 1024)); then ok "the proxy's peak RSS was $((hwm / 1024)) MiB (bound $bound MiB: the requests in flight, 72 MB, the record memory, 48 MiB, and the triage of one)"
else not_ok "peak RSS bounded" "$((hwm / 1024)) MiB"; fi
px_summary
