#!/usr/bin/env bash
# --session (docs/output.md "Several inputs as one session"): a folder of one-call captures and
# more inputs read as one session give the same bytes for --jobs 1 and --jobs 2 in every output
# (JSON Lines, table, TAP, JUnit, HTML, OTLP); one summary and one OTLP trace for the run; the
# replay and the retry safety that only the session shows.
set -u
bin=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/tests/cli/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export MCPTRIAGE_NOW=1796083200 LC_ALL=C
dir=$root/testdata/cases/session-folder/captures
# The session folder, then many more inputs (samples, real captures) so that the workers overlap.
inputs=("$dir" "$root/testdata/samples" "$root/testdata/real")

for jobs in 1 2; do
  "$bin" --session --jobs "$jobs" --format jsonl "${inputs[@]}" >"$tmp/jsonl.$jobs" 2>"$tmp/err.$jobs"
  echo $? >"$tmp/rc.$jobs"
  "$bin" --session --jobs "$jobs" --format table --color never -q "${inputs[@]}" >"$tmp/table.$jobs" 2>/dev/null
  "$bin" --session --jobs "$jobs" --format jsonl -q --report-tap "$tmp/tap.$jobs" --report-junit "$tmp/junit.$jobs" \
    --report-html "$tmp/html.$jobs" --report-otlp "$tmp/otlp.$jobs" "${inputs[@]}" >/dev/null 2>&1
done
for f in jsonl err rc table tap junit html otlp; do
  check "--jobs 1 and --jobs 2 give the same $f" cmp -s "$tmp/$f.1" "$tmp/$f.2"
done
check "the run reads more than 20 inputs" bash -c '[ "$(grep -c "^{" "$0")" -gt 20 ]' "$tmp/jsonl.1"
check "one session summary for the run" bash -c '[ "$(grep -c "\"kind\":\"session_summary\"" "$0")" = 1 ]' "$tmp/jsonl.1"
check "the summary is the last line" bash -c 'tail -n 1 "$0" | grep -q "\"kind\":\"session_summary\""' "$tmp/jsonl.1"
check "the summary names the first and last input and their count" \
  grep -q "\"source\":\"$dir/01-initialize.txt .. [^\"]* ([0-9]* inputs)\"" "$tmp/jsonl.1"
check "one session block in the table" bash -c '[ "$(grep -c "^session " "$0")" = 1 ]' "$tmp/table.1"
check "a record keeps its own file's name" grep -q "\"source\":\"$dir/04-call-again.txt#1\"" "$tmp/jsonl.1"
check "the replay across files" grep -q "\"replay_of\":{\"source\":\"$dir/03-call.txt#1\"" "$tmp/jsonl.1"
check "one OTLP trace" bash -c '[ "$(grep -o "\"traceId\":\"[0-9a-f]*\"" "$0" | sort -u | wc -l)" = 1 ]' "$tmp/otlp.1"
check "one OTLP resource" bash -c '[ "$(grep -c "{\"resource\":" "$0")" = 1 ]' "$tmp/otlp.1"
check "JUnit keeps a testsuite per file" bash -c '[ "$(grep -c "<testsuite " "$0")" -gt 20 ]' "$tmp/junit.1"

# Without --session the same inputs give a summary per input with several entries, no replay.
"$bin" --jobs 2 --format jsonl -q "$dir" >"$tmp/plain"
check "without --session: no session member" bash -c '! grep -q "\"session\":" "$0"' "$tmp/plain"
check "without --session: no summary" bash -c '! grep -q "session_summary" "$0"' "$tmp/plain"

# The order given: the failed call after its repeat is no replay of it.
"$bin" --session --format jsonl -q "$dir/04-call-again.txt" "$dir/03-call.txt" >"$tmp/reversed"
check "files in the order given: the repeat first is no replay" bash -c '! grep -q "replay_of\":{" "$0"' "$tmp/reversed"
check "files in the order given: sources in that order" \
  bash -c 'grep -o "\"source\":\"[^\"]*#1\"" "$0" | head -n 1 | grep -q 04-call-again' "$tmp/reversed"

# One --request over several captures describes each of them: said on standard error (not under -q).
real="$root/testdata/real"
"$bin" --session --format jsonl --request "$real/tools-call-success.request.json" "$real/tools-call-success.txt" \
  "$real/tools-call-unknown-tool.txt" >/dev/null 2>"$tmp/one-request.err"
check "--request over 2 captures: a note says it describes each, as sends of one request" \
  grep -q "^mcptriage: note: --request describes the request of each of the 2 captures .*sidecars.*each is a send of that one request$" "$tmp/one-request.err"
"$bin" --format jsonl --request "$real/tools-call-success.request.json" "$real/tools-call-success.txt" >/dev/null 2>"$tmp/one-capture.err"
check "--request with one capture: no note" bash -c '! grep -q "note: --request" "$0"' "$tmp/one-capture.err"
"$bin" -q --format jsonl --id 1 "$real/tools-call-success.txt" "$real/tools-list.txt" >/dev/null 2>"$tmp/quiet.err"
check "--id over 2 captures, also under -q: the note names --id, without sidecars" \
  grep -q "^mcptriage: note: --id describes the request of each of the 2 captures that holds none of its own$" "$tmp/quiet.err"
# The same file twice in one session: read as given, and a note says so (by file, not by name).
(cd "$real" && "$bin" --session -q --format jsonl tools-call-success.txt ./tools-call-success.txt) >"$tmp/twice" 2>"$tmp/twice.err"
check "the same file twice: both read" test "$(grep -c '"kind":"exchange"' "$tmp/twice")" = 2
check "  ... a note names it" grep -qx "mcptriage: note: ./tools-call-success.txt is the file tools-call-success.txt again: in one session (--session) its exchanges are read twice, as if sent again" "$tmp/twice.err"
"$bin" -q --format jsonl "$real/tools-call-success.txt" "$real/tools-call-success.txt" >/dev/null 2>"$tmp/twice-plain.err"
check "  ... without --session no note" test ! -s "$tmp/twice-plain.err"
finish
