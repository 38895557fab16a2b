#!/usr/bin/env bash
# The table of a long log is printed a page (4,096 rows) at a time, in bounded memory
# (docs/output.md "Table"): one header, every exchange's row once and in order, the same
# outcomes as the JSON Lines records, and the session block after the last page.
# Usage: table_pages.sh MCPTRIAGE_BINARY   (exit 77: node or jq is not installed)
set -u
bin=$1
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
source "$here/lib.sh"
if ! command -v node >/dev/null || ! command -v jq >/dev/null; then
  echo "skip: needs node and jq (scripts/setup --all installs them)"
  exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
node "$root/bench/gen.js" jsonl --mb 22 --seed 3 --out "$tmp/log.jsonl"
n=$(wc -l < "$tmp/log.jsonl")
check "the log is longer than two pages of the table" test "$n" -gt 8192

# --auth off: the paging alone (its 401s would add an authorization flow block after the session's).
"$bin" --format table -q --auth off "$tmp/log.jsonl" > "$tmp/table.txt"
"$bin" --format jsonl -q --auth off "$tmp/log.jsonl" > "$tmp/records.jsonl"
check "one header line" test "$(grep -c '^SOURCE ' "$tmp/table.txt")" = 1
grep "^$tmp/log.jsonl#" "$tmp/table.txt" | awk '{print $1, $5}' > "$tmp/rows.txt"
check "one row per exchange" test "$(wc -l < "$tmp/rows.txt")" = "$n"
jq -r 'select(.kind != "session_summary") | "\(.source) \(.outcome)"' "$tmp/records.jsonl" > "$tmp/expected.txt"
check "rows in order, with the outcomes of the JSON Lines records" cmp -s "$tmp/expected.txt" "$tmp/rows.txt"
check "the session block follows the last page" bash -c "tail -n 20 '$tmp/table.txt' | grep -q '^session '"
finish
