#!/usr/bin/env bash
# mcptriage's row mode inside a real ClickHouse engine (issue 27; docs/scale.md): chdb 3.4.0
# (ClickHouse 26.7 embedded, from npm) runs `mcptriage stats --rows` through its executable()
# table function over a generated 100,000-exchange gateway log, groups the rows by tool, layer
# and outcome, and the counts must equal `mcptriage stats` on the same file; every input line
# must give one row, and every line that is JSON its key. Skips (77) with a message when node or npm or the registry is
# not there. The install (~550 MB) is kept in tests/stats/chdb/node_modules, shared by the
# normal and the sanitized build trees, so that a second run does not install again.
# Usage: chdb.sh MCPTRIAGE [EXCHANGES]
set -euo pipefail
bin=$(realpath "$1")
n=${2:-100000}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
pkg=$here/chdb
for t in node npm jq; do
  command -v "$t" >/dev/null 2>&1 || { echo "SKIP: $t is not installed: the ClickHouse (chdb) test needs it"; exit 77; }
done
if [[ ! -f $pkg/node_modules/chdb/package.json ]]; then
  if ! timeout 20 npm view chdb@3.4.0 version >/dev/null 2>&1; then
    echo "SKIP: the npm registry is unreachable: chdb 3.4.0 cannot be installed, the ClickHouse row-mode test did not run"
    exit 77
  fi
  echo "# installing chdb 3.4.0 (npm install in $pkg, about 550 MB, once)" >&2
  (cd "$pkg" && npm install --no-audit --no-fund --no-save >&2) || { echo "FAIL: npm install of chdb failed"; exit 1; }
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
log=$work/gateway.jsonl
node "$root/bench/gen.js" jsonl --exchanges "$n" --seed 27 --gateway --out "$log" >/dev/null
lines=$(wc -l <"$log")
mkdir -p "$work/session/user_scripts"
cp "$bin" "$work/session/user_scripts/mcptriage"

# ClickHouse: the rows grouped.
(cd "$pkg" && node query.js "$work/session" "$log") >"$work/ch.json"
# The CLI alone, on the same file.
t0=$(date +%s.%N)
"$bin" stats --format json "$log" >"$work/stats.json" 2>"$work/stats.err" || true
t1=$(date +%s.%N)

fail=0
rows=$(jq .rows "$work/ch.json")
keyed=$(jq .keyed "$work/ch.json")
[[ $rows == "$lines" ]] || { echo "FAIL: $lines input lines gave $rows rows"; fail=1; }
damaged=$(grep -c invalid_line "$log.expected" || true)  # cut mid-line: their key is lost with them
[[ $keyed == $((lines - damaged)) ]] || { echo "FAIL: $keyed of $lines rows carry their key ($damaged lines damaged)"; fail=1; }
# Group by tool, layer and outcome from the summary's cells.
jq -c '[.cells | group_by([.tool, (.outcome)])[] | {tool: .[0].tool, outcome: .[0].outcome, n: (map(.records) | add)}]
       | sort_by(.tool, .outcome) | map([.tool, .outcome, .n])' "$work/stats.json" >"$work/want.json"
jq -c '[.groups[] | [.[0], .[2], .[3]]] | sort_by(.[0], .[1])' "$work/ch.json" >"$work/got.json"
if ! cmp -s "$work/want.json" "$work/got.json"; then
  echo "FAIL: ClickHouse's groups differ from mcptriage stats:"
  diff <(jq -c '.[]' "$work/want.json") <(jq -c '.[]' "$work/got.json") | head -20
  fail=1
fi
# Layers: each outcome's layer as the summary's by_layer says.
want_layers=$(jq -c '[.by_layer[] | [.layer, .records]] | sort' "$work/stats.json")
got_layers=$(jq -c '[.groups | group_by(.[1])[] | [.[0][1], (map(.[3]) | add)]] | sort' "$work/ch.json")
[[ $want_layers == "$got_layers" ]] || { echo "FAIL: layers: stats $want_layers, ClickHouse $got_layers"; fail=1; }
# Damaged lines: rows with their reason in ClickHouse, skipped entries and input errors in stats.
want_damaged=$(grep -c invalid_line "$log.expected" || true)
got_damaged=$(jq '.skipped.invalid_line // 0' "$work/ch.json")
stats_damaged=$(jq '.skipped.reasons.invalid_line // 0' "$work/stats.json")
stats_errors=$(jq '.input_errors' "$work/stats.json")
[[ $got_damaged == "$want_damaged" && $stats_damaged == "$want_damaged" && $stats_errors == "$want_damaged" ]] ||
  { echo "FAIL: damaged lines: $want_damaged written, rows $got_damaged, stats skipped $stats_damaged, input errors $stats_errors"; fail=1; }
echo "# $lines lines: ClickHouse query $(jq .seconds "$work/ch.json") s (chdb start included), mcptriage stats alone $(echo "$t1 - $t0" | bc) s"
[[ $fail == 0 ]] && echo "ok: ClickHouse (chdb 3.4.0) rows grouped by tool, layer and outcome equal mcptriage stats"
exit $fail
