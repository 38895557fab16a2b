# shellcheck shell=bash
# Shared by the tests/proxy/*.sh scripts: the pinned clients and servers (package-lock.json
# here), the proxy under test started and stopped by pid, and TAP-style checks. Source it after
# setting BIN (the mcptriage binary). Every server and proxy binds 127.0.0.1; every request goes
# to 127.0.0.1.
set -uo pipefail

PX_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
PX_ROOT=$(cd "$PX_DIR/../.." && pwd)
PX_SE_JS=$PX_DIR/node_modules/@modelcontextprotocol/server-everything/dist/index.js
# The MCP Inspector (1.0.3); its --cli mode is the Inspector CLI (tests/wrap/run.sh).
PX_INSPECTOR_JS=$PX_DIR/node_modules/@modelcontextprotocol/inspector/cli/build/cli.js
PX_CLIENTS=$PX_DIR/clients
PX_PASS=0
PX_FAIL=0
PX_PIDS=()   # every process this script started, stopped by pid at exit
PX_PROXY_PID=
PX_PROXY_URL=
PX_PROXY_OUT=
PX_PROXY_ERR=
PX_RC=
# PX_MODE (the scripts' second argument): plain, or sanitized for an ASan build, where peak
# RSS is reported but not held to a bound (ASan's quarantine keeps freed memory).
PX_MODE=${PX_MODE:-plain}

px_die() { echo "error: $*" >&2; exit 2; }

px_setup() {
  local t
  for t in node npm jq curl timeout; do command -v "$t" >/dev/null 2>&1 || px_die "'$t' is needed and not installed"; done
  [[ -x $BIN ]] || px_die "$BIN is not an executable"
  if [[ ! -f $PX_SE_JS || ! -f $PX_INSPECTOR_JS ]]; then
    if ! timeout 20 npm view --fetch-retries=0 @modelcontextprotocol/inspector@1.0.3 version >/dev/null 2>&1; then
      echo "SKIP: the npm registry is unreachable: the pinned clients and server (package-lock.json in $PX_DIR) cannot be installed, $(basename "$0") did not run"
      exit 77
    fi
    echo "# installing the pinned clients and server: npm ci in $PX_DIR" >&2
    (cd "$PX_DIR" && npm ci --no-audit --no-fund) >&2 || px_die "npm ci failed"
  fi
  WORK=$(mktemp -d "${TMPDIR:-/tmp}/mcptriage-proxy-test.XXXXXX")
  trap px_cleanup EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM
}

px_cleanup() {
  local rc=$? pid
  for pid in "${PX_PIDS[@]}"; do
    kill -TERM "$pid" 2>/dev/null || true
  done
  for pid in "${PX_PIDS[@]}"; do
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
  if ((PX_FAIL == 0 && rc == 0)) && [[ ${PROXY_TEST_KEEP:-} != 1 ]]; then rm -rf "$WORK"
  else echo "# work folder kept: $WORK" >&2; fi
}

ok() { echo "ok - $1"; PX_PASS=$((PX_PASS + 1)); }
not_ok() { echo "not ok - $1: $2"; PX_FAIL=$((PX_FAIL + 1)); }
one_line() { head -c "${2:-400}" "$1" 2>/dev/null | tr '\n\r' '  '; }
px_summary() {
  echo "$PX_PASS passed, $PX_FAIL failed"
  ((PX_FAIL == 0))
}

# check DESCRIPTION JQ_EXPR FILE: the jq expression (over the whole file, slurped) is true.
check() {
  local label=$1 expr=$2 file=$3
  if jq -e -s "$expr" "$file" >/dev/null 2>&1; then ok "$label"
  else not_ok "$label" "$(jq -c -s "[.[] | [.source, (if .kind == \"exchange\" then .outcome else .kind end), .reason, .proxy.injected // .action // null]]" "$file" 2>/dev/null | head -c 700 || one_line "$file")"; fi
}

# Waits up to 10 s for a line matching $2 in file $1.
px_wait_for() {
  local i
  for ((i = 0; i < 100; i++)); do
    grep -qs -- "$2" "$1" && return 0
    sleep 0.1
  done
  return 1
}

# server-everything on a free port (127.0.0.1 through the loopback preload): sets SE_URL.
px_start_everything() {
  local port log
  port=$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
  log=$WORK/everything-$port.log
  PORT=$port node --require "$PX_ROOT/tests/real_server/loopback.cjs" "$PX_SE_JS" streamableHttp </dev/null >"$log" 2>&1 &
  PX_PIDS+=($!)
  px_wait_for "$log" "listening on port $port" || px_die "server-everything did not start: $(one_line "$log")"
  SE_URL=http://127.0.0.1:$port/mcp
}

# The scripted upstream (fault_server.cjs): sets FAULT_PORT. Extra environment in "$@".
px_start_fault() {
  local log=$WORK/fault-$RANDOM.log
  env "$@" node "$PX_DIR/fault_server.cjs" </dev/null >"$log" 2>&1 &
  PX_PIDS+=($!)
  px_wait_for "$log" "listening on" || px_die "fault_server did not start: $(one_line "$log")"
  FAULT_PORT=$(sed -n 's/^listening on //p' "$log")
}

# Starts `mcptriage proxy --listen 127.0.0.1:0 "$@"` (JSON Lines on stdout unless "$@" says
# otherwise); sets PX_PROXY_PID, PX_PROXY_URL (its origin), PX_PROXY_OUT, PX_PROXY_ERR.
PX_N=0
px_start_proxy() {
  PX_N=$((PX_N + 1))
  PX_PROXY_OUT=$WORK/proxy-$PX_N.out
  PX_PROXY_ERR=$WORK/proxy-$PX_N.err
  "$BIN" proxy --listen 127.0.0.1:0 "$@" </dev/null >"$PX_PROXY_OUT" 2>"$PX_PROXY_ERR" &
  PX_PROXY_PID=$!
  PX_PIDS+=("$PX_PROXY_PID")
  if ! px_wait_for "$PX_PROXY_ERR" "listening on http://"; then
    PX_PROXY_URL=
    return 1
  fi
  PX_PROXY_URL=$(sed -n 's/^mcptriage proxy: listening on \(http:\/\/[0-9.:]*\),.*/\1/p' "$PX_PROXY_ERR")
}

# Stops the proxy with signal $1 (default TERM) and waits (at most 10 s); sets PX_RC.
px_stop_proxy() {
  local sig=${1:-TERM} i
  PX_RC=
  kill -"$sig" "$PX_PROXY_PID" 2>/dev/null || true
  for ((i = 0; i < 100; i++)); do kill -0 "$PX_PROXY_PID" 2>/dev/null || break; sleep 0.1; done
  if kill -0 "$PX_PROXY_PID" 2>/dev/null; then
    kill -KILL "$PX_PROXY_PID" 2>/dev/null
    PX_RC=killed
  fi
  wait "$PX_PROXY_PID" 2>/dev/null
  local rc=$?
  [[ $PX_RC == killed ]] || PX_RC=$rc
}

# A JSON-RPC POST of body $2 to URL $1 with curl; extra curl arguments after. Prints curl -w output.
px_post() {
  local url=$1 body=$2
  shift 2
  curl -s -o /dev/null -w '%{http_code}' --max-time 10 -X POST "$url" -H 'Content-Type: application/json' \
    -H 'Accept: application/json, text/event-stream' "$@" --data-binary "$body"
}

# px_check_schema FILE...: every JSON Lines record in the files (the proxy's outputs; tables and
# empty files passed over) validates against docs/output.schema.json.
px_check_schema() {
  local out
  if out=$(/usr/bin/python3 "$PX_ROOT/tests/cli/validate_schema.py" "$PX_ROOT/docs/output.schema.json" "$@" 2>&1); then
    ok "the proxy's JSON Lines validate against docs/output.schema.json ($(tail -1 <<<"$out"))"
  else
    not_ok "the proxy's JSON Lines validate against docs/output.schema.json" "$(head -c 900 <<<"$out" | tr '\n' ' ')"
  fi
}
