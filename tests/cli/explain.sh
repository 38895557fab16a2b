#!/usr/bin/env bash
# `mcptriage explain` (src/cli/explain.cpp): it works for every reason code and outcome that
# docs/classification.md documents, each with a spec link; output errors; bash completion.
# Entries themselves are golden cases (testdata/cases/explain-*); the docs' tables are checked
# against the catalogue by the unit tests CatalogueDocs.*.
set -u
bin=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/tests/cli/lib.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$bin" explain --list >/dev/full 2>"$work/full.err"
check "a full disk is exit 4 (the output could not be written)" test $? = 4
check "... with a message" grep -qx "mcptriage: error: explain: cannot write standard output: No space left on device" "$work/full.err"
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

# The codes of docs/classification.md's "Reasons" tables (first column; the outcome table's second).
documented=$(/usr/bin/python3 - "$root/docs/classification.md" <<'PY'
import re, sys
codes, section, sub = [], None, ""
for line in open(sys.argv[1], encoding="utf-8"):
    if line.startswith("## "): section = line.strip()
    if section != "## Reasons": continue
    if line.startswith("### "): sub = line[4:]; continue
    if not line.startswith("| ") or line.startswith("| ---"): continue
    cells = [c.strip() for c in line.strip().strip("|").split("|")]
    if cells[0] in ("reason", "outcome"): continue
    cell = cells[1] if sub.startswith("Success and interaction") else cells[0]
    for code in re.findall(r"`([a-z][a-z0-9_]*)`", cell):
        if code not in codes: codes.append(code)
print("\n".join(codes))
PY
)
check "docs/classification.md documents over 100 reason codes" test "$(wc -l <<<"$documented")" -gt 100
# A section of the MCP specification (of a version), of an MCP extension, of an RFC or of JSON-RPC 2.0.
link='https://(modelcontextprotocol\.io/(specification/[0-9]{4}-[0-9]{2}-[0-9]{2}|extensions)/[^ #]+#[^ #]+|www\.rfc-editor\.org/rfc/rfc[0-9]+#section-[0-9.]+|www\.jsonrpc\.org/specification#[a-z_]+)'
# One explain run for many names (a process each cost minutes under ASan); entries_of picks the
# entries headed `reason NAME` or `outcome NAME` out of its output.
entries_of() { awk -v h="$1" '/^[a-z]/ { on = ($0 == h) } on' <<<"$2"; }
bad=""
# shellcheck disable=SC2086
all=$("$bin" explain $documented 2>&1) || bad=" (explain of them all failed)"
for code in $documented; do
  out=$(entries_of "reason $code" "$all")
  [ -n "$out" ] || { bad="$bad $code(entry)"; continue; }
  specs=$(grep -c '^  spec ' <<<"$out")
  [ "$specs" -gt 0 ] && [ "$(grep -Ec "^  spec     $link\$" <<<"$out")" = "$specs" ] || bad="$bad $code(spec)"
done
check "explain prints an entry with a spec link for every documented reason code${bad:+: not for$bad}" test -z "$bad"
bad=""
outcomes="TOOL_SUCCESS TOOL_ERROR RPC_SUCCESS INPUT_REQUIRED TASK_CREATED ACCEPTED HTTP_ERROR INVALID_HTTP_RESPONSE
          STREAM_INCOMPLETE MALFORMED_JSON INVALID_ENVELOPE JSONRPC_ERROR INVALID_TOOL_RESULT INVALID_RESULT NOT_CAPTURED"
# shellcheck disable=SC2086
all=$("$bin" explain $outcomes 2>/dev/null) || bad=" (explain of them all failed)"
for o in $outcomes; do
  entries_of "outcome $o" "$all" | grep -Eq "^  spec     $link\$" || bad="$bad $o"
done
check "explain prints an entry with a spec link for every outcome${bad:+: not for$bad}" test -z "$bad"

# Each record's `spec` is the one explain prints for its reason under its outcome.
bad=""
triples=$(find "$root/testdata/samples" "$root/testdata/real" "$root/testdata/cases" -type f ! -name 'args' \
            ! -name 'expected.*' ! -name 'exit' ! -name '*.md' ! -name '*.manifest' ! -name '*.request.json' -print0 |
          xargs -0 "$bin" -q --format jsonl 2>/dev/null |
          jq -r 'select(.kind == "exchange") | [.reason, .outcome, .spec] | @tsv' | sort -u)
check "the bundled captures give over 100 reason/outcome/spec triples" test "$(wc -l <<<"$triples")" -gt 100
# shellcheck disable=SC2046
all=$("$bin" explain $(cut -f1 <<<"$triples" | sort -u) 2>/dev/null) || bad=" (explain of them all failed)"
while IFS=$'\t' read -r reason outcome spec; do
  entries_of "reason $reason" "$all" | awk -v o="$outcome" -v s="$spec" \
    '/^  outcome/ { cur = $2 } /^  spec/ { if (cur == o && $2 == s) found = 1 } END { exit !found }' ||
    bad="$bad $reason/$outcome"
done <<<"$triples"
check "every bundled record's spec is its reason's catalogue entry${bad:+: not for$bad}" test -z "$bad"

complete_words() {
  bash -c '. "$0"; COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 )); _mcptriage; printf "%s\n" "${COMPREPLY[@]}"' \
    "$root/completions/mcptriage.bash" "$@"
}
check "bash completes explain" grep -qx explain <<<"$(complete_words "$bin" expl)"
check "bash completes reason codes after explain" grep -qx session_expired <<<"$(complete_words "$bin" explain session_e)"
check "bash completes outcomes after explain" grep -qx STREAM_INCOMPLETE <<<"$(complete_words "$bin" explain STREAM)"
check "no bogus 'skipped' name" test -z "$(complete_words "$bin" explain skipped)"
# A capture file named like the subcommand is read as ./explain (the man page, SYNOPSIS).
mkdir -p "$work/named" && printf '{"jsonrpc":"2.0","id":1,"result":{}}' >"$work/named/explain"
(cd "$work/named" && "$bin" -q ./explain) >"$work/named.out"
check "a capture named explain is read as ./explain" grep -q '"source":"./explain#1"' "$work/named.out"
finish
