#!/usr/bin/env bash
# A JSON Lines log larger than a block is read block by block (docs/performance.md "How inputs
# of any size are read"): the sources a record cites from the session analysis are the log's own
# numbering, as in one whole read, with any --jobs and on standard input. Regression: a replay's
# `decided_by` cited a tools/list by its number within its block ("log.jsonl#46" for #701).
# Usage: log_blocks.sh MCPTRIAGE_BINARY
set -u
bin=$1
here=$(cd "$(dirname "$0")" && pwd)
source "$here/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# FILLER successes, then a tools/list (read-only tool "lookup"), a failed call and its replay.
make_log() {
  local filler=$1 out=$2 pad i n
  pad=$(printf 'x%.0s' $(seq 900))
  : > "$out"
  for ((i = 1; i <= filler; i++)); do
    printf '{"status":200,"headers":{"content-type":"application/json"},"body":"{\\"jsonrpc\\":\\"2.0\\",\\"id\\":%d,\\"result\\":{\\"content\\":[{\\"type\\":\\"text\\",\\"text\\":\\"%s\\"}]}}","request":{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"filler","arguments":{"k":%d}}}}\n' "$i" "$pad" "$i" "$i" >> "$out"
  done
  n=$((filler + 1))
  printf '{"status":200,"headers":{"content-type":"application/json"},"body":"{\\"jsonrpc\\":\\"2.0\\",\\"id\\":%d,\\"result\\":{\\"tools\\":[{\\"name\\":\\"lookup\\",\\"inputSchema\\":{\\"type\\":\\"object\\"},\\"annotations\\":{\\"readOnlyHint\\":true}}]}}","request":{"jsonrpc":"2.0","id":%d,"method":"tools/list","params":{}}}\n' "$n" "$n" >> "$out"
  n=$((n + 1))
  printf '{"status":503,"headers":{"content-type":"text/html"},"body":"<h1>busy</h1>","request":{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"lookup","arguments":{"q":"a"}}}}\n' "$n" >> "$out"
  n=$((n + 1))
  printf '{"status":200,"headers":{"content-type":"application/json"},"body":"{\\"jsonrpc\\":\\"2.0\\",\\"id\\":%d,\\"result\\":{\\"content\\":[{\\"type\\":\\"text\\",\\"text\\":\\"found\\"}]}}","request":{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"lookup","arguments":{"q":"a"}}}}\n' "$n" "$n" >> "$out"
}

# decided_by of the last record's replay, as `decided_by` text.
decided_by() { grep -o '"decided_by":"[^"]*"' | tail -n 1; }

make_log 3 "$tmp/small.jsonl"
check "a small log (one whole read) cites the tools/list as #4" \
  test "$("$bin" --format jsonl -q "$tmp/small.jsonl" | decided_by)" = '"decided_by":"readOnlyHint: true ('"$tmp"'/small.jsonl#4)"'

make_log 700 "$tmp/log.jsonl"
check "the log is larger than the largest block (512 KiB)" test "$(wc -c < "$tmp/log.jsonl")" -gt 600000
expected='"decided_by":"readOnlyHint: true ('"$tmp"'/log.jsonl#701)"'
for jobs in 1 2 3; do
  "$bin" --format jsonl -q --jobs "$jobs" "$tmp/log.jsonl" > "$tmp/out$jobs.jsonl"
  check "--jobs $jobs: the replay cites the tools/list as #701" test "$(decided_by < "$tmp/out$jobs.jsonl")" = "$expected"
done
check "#701 is the tools/list" bash -c "grep -q '\"source\":\"$tmp/log.jsonl#701\".*\"method\":\"tools/list\"' '$tmp/out1.jsonl'"
check "--jobs 2 output is byte-identical to --jobs 1" cmp -s "$tmp/out1.jsonl" "$tmp/out2.jsonl"
check "standard input: the replay cites stdin#701" \
  test "$("$bin" --format jsonl -q --jobs 1 < "$tmp/log.jsonl" | decided_by)" = '"decided_by":"readOnlyHint: true (stdin#701)"'
# A first line longer than a block (700 KB) by name, through a named pipe and on standard input:
# the head is read to its line end in blocks and the log still read as a log, the same records.
big=$(head -c 700000 /dev/zero | tr '\0' 'y')
{ printf '{"status":200,"headers":{"content-type":"application/json"},"body":"{\\"jsonrpc\\":\\"2.0\\",\\"id\\":1,\\"result\\":{\\"content\\":[{\\"type\\":\\"text\\",\\"text\\":\\"%s\\"}]}}","request":{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"big","arguments":{}}}}\n' "$big"
  tail -n +2 "$tmp/small.jsonl"; } > "$tmp/bigfirst.jsonl"
outcomes() { jq -r 'select(.kind == "exchange") | "\(.format) \(.outcome)"'; }
"$bin" --format jsonl -q --jobs 1 "$tmp/bigfirst.jsonl" | outcomes > "$tmp/bf-file"
"$bin" --format jsonl -q --jobs 1 <(cat "$tmp/bigfirst.jsonl") | outcomes > "$tmp/bf-pipe"
"$bin" --format jsonl -q --jobs 1 < <(cat "$tmp/bigfirst.jsonl") | outcomes > "$tmp/bf-stdin"
check "a 700 KB first line: read as a log (exchange-log records, the first TOOL_SUCCESS)" \
  bash -c '[ "$(head -n 1 "$0")" = "exchange-log TOOL_SUCCESS" ] && [ "$(wc -l < "$0")" = "$(( $(wc -l < "$1") ))" ]' "$tmp/bf-file" "$tmp/small.jsonl"
check "... the same records through a named pipe" cmp -s "$tmp/bf-file" "$tmp/bf-pipe"
check "... and on standard input" cmp -s "$tmp/bf-file" "$tmp/bf-stdin"
check "the table cites #701 too" bash -c "'$bin' --format table -q --jobs 1 '$tmp/log.jsonl' | grep -q 'readOnlyHint: true ($tmp/log.jsonl#701)'"
finish
