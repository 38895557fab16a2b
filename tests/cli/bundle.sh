#!/usr/bin/env bash
# `mcptriage bundle` and `--export-har` (docs/bundle.md): inputs in four capture formats holding
# credentials of every kind the redaction knows (Authorization, cookies, API keys, tokens in
# bodies and URLs, an OAuth code, verifier and tokens); the archive must hold none of their
# bytes, decompressed and grepped member by member and as one tar stream; its members are the
# documented ones; its HAR reads back to the records' verdicts, and so does --export-har of the
# sample captures; a bundle asked to go unredacted is refused.
set -u
bin=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/tests/cli/lib.sh"
need_tools jq python3 tar gzip
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/in" "$tmp/out"

# The secrets: each a token no redaction rule could mistake for anything else.
python3 - "$tmp/in" <<'PY'
import json, sys
d = sys.argv[1]
S = {k: "Zq" + k + "9x7Kv2" for k in ["AUTH", "COOKIE", "APIKEY", "URLTOKEN", "PASSWORD", "BODYKEY", "SETCOOKIE",
                                      "ACCESS", "CODE", "CLIENTSECRET", "OAUTHACCESS", "OAUTHREFRESH", "REDIRCODE",
                                      "BASIC", "SESSIONTOKEN", "IDTOKEN"]}
open(d + "/../secrets", "w").write("\n".join(S.values()) + "\n")
# 1. A request and its response as HTTP text (http-conversation).
req = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                  "params": {"name": "login", "arguments": {"password": S["PASSWORD"], "api_key": S["BODYKEY"]}}})
resp = json.dumps({"jsonrpc": "2.0", "id": 1, "result": {"content": [{"type": "text", "text": "ok"}],
                   "structuredContent": {"access_token": S["ACCESS"]}}})
conv = ("POST /mcp?access_token=%s HTTP/1.1\r\nHost: 127.0.0.1:3001\r\nAuthorization: Bearer %s\r\n"
        "Cookie: sid=%s\r\nX-API-Key: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s"
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nSet-Cookie: s=%s; HttpOnly\r\nContent-Length: %d\r\n\r\n%s"
        % (S["URLTOKEN"], S["AUTH"], S["COOKIE"], S["APIKEY"], len(req), req, S["SETCOOKIE"], len(resp), resp))
open(d + "/conversation.http", "w", newline="").write(conv)
# 2. A HAR file: an MCP call with Basic credentials, an OAuth token request and the redirect that brought its code.
def entry(method, url, headers, post, status, rheaders, text, mime="application/json"):
    e = {"startedDateTime": "2026-11-30T00:17:32.000Z", "time": 12, "request": {"method": method, "url": url,
         "httpVersion": "HTTP/1.1", "cookies": [], "headers": [{"name": k, "value": v} for k, v in headers],
         "queryString": [], "headersSize": -1, "bodySize": -1},
         "response": {"status": status, "statusText": "", "httpVersion": "HTTP/1.1", "cookies": [],
         "headers": [{"name": k, "value": v} for k, v in rheaders], "content": {"size": len(text), "mimeType": mime, "text": text},
         "redirectURL": "", "headersSize": -1, "bodySize": -1}, "cache": {}, "timings": {"send": 0, "wait": 12, "receive": 0}}
    if post is not None:
        e["request"]["postData"] = {"mimeType": post[0], "text": post[1]}
    return e
call = json.dumps({"jsonrpc": "2.0", "id": 2, "method": "tools/list"})
har = {"log": {"version": "1.2", "creator": {"name": "test", "version": "1"}, "entries": [
    entry("POST", "https://mcp.example.test/mcp", [("Authorization", "Basic " + S["BASIC"]), ("Content-Type", "application/json"),
          ("Mcp-Session-Id", "sess-" + S["SESSIONTOKEN"])], ("application/json", call), 401,
          [("Content-Type", "application/json"), ("WWW-Authenticate", 'Bearer resource_metadata="https://mcp.example.test/.well-known/oauth-protected-resource"')],
          json.dumps({"jsonrpc": "2.0", "id": 2, "error": {"code": -32001, "message": "unauthorized"}})),
    entry("GET", "https://app.example.test/callback?code=%s&state=abc" % S["REDIRCODE"], [], None, 200, [("Content-Type", "text/html")], "<p>ok</p>", "text/html"),
    entry("POST", "https://auth.example.test/token", [("Content-Type", "application/x-www-form-urlencoded")],
          ("application/x-www-form-urlencoded", "grant_type=authorization_code&code=%s&client_secret=%s&redirect_uri=https://app.example.test/callback" % (S["CODE"], S["CLIENTSECRET"])),
          200, [("Content-Type", "application/json")],
          json.dumps({"access_token": S["OAUTHACCESS"], "refresh_token": S["OAUTHREFRESH"], "id_token": S["IDTOKEN"], "token_type": "Bearer"})),
]}}
json.dump(har, open(d + "/browser.har", "w"))
PY
# 3. An exchange log (JSON Lines) and 4. a curl -i reply with its request sidecar: the samples'.
cp "$root/testdata/samples/gateway-exchanges.jsonl" "$tmp/in/"
cp "$root/testdata/real/tools-call-success.txt" "$root/testdata/real/tools-call-success.request.json" "$tmp/in/"

cd "$tmp"
"$bin" bundle out/b.tar.gz in >out/stdout 2>out/stderr
check "bundle exits 0" test $? = 0
check "bundle writes nothing on standard output" test ! -s out/stdout
check "bundle says where the archive is" grep -q 'wrote out/b.tar.gz' out/stderr
mkdir x && tar -xzf out/b.tar.gz -C x
members=$(cd x && find . -type f | sort | tr '\n' ' ')
check "the archive holds the documented members ($members)" test "$members" = "./mcptriage-bundle/README.txt ./mcptriage-bundle/capture.har ./mcptriage-bundle/command.txt ./mcptriage-bundle/records.jsonl ./mcptriage-bundle/report.html ./mcptriage-bundle/spec-links.txt ./mcptriage-bundle/version.txt "
b=x/mcptriage-bundle
gzip -dc out/b.tar.gz >out/b.tar
leaks=$(grep -c -a -F -f secrets out/b.tar)
check "no secret of the inputs in the decompressed archive (found $leaks lines)" test "$leaks" = 0
for f in "$b"/*; do
  check "no secret in $(basename "$f")" bash -c '! grep -a -F -q -f "$1" "$2"' _ secrets "$f"
done
# The control: the same run unredacted shows the secrets (else the grep above proves nothing).
"$bin" --no-redact --format jsonl --export-har out/plain.har in >out/plain.jsonl 2>/dev/null
check "the control: --no-redact --export-har keeps the secrets of the MCP calls" test "$(grep -a -o -F -f secrets out/plain.har | sort -u | wc -l)" -ge 10
check "the HAR is HAR 1.2" test "$(jq -r '.log.version' "$b/capture.har")" = 1.2
check "the HAR's comment says it is redacted" bash -c 'jq -r .log.comment "$1" | grep -q "redacted: credentials"' _ "$b/capture.har"
check "version.txt names the version" grep -qx "mcptriage $("$bin" --version | awk '{print $2}')" "$b/version.txt"
check "command.txt is the command line" grep -qx 'mcptriage bundle out/b.tar.gz in' "$b/command.txt"
check "README.txt says what was redacted" grep -q 'Cookie and Set-Cookie values' "$b/README.txt"
check "the HTML report is a page" grep -q '</html>' "$b/report.html"
# Every reason of the records is in spec-links.txt with its count and spec link.
jq -r 'select(.kind=="exchange") | .reason' "$b/records.jsonl" | sort | uniq -c | awk '{print $2"\t"$1}' >out/reasons
check "spec-links.txt has every reason, its count and an https link" \
  bash -c 'diff <(cut -f1,2 "$1") "$2" && ! cut -f3 "$1" | grep -qv "^https://"' _ "$b/spec-links.txt" out/reasons
# The bundled HAR reads back to the same verdicts, in the same order.
verdicts() { jq -r 'select(.kind=="exchange") | [.outcome, .layer, .reason, (.jsonrpc.id|tostring)] | @tsv' "$1"; }
"$bin" --format jsonl "$b/capture.har" >out/back.jsonl 2>/dev/null
check "the bundled HAR reads back to the records' verdicts" diff <(verdicts "$b/records.jsonl") <(verdicts out/back.jsonl)
check "the records are there to compare ($(verdicts "$b/records.jsonl" | wc -l))" test "$(verdicts "$b/records.jsonl" | wc -l)" -ge 8
# --export-har of the sample captures (every capture format) reads back to their verdicts.
"$bin" --format jsonl --export-har out/samples.har "$root/testdata/samples" "$root/testdata/real" >out/samples.jsonl 2>/dev/null
"$bin" --format jsonl out/samples.har >out/samples-back.jsonl 2>/dev/null
check "--export-har of the samples reads back to their verdicts" diff <(verdicts out/samples.jsonl) <(verdicts out/samples-back.jsonl)
# Refused: an unredacted bundle, outputs of its own, a name that is no .tar.gz.
"$bin" bundle out/c.tar.gz --no-redact in >/dev/null 2>out/err
check "bundle --no-redact is a usage error" test $? = 2
check "and no archive is written" test ! -e out/c.tar.gz
"$bin" bundle out/c.zip in >/dev/null 2>&1
check "an archive name not ending in .tar.gz is a usage error" test $? = 2
"$bin" bundle out/c.tar.gz >/dev/null 2>&1
check "no input is a usage error" test $? = 2
finish
