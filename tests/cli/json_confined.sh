#!/usr/bin/env bash
# Include rule (ARCHITECTURE.md, issue 13): only src/json/ sees simdjson. No file outside src/json/
# includes simdjson.h or src/json's bridge header, and no header outside it names a simdjson type.
# ALLOWED lists offenders tolerated for now: it is empty and is to stay so.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
ALLOWED=()
fail=0
allowed() {
  local f
  for f in "${ALLOWED[@]:-}"; do [ "$f" = "$1" ] && return 0; done
  return 1
}
while IFS= read -r file; do
  allowed "$file" && continue
  echo "json_confined: $file includes simdjson outside src/json/:"
  grep -nE '#include *[<"](simdjson\.h|json/simdjson_bridge\.hpp)[>"]' "$file" | sed 's/^/  /'
  fail=1
done < <(grep -rlE '#include *[<"](simdjson\.h|json/simdjson_bridge\.hpp)[>"]' src include --include='*.cpp' --include='*.hpp' --include='*.h' |
           grep -v '^src/json/' || true)
while IFS= read -r file; do
  allowed "$file" && continue
  echo "json_confined: the header $file names a simdjson type:"
  grep -n 'simdjson::' "$file" | sed 's/^/  /'
  fail=1
done < <(grep -rl 'simdjson::' src include --include='*.hpp' --include='*.h' | grep -v '^src/json/' || true)
if [ "$fail" = 0 ]; then echo "json_confined: simdjson is seen by src/json/ only"; fi
exit "$fail"
