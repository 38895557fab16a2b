#!/usr/bin/env bash
# Every JSON Lines record the tool writes for the bundled captures validates against
# docs/output.schema.json (python3-jsonschema, Debian's package; tests/cli/validate_schema.py). The
# proxy's records (exchange with timing and proxy, client_behaviour, proxy_summary) are validated by
# the proxy tests (px_check_schema in tests/proxy/lib.sh).
set -u
bin=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/tests/cli/lib.sh"
out=$(mktemp)
trap 'rm -f "$out"' EXIT
# Inputs: samples, the real session, and every golden case's inputs.
find "$root/testdata/samples" "$root/testdata/real" "$root/testdata/cases" -type f \
  ! -name 'args' ! -name 'expected.*' ! -name 'exit' ! -name '*.md' ! -name '*.manifest' ! -name '*.request.json' \
  -print0 | sort -z | xargs -0 "$bin" -q --format jsonl >"$out" 2>/dev/null
check "records were produced ($(wc -l <"$out"))" test -s "$out"
check "every record validates against docs/output.schema.json" /usr/bin/python3 "$root/tests/cli/validate_schema.py" \
  "$root/docs/output.schema.json" "$out"

# mcptriage proxy's records, without node or a server: injected replies (a 503 and an isError
# result) and a 502 the proxy makes for an upstream that is down; the 503 is watched, so a
# client_behaviour record follows, then the proxy_summary.
if command -v curl >/dev/null && command -v jq >/dev/null; then
  pout=$(mktemp)
  perr=$(mktemp)
  trap 'rm -f "$out" "$pout" "$perr"' EXIT
  dead=$(/usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  "$bin" proxy --listen 127.0.0.1:0 --upstream "http://127.0.0.1:$dead/mcp" --format jsonl --watch 300ms \
    --inject 'status=503,retry-after=1@method=ping' --inject tool-error </dev/null >"$pout" 2>"$perr" &
  ppid=$!
  for _ in $(seq 100); do grep -q 'listening on http://' "$perr" && break; sleep 0.1; done
  purl=$(sed -n 's/^mcptriage proxy: listening on \(http:\/\/[0-9.:]*\),.*/\1/p' "$perr")
  for body in '{"jsonrpc":"2.0","id":1,"method":"ping"}' \
              '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{}}}' \
              '{"jsonrpc":"2.0","id":3,"method":"tools/list"}'; do
    curl -s -o /dev/null --max-time 10 -X POST "$purl/mcp" -H 'Content-Type: application/json' \
      -H 'Accept: application/json, text/event-stream' --data-binary "$body"
  done
  sleep 0.6
  kill -INT "$ppid"
  wait "$ppid"
  check "the proxy wrote exchange, client_behaviour and proxy_summary records" \
    jq -e -s 'map(.kind) | (index("exchange") != null) and (index("client_behaviour") != null) and (.[-1] == "proxy_summary")' "$pout"
  check "proxy_summary.made_by_proxy counts every record made by the proxy (2 injected, 1 502)" \
    jq -e -s '(map(select(.kind == "exchange" and .proxy.made_by == "proxy")) | length) == 3 and .[-1].made_by_proxy == 3' "$pout"
  check "every proxy record validates against docs/output.schema.json" /usr/bin/python3 "$root/tests/cli/validate_schema.py" \
    "$root/docs/output.schema.json" "$pout"
fi
finish
