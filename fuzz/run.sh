#!/usr/bin/env bash
# Builds the libFuzzer targets (clang 14, -DMCPTRIAGE_FUZZ=ON, in build-fuzz/) and runs each one
# for a bounded time. Crashes, leaks and property violations are saved under
# build-fuzz/findings/ and make the script exit 1; the corpus grows in build-fuzz/corpus/.
#
# Usage: fuzz/run.sh [seconds_per_target] [target...]     (default 60 s, every target)
# Environment: FUZZ_BUILD_DIR (build-fuzz), FUZZ_CXX (clang++-14, else clang++),
#              FUZZ_ARGS (extra libFuzzer flags, e.g. "-jobs=2 -workers=2"),
#              FUZZ_PARALLEL (targets run side by side; default 2 on two or more cores).
# Long runs: fuzz/run.sh 3600 fuzz_pipeline. Reproduce: build-fuzz/fuzz/TARGET FILE.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-60}
shift || true
all_targets=(fuzz_read_capture fuzz_http fuzz_sse fuzz_classify fuzz_pipeline)
if [ $# -gt 0 ]; then targets=("$@"); else targets=("${all_targets[@]}"); fi
build=${FUZZ_BUILD_DIR:-build-fuzz}
cxx=${FUZZ_CXX:-}
if [ -z "$cxx" ]; then
  if command -v clang++-14 >/dev/null 2>&1; then cxx=clang++-14; else cxx=clang++; fi
fi
if ! command -v "$cxx" >/dev/null 2>&1; then
  echo "fuzz: $cxx not found (install clang-14 and libclang-rt-14-dev: scripts/setup --all does)" >&2
  exit 2
fi

echo "fuzz: building ${targets[*]} with $cxx in $build"
cmake -S . -B "$build" -G Ninja -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DMCPTRIAGE_FUZZ=ON -DMCPTRIAGE_TESTS=OFF -DMCPTRIAGE_WERROR=OFF >/dev/null
cmake --build "$build" --target "${targets[@]}"

# Seeds: every capture in testdata (samples, real captures, golden case inputs, hostile
# files) and the hand-made seeds in fuzz/seeds/, deduplicated by content.
seeds="$build/seeds"
rm -rf "$seeds"
mkdir -p "$seeds"
while IFS= read -r -d '' f; do
  case "$(basename "$f")" in
    args | exit | expected.out | expected.err | README.md | *.manifest) continue ;;
  esac
  cp "$f" "$seeds/$(sha1sum "$f" | cut -c1-16)"
done < <(find testdata/samples testdata/real testdata/cases testdata/hostile fuzz/seeds -type f -size -256k -print0 2>/dev/null)
echo "fuzz: $(find "$seeds" -type f | wc -l) seed files"

findings="$build/findings"
mkdir -p "$findings"

# One target: its verdict lines go to $build/result-TARGET, its exit status is the target's.
run_target() {
  local t=$1 corpus="$build/corpus/$1" log="$build/fuzz-$1.log" result="$build/result-$1" start stats
  mkdir -p "$corpus"
  start=$(date +%s)
  # shellcheck disable=SC2086
  if "$build/fuzz/$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2560 -max_len=65536 \
       -dict=fuzz/mcptriage.dict -artifact_prefix="$findings/$t-" -print_final_stats=1 \
       ${FUZZ_ARGS:-} "$corpus" "$seeds" >"$log" 2>&1; then
    stats=$(grep -E '^stat::number_of_executed_units' "$log" | awk '{print $2}')
    echo "fuzz: $t ok ($(( $(date +%s) - start )) s, ${stats:-?} runs, corpus $(find "$corpus" -type f | wc -l))" >"$result"
  else
    {
      echo "fuzz: $t FAILED; log $log; findings:"
      ls -1 "$findings" | grep "^$t-" | sed "s|^|  $findings/|" || true
      grep -E 'ERROR|property violated|SUMMARY|runtime error' "$log" | head -20 | sed 's/^/  /'
    } >"$result"
    return 1
  fi
}

# Each target is one single-threaded process, so FUZZ_PARALLEL targets (default: one per core,
# at most 2) run side by side: the same seconds of fuzzing per target in less wall time.
parallel=${FUZZ_PARALLEL:-$(( $(nproc) >= 2 ? 2 : 1 ))}
status=0
running=0
for t in "${targets[@]}"; do
  rm -f "$build/result-$t"
  if [ "$running" -ge "$parallel" ]; then
    wait -n || status=1
    running=$((running - 1))
  fi
  run_target "$t" &
  running=$((running + 1))
done
while [ "$running" -gt 0 ]; do
  wait -n || status=1
  running=$((running - 1))
done
for t in "${targets[@]}"; do
  cat "$build/result-$t" 2>/dev/null || { echo "fuzz: $t FAILED; no result (see $build/fuzz-$t.log)"; status=1; }
done
exit $status
