#!/usr/bin/env bash
# Events as they arrive (docs/output.md "Events as they arrive"): a slow generator
# (tests/cli/sse_gen.py --delay) writes an event stream into mcptriage through a pipe and stamps
# the time it writes each event; a reader stamps each output line as it comes. Asserted by
# timestamps: each event's record (--events, JSON Lines) or line (--events, table) and the
# exchange's record appear before the generator sends its next bytes. Also: what each kind of
# event says (priming, progress, log, server request, not JSON), the records validate against
# docs/output.schema.json, and a pipe without --events gets no event record.
# Usage: live_events.sh MCPTRIAGE_BINARY   (exit 77: jq or python3 missing)
set -u
bin=$1
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
source "$here/lib.sh"
need_tools jq python3
gen=$here/sse_gen.py
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
jqe() { jq -e "$@" >/dev/null; }
stamp_lines() {  # each line of stdin, prefixed with the time it came
  while IFS= read -r line; do printf '%s %s\n' "$(date +%s.%N)" "$line"; done
}
lt() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a < b) }'; }
steps=3
delay=0.7

# --- 1. JSON Lines with --events: a record per event, each before the next bytes -------------
python3 "$gen" "$steps" --delay "$delay" 2> "$tmp/sent1" | "$bin" --format jsonl --events -q | stamp_lines > "$tmp/got1"
cut -d' ' -f2- "$tmp/got1" > "$tmp/recs1"
check "a priming record, $steps progress records, the response's record, then the exchange" \
  test "$(jq -r '.kind + ":" + (.what // .outcome)' "$tmp/recs1" | tr '\n' ' ')" = \
  "event:priming event:progress event:progress event:progress event:response exchange:TOOL_SUCCESS "
check "progress records say progress/total, message, method and number" \
  jqe -s '[.[] | select(.what == "progress")] | map(.progress == .event and .total == 3 and .message == "step \(.event)" and .method == "notifications/progress") | all' "$tmp/recs1"
check "the response's record: event 4, jsonrpc_id 1, type message" \
  jqe -s '.[4] | .event == 4 and .jsonrpc_id == "1" and .type == "message" and .source == "stdin#1"' "$tmp/recs1"
check "events carry the stream's last event id" jqe -s '[.[0:5][] | .id] == ["0","1","2","3","4"]' "$tmp/recs1"
check "times grow from event to event" jqe -s '[.[0:5][] | .ms] | . == sort' "$tmp/recs1"
# Record n (the priming event is record 1, progress k record k+1, the response record steps+2,
# the exchange record steps+3) must come before the generator's stamp n (progress k is stamp k,
# the response stamp steps+1, the generator's end stamp steps+2).
for n in $(seq 1 $((steps + 2))); do
  got=$(sed -n "${n}p" "$tmp/got1" | cut -d' ' -f1)
  sent=$(awk -v k="$n" '$2 == k { print $1 }' "$tmp/sent1")
  check "record $n is out before the generator's next bytes (its stamp $n)" lt "$got" "$sent"
done
got=$(sed -n "$((steps + 3))p" "$tmp/got1" | cut -d' ' -f1)
sent=$(awk -v k="$((steps + 2))" '$2 == k { print $1 }' "$tmp/sent1")
check "the exchange record is out before the generator's end" lt "$got" "$sent"

# --- 2. the table with --events (forced, as on a terminal): a line per event, then the row ---
python3 "$gen" "$steps" --delay "$delay" 2> "$tmp/sent2" | "$bin" --format table --color never --events -q |
  stamp_lines > "$tmp/got2"
sed 's/^[^ ]* //' "$tmp/got2" > "$tmp/screen2"
sed 's/^/# /' "$tmp/screen2"
check "table: the priming line" grep -Eq '^  event +- +[0-9]+ ms  priming event \[id 0\]$' "$tmp/screen2"
check "table: progress 2/3 with its message" grep -Eq '^  event +2 +[0-9]+ ms  progress 2/3 step 2 \[id 2\]$' "$tmp/screen2"
check "table: the response line" grep -Eq '^  event +4 +[0-9]+ ms  response id 1 \[id 4\]$' "$tmp/screen2"
check "table: the verdict row after the event lines" \
  test "$(grep -n 'TOOL_SUCCESS' "$tmp/screen2" | head -1 | cut -d: -f1)" -gt "$(grep -n 'response id 1' "$tmp/screen2" | cut -d: -f1)"
line_time() { grep -E "$1" "$tmp/got2" | head -1 | cut -d' ' -f1; }
sent_time() { awk -v k="$1" '$2 == k { print $1 }' "$tmp/sent2"; }
check "table: the progress 1 line is out before progress 2 is sent" lt "$(line_time ' progress 1/3')" "$(sent_time 2)"
check "table: the verdict row is out before the generator's end" lt "$(line_time 'TOOL_SUCCESS')" "$(sent_time $((steps + 2)))"

# --- 3. what log messages, server requests and other events say ------------------------------
{
  printf 'HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\n'
  printf 'data: {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"warning","logger":"db","data":"slow query"}}\n\n'
  printf 'data: {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":{"rows":3}}}\n\n'
  printf 'event: other\ndata: not json\n\n'
  printf 'data: {"jsonrpc":"2.0","id":7,"method":"elicitation/create","params":{"message":"Name?","requestedSchema":{"type":"object"}}}\n\n'
} | cat | "$bin" --format jsonl --events -q > "$tmp/recs3"
check "log message: level and text" jqe -s '.[0] | .what == "log" and .level == "warning" and .message == "slow query"' "$tmp/recs3"
check "log message with JSON data: minified" jqe -s '.[1] | .what == "log" and .message == "{\"rows\":3}"' "$tmp/recs3"
check "an event of another type that is not JSON" jqe -s '.[2] | .what == "not_json" and .type == "other" and .event == 3' "$tmp/recs3"
check "the server request: elicitation/create, id 7" \
  jqe -s '.[3] | .what == "request" and .method == "elicitation/create" and .jsonrpc_id == "7"' "$tmp/recs3"
check "then the exchange: INPUT_REQUIRED server_request_pending" \
  jqe -s '.[4] | .kind == "exchange" and .reason == "server_request_pending"' "$tmp/recs3"
check "event records validate against docs/output.schema.json" /usr/bin/python3 - "$root/docs/output.schema.json" "$tmp/recs1" "$tmp/recs3" <<'PY'
import json, sys
import jsonschema
v = jsonschema.Draft7Validator(json.load(open(sys.argv[1])))
bad = [e.message for f in sys.argv[2:] for line in open(f) for e in v.iter_errors(json.loads(line))]
print("\n".join(bad[:5]), file=sys.stderr)
sys.exit(1 if bad else 0)
PY

# --- 4. a pipe without --events: no event record ----------------------------------------------
python3 "$gen" 3 | cat | "$bin" --format jsonl -q > "$tmp/recs4"
check "without --events: the exchange record alone" test "$(jq -r .kind "$tmp/recs4" | tr '\n' ' ')" = "exchange "
finish
