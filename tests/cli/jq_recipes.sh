#!/usr/bin/env bash
# Every jq line of docs/ci.md's "jq over the JSON Lines" block runs on the records of a HAR file
# and of a folder: no jq error, and each answers what it says, checked against a count made here
# without jq (python3): the failed exchanges, the outcome counts, the retry_if_idempotent sources,
# the tool calls, and whether all exchanges succeeded. Skipped and summary records never count.
set -u
bin=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/tests/cli/lib.sh"
command -v jq >/dev/null || { echo "jq is not installed"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The jq lines of the block, in order.
awk '/^## jq over the JSON Lines/{on=1} on && /^```sh/{inblock=1; next} inblock && /^```/{exit} inblock && /^jq /{print}' \
  "$root/docs/ci.md" >"$tmp/recipes"
check "docs/ci.md has 5 jq recipes" test "$(wc -l <"$tmp/recipes")" = 5

expected() {  # what each recipe must print, computed from the records without jq
  python3 - "$1" "$2" <<'PY'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
ex = [r for r in recs if r.get("kind") == "exchange"]
k = int(sys.argv[2])
if k == 1:
    for r in ex:
        if r["outcome"] not in ("TOOL_SUCCESS", "RPC_SUCCESS", "ACCEPTED"):
            print("\t".join([r["source"], r["outcome"], r["reason"]]))
elif k == 2:
    counts = {}
    for r in ex: counts[r["outcome"]] = counts.get(r["outcome"], 0) + 1
    print(json.dumps(counts, sort_keys=True, separators=(",", ":")))
elif k == 3:
    for r in ex:
        if r["retry"]["advice"] == "retry_if_idempotent": print(r["source"])
elif k == 4:
    for r in ex:
        if r["method"] == "tools/call" and r.get("tool"): print("\t".join([r["source"], r["tool"], r["outcome"]]))
elif k == 5:
    print("true" if all(r["outcome"] in ("TOOL_SUCCESS", "RPC_SUCCESS", "ACCEPTED") for r in ex) else "false")
PY
}

run_on() {  # NAME INPUT...
  local name=$1
  shift
  "$bin" -q --format jsonl "$@" >"$tmp/triage.jsonl" 2>/dev/null
  local skipped summaries
  skipped=$(jq -c 'select(.kind == "skipped")' "$tmp/triage.jsonl" | wc -l)
  summaries=$(jq -c 'select(.kind == "session_summary")' "$tmp/triage.jsonl" | wc -l)
  check "$name: records of every kind to filter ($skipped skipped, $summaries summaries)" \
    test "$skipped" -gt 0 -a "$summaries" -gt 0
  local k=0
  while IFS= read -r line; do
    k=$((k + 1))
    (cd "$tmp" && bash -c "$line" >"$tmp/out.$k" 2>"$tmp/err.$k")
    local rc=$?
    expected "$tmp/triage.jsonl" "$k" >"$tmp/want.$k"
    if [ "$k" = 2 ]; then jq -S -c . "$tmp/out.$k" >"$tmp/got.$k" 2>>"$tmp/err.$k"; else cp "$tmp/out.$k" "$tmp/got.$k"; fi
    if [ "$k" = 5 ]; then
      local want_rc=0; [ "$(cat "$tmp/want.$k")" = false ] && want_rc=1
      check "$name: recipe $k exits $want_rc (all succeeded: $(cat "$tmp/want.$k"))" test "$rc" = "$want_rc" -a ! -s "$tmp/err.$k"
    else
      check "$name: recipe $k prints what it says ($(wc -l <"$tmp/want.$k") lines)" \
        bash -c "[ $rc = 0 ] && [ ! -s '$tmp/err.$k' ] && cmp -s '$tmp/want.$k' '$tmp/got.$k'"
    fi
  done <"$tmp/recipes"
}

run_on "HAR" "$root/testdata/samples/chrome-devtools-http11.har"
run_on "folder" "$root/testdata/samples"
finish
