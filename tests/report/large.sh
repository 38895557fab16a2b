#!/usr/bin/env bash
# Usage: large.sh PATH_TO_MCPTRIAGE [EXCHANGES] [plain|sanitized]
# A large HTML session report (issue 18: "a report of 100,000 exchanges opens and scrolls"):
# bench/gen.js writes a JSON Lines exchange log of EXCHANGES (default 100000) exchanges of the
# realistic mix, mcptriage writes its report (bounded size and memory: checked), and headless
# Chromium (tests/report/load.cjs) loads it, counts every exchange, scrolls to the end and shows
# the last one, with no console error. Exit 77 (skipped) only when chromium or node is absent.
set -euo pipefail
BIN=$1
N=${2:-100000}
BUILD_KIND=${3:-plain}  # under ASan the quarantine holds freed memory: RSS is reported, not bounded
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
if [[ ! -x $CHROMIUM ]]; then echo "# SKIP: no chromium at $CHROMIUM (scripts/setup --all installs Debian's chromium)"; exit 77; fi
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then echo "# SKIP: node and npm are needed"; exit 77; fi
export CHROMIUM
if [[ ! -d $HERE/node_modules/playwright-core ]]; then
  echo "# installing the pinned test tools: npm ci in $HERE" >&2
  (cd "$HERE" && npm ci --no-audit --no-fund) >&2
fi
WORK=$(mktemp -d "${TMPDIR:-/tmp}/mcptriage-large.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
FAIL=0
ok() { echo "ok - $1"; }
bad() { echo "not ok - $1"; FAIL=$((FAIL + 1)); }

start=$(date +%s.%N)
node "$ROOT/bench/gen.js" jsonl --out "$WORK/big.jsonl" --exchanges "$N" >/dev/null
echo "# generated $N exchanges ($(stat -c %s "$WORK/big.jsonl") bytes) in $(echo "$(date +%s.%N) - $start" | bc) s"

rc=0
/usr/bin/time -f "%e %M" -o "$WORK/time" "$BIN" -q --format jsonl --report-html "$WORK/big.html" "$WORK/big.jsonl" \
  >/dev/null 2>"$WORK/stderr" || rc=$?
read -r secs rss <"$WORK/time" || true
size=$(stat -c %s "$WORK/big.html" 2>/dev/null || echo 0)
echo "# mcptriage: exit $rc, ${secs:-?} s, peak RSS ${rss:-?} KiB; report $size bytes"
if ((rc <= 1)); then ok "mcptriage writes the report (exit $rc)"; else bad "mcptriage writes the report: exit $rc: $(head -c 300 "$WORK/stderr")"; fi
# The budget (HtmlBudget: 8 + 24 MiB of detail) plus some 130 bytes a row.
limit=$((32 * 1048576 + N * 300))
if ((size > 0 && size < limit)); then ok "the report is $size bytes, under $limit"; else bad "the report is $size bytes, not under $limit"; fi
# Memory stays bounded while writing (records stream out; the string table is capped).
if [[ $BUILD_KIND == sanitized ]]; then echo "# peak RSS ${rss:-?} KiB (sanitized build: not bounded)"
elif [[ -n ${rss:-} ]] && ((rss < 200 * 1024)); then ok "peak RSS ${rss} KiB under 200 MiB"; else bad "peak RSS ${rss:-?} KiB under 200 MiB"; fi
if (( N * 3000 > 32 * 1048576 )); then
  if grep -q '^\[6,' "$WORK/big.html" && ! grep -q "^\[6,$N," "$WORK/big.html"; then ok "past the budget, not every row keeps its detail"
  else bad "past the budget, not every row keeps its detail"; fi
fi

# Loads in Chromium within 60 s (about 10 s on an idle 2-core machine for 100,000 rows).
node "$HERE/load.cjs" "$WORK/big.html" "$N" "$WORK/big.jsonl#$N" 60 >"$WORK/load.out" 2>&1 || true
cat "$WORK/load.out"
if grep -q '^not ok' "$WORK/load.out" || ! grep -q '^ok - no console errors' "$WORK/load.out"; then FAIL=$((FAIL + 1)); fi
((FAIL == 0))
