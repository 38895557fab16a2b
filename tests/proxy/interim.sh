#!/usr/bin/env bash
# Usage: interim.sh PATH_TO_MCPTRIAGE [plain|sanitized]
# `Expect: 100-continue` and interim (1xx) responses, against the scripted upstream
# fault_server.cjs (POST /interim: 100 Continue and 103 Early Hints, then the JSON result).
# curl adds `Expect: 100-continue` to a body over 1 MiB and waits for 100 Continue before
# sending it: the proxy answers it itself and does not forward `Expect`; the upstream's interim
# responses are passed on to an HTTP/1.1 client and the final response read after them, so the
# client gets the response and the record is the final response's. A proxy that did neither
# leaves curl waiting (--expect100-timeout 30, --max-time 20). Then every record validates
# against docs/output.schema.json.
BIN=$1
PX_MODE=${2:-plain}
. "$(dirname "$0")/lib.sh"
px_setup
px_start_fault
UP=http://127.0.0.1:$FAULT_PORT
px_start_proxy --upstream "$UP/mcp" --format jsonl -q --record "$WORK/interim.jsonl" --watch 300ms \
  --inject 'status=503@method=ping'
P=$PX_PROXY_URL
H=(-H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' --expect100-timeout 30 --max-time 20)

# A 1.5 MB tools/call: curl sends Expect: 100-continue by itself.
/usr/bin/python3 -c 'import json,sys; json.dump({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"message":"x"*1500000}}}, sys.stdout, separators=(",", ":"))' >"$WORK/big.json"
curl -sv -o "$WORK/big.out" -w '%{http_code}' -X POST "$P/interim" "${H[@]}" --data-binary @"$WORK/big.json" >"$WORK/big.code" 2>"$WORK/big.err"
rc=$?
grep -qi '^> Expect: 100-continue' "$WORK/big.err" && ok "curl sent Expect: 100-continue with the 1.5 MB body" \
  || not_ok "curl sent Expect: 100-continue" "$(grep '^>' "$WORK/big.err" | one_line /dev/stdin)"
[[ $rc == 0 && $(cat "$WORK/big.code") == 200 ]] && ok "Expect: 100-continue: the client gets the final 200 (curl exit 0)" \
  || not_ok "Expect: 100-continue: the final 200" "curl exit $rc, code $(cat "$WORK/big.code")"
[[ $(grep -c '^< HTTP/1.1 100 Continue' "$WORK/big.err") == 1 ]] && grep -q '^< HTTP/1.1 103 Early Hints' "$WORK/big.err" \
  && grep -qi '^< Link: </style.css>' "$WORK/big.err" \
  && ok "the client got one 100 Continue (the proxy's), the upstream's 103 Early Hints (with its Link) passed on, then the response" \
  || not_ok "interim responses passed on" "$(grep '^< HTTP' "$WORK/big.err" | one_line /dev/stdin)"
jq -e --arg t "expect=none bytes=$(stat -c %s "$WORK/big.json")" '.result.content[0].text == $t' "$WORK/big.out" >/dev/null \
  && ok "the upstream got the whole body and no Expect header" || not_ok "the upstream's view" "$(one_line "$WORK/big.out")"

# A small body with an explicit Expect: 100-continue, to the server's default route.
code=$(curl -s -o "$WORK/small.out" -w '%{http_code}' -X POST "$P/mcp" "${H[@]}" -H 'Expect: 100-continue' \
  --data-binary '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{}}}')
[[ $code == 200 ]] && jq -e '.id == 3' "$WORK/small.out" >/dev/null && ok "an explicit Expect: 100-continue on a small body: 200" \
  || not_ok "explicit Expect: 100-continue" "code $code $(one_line "$WORK/small.out")"

# An HTTP/1.0 client gets no interim response (RFC 9110 §15.2), only the final one.
curl -sv --http1.0 -o "$WORK/old.out" --max-time 20 -X POST "$P/interim" -H 'Content-Type: application/json' \
  --data-binary '{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"echo","arguments":{}}}' 2>"$WORK/old.err"
! grep -q '^< HTTP/1.[01] 1[0-9][0-9]' "$WORK/old.err" && grep -q '^< HTTP/1.1 200' "$WORK/old.err" \
  && ok "HTTP/1.0 client: no interim response passed on, the final 200" \
  || not_ok "HTTP/1.0 client" "$(grep '^< HTTP' "$WORK/old.err" | one_line /dev/stdin)"

# An injected reply, watched: made_by_proxy counts it.
code=$(px_post "$P/mcp" '{"jsonrpc":"2.0","id":5,"method":"ping"}')
[[ $code == 503 ]] && ok "ping: the injected 503" || not_ok "ping: injected 503" "got $code"
sleep 0.6
px_stop_proxy INT
[[ $PX_RC == 130 ]] && ok "stopped by SIGINT: 130" || not_ok "stopped by SIGINT" "exit $PX_RC"

check "the 1.5 MB call's record is the final response: TOOL_SUCCESS, with what the proxy did in its warnings" \
  'map(select(.kind == "exchange" and .jsonrpc.id == 2))[0] | .outcome == "TOOL_SUCCESS" and .http.status == 200
   and (.warnings | any(contains("Expect: 100-continue") and contains("answered 100 Continue itself")))
   and (.warnings | any(contains("interim response") and contains("100 Continue; not passed on")))
   and (.warnings | any(contains("103 Early Hints") and contains("passed on to the client")))' "$PX_PROXY_OUT"
check "the explicit Expect call: TOOL_SUCCESS" \
  'map(select(.kind == "exchange" and .jsonrpc.id == 3))[0].outcome == "TOOL_SUCCESS"' "$PX_PROXY_OUT"
check "the HTTP/1.0 call: TOOL_SUCCESS, the interim responses said not passed on" \
  'map(select(.kind == "exchange" and .jsonrpc.id == 4))[0] | .outcome == "TOOL_SUCCESS"
   and (.warnings | any(contains("103 Early Hints") and contains("not passed on")))' "$PX_PROXY_OUT"
check "the recording keeps the request as forwarded: no Expect header" \
  'map(select(.request.body | contains("\"id\":2"))) | length == 1 and all(.request.headers | map(.[0] | ascii_downcase) | index("expect") == null)' \
  "$WORK/interim.jsonl"
check "proxy_summary: made_by_proxy 1 (the injected 503), a client_behaviour record before it" \
  '.[-1].kind == "proxy_summary" and .[-1].made_by_proxy == 1 and any(.kind == "client_behaviour")' "$PX_PROXY_OUT"
px_check_schema "$PX_PROXY_OUT"
px_summary
