#!/usr/bin/env bash
# Colour rules: only with --color always or a terminal, never with NO_COLOR, never in JSON.
set -u
bin=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/tests/cli/lib.sh"
cap="$root/testdata/real/tools-call-success.txt"
esc=$'\x1b'
has_esc() { grep -q "$esc" <<<"$1"; }
check "--color always colours the table" has_esc "$(env -u NO_COLOR "$bin" -q --format table --color always "$cap")"
check "NO_COLOR wins over --color always" bash -c '! grep -q $'"'"'\x1b'"'"' <<<"$(NO_COLOR=1 "$0" -q --format table --color always "$1")"' "$bin" "$cap"
check "auto: no colour into a pipe" bash -c '! grep -q $'"'"'\x1b'"'"' <<<"$(env -u NO_COLOR "$0" -q --format table "$1")"' "$bin" "$cap"
check "JSON is never coloured" bash -c '! grep -q $'"'"'\x1b'"'"' <<<"$(env -u NO_COLOR "$0" -q --format jsonl --color always "$1")"' "$bin" "$cap"
if command -v script >/dev/null 2>&1; then
  tty_out=$(env -u NO_COLOR TERM=xterm script -qec "$bin -q $cap" /dev/null </dev/null)
  check "on a terminal the default is a coloured table" bash -c 'grep -q "OUTCOME" <<<"$0" && grep -q $'"'"'\x1b\[3'"'"' <<<"$0"' "$tty_out"
  dumb_out=$(env -u NO_COLOR TERM=dumb script -qec "$bin -q $cap" /dev/null </dev/null)
  check "TERM=dumb: no colour on a terminal" bash -c '! grep -q $'"'"'\x1b\[3'"'"' <<<"$0"' "$dumb_out"
fi
finish
