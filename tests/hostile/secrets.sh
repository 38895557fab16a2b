#!/usr/bin/env bash
# Redaction on by default in every output (docs/security.md): for the captures in
# testdata/hostile/secrets/, no value starting with SECRET reaches JSON Lines, the table, a
# JUnit or TAP report, or standard error. With --no-redact the secrets quoted in details and
# error messages do appear (so the check above is not vacuous).
# Usage: tests/hostile/secrets.sh MCPTRIAGE
set -u
bin=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
dir=$root/testdata/hostile/secrets
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=0 passed=0
check() {  # check DESCRIPTION COMMAND...
  if "${@:2}"; then passed=$((passed + 1)); echo "ok   $1"; else failed=$((failed + 1)); echo "FAIL $1"; fi
}
run() {  # run TAG [extra args]: every output of one run into $tmp/TAG.*
  local tag=$1
  shift
  "$bin" --id 1 --method tools/call --report-junit "$tmp/$tag.junit" --report-tap "$tmp/$tag.tap" "$@" \
    "$dir/conversation-401.txt" "$dir/tool-error.txt" "$dir/unrecognised.txt" >"$tmp/$tag.out" 2>"$tmp/$tag.err"
  cat "$tmp/$tag".out "$tmp/$tag".err "$tmp/$tag".junit "$tmp/$tag".tap >"$tmp/$tag.all"
}
no_secret() { ! grep -aoE 'SECRET[A-Z]*[0-9]' "$1" | sort -u | sed 's/^/  leaked: /' | grep .; }

run jsonl --format jsonl
check "JSON Lines, reports and stderr hold no secret" no_secret "$tmp/jsonl.all"
check "the records were written (3 inputs, 2 exchanges)" \
  test "$(jq -c 'select(.kind == "exchange")' "$tmp/jsonl.out" | wc -l)" = 2
check "the unrecognised input was reported, redacted" grep -q 'unrecognised input: Authorization: Basic \[REDACTED\]' "$tmp/jsonl.err"
check "Mcp-Session-Id quoted in a tool error is shortened" grep -q '01234567…' "$tmp/jsonl.out"
run table --format table --color always
check "the table holds no secret" no_secret "$tmp/table.all"
check "the table shows [REDACTED]" grep -q 'Bearer \[REDACTED\]' "$tmp/table.out"

run plain --format jsonl --no-redact
for s in SECRETBEARER1 SECRETQUERY1 SECRETCOOKIE1 SECRETAPIKEY2 SECRETPW0 SECRETPW1 SECRETBASIC0; do
  check "--no-redact shows $s" grep -q "$s" "$tmp/plain.all"
done
echo "secrets: $passed passed, $failed failed"
[ "$failed" = 0 ]
