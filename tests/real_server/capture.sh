#!/usr/bin/env bash
# Usage: capture.sh [OUT_DIR]
# Re-records the real captures: starts the pinned server on 127.0.0.1, runs the session
# of lib.sh with curl -si, and writes NAME.txt for each request body
# testdata/real/NAME.request.json into OUT_DIR (default: testdata/real itself).
# Session ids, event ids and dates differ on every run; the rest should not.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

OUT=${1:-$RS_REQ_DIR}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
rs_need_tools node npm curl jq timeout
rs_ensure_deps

WORK=$(mktemp -d "${TMPDIR:-/tmp}/mcptriage-capture.XXXXXX")
cleanup() { rs_stop_server; rm -rf "$WORK"; }
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

rs_start_server "$WORK"
echo "# server pid $RS_PID on $RS_URL" >&2
rs_session "$WORK" || { sed 's/^/# /' "$WORK/initialize.txt" >&2; rs_die "initialize gave no session id"; }
rs_stop_server

for name in "${RS_SESSION[@]}"; do
  rc=$(cat "$WORK/$name.curl-rc")
  [[ $rc == 0 ]] || rs_die "curl for $name exited $rc: $(cat "$WORK/$name.curl-stderr")"
  cp "$WORK/$name.txt" "$OUT/$name.txt"
  printf '%-36s HTTP %s  %s\n' "$name.txt" "$(rs_status "$OUT/$name.txt")" \
    "$(rs_header "$OUT/$name.txt" content-type)"
done
echo "# protocol version $RS_PROTOCOL_VERSION; server $(node -p "require('$RS_DIR/node_modules/@modelcontextprotocol/server-everything/package.json').version")" >&2
