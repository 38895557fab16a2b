#!/usr/bin/env bash
# Usage: run.sh PATH_TO_MCPTRIAGE
# The HTML session report in a real browser (headless Chromium from Debian's `chromium`
# package, installed by scripts/setup) and the OTLP report through the official protobuf
# definitions (opentelemetry-proto, as generated in @opentelemetry/otlp-proto-exporter-base):
#  - the real server-everything captures (testdata/real) and a proxy recording with replays;
#  - hostile captures (tests/report/hostile: script tags and event-handler attributes in a tool's
#    output, a header, a tool name, an id, event data; credentials to redact).
# Screenshots are kept in $REPORT_ARTIFACTS (default: ./report-artifacts under the current folder).
# Exit 77 (skipped) only when chromium or node is absent.
set -euo pipefail
BIN=$1
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
if [[ ! -x $CHROMIUM ]]; then echo "# SKIP: no chromium at $CHROMIUM (scripts/setup --all installs Debian's chromium)"; exit 77; fi
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then echo "# SKIP: node and npm are needed"; exit 77; fi
export CHROMIUM
if [[ ! -d $HERE/node_modules/playwright-core || ! -d $HERE/node_modules/@opentelemetry/otlp-proto-exporter-base ]]; then
  echo "# installing the pinned test tools: npm ci in $HERE" >&2
  (cd "$HERE" && npm ci --no-audit --no-fund) >&2
fi
ART=${REPORT_ARTIFACTS:-$PWD/report-artifacts}
mkdir -p "$ART"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/mcptriage-report.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
FAIL=0
PASS=0
tally() { while IFS= read -r line; do echo "$line"; case $line in "ok - "*) PASS=$((PASS + 1)) ;; "not ok - "*) FAIL=$((FAIL + 1)) ;; esac; done; }

# One run: its records, its HTML report and its OTLP report; then the checks.
one() {
  local name=$1 flag=$2
  shift 2
  echo "# $name: mcptriage $*"
  local rc=0
  MCPTRIAGE_NOW=1764633600 "$BIN" --format jsonl -q --report-html "$WORK/$name.html" --report-otlp "$WORK/$name.otlp.json" "$@" \
    >"$WORK/$name.jsonl" 2>"$WORK/$name.stderr" || rc=$?
  if ((rc > 1)); then echo "not ok - $name: mcptriage exits 0 or 1: exit $rc: $(head -c 300 "$WORK/$name.stderr")"; FAIL=$((FAIL + 1)); return; fi
  local n f
  n=$(jq -s '[.[] | select(.kind == "exchange")] | length' "$WORK/$name.jsonl")
  f=$(jq -s '[.[] | select(.kind == "exchange" and (.outcome | IN("HTTP_ERROR","INVALID_HTTP_RESPONSE","STREAM_INCOMPLETE","MALFORMED_JSON","INVALID_ENVELOPE","JSONRPC_ERROR","INVALID_TOOL_RESULT","INVALID_RESULT","TOOL_ERROR")))] | length' "$WORK/$name.jsonl")
  echo "# $name: $n exchanges, $f failures"
  tally < <(node "$HERE/browser.cjs" "$WORK/$name.html" "$ART/$name.png" "$n" "$f" $flag 2>&1 | sed "s/^\(not \)\{0,1\}ok - /&$name: /")
  tally < <(node "$HERE/otlp_check.cjs" "$WORK/$name.otlp.json" "$n" "$f" 2>&1 | sed "s/^\(not \)\{0,1\}ok - /&$name: otlp: /")
  cp "$WORK/$name.html" "$WORK/$name.otlp.json" "$ART/" 2>/dev/null || true
}

one real "" "$ROOT/testdata/real"
one proxy-session --replays "$ROOT/testdata/cases/proxy-recording/session.jsonl"
one hostile --hostile "$HERE/hostile"
echo "# artifacts: $ART"
echo "$PASS passed, $FAIL failed"
((FAIL == 0))
