#!/usr/bin/env bash
# The recipe of docs/performance.md "Beyond one machine": a JSON Lines log split across processes
# with GNU parallel --pipepart gives the records of one run, ordering aside. Each part is its own
# input (stdin), so `source` numbering restarts per part and the session analysis (the `session`
# member, the session_summary lines) sees each part as its own session: both are left out of the
# comparison. Also: --jobs 1, 2 and 3 on the same log give byte-identical output.
# Usage: pipepart.sh MCPTRIAGE_BINARY   (exit 77: GNU parallel or node is not installed)
set -u
bin=$1
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
source "$here/lib.sh"
if ! command -v parallel >/dev/null || ! command -v node >/dev/null || ! command -v jq >/dev/null; then
  echo "skip: needs GNU parallel, node and jq (scripts/setup --all installs them)"
  exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
node "$root/bench/gen.js" jsonl --mb 3 --seed 7 --out "$tmp/log.jsonl"

"$bin" --format jsonl -q --jobs 1 "$tmp/log.jsonl" > "$tmp/one.jsonl"
"$bin" --format jsonl -q --jobs 2 "$tmp/log.jsonl" > "$tmp/two.jsonl"
"$bin" --format jsonl -q --jobs 3 "$tmp/log.jsonl" > "$tmp/three.jsonl"
check "--jobs 2 output is byte-identical to --jobs 1" cmp -s "$tmp/one.jsonl" "$tmp/two.jsonl"
check "--jobs 3 output is byte-identical to --jobs 1" cmp -s "$tmp/one.jsonl" "$tmp/three.jsonl"
check "one record per exchange of the log" \
  test "$(jq -c 'select(.kind == "exchange" or .kind == "skipped")' "$tmp/one.jsonl" | wc -l)" = "$(wc -l < "$tmp/log.jsonl")"

# The recipe: parts of about 256 KB cut at line ends, one mcptriage per part (add -S host1,host2
# to spread them over ssh hosts); -k keeps the parts' order, which the comparison does not need.
parallel --will-cite --pipepart -a "$tmp/log.jsonl" --block 256k -k "$bin" --format jsonl -q --jobs 1 > "$tmp/split.jsonl"
# A tools/call's retry safety comes from a tools/list of its session (its part): session members.
normalize() {
  # Authorization flows are a session's too (docs/auth.md): a part holds the flow's legs it holds.
  jq -c 'select(.kind != "session_summary" and .kind != "auth_flow") | del(.source, .session, .auth.flow)
         | if .method == "tools/call" then del(.retry.safe, .retry.safe_source, .retry.detail) else . end' "$1" | sort
}
normalize "$tmp/one.jsonl" > "$tmp/one.norm"
normalize "$tmp/split.jsonl" > "$tmp/split.norm"
check "parallel --pipepart gives the records of one run (source and session aside, ordering aside)" \
  cmp -s "$tmp/one.norm" "$tmp/split.norm"
check "parallel --pipepart really split the log" \
  test "$(jq -c 'select(.kind == "session_summary")' "$tmp/split.jsonl" | wc -l)" -gt 3
check "sources restart per part: stdin#1 once per part" \
  test "$(jq -r 'select(.source == "stdin#1") | .source' "$tmp/split.jsonl" | wc -l)" -gt 3
finish
