#!/usr/bin/env bash
# Every JSON Lines record the tool writes for the bundled captures validates against
# docs/output.schema.json (python3-jsonschema, Debian's package).
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
check "every record validates against docs/output.schema.json" /usr/bin/python3 - "$root/docs/output.schema.json" "$out" <<'PY'
import json, sys
import jsonschema
schema = json.load(open(sys.argv[1]))
jsonschema.Draft7Validator.check_schema(schema)
v = jsonschema.Draft7Validator(schema)
bad = 0
for n, line in enumerate(open(sys.argv[2], encoding="utf-8"), 1):
    rec = json.loads(line)
    for err in v.iter_errors(rec):
        bad += 1
        if bad <= 10:
            print(f"line {n}: {err.json_path if hasattr(err, 'json_path') else list(err.path)}: {err.message}", file=sys.stderr)
sys.exit(1 if bad else 0)
PY
finish
