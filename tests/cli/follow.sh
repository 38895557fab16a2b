#!/usr/bin/env bash
# --follow (issue 16): a JSON Lines exchange log followed as it grows, like tail -F. A writer
# appends lines one by one with small delays, rotates the log (mv + recreate, the old file still
# written after the mv), truncates it (: > log) and appends more, while mcptriage --follow runs;
# SIGINT stops it. Asserted: a record is out while the log is still open; a request is paired with
# its reply across the rotation; the records equal those of one read of everything written (no
# record lost or written twice); the summary line and exit 130. --fail-on under --follow: exit 1
# when a listed outcome was seen (over the signal's 143), the signal's status when not;
# --idle-timeout ends a follow by itself. Usage errors for what cannot be followed.
# Every wait is for a condition with a deadline (WAIT_S), so a loaded machine slows it, no more.
# Usage: follow.sh MCPTRIAGE_BINARY   (exit 77: jq is not installed)
set -u
bin=$1
here=$(cd "$(dirname "$0")" && pwd)
source "$here/lib.sh"
need_tools jq
tmp=$(mktemp -d)
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done; rm -rf "$tmp"' EXIT
WAIT_S=10

# `wait_for CMD...`: true once CMD is, false after WAIT_S seconds.
wait_for() {
  local deadline=$((SECONDS + WAIT_S))
  until "$@"; do
    [ "$SECONDS" -ge "$deadline" ] && return 1
    sleep 0.05
  done
}
# `has_record FILE N`: FILE holds the record of exchange #N of the followed log.
has_record() { grep -q "\"source\":\"$log#$2\"" "$1"; }
running() { kill -0 "$1" 2>/dev/null; }
# `outcome_is FILE N OUTCOME`: the record of exchange #N in FILE, exactly one, has OUTCOME.
outcome_is() {
  jq -se --arg s "$log#$2" --arg o "$3" 'map(select(.source == $s)) | length == 1 and .[0].outcome == $o' "$1" >/dev/null
}
# `stop PID SIG`: sends SIG and waits (at most WAIT_S) for the exit; its status in `rc`.
stop() {
  kill -"$2" "$1"
  local deadline=$((SECONDS + WAIT_S))
  while running "$1" && [ "$SECONDS" -lt "$deadline" ]; do sleep 0.05; done
  running "$1" && kill -KILL "$1"
  wait "$1"
  rc=$?
}

# Log lines: one exchange a line (a tool call that worked, a 503, a JSON-RPC error), and a
# request and its reply on lines of their own (paired by id: its record waits for the reply).
ok() {
  printf '{"status":200,"headers":{"content-type":"application/json"},"body":"{\\"jsonrpc\\":\\"2.0\\",\\"id\\":%d,\\"result\\":{\\"content\\":[{\\"type\\":\\"text\\",\\"text\\":\\"ok\\"}]}}","request":{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"echo","arguments":{}}}}\n' "$1" "$1"
}
busy() {
  printf '{"status":503,"headers":{"content-type":"text/html"},"body":"<h1>busy</h1>","request":{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"echo","arguments":{}}}}\n' "$1"
}
rpc_error() {
  printf '{"status":200,"headers":{"content-type":"application/json"},"body":"{\\"jsonrpc\\":\\"2.0\\",\\"id\\":%d,\\"error\\":{\\"code\\":-32602,\\"message\\":\\"bad params\\"}}","request":{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"echo","arguments":{}}}}\n' "$1" "$1"
}
ask() {
  printf '{"dir":"c2s","http":{"method":"POST","path":"/mcp"},"message":{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"slow","arguments":{}}}}\n' "$1"
}
answer() {
  printf '{"dir":"s2c","http":{"status":200,"content_type":"application/json"},"message":{"jsonrpc":"2.0","id":%d,"result":{"content":[{"type":"text","text":"late"}]}}}\n' "$1"
}
# `put FILE LINE`: LINE appended to FILE and to everything written ($all), after a short delay.
all=$tmp/all.jsonl
put() {
  sleep 0.1
  printf '%s' "$2" >> "$1"
  printf '%s' "$2" >> "$all"
}

# --- 1. append, rotate, truncate; SIGINT ---------------------------------------------------
# One job (everything on one thread) and three (blocks handed between threads).
for jobs in 1 3; do
  log=$tmp/log.jsonl
  : > "$all"
  put "$log" "$(ok 1)"$'\n'
  put "$log" "$(busy 2)"$'\n'
  "$bin" --follow --jobs "$jobs" --format jsonl "$log" > "$tmp/out" 2> "$tmp/err" &
  pid=$!
  pids+=("$pid")
  check "--jobs $jobs: a record is out while the log is still open (the first, once a second entry shows a session)" \
    wait_for has_record "$tmp/out" 1
  check "--jobs $jobs: ... and mcptriage still follows" running "$pid"
  put "$log" "$(ask 3)"$'\n'       # exchange #3: waits for its reply
  put "$log" "$(ok 4)"$'\n'        # #4
  check "--jobs $jobs: a record is out as it is written (#2)" wait_for has_record "$tmp/out" 2
  check "--jobs $jobs: a request's record waits for its reply (#3 not out, nor #4 after it)" \
    bash -c "sleep 0.5; ! grep -q '\"source\":\"$log#3\"' '$tmp/out' && ! grep -q '\"source\":\"$log#4\"' '$tmp/out'"
  put "$log" "$(answer 3)"$'\n'
  check "--jobs $jobs: the reply comes: #3 and #4 are out" wait_for has_record "$tmp/out" 4
  check "--jobs $jobs: #3 is the request paired with its reply (TOOL_SUCCESS)" \
    outcome_is "$tmp/out" 3 TOOL_SUCCESS
  # Rotation: a request before it, its reply in the new file; the writer still writes to the old
  # file after the mv (the follower reads it to its end before it opens the new one).
  put "$log" "$(ask 5)"$'\n'       # #5, answered in the new file
  mv "$log" "$log.1"
  put "$log.1" "$(ok 6)"$'\n'      # #6, written to the old file after the mv
  put "$log" "$(ok 7)"$'\n'        # the new file: #7
  put "$log" "$(answer 5)"$'\n'
  put "$log" "$(rpc_error 8)"$'\n' # #8
  check "--jobs $jobs: after the rotation: the records up to #8 are out" wait_for has_record "$tmp/out" 8
  check "--jobs $jobs: #5 is paired with its reply from the new file" \
    outcome_is "$tmp/out" 5 TOOL_SUCCESS
  check "--jobs $jobs: #6, written to the old file after the mv, is read" has_record "$tmp/out" 6
  # Truncation: a line shorter than the file was, then more.
  : > "$log"
  put "$log" "$(ok 9)"$'\n'        # #9
  check "--jobs $jobs: after the truncation: #9 is out" wait_for has_record "$tmp/out" 9
  put "$log" "$(busy 10)"$'\n'     # #10
  put "$log" "$(ok 11)"$'\n'       # #11
  put "$log" "$(ask 12)"$'\n'      # #12: never answered (the end gives it up, as one read's end does)
  check "--jobs $jobs: #11 is out" wait_for has_record "$tmp/out" 11
  stop "$pid" INT
  check "--jobs $jobs: SIGINT: exit 130" test "$rc" = 130
  check "--jobs $jobs: the summary line is on stderr" grep -Eq '^mcptriage: [0-9]+ exchange' "$tmp/err"
  check "--jobs $jobs: the exchange left waiting is out, given up (NOT_CAPTURED)" \
    outcome_is "$tmp/out" 12 NOT_CAPTURED
  # One read of everything written, under the same name (the records cite it).
  mv "$log" "$log.followed"
  cp "$all" "$log"
  "$bin" --format jsonl -q --jobs "$jobs" "$log" > "$tmp/once"
  check "--jobs $jobs: one read gives 12 exchange records and a session summary" \
    test "$(jq -c '.kind' "$tmp/once" | sort | uniq -c | tr -s ' ')" = "$(printf ' 12 "exchange"\n 1 "session_summary"')"
  check "--jobs $jobs: the followed records are those of one read of everything written (none lost, none twice)" \
    cmp -s <(jq -c 'del(.timing)' "$tmp/out") <(jq -c 'del(.timing)' "$tmp/once")
  check "--jobs $jobs: ... byte for byte (a followed log's records have no timing member)" cmp -s "$tmp/out" "$tmp/once"
  check "--jobs $jobs: no record is written twice" test "$(jq -r 'select(.kind == "exchange") | .source' "$tmp/out" | sort | uniq -d | wc -l)" = 0
  rm -f "$log" "$log.1" "$log.followed"
done

# --- 2. --fail-on under --follow: the exit status says whether such an outcome was seen -------
log=$tmp/fail.jsonl
ok 1 > "$log"
ok 2 >> "$log"
"$bin" --follow --fail-on HTTP_ERROR,STREAM_INCOMPLETE --format jsonl "$log" > "$tmp/out2" 2> "$tmp/err2" &
pid=$!
pids+=("$pid")
check "--fail-on: the records are out while it follows" wait_for has_record "$tmp/out2" 1
busy 3 >> "$log"
ok 4 >> "$log"
check "--fail-on: the 503's record is out" wait_for has_record "$tmp/out2" 3
check "--fail-on: the broken expectation is named on stderr as it comes" \
  wait_for grep -q "expectation broken: .*fail.jsonl#3" "$tmp/err2"
stop "$pid" TERM
check "--fail-on: an HTTP_ERROR was seen: exit 1 over SIGTERM's 143" test "$rc" = 1
check "--fail-on: the summary line is written" grep -Eq '^mcptriage: [0-9]+ exchange' "$tmp/err2"

ok 1 > "$log"
ok 2 >> "$log"
"$bin" --follow --fail-on HTTP_ERROR,STREAM_INCOMPLETE --format jsonl "$log" > "$tmp/out3" 2> "$tmp/err3" &
pid=$!
pids+=("$pid")
check "--fail-on, nothing listed seen: the record is out" wait_for has_record "$tmp/out3" 1
stop "$pid" TERM
check "--fail-on, nothing listed seen: SIGTERM's exit 143" test "$rc" = 143

# --idle-timeout: the follow ends by itself when the log did not grow for the duration.
SECONDS=0
timeout 20 "$bin" --follow --idle-timeout 1s --fail-on HTTP_ERROR --format jsonl "$log" > "$tmp/out4" 2> "$tmp/err4"
rc=$?
check "--idle-timeout 1s: ends by itself, exit 0 (nothing listed seen)" test "$rc" = 0
check "--idle-timeout 1s: within 5 s" test "$SECONDS" -le 5
check "--idle-timeout 1s: the records and the session summary" \
  test "$(jq -s 'length' "$tmp/out4")" = 3

# --- 3. what cannot be followed ------------------------------------------------------------
"$bin" --follow "$log" "$log" > /dev/null 2> "$tmp/e1"
check "two inputs: usage error (exit 2)" test $? = 2
check "... which says why" grep -q 'follows one log' "$tmp/e1"
"$bin" --follow - < "$log" > /dev/null 2> "$tmp/e2"
check "standard input: usage error (exit 2)" test $? = 2
"$bin" --follow "$tmp" > /dev/null 2> "$tmp/e3"
check "a folder: usage error (exit 2)" test $? = 2
printf 'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n{}' > "$tmp/capture.txt"
timeout 20 "$bin" --follow "$tmp/capture.txt" > /dev/null 2> "$tmp/e4"
check "a file that is no log: an input error (exit 3) at once" test $? = 3
check "... which says --follow reads logs" grep -q 'not a JSON Lines log' "$tmp/e4"
# A log not there yet is awaited, as tail -F does: a note says so, its lines are read once it appears.
"$bin" --follow --format jsonl "$tmp/later.jsonl" > "$tmp/out5" 2> "$tmp/e5" &
pid=$!
check "a missing file: awaited, a note says so" wait_for grep -q 'later.jsonl does not exist yet: waiting for it to appear' "$tmp/e5"
check "... still running" running "$pid"
{ ok 1; ok 2; } > "$tmp/later.jsonl"
check "... its first record once it appears (a second entry shows a session)" wait_for grep -q '"source":"[^"]*later.jsonl#1"' "$tmp/out5"
stop "$pid" INT
check "... SIGINT then: exit 130, no input error" test "$rc" = 130
check "... both records" test "$(grep -c '"kind":"exchange"' "$tmp/out5")" = 2
# One that never appears: an input error when the follow ends (exit 3, over the signal's 130).
SECONDS=0
timeout 20 "$bin" --follow --idle-timeout 1s "$tmp/never.jsonl" > "$tmp/out6" 2> "$tmp/e6"
check "a file that never appears, --idle-timeout 1s: an input error (exit 3)" test $? = 3
check "... within 5 s" test "$SECONDS" -le 5
check "... which says it did not appear" grep -q 'never.jsonl: no such file: it did not appear' "$tmp/e6"
"$bin" --follow "$tmp/never.jsonl" > /dev/null 2> "$tmp/e7" &
pid=$!
sleep 0.3
stop "$pid" INT
check "a file that never appears, SIGINT: exit 3" test "$rc" = 3
finish
