#!/usr/bin/env bash
# Runs one golden case: mcptriage with the case's arguments, compared with the expected
# stdout, stderr (when `expected.err` exists) and exit code. Prints both sides on a mismatch.
#
# A case folder holds:
#   args          the command-line arguments (one line, shell words; paths relative to the folder)
#   stdin         optional: fed to standard input (otherwise /dev/null)
#   expected.out  the expected standard output
#   expected.err  optional: the expected standard error
#   exit          optional: the expected exit code (default 0)
# With UPDATE_GOLDEN=1 the expected files are rewritten from the actual output instead.
set -u
bin=$1
case_dir=$2
cd "$case_dir" || exit 2
args=$(cat args)
expected_exit=0
[ -f exit ] && expected_exit=$(tr -d '[:space:]' < exit)
stdin_file=/dev/null
[ -f stdin ] && stdin_file=stdin

actual_out=$(mktemp) actual_err=$(mktemp)
trap 'rm -f "$actual_out" "$actual_err"' EXIT
# Fixed clock for HTTP-date Retry-After values; no colour; stable locale.
eval "env -u NO_COLOR MCPTRIAGE_NOW=1796083200 LC_ALL=C \"\$bin\" $args" <"$stdin_file" >"$actual_out" 2>"$actual_err"
actual_exit=$?

if [ "${UPDATE_GOLDEN:-0}" = 1 ]; then
  cp "$actual_out" expected.out
  [ -f expected.err ] && cp "$actual_err" expected.err
  if [ "$actual_exit" != 0 ]; then echo "$actual_exit" > exit; else rm -f exit; fi
  echo "updated $(basename "$case_dir")"
  exit 0
fi

fail=0
if ! cmp -s expected.out "$actual_out"; then
  echo "--- stdout differs: expected (expected.out) vs actual"
  diff -u expected.out "$actual_out" | sed -n '3,200p'
  echo "--- expected stdout:"; cat expected.out
  echo "--- actual stdout:"; cat "$actual_out"
  fail=1
fi
if [ -f expected.err ] && ! cmp -s expected.err "$actual_err"; then
  echo "--- stderr differs: expected vs actual"
  diff -u expected.err "$actual_err" | sed -n '3,200p'
  fail=1
fi
if [ "$actual_exit" != "$expected_exit" ]; then
  echo "--- exit code: expected $expected_exit, actual $actual_exit"
  echo "--- stderr was:"; cat "$actual_err"
  fail=1
fi
exit $fail
