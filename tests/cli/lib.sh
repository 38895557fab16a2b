# Shared helpers for the CLI tests: `check NAME COMMAND...` and a final summary line.
PASS=0
FAIL=0
check() {
  local name=$1
  shift
  if "$@"; then
    PASS=$((PASS + 1))
    echo "ok - $name"
  else
    FAIL=$((FAIL + 1))
    echo "not ok - $name"
  fi
}
finish() {
  echo "$PASS passed, $FAIL failed"
  [ "$FAIL" = 0 ]
}
# `need_tools TOOL...`: skip the test (exit 77, ctest's SKIP_RETURN_CODE) unless every TOOL runs.
need_tools() {
  local t
  for t in "$@"; do
    if ! command -v "$t" >/dev/null; then
      echo "skip: needs $t"
      exit 77
    fi
  done
}
