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
