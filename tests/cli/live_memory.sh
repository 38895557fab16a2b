#!/usr/bin/env bash
# Memory stays flat on endless streams (docs/output.md "Memory on endless streams"): an event
# stream generated on the fly (tests/cli/sse_gen.py, never stored) is piped through mcptriage,
# whose peak RSS must stay under the documented bound (40 MiB) although the stream is far larger;
# past the first 1 MiB the live reader judges events as they come and keeps none of them, and
# its records must still equal the offline records of the same bytes (but `timing`): streams
# with what a whole-stream parse carries from event to event (retry, ids, an id reset, a BOM,
# events of other types, text that is not JSON, a tail cut inside an event), a tools/list result
# (the session facts read its deciding event), an idle timeout on a summarised stream.
# LIVE_MEMORY_EVENTS (default 1000000) sets the size of the big stream (docs: a 10-million run).
# Usage: live_memory.sh MCPTRIAGE_BINARY [plain|sanitized]   (exit 77: jq, python3 or /usr/bin/time missing)
# sanitized (the ASan build): peak RSS is reported, not bounded (ASan's quarantine keeps freed
# memory, about 0.5 GB here), as in tests/hostile; every other check holds.
set -u
bin=$1
mode=${2:-plain}
here=$(cd "$(dirname "$0")" && pwd)
source "$here/lib.sh"
need_tools jq python3 /usr/bin/time
gen=$here/sse_gen.py
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
jqe() { jq -e "$@" >/dev/null; }
events=${LIVE_MEMORY_EVENTS:-1000000}
bound_kib=$((40 * 1024))

# --- 1. a big stream: peak RSS under the bound, the verdict from every event ----------------
python3 "$gen" "$events" | tee >(wc -c > "$tmp/bytes") |
  /usr/bin/time -f '%M' -o "$tmp/rss" "$bin" --format jsonl -q > "$tmp/big.jsonl"
rss=$(tail -n 1 "$tmp/rss")
sleep 0.2  # the byte count's subshell
echo "# $events events, $(cat "$tmp/bytes") bytes: peak RSS $rss KiB (bound $bound_kib KiB)"
check "the stream is far larger than the bound" test "$(cat "$tmp/bytes")" -gt $((bound_kib * 1024 * 2))
if [ "$mode" = sanitized ]; then
  echo "# sanitized build: peak RSS reported, not bounded (ASan quarantine)"
else
  check "peak RSS under the documented bound" test "$rss" -lt "$bound_kib"
fi
check "TOOL_SUCCESS, every event counted" \
  jqe --argjson n "$events" '.outcome == "TOOL_SUCCESS" and .stream.events == $n + 1' "$tmp/big.jsonl"
check "the notifications counted in a warning" \
  jqe --argjson n "$events" '.warnings | index("\($n) notification(s) before the response") != null' "$tmp/big.jsonl"

# --- 1b. an endless input with no line end, by name (a named pipe) and on standard input: it
# costs --max-input, not twice that (the head's search for a line end grew one string by doubling:
# 1,065 MB under the 512 MB default; new-user trial)
for how in named stdin; do
  if [ "$how" = named ]; then
    /usr/bin/time -f '%M' -o "$tmp/rss-$how" "$bin" --format jsonl -q --max-input 64M <(head -c 200000000 /dev/zero) \
      > /dev/null 2> "$tmp/err-$how"
  else
    head -c 200000000 /dev/zero | /usr/bin/time -f '%M' -o "$tmp/rss-$how" "$bin" --format jsonl -q --max-input 64M \
      > /dev/null 2> "$tmp/err-$how"
  fi
  rss=$(tail -n 1 "$tmp/rss-$how")
  echo "# 200 MB of zero bytes ($how), --max-input 64M: peak RSS $rss KiB"
  check "zero bytes ($how): too large for --max-input" grep -q 'larger than --max-input' "$tmp/err-$how"
  if [ "$mode" != sanitized ]; then
    check "zero bytes ($how): peak RSS under 1.5 x --max-input" test "$rss" -lt $((96 * 1024))
  fi
done

# --- 2. summarised streams give the offline records of the same bytes ------------------------
same() {  # NAME GENERATOR-ARGS...
  local name=$1
  shift
  python3 "$gen" "$@" > "$tmp/whole.txt"
  python3 "$gen" "$@" | "$bin" --format jsonl -q | jq -c 'del(.timing)' > "$tmp/live.jsonl"
  "$bin" --format jsonl -q < "$tmp/whole.txt" | jq -c . > "$tmp/offline.jsonl"
  check "$name: stream past 1 MiB" test "$(wc -c < "$tmp/whole.txt")" -gt $((1 << 20))
  check "$name: live record = offline record" cmp -s "$tmp/live.jsonl" "$tmp/offline.jsonl"
}
same "mixed events, final response" 12000 --mixed
same "mixed events, no final response, a tail cut inside an event" 12000 --mixed --no-final
same "progress, no final response (resumable)" 12000 --no-final
jqe '.reason == "no_final_response" and .stream.resumable == true' "$tmp/live.jsonl"
check "progress, no final response: resumable no_final_response" test $? = 0
same "a tools/list result" 12000 --method tools/list
check "tools/list: RPC_SUCCESS" jqe '.outcome == "RPC_SUCCESS"' "$tmp/live.jsonl"

# --- 3. a summarised stream cut by --idle-timeout -------------------------------------------
{ python3 "$gen" 12000 --no-final; sleep 5; } | timeout 10 "$bin" --format jsonl -q --idle-timeout 1s > "$tmp/idle.jsonl"
check "idle timeout on a summarised stream: idle_timeout with every event, resumable" \
  jqe '.reason == "idle_timeout" and .stream.events == 12000 and .stream.resumable == true' "$tmp/idle.jsonl"
finish
