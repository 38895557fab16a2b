#!/usr/bin/env bash
# Folder walks (docs/formats.md, "Folders"): a folder or file that cannot be read is an input
# error of its own (exit 3, named with the reason) and the walk goes on; it was skipped
# silently (exit 0) or named "no such file or folder" before (new-user trial, session 4).
# Permissions do not bind root: as root the checks run as `nobody` (setpriv), else are skipped.
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
tmp=$(mktemp -d)
trap 'chmod -R u+rwx "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
chmod 755 "$tmp"

as_user=()
if [ "$(id -u)" = 0 ]; then
  if command -v setpriv >/dev/null && setpriv --reuid=nobody --regid=nogroup --clear-groups true 2>/dev/null; then
    as_user=(setpriv --reuid=nobody --regid=nogroup --clear-groups)
  else
    echo "skip: running as root without setpriv"
    exit 77
  fi
fi

# A copy the other user can run, whatever the permissions of the build folder.
cp "$bin" "$tmp/mcptriage" && chmod 755 "$tmp/mcptriage"
bin=$tmp/mcptriage
cd "$tmp" || exit 1

ok='{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"ok"}]}}'
mkdir -p "$tmp/walk/locked" "$tmp/walk/open" "$tmp/shut"
printf '%s' "$ok" > "$tmp/walk/a.json"
printf '%s' "$ok" > "$tmp/walk/locked/b.json"
printf '%s' "$ok" > "$tmp/walk/open/c.json"
printf '%s' "$ok" > "$tmp/shut/d.json"
chmod 000 "$tmp/walk/locked" "$tmp/shut"
chmod -R a+rX "$tmp/walk/a.json" "$tmp/walk/open"

run() { "${as_user[@]}" "$bin" --format jsonl "$@" >"$tmp/out" 2>"$tmp/err"; echo $? >"$tmp/code"; }

run "$tmp/walk"
check "unreadable subfolder: exit 3" [ "$(cat "$tmp/code")" = 3 ]
check "unreadable subfolder: named with the reason" grep -q "walk/locked: Permission denied" "$tmp/err"
check "unreadable subfolder: the rest is read" [ "$(grep -c '"outcome":"TOOL_SUCCESS"' "$tmp/out")" = 2 ]

run "$tmp/shut"
check "unreadable folder: exit 3" [ "$(cat "$tmp/code")" = 3 ]
check "unreadable folder: Permission denied" grep -q "shut: Permission denied" "$tmp/err"
check "unreadable folder: one error, not also 'no capture files'" [ "$(grep -c 'error:' "$tmp/err")" = 1 ]

run "$tmp/shut/d.json"
check "file in an unreadable folder: Permission denied, not 'no such file'" grep -q "d.json: Permission denied" "$tmp/err"

# An unreadable file among small ones: the workers take small files sixteen at a time
# (Pipeline::kGroupFiles); its error keeps its place and the others are read, for any --jobs.
mkdir -p "$tmp/many"
for i in $(seq -w 1 40); do printf '%s' "$ok" > "$tmp/many/$i.json"; done
chmod -R a+rX "$tmp/many"
chmod 000 "$tmp/many/07.json"
run --jobs 1 "$tmp/many"; cp "$tmp/out" "$tmp/out1"; cp "$tmp/err" "$tmp/err1"; code1=$(cat "$tmp/code")
run --jobs 3 "$tmp/many"
check "unreadable file among many: exit 3" [ "$code1" = 3 ] && [ "$(cat "$tmp/code")" = 3 ]
check "unreadable file among many: named" grep -q "many/07.json: Permission denied" "$tmp/err"
check "unreadable file among many: 39 records" [ "$(wc -l < "$tmp/out")" = 39 ]
check "unreadable file among many: --jobs 3 output as --jobs 1" cmp -s "$tmp/out" "$tmp/out1"
check "unreadable file among many: --jobs 3 errors as --jobs 1" cmp -s "$tmp/err" "$tmp/err1"

# A request sidecar that cannot be read: the record says so (it was ignored silently).
mkdir -p "$tmp/side"
printf '%s' "$ok" > "$tmp/side/call.json"
printf '%s' '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t"}}' > "$tmp/side/call.request.json"
chmod -R a+rX "$tmp/side"
chmod 000 "$tmp/side/call.request.json"
run "$tmp/side"
check "unreadable sidecar: a warning on the record" grep -q 'request sidecar call.request.json could not be read (Permission denied)' "$tmp/out"
run "$tmp/side/call.json"
check "unreadable sidecar, file given: the same warning" grep -q 'request sidecar call.request.json could not be read' "$tmp/out"

run "$tmp/walk/nothing-here.json"
check "missing file: still 'no such file or folder'" grep -q "no such file or folder" "$tmp/err"
finish
