#!/usr/bin/env bash
# `mcptriage explain` (src/cli/explain.cpp): output errors, and bash completion of its names.
# The entries themselves are golden cases (testdata/cases/explain-*).
set -u
bin=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/tests/cli/lib.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$bin" explain --list >/dev/full 2>"$work/full.err"
check "a full disk is exit 3" test $? = 3
check "... with a message" grep -q "cannot write to standard output" "$work/full.err"
# More than a pipe holds (64 KiB), so that the write meets the closed pipe.
many=$(for i in $(seq 100); do echo duplicate_member STREAM_INCOMPLETE; done)
# shellcheck disable=SC2086
"$bin" explain $many 2>"$work/pipe.err" | head -1 >/dev/null
check "a closed pipe ends it quietly (exit 0)" test "${PIPESTATUS[0]}" = 0
check "... with nothing on stderr" test ! -s "$work/pipe.err"
"$bin" explain --help >"$work/help.out"
check "--help prints the usage (exit 0)" grep -q "usage: mcptriage explain NAME" "$work/help.out"
"$bin" explain --bogus 2>/dev/null
check "an unknown option is a usage error" test $? = 2
"$bin" explain id_mismatch STREAM_INCOMPLETE >"$work/two.out"
check "several names print one entry each" test "$(grep -c '^  spec ' "$work/two.out")" = 2

complete_words() {
  bash -c '. "$0"; COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 )); _mcptriage; printf "%s\n" "${COMPREPLY[@]}"' \
    "$root/completions/mcptriage.bash" "$@"
}
check "bash completes explain" grep -qx explain <<<"$(complete_words "$bin" expl)"
check "bash completes reason codes after explain" grep -qx session_expired <<<"$(complete_words "$bin" explain session_e)"
check "bash completes outcomes after explain" grep -qx STREAM_INCOMPLETE <<<"$(complete_words "$bin" explain STREAM)"
check "no bogus 'skipped' name" test -z "$(complete_words "$bin" explain skipped)"
finish
