#!/usr/bin/env bash
# Authorization triage never prints a secret (docs/auth.md "Redaction"): for
# testdata/hostile/secrets/auth-flow.har, a whole OAuth flow whose authorization code, state,
# code_verifier, client_secret, client_assertion, refresh token and access-token signature all start
# with SECRET, no such value reaches JSON Lines (the auth members and the auth_flow record), the
# table, a JUnit or TAP report, or standard error; the JWT's claims are shown. With --no-redact the
# raw legs in the HTML report do show them (so the check is not vacuous).
# Usage: tests/hostile/auth_secrets.sh MCPTRIAGE
set -u
bin=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
har=$root/testdata/hostile/secrets/auth-flow.har
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=0 passed=0
check() {  # check DESCRIPTION COMMAND...
  if "${@:2}"; then passed=$((passed + 1)); echo "ok   $1"; else failed=$((failed + 1)); echo "FAIL $1"; fi
}
run() {  # run TAG [extra args]: every output of one run into $tmp/TAG.*
  local tag=$1
  shift
  "$bin" --report-junit "$tmp/$tag.junit" --report-tap "$tmp/$tag.tap" --report-html "$tmp/$tag.html" "$@" "$har" \
    >"$tmp/$tag.out" 2>"$tmp/$tag.err"
  cat "$tmp/$tag".out "$tmp/$tag".err "$tmp/$tag".junit "$tmp/$tag".tap "$tmp/$tag".html >"$tmp/$tag.all"
}
no_secret() { ! grep -aoE 'SECRET[A-Z]*[0-9]' "$1" | sort -u | sed 's/^/  leaked: /' | grep .; }

run jsonl --format jsonl
check "JSON Lines, reports and stderr hold no secret" no_secret "$tmp/jsonl.all"
check "one auth_flow record, AUTH_OK" test "$(jq -r 'select(.kind == "auth_flow") | .verdict' "$tmp/jsonl.out")" = AUTH_OK
check "the access token's claims are shown, unverified" \
  test "$(jq -c 'select(.kind == "auth_flow") | .tokens[0].claims | [.verified, .iss, .aud[0], .exp, .scope]' "$tmp/jsonl.out")" = \
  '[false,"http://127.0.0.1:3001","http://127.0.0.1:3000/mcp",1900000000,"mcp:read"]'
check "no personal claim (sub) is shown" bash -c "! grep -q 'user-42' '$tmp/jsonl.all'"
check "the token response names token#1, not the token" \
  test "$(jq -r 'select(.auth.step == "token") | .auth.params.access_token' "$tmp/jsonl.out")" = 'token#1'
run table --format table
check "the table holds no secret" no_secret "$tmp/table.all"
check "the table shows the flow" grep -q 'auth flow 1 (.*): AUTH_OK' "$tmp/table.out"
run plain --format jsonl --no-redact
check "--no-redact: the raw legs (HTML report) show the code" grep -q SECRETCODE1 "$tmp/plain.all"
check "--no-redact: the auth members still hold no secret" no_secret "$tmp/plain.out"
echo "auth secrets: $passed passed, $failed failed"
[ "$failed" = 0 ]
