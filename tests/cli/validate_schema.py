#!/usr/bin/env python3
"""Validates JSON Lines records against docs/output.schema.json (python3-jsonschema, Debian's
package). Usage: validate_schema.py SCHEMA FILE...; a file whose first byte is not `{` (a table,
an empty output) is passed over. Prints the first errors on stderr and, on stdout, how many
records of each kind were checked; exit 1 when a record does not validate (or none was read)."""
import collections
import json
import sys

import jsonschema

schema = json.load(open(sys.argv[1]))
jsonschema.Draft7Validator.check_schema(schema)
v = jsonschema.Draft7Validator(schema)
bad = 0
kinds = collections.Counter()
for path in sys.argv[2:]:
    with open(path, "rb") as f:
        if f.read(1) != b"{":
            continue
    for n, line in enumerate(open(path, encoding="utf-8"), 1):
        if not line.strip():
            continue
        rec = json.loads(line)
        kinds[rec.get("kind")] += 1
        for err in v.iter_errors(rec):
            bad += 1
            if bad <= 10:
                where = err.json_path if hasattr(err, "json_path") else list(err.path)
                print(f"{path}:{n}: {rec.get('kind')}: {where}: {err.message[:300]}", file=sys.stderr)
print(" ".join(f"{k}={c}" for k, c in sorted(kinds.items(), key=lambda kc: str(kc[0]))))
sys.exit(1 if bad or not kinds else 0)
