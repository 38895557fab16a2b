#!/usr/bin/env bash
# mcptriage stats (docs/stats.md): the summary validates against docs/stats.schema.json and counts
# what the records say; --jobs changes nothing; --merge of the parts of a log equals the whole and
# refuses a newer, an older or a damaged summary with exit 3 and no output; row mode gives one
# row per input line, in order, with its key, for blank and damaged lines too, nothing on standard
# error, exit 0, and answers each line as it comes on a pipe that stays open (executable_pool).
set -u
bin=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/tests/cli/lib.sh"
need_tools jq node python3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
jqe() { jq -e "$@" >/dev/null; }

log=$work/gw.jsonl
node "$root/bench/gen.js" jsonl --exchanges 3000 --seed 5 --gateway --out "$log" >/dev/null
"$bin" stats --format json "$log" >"$work/s.json" 2>"$work/s.err"
check "stats exits 3: the log has damaged lines (input errors)" test $? = 3
check "the summary validates against docs/stats.schema.json" python3 "$root/tests/cli/validate_schema.py" \
  "$root/docs/stats.schema.json" "$work/s.json"
"$bin" -q --format jsonl "$log" >"$work/r.jsonl" 2>/dev/null
want=$(jq -s -c '[.[] | select(.kind == "exchange") | .outcome] | group_by(.) | map([.[0], length])' "$work/r.jsonl")
got=$(jq -c '[.by_outcome[] | [.outcome, .records]] | sort' "$work/s.json")
check "counts by outcome equal the records' ($got)" test "$want" = "$got"
want_skipped=$(jq -s '[.[] | select(.kind == "skipped")] | length' "$work/r.jsonl")
check "skipped entries counted ($want_skipped)" test "$(jq .skipped.total "$work/s.json")" = "$want_skipped"
check "damaged lines are input errors" test "$(jq .input_errors "$work/s.json")" = "$(grep -c invalid_line "$log.expected")"
check "latency from timing.end_ms: every record timed" test "$(jq '.latency_ms.count' "$work/s.json")" = "$(jq .records "$work/s.json")"
check "p50 <= p90 <= p99 <= max" jqe '.latency_ms | .p50 <= .p90 and .p90 <= .p99 and .p99 <= .max' "$work/s.json"
check "top failing tools are failing tools" jqe '.top_failing_tools | length > 0 and all(.failed > 0)' "$work/s.json"
"$bin" stats --format json --jobs 1 "$log" >"$work/j1.json" 2>/dev/null
"$bin" stats --format json --jobs 2 "$log" >"$work/j2.json" 2>/dev/null
check "--jobs 1 and --jobs 2 give the same summary" cmp -s "$work/j1.json" "$work/j2.json"
"$bin" stats --format table "$log" >"$work/t.txt" 2>/dev/null
check "the table names its sections" grep -q '^top failing tools' "$work/t.txt"

# --merge: the log's two halves, summarised apart, merged: the whole's counts and sketches.
head -n 1700 "$log" >"$work/a.jsonl"
tail -n +1701 "$log" >"$work/b.jsonl"
"$bin" stats --format json "$work/a.jsonl" >"$work/a.json" 2>/dev/null
"$bin" stats --format json "$work/b.jsonl" >"$work/b.json" 2>/dev/null
"$bin" stats --merge --format json "$work/a.json" "$work/b.json" >"$work/m.json"
check "--merge exits 0" test $? = 0
strip='del(.inputs) | .cells |= map(del(.latency.sum_ms?)) | del(.latency_ms)'
check "merged halves equal the whole (cells, rollups; sums aside)" \
  test "$(jq -c "$strip | del(.by_server, .by_method, .by_tool, .by_layer, .by_outcome, .by_reason, .by_error_code)" "$work/m.json")" = \
       "$(jq -c "$strip | del(.by_server, .by_method, .by_tool, .by_layer, .by_outcome, .by_reason, .by_error_code)" "$work/s.json")"
check "merged quantiles equal the whole's" test "$(jq -c '.latency_ms | del(.count)' "$work/m.json")" = "$(jq -c '.latency_ms | del(.count)' "$work/s.json")"
check "merged: 2 inputs" test "$(jq .inputs "$work/m.json")" = 2
sed 's/"schema_version":1/"schema_version":2/' "$work/b.json" >"$work/newer.json"
"$bin" stats --merge "$work/a.json" "$work/newer.json" >"$work/out" 2>"$work/err"
check "a newer summary: exit 3" test $? = 3
check "a newer summary: refused by name" grep -q 'newer.json: a stats summary of schema version 2, newer than this mcptriage reads (1)' "$work/err"
check "a newer summary: nothing written" test ! -s "$work/out"
head -c 2000 "$work/b.json" >"$work/cut.json"
"$bin" stats --merge "$work/a.json" "$work/cut.json" >"$work/out" 2>"$work/err"
check "a damaged summary: exit 3, nothing written" test $? = 3 -a ! -s "$work/out"
sed 's/"failed":\([0-9]*\),"failure_rate"/"failed":1\1,"failure_rate"/' "$work/b.json" >"$work/lie.json"
"$bin" stats --merge "$work/a.json" "$work/lie.json" >"$work/out" 2>"$work/err"
rc=$?
check "a summary whose totals the cells do not give: exit 3 ($(cat "$work/err"))" test $rc = 3 -a ! -s "$work/out"

# Row mode.
{ head -n 3 "$log"; echo; echo 'not json {'; echo '{"no":"exchange"}'; echo '[1,2'; head -n 5 "$log" | tail -n 2; } >"$work/mixed.jsonl"
"$bin" stats --rows --key-field id <"$work/mixed.jsonl" >"$work/rows" 2>"$work/rows.err"
check "rows: exit 0 with damaged lines" test $? = 0
check "rows: nothing on standard error" test ! -s "$work/rows.err"
check "rows: one row per input line (9)" test "$(wc -l <"$work/rows")" = 9
check "rows: in order, numbered by line" test "$(jq -s -c 'map(.line)' "$work/rows")" = "[1,2,3,4,5,6,7,8,9]"
check "rows: keys copied" test "$(jq -s -c 'map(.key)' "$work/rows")" = '["req-1","req-2","req-3",null,null,null,null,"req-4","req-5"]'
check "rows: the blank and damaged lines say why" test "$(jq -s -c '[.[3,4,5,6] | .skipped]' "$work/rows")" = '["invalid_line","invalid_line","invalid_line","invalid_line"]'
python3 - "$root/docs/stats.schema.json" "$work/rows" <<'PY'
import json, sys, jsonschema
schema = json.load(open(sys.argv[1]))
row = dict(schema["definitions"]["row"]); row["definitions"] = schema["definitions"]
v = jsonschema.Draft7Validator(row)
bad = [e.message for line in open(sys.argv[2]) for e in v.iter_errors(json.loads(line))]
print("\n".join(bad[:5]), file=sys.stderr)
sys.exit(1 if bad else 0)
PY
check "rows validate against the schema's row" test $? = 0
"$bin" stats --rows <"$log" >"$work/allrows" 2>/dev/null
check "rows: as many as lines on the whole log" test "$(wc -l <"$work/allrows")" = "$(wc -l <"$log")"
check "rows grouped by outcome equal the summary" test \
  "$(jq -s -c '[.[] | select(.outcome) | .outcome] | group_by(.) | map([.[0], length])' "$work/allrows")" = "$got"
# A pipe that stays open (a ClickHouse executable_pool sends some rows, then waits for theirs).
fifo=$work/in
mkfifo "$fifo"
"$bin" stats --rows <"$fifo" >"$work/live" 2>/dev/null &
pid=$!
exec 7>"$fifo"
head -n 2 "$log" >&7
for _ in $(seq 50); do [ "$(wc -l <"$work/live")" = 2 ] && break; sleep 0.1; done
check "rows: two lines written on an open pipe are answered before it closes" test "$(wc -l <"$work/live")" = 2
exec 7>&-
wait "$pid"
check "rows: exit 0 at the end of input" test $? = 0

# diff: a capture against itself; a regression; nothing in common.
head -n 600 "$log" | grep -v '^{"id":"req-500"' >"$work/before.jsonl"
"$bin" diff --format json --fail-on-regression "$work/before.jsonl" "$work/before.jsonl" >"$work/d0.json" 2>/dev/null
rc=$?
check "diff of a log against itself: exit 0" test $rc = 0
check "diff of a log against itself: no change" jqe '.regressed == false and .changed_exchanges == 0 and .matched_exchanges > 0
  and all(.groups[]; .before == .after and .new_reasons == [])' "$work/d0.json"
sed '1,40s/"status":200/"status":503/' "$work/before.jsonl" >"$work/after.jsonl"
"$bin" diff --format json --fail-on-regression "$work/before.jsonl" "$work/after.jsonl" >"$work/d1.json" 2>/dev/null
rc=$?
check "diff with 503s: exit 1 with --fail-on-regression" test $rc = 1
check "diff with 503s: HTTP_ERROR is a new failing reason of tools/call" \
  jqe '[.groups[] | select(.method == "tools/call") | .new_reasons[]] | any(startswith("HTTP_ERROR"))' "$work/d1.json"
check "diff with 503s: the changed exchanges are listed" jqe '.changed_exchanges > 0 and (.changed | length) > 0' "$work/d1.json"
"$bin" diff --format json "$work/before.jsonl" "$work/after.jsonl" >/dev/null 2>&1
check "diff without --fail-on-regression: exit 0" test $? = 0
"$bin" diff --format table "$root/testdata/samples/curl-i-405-get.txt" "$work/before.jsonl" >"$work/d2.txt" 2>/dev/null
check "diff of inputs with nothing in common says so" grep -q 'nothing in common' "$work/d2.txt"

# Usage.
"$bin" stats --key-field id "$log" >/dev/null 2>&1
check "--key-field without --rows: usage error" test $? = 2
"$bin" stats --interval 1s "$log" >/dev/null 2>&1
check "--interval without --follow: usage error" test $? = 2
finish
