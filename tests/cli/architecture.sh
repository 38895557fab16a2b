#!/usr/bin/env bash
# The include rules of ARCHITECTURE.md, checked by grepping #include lines and calls:
#   1. only src/json/ includes simdjson.h;
#   2. src/capture/ never includes classify/, render/ or session/ (their folders or public headers);
#   3. only src/cli/, src/io/, src/proxy/, src/wrap/ and src/mock/ touch files, sockets, the environment or the standard
#      streams;
#   4. a folder includes the internal headers of its own folder and of folders below it only,
#      in the order of ARCHITECTURE.md's table (data flows one way).
# Today's exceptions are listed below, each by file; an exception that no longer applies fails too,
# so that the lists only shrink. Usage: architecture.sh [SOURCE_ROOT]
set -u
root=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$root/tests/cli/lib.sh"
cd "$root" || exit 1

# 1. simdjson.h: none outside src/json/ (tests/cli/json_confined.sh also checks the bridge header
# and simdjson types in headers).
simdjson_allowed="
"
# 2. capture/ -> classify/, render/, session/: none (the reader's preview redaction is in
# src/redact/, below capture).
capture_allowed="
"
# 3. System access outside cli/, io/, proxy/, wrap/ and mock/: none today. Entries: "FILE PATTERN-NAME".
system_allowed="
"
# 4. The folders, lowest first (ARCHITECTURE.md); planned ones included.
order="json http redact verdict sse jsonrpc capture mcp classify advice session auth render report stats io triage proxy wrap mock cli"

sources=$(find src include -name '*.cpp' -o -name '*.hpp' | sort)
listed() { grep -qxF -- "$2" <<<"$1"; }
# A file's code without // comments and string literals (so that a comment naming stdout is no
# use of it); block comments are rare here and kept.
code_of() { sed -E 's://.*$::; s/"([^"\\]|\\.)*"/""/g' "$1"; }

# --- 1 ---------------------------------------------------------------------------------------
bad=""
for f in $sources; do
  grep -qE '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"]simdjson\.h[>"]' "$f" || continue
  case $f in src/json/*) continue ;; esac
  listed "$simdjson_allowed" "$f" || bad+=" $f"
done
check "only src/json/ includes simdjson.h (new offenders:${bad:- none})" test -z "$bad"
stale=""
for f in $simdjson_allowed; do
  grep -qE '#[[:space:]]*include[[:space:]]*[<"]simdjson\.h[>"]' "$f" 2>/dev/null || stale+=" $f"
done
check "the simdjson.h exceptions all still apply (remove:${stale:- none})" test -z "$stale"

# --- 2 ---------------------------------------------------------------------------------------
bad=""
found=""
for f in src/capture/*; do
  while IFS= read -r inc; do
    [ -z "$inc" ] && continue
    found+="$f $inc"$'\n'
    listed "$capture_allowed" "$f $inc" || bad+=" $f->$inc"
  done < <(sed -nE 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"((classify|render|session)\/[^"]+|mcptriage\/(classify|render|session)\.hpp)".*/\1/p' "$f")
done
check "src/capture/ includes no classify/, render/ or session/ (new:${bad:- none})" test -z "$bad"
stale=""
while read -r f inc; do
  [ -z "$f" ] && continue
  grep -qxF -- "$f $inc" <<<"$found" || stale+=" $f->$inc"
done <<<"$capture_allowed"
check "the capture/ exceptions all still apply (remove:${stale:- none})" test -z "$stale"

# --- 3 ---------------------------------------------------------------------------------------
declare -A patterns=(
  [environment]='\bgetenv[[:space:]]*\(|\bsetenv[[:space:]]*\(|\benviron\b'
  [files]='\bfopen[[:space:]]*\(|std::(i|o)?fstream|(^|[^_[:alnum:].>])open[[:space:]]*\(|\bopendir[[:space:]]*\(|directory_iterator'
  [sockets]='\bsocket[[:space:]]*\(|\bconnect[[:space:]]*\(|\baccept[[:space:]]*\(|boost::asio'
  [terminals]='\bisatty[[:space:]]*\('
  [standard streams]='std::(cout|cerr|clog)\b|\b(stdout|stderr|stdin)\b|\bfwrite[[:space:]]*\(|\bf?printf[[:space:]]*\(|\bputs[[:space:]]*\(|fmt::print[[:space:]]*\('
)
for what in "${!patterns[@]}"; do
  bad=""
  for f in $sources; do
    case $f in src/cli/*|src/io/*|src/proxy/*|src/wrap/*|src/mock/*) continue ;; esac
    code_of "$f" | grep -qE -- "${patterns[$what]}" || continue
    listed "$system_allowed" "$f $what" || bad+=" $f"
  done
  check "only cli/, io/, proxy/, wrap/ and mock/ touch $what (also:${bad:- none})" test -z "$bad"
done

# --- 4 ---------------------------------------------------------------------------------------
rank() {  # rank FOLDER: its place in the order, or empty
  local i=0 d
  for d in $order; do
    [ "$d" = "$1" ] && { echo $i; return; }
    i=$((i + 1))
  done
}
bad=""
unknown=""
for f in $(find src -name '*.cpp' -o -name '*.hpp' | sort); do
  folder=$(cut -d/ -f2 <<<"$f")
  mine=$(rank "$folder")
  if [ -z "$mine" ]; then unknown+=" $folder"; continue; fi
  while IFS= read -r dep; do
    [ -z "$dep" ] && continue
    theirs=$(rank "$dep")
    if [ -z "$theirs" ]; then unknown+=" $dep"; continue; fi
    [ "$theirs" -le "$mine" ] && continue
    listed "$capture_allowed" "$f $(sed -nE "s/^[[:space:]]*#[[:space:]]*include[[:space:]]*\"($dep\/[^\"]+)\".*/\1/p" "$f" | head -1)" && continue
    bad+=" $f->$dep/"
  done < <(sed -nE 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"([a-z_]+)\/[^"]+".*/\1/p' "$f" | grep -vx mcptriage | sort -u)
done
check "every folder is in ARCHITECTURE.md's order (missing:${unknown:- none})" test -z "$unknown"
check "no folder includes the internal headers of a folder above it (found:${bad:- none})" test -z "$bad"

# ARCHITECTURE.md names every folder of src/ and every public header.
missing=""
for d in src/*/; do grep -q "src/$(basename "$d")/" ARCHITECTURE.md || missing+=" src/$(basename "$d")/"; done
for h in include/mcptriage/*.hpp; do grep -q "$(basename "$h")" ARCHITECTURE.md || missing+=" $h"; done
check "ARCHITECTURE.md describes every folder and public header (missing:${missing:- none})" test -z "$missing"
finish
