#!/usr/bin/env bash
# Output errors (docs/exit-codes.md): a reader that goes away (`| head -1`, EPIPE) ends the run at
# once and quietly, with status 0 unless something failed before, also while input is still
# arriving; a write that fails (a full disk: /dev/full) is an error message and exit 4, for
# standard output and for a report file. Bounded in time: the closed-pipe runs must end within
# 2 s on inputs that take far longer to read whole.
# Usage: output_errors.sh MCPTRIAGE_BINARY
set -u
bin=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/tests/cli/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# One JSON Lines exchange (a successful tools/call), and the seconds a command takes.
line='{"status":200,"headers":{"content-type":"application/json"},"body":"{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"ok\"}]}}","request":{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t"}}}'
seconds() {  # seconds COMMAND...: runs it, prints its wall time
  local start end
  start=$(date +%s.%N)
  "$@"
  end=$(date +%s.%N)
  echo "$end - $start" | bc -l
}
within() { [ "$(echo "$1 < $2" | bc -l)" = 1 ]; }

# --- a closed standard output -----------------------------------------------------------------
# Endless input on a pipe: it can never be read whole. Each run is bounded by `timeout`.
for jobs in 1 2; do
  endless() {
    timeout 20 bash -c 'yes "$1" | "$2" --jobs "$3" 2>"$4/err" | head -1 >"$4/first"; echo "${PIPESTATUS[1]}" >"$4/status"' \
      _ "$line" "$bin" "$jobs" "$tmp"
  }
  t=$(seconds endless)
  check "yes LINE | mcptriage --jobs $jobs | head -1 returns within 2 s (took ${t}s)" within "$t" 2
  check "  ... prints the first record" grep -q '"source":"stdin#1"' "$tmp/first"
  check "  ... exits 0" test "$(cat "$tmp/status")" = 0
  check "  ... says nothing on stderr" test ! -s "$tmp/err"
done

# A large log file: read whole it takes far longer than reading its first block.
yes "$line" | head -n 400000 >"$tmp/big.jsonl"  # about 100 MB
for jobs in 1 2; do
  first() {
    timeout 20 bash -c '"$1" --jobs "$2" "$3/big.jsonl" 2>"$3/err" | head -1 >"$3/first"; echo "${PIPESTATUS[0]}" >"$3/status"' \
      _ "$bin" "$jobs" "$tmp"
  }
  t=$(seconds first)
  check "mcptriage --jobs $jobs big.jsonl | head -1 returns within 2 s (took ${t}s)" within "$t" 2
  check "  ... exits 0, quietly" bash -c '[ "$(cat "$0/status")" = 0 ] && [ ! -s "$0/err" ]' "$tmp"
done
whole() { "$bin" --jobs 1 -q "$tmp/big.jsonl" >/dev/null; }
t_whole=$(seconds whole)
check "  ... reading it whole takes longer than 4 times that (${t_whole}s)" within "$(echo "4 * $t" | bc -l)" "$t_whole"

# A large HAR file: its records are written as its entries are read (docs/performance.md, "One
# large HAR"), so a closed output or a full disk reaches the run from inside the reading. It must
# end the run as it does for a log, not read as a fault of the capture.
python3 - "$tmp/big.har" <<'PY'
import json, sys
entry = {"request": {"method": "POST", "url": "http://127.0.0.1:3001/mcp",
                     "headers": [{"name": "Content-Type", "value": "application/json"}],
                     "postData": {"mimeType": "application/json",
                                  "text": '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t"}}'}},
         "response": {"status": 200, "headers": [{"name": "Content-Type", "value": "application/json"}],
                      "content": {"mimeType": "application/json",
                                  "text": '{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"ok"}]}}'}}}
with open(sys.argv[1], "w") as f:
    json.dump({"log": {"version": "1.2", "creator": {"name": "t", "version": "1"}, "entries": [entry] * 60000}}, f)
PY
for jobs in 1 2; do
  for how in file stdin; do
    first() {
      if [ "$how" = file ]; then
        timeout 20 bash -c '"$1" --jobs "$2" "$3/big.har" 2>"$3/err" | head -1 >"$3/first"; echo "${PIPESTATUS[0]}" >"$3/status"' \
          _ "$bin" "$jobs" "$tmp"
      else
        timeout 20 bash -c '"$1" --jobs "$2" - <"$3/big.har" 2>"$3/err" | head -1 >"$3/first"; echo "${PIPESTATUS[0]}" >"$3/status"' \
          _ "$bin" "$jobs" "$tmp"
      fi
    }
    t=$(seconds first)
    check "mcptriage --jobs $jobs big.har ($how) | head -1 returns within 2 s (took ${t}s)" within "$t" 2
    check "  ... prints the first record" grep -q '"outcome":"TOOL_SUCCESS"' "$tmp/first"
    check "  ... exits 0, quietly (status $(cat "$tmp/status"): $(head -c 200 "$tmp/err"))" \
      bash -c '[ "$(cat "$0/status")" = 0 ] && [ ! -s "$0/err" ]' "$tmp"
  done
  if [ -w /dev/full ]; then
    "$bin" --jobs "$jobs" "$tmp/big.har" >/dev/full 2>"$tmp/err"
    code=$?
    check "mcptriage --jobs $jobs big.har > /dev/full: exit 4 (was $code)" test "$code" = 4
    check "  ... says why, not that the capture failed" \
      grep -qx 'mcptriage: error: cannot write standard output: No space left on device' "$tmp/err"
  fi
done

# Something that failed before the output closed keeps its status: an input error (3) first.
timeout 20 bash -c '"$1" "$2/missing.txt" "$2/big.jsonl" 2>"$2/err" | head -1 >/dev/null; echo "${PIPESTATUS[0]}" >"$2/status"' \
  _ "$bin" "$tmp"
check "an input error before the close: exit 3" test "$(cat "$tmp/status")" = 3
check "  ... named on stderr, and nothing else" test "$(cat "$tmp/err")" = "mcptriage: error: $tmp/missing.txt: no such file or folder"
# A broken expectation (1) before the close.
timeout 20 bash -c '"$1" --fail-on TOOL_SUCCESS "$2/big.jsonl" 2>/dev/null | head -1 >/dev/null; echo "${PIPESTATUS[0]}" >"$2/status"' \
  _ "$bin" "$tmp"
check "a broken expectation before the close: exit 1" test "$(cat "$tmp/status")" = 1
# --help into a closed pipe: no error either.
"$bin" --help 2>"$tmp/err" | head -1 >/dev/null
status=${PIPESTATUS[0]}
check "--help | head -1: exit 0, quietly" bash -c '[ "$1" = 0 ] && [ ! -s "$0/err" ]' "$tmp" "$status"

# --- a write that fails -----------------------------------------------------------------------
if [ -w /dev/full ]; then
  for format in jsonl table; do
    "$bin" --format "$format" "$root/testdata/samples" >/dev/full 2>"$tmp/err"
    code=$?
    check "--format $format > /dev/full: exit 4 (was $code)" test "$code" = 4
    check "  ... says why" grep -qx 'mcptriage: error: cannot write standard output: No space left on device' "$tmp/err"
    check "  ... and no summary line of a run whose records were lost" bash -c '! grep -q "exchanges" "$0/err"' "$tmp"
  done
  "$bin" --report-junit /dev/full "$root/testdata/real/tools-call-success.txt" >"$tmp/out" 2>"$tmp/err"
  check "--report-junit /dev/full: exit 4" test $? = 4
  check "  ... names the report and why" grep -qx 'mcptriage: error: cannot write JUnit report /dev/full: No space left on device' "$tmp/err"
  check "  ... the records were still written" grep -q '"outcome":"TOOL_SUCCESS"' "$tmp/out"
  "$bin" --format jsonl --report-tap - "$root/testdata/real/tools-call-success.txt" >/dev/full 2>"$tmp/err"
  check "--report-tap - > /dev/full: exit 4" test $? = 4
  "$bin" --help >/dev/full 2>"$tmp/err"
  check "--help > /dev/full: exit 4" test $? = 4
else
  echo "skip: /dev/full is not writable here"
fi
"$bin" --report-junit "$tmp/no/such/folder/junit.xml" "$root/testdata/real/tools-call-success.txt" >/dev/null 2>"$tmp/err"
check "a report in a missing folder: exit 4" test $? = 4
check "  ... names it and why" grep -qx "mcptriage: error: cannot write JUnit report $tmp/no/such/folder/junit.xml: No such file or directory" "$tmp/err"
# No exchange read at all: the table prints nothing (no column header over no rows), the error says why.
"$bin" --format table "$tmp/no-such-capture.txt" >"$tmp/out" 2>"$tmp/err"
check "no input read, table: exit 3" test $? = 3
check "  ... nothing on standard output" test ! -s "$tmp/out"
check "  ... the error on standard error" grep -q "no-such-capture.txt: no such file" "$tmp/err"
finish
