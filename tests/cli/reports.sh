#!/usr/bin/env bash
# CI features end to end: a manifest suite, JUnit XML checked by xmllint against docs/junit.xsd,
# a TAP stream checked by prove, --fail-on, the summary line and --quiet, exit codes.
# Usage: reports.sh MCPTRIAGE_BINARY
set -u
bin=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/tests/cli/lib.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# A passing suite: the real session's captures and their manifest.
"$bin" --manifest "$root/testdata/real/real.manifest" --report-junit "$work/ok.xml" --report-tap "$work/ok.tap" \
  >"$work/ok.jsonl" 2>"$work/ok.err"
check "manifest suite passes (exit 0)" test $? = 0
check "one record per capture (11)" test "$(wc -l <"$work/ok.jsonl")" = 11
check "JUnit report validates against docs/junit.xsd" xmllint --noout --schema "$root/docs/junit.xsd" "$work/ok.xml"
check "JUnit report has 11 testcases, 0 failures" grep -q 'tests="11" failures="0" errors="0"' "$work/ok.xml"
check "TAP report is accepted by prove" prove --exec cat "$work/ok.tap"
check "summary line on stderr" grep -q '^mcptriage: 11 exchanges: .*expectations 11 held, 0 broken$' "$work/ok.err"

# A failing suite: one wrong expectation, one missing capture, one unsupported file.
mkdir -p "$work/suite"
cp "$root/testdata/real/tools-call-success.txt" "$root/testdata/real/bogus-session.txt" "$work/suite/"
cp "$root/testdata/hostile/mitmproxy-flows.mitm" "$work/suite/"
cat >"$work/suite/suite.manifest" <<'M'
# a comment
tools-call-success.txt   TOOL_SUCCESS layer=application
bogus-session.txt        TOOL_SUCCESS,RPC_SUCCESS   # wrong on purpose
missing.txt              TOOL_SUCCESS
mitmproxy-flows.mitm     TOOL_SUCCESS
M
"$bin" --manifest "$work/suite/suite.manifest" --report-junit "$work/bad.xml" --report-tap "$work/bad.tap" \
  >"$work/bad.jsonl" 2>"$work/bad.err"
check "input errors win over broken expectations (exit 3)" test $? = 3
check "broken expectation named on stderr" grep -q 'expectation broken: .*bogus-session.txt#1 is HTTP_ERROR (session_invalid, layer transport), expected TOOL_SUCCESS or RPC_SUCCESS' "$work/bad.err"
check "failing JUnit report still validates" xmllint --noout --schema "$root/docs/junit.xsd" "$work/bad.xml"
check "JUnit counts 1 failure and 2 errors" grep -q 'tests="4" failures="1" errors="2"' "$work/bad.xml"
check "JUnit failure message carries outcome and reason" grep -q '<failure message="[^"]*HTTP_ERROR (session_invalid' "$work/bad.xml"
check "prove reports the failing TAP stream as failed" bash -c '! prove --exec cat "$0" >/dev/null 2>&1' "$work/bad.tap"
check "TAP has 4 test points, 3 not ok" test "$(grep -c '^not ok' "$work/bad.tap")" = 3

# Tool text with U+FFFE, U+FFFF and a C0 control (not XML 1.0 Char): replaced, still well-formed.
"$bin" -q --report-junit "$work/nonchar.xml" "$root/testdata/cases/regress-junit-noncharacters/input.json" \
  >/dev/null 2>&1
check "JUnit report with U+FFFE/U+FFFF in tool text validates" \
  xmllint --noout --schema "$root/docs/junit.xsd" "$work/nonchar.xml"

# Only a broken expectation: exit 1.
printf 'tools-call-success.txt TOOL_ERROR\n' >"$work/suite/one.manifest"
"$bin" -q --manifest "$work/suite/one.manifest" >/dev/null 2>"$work/one.err"
check "broken manifest expectation exits 1" test $? = 1
check "--quiet drops the summary line" bash -c '! grep -q "exchanges" "$0"' "$work/one.err"
printf 'tools-call-success.txt BOGUS\n' >"$work/suite/bad.manifest"
"$bin" --manifest "$work/suite/bad.manifest" >/dev/null 2>"$work/badm.err"
check "manifest with an unknown outcome is a usage error (exit 2)" test $? = 2
check "manifest error names the line" grep -q "line 1: 'BOGUS' is not an outcome name" "$work/badm.err"

# --fail-on.
"$bin" -q --fail-on HTTP_ERROR "$root/testdata/real/bogus-session.txt" >/dev/null 2>"$work/f.err"
check "--fail-on HTTP_ERROR fails on a 400 (exit 1)" test $? = 1
"$bin" -q --fail-on HTTP_ERROR,STREAM_INCOMPLETE "$root/testdata/real/tools-call-success.txt" >/dev/null 2>&1
check "--fail-on passes when no exchange matches (exit 0)" test $? = 0
"$bin" -q --fail-on NOPE "$root/testdata/real/tools-call-success.txt" >/dev/null 2>&1
check "--fail-on with an unknown outcome is a usage error" test $? = 2

# --expect with a positional after it, repeated --expect, and TAP to stdout.
"$bin" -q --expect TOOL_SUCCESS --expect TOOL_ERROR "$root/testdata/real/tools-call-success.txt" \
  "$root/testdata/real/tools-call-unknown-tool.txt" >/dev/null 2>&1
check "repeated --expect accepts either outcome" test $? = 0
out=$("$bin" -q --format jsonl --report-tap - "$root/testdata/real/tools-call-success.txt" 2>/dev/null | tail -n +2)
check "--report-tap - writes TAP to stdout after the records" grep -q '^TAP version 13' <<<"$out"
# HTML and OTLP into standard output come whole after the records, not interleaved with them
# (their sinks wrote into the records' own buffer: the page's head came before the first record).
rec="$root/testdata/cases/proxy-recording/session.jsonl"
nrec=$("$bin" -q --format jsonl "$rec" 2>/dev/null | wc -l)
"$bin" -q --format jsonl --report-otlp - "$rec" >"$work/otlp-stdout" 2>/dev/null
check "--report-otlp -: the records first, unchanged" cmp -s <("$bin" -q --format jsonl "$rec" 2>/dev/null) <(head -n "$nrec" "$work/otlp-stdout")
check "--report-otlp -: then one OTLP/JSON document" python3 -c 'import json,sys; d=json.load(sys.stdin); assert d["resourceSpans"][0]["scopeSpans"][0]["spans"]' < <(tail -n +"$((nrec + 1))" "$work/otlp-stdout")
"$bin" -q --format jsonl --report-html - "$rec" >"$work/html-stdout" 2>/dev/null
check "--report-html -: the records first" cmp -s <("$bin" -q --format jsonl "$rec" 2>/dev/null) <(head -n "$nrec" "$work/html-stdout")
check "--report-html -: then the page, whole" bash -c 'tail -n +'"$((nrec + 1))"' "$1" | head -1 | grep -q "^<!DOCTYPE html>" && tail -1 "$1" | grep -q "^</html>"' _ "$work/html-stdout"

finish
