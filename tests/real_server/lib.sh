# shellcheck shell=bash
# Shared by run.sh and capture.sh: install, start and stop the pinned MCP server, and
# drive one real Streamable HTTP session against it with curl. Source it; don't run it.
# Traffic goes to 127.0.0.1 only.

RS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
RS_REQ_DIR=$(cd "$RS_DIR/../../testdata/real" && pwd)
RS_SERVER_JS=$RS_DIR/node_modules/@modelcontextprotocol/server-everything/dist/index.js
RS_PORT_FIRST=${REAL_SERVER_PORT_FIRST:-39000}
RS_PORT_LAST=${REAL_SERVER_PORT_LAST:-39199}
RS_START_TIMEOUT=${REAL_SERVER_START_TIMEOUT:-30}   # seconds
RS_CURL_MAX_TIME=${REAL_SERVER_CURL_MAX_TIME:-20}   # seconds, per request
RS_BOGUS_SESSION=00000000-0000-4000-8000-00000000dead
RS_PID=
RS_URL=
RS_LOG=

rs_die() { echo "error: $*" >&2; exit 2; }

rs_need_tools() {
  local t
  for t in "$@"; do command -v "$t" >/dev/null 2>&1 || rs_die "'$t' is needed and not installed"; done
}

# npm ci from the committed package-lock.json when node_modules is missing.
rs_ensure_deps() {
  if [[ ! -f $RS_SERVER_JS ]]; then
    echo "# installing the pinned server: npm ci in $RS_DIR" >&2
    (cd "$RS_DIR" && npm ci --no-audit --no-fund) >&2 || rs_die "npm ci failed"
  fi
  [[ -f $RS_SERVER_JS ]] || rs_die "$RS_SERVER_JS missing after npm ci"
}

# True when something accepts connections on 127.0.0.1:$1.
rs_port_answers() {
  # shellcheck disable=SC2016  # $1 expands in the inner bash
  timeout 2 bash -c 'exec 3<>"/dev/tcp/127.0.0.1/$1"' _ "$1" 2>/dev/null
}

# True when nothing listens on port $1 on any address.
rs_port_free() {
  local p=$1
  if command -v ss >/dev/null 2>&1; then
    [[ -z $(ss -Hltn "sport = :$p" 2>/dev/null) ]] || return 1
  fi
  ! rs_port_answers "$p"
}

# Stops the server this shell started (only that pid), and waits for it.
rs_stop_server() {
  local pid=$RS_PID i
  [[ -n $pid ]] || return 0
  RS_PID=
  if kill -0 "$pid" 2>/dev/null; then
    kill -TERM "$pid" 2>/dev/null || true
    for ((i = 0; i < 50; i++)); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
    if kill -0 "$pid" 2>/dev/null; then kill -KILL "$pid" 2>/dev/null || true; fi
  fi
  wait "$pid" 2>/dev/null || true
}

# Starts the server on the first free port from RS_PORT_FIRST; sets RS_PID,
# RS_URL, RS_LOG. $1: folder for the server log. The caller must trap EXIT to call
# rs_stop_server. Fails (with the log) when the server does not answer in time.
rs_start_server() {
  local logdir=$1 port=$RS_PORT_FIRST attempts=0 deadline limit=$((RS_START_TIMEOUT > 0 ? RS_START_TIMEOUT : 1))
  while ((attempts < 5)); do
    while ((port <= RS_PORT_LAST)) && ! rs_port_free "$port"; do port=$((port + 1)); done
    ((port <= RS_PORT_LAST)) || rs_die "no free port in $RS_PORT_FIRST..$RS_PORT_LAST"
    attempts=$((attempts + 1))
    RS_LOG=$logdir/server-$port.log
    : >"$RS_LOG"
    # The loopback preload keeps the server off other interfaces (it has no host option).
    PORT=$port node --require "$RS_DIR/loopback.cjs" "$RS_SERVER_JS" streamableHttp \
      </dev/null >"$RS_LOG" 2>&1 &
    RS_PID=$!
    deadline=$((SECONDS + limit))
    while ((SECONDS < deadline)); do
      if ! kill -0 "$RS_PID" 2>/dev/null; then break; fi
      if grep -qs "listening on port $port" "$RS_LOG" && rs_port_answers "$port"; then
        RS_URL=http://127.0.0.1:$port/mcp
        return 0
      fi
      sleep 0.2
    done
    if kill -0 "$RS_PID" 2>/dev/null; then
      rs_stop_server
      echo "server did not answer on 127.0.0.1:$port within ${limit}s; its log:" >&2
      sed 's/^/# server: /' "$RS_LOG" >&2
      exit 2
    fi
    wait "$RS_PID" 2>/dev/null || true
    RS_PID=
    if grep -q "EADDRINUSE\|already in use" "$RS_LOG"; then
      port=$((port + 1))   # lost a race for the port: try the next one
      continue
    fi
    echo "server exited during start-up; its log:" >&2
    sed 's/^/# server: /' "$RS_LOG" >&2
    exit 2
  done
  rs_die "could not start the server after $attempts attempts"
}

# HTTP status code of the (first) response in a curl -si capture.
rs_status() { tr -d '\r' <"$1" | awk '/^HTTP\//{print $2; exit}'; }

# Value of header $2 (case-insensitive) in a curl -si capture's first header block.
rs_header() {
  tr -d '\r' <"$1" | awk -v h="$2" '
    NR > 1 && $0 == "" { exit }
    { i = index($0, ":"); if (i && tolower(substr($0, 1, i - 1)) == tolower(h)) {
        v = substr($0, i + 1); sub(/^[ \t]+/, "", v); print v; exit } }'
}

# The JSON-RPC messages of a capture, one per line: the `data` of each SSE event (the
# server sends one-line data) or the JSON body. Priming events (empty data) are skipped.
rs_messages() {
  local ct
  ct=$(rs_header "$1" content-type)
  if [[ ${ct,,} == text/event-stream* ]]; then
    tr -d '\r' <"$1" | sed -n 's/^data: \{0,1\}//p' | grep -v '^$' || true
  else
    tr -d '\r' <"$1" | awk 'body { print } !body && $0 == "" { body = 1 }'
  fi
}

# One POST of testdata/real/$1.request.json; the raw `curl -si` output goes to $2/$1.txt
# and curl's exit code to $2/$1.curl-rc. Further arguments are extra curl arguments.
rs_post() {
  local name=$1 out=$2 rc=0
  shift 2
  curl -sSi --max-time "$RS_CURL_MAX_TIME" -X POST "$RS_URL" \
    -H 'Content-Type: application/json' \
    -H 'Accept: application/json, text/event-stream' \
    "$@" --data-binary @"$RS_REQ_DIR/$name.request.json" \
    >"$out/$name.txt" 2>"$out/$name.curl-stderr" || rc=$?
  echo "$rc" >"$out/$name.curl-rc"
  return 0
}

# The session, in order. Writes NAME.txt for each NAME in RS_SESSION into $1.
# Sets RS_SESSION_ID and RS_PROTOCOL_VERSION from the initialize reply.
# Returns 1 when initialize gave no session id (the rest is then not sent).
RS_SESSION=(
  initialize
  initialized-notification
  tools-list
  tools-call-success
  tools-call-unknown-tool
  tools-call-invalid-arguments
  tools-call-long-running-progress
  tools-call-missing-name
  malformed-json-body
  tools-call-task-created
  bogus-session
)
rs_session() {
  local out=$1 name
  local -a h
  rs_post initialize "$out"
  RS_SESSION_ID=$(rs_header "$out/initialize.txt" mcp-session-id)
  RS_PROTOCOL_VERSION=$(rs_messages "$out/initialize.txt" |
    jq -r 'select(.id == 1) | .result.protocolVersion // empty' 2>/dev/null | head -n1)
  [[ -n $RS_SESSION_ID ]] || return 1
  # As a real client does after initialize: the session id and the negotiated version.
  local -a v=()
  [[ -z $RS_PROTOCOL_VERSION ]] || v=(-H "MCP-Protocol-Version: $RS_PROTOCOL_VERSION")
  h=(-H "Mcp-Session-Id: $RS_SESSION_ID" "${v[@]}")
  for name in "${RS_SESSION[@]:1}"; do
    if [[ $name == bogus-session ]]; then
      rs_post "$name" "$out" -H "Mcp-Session-Id: $RS_BOGUS_SESSION" "${v[@]}"
    else
      rs_post "$name" "$out" "${h[@]}"
    fi
  done
  # End the session the way a client does (not captured).
  curl -s -o /dev/null --max-time 5 -X DELETE "$RS_URL" "${h[@]}" || true
}
