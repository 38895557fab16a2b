#!/usr/bin/env bash
# Hostile-input suite (issue 6): every input gets a classified outcome or a clear error, within
# bounded memory and time. Inputs come from testdata/hostile/ and from hostile_gen (generated
# on the fly, streamed where large: nothing big is stored). For each case it checks the exit
# code, the outcomes (jq), the error text, the peak RSS (/usr/bin/time -f %M) and the wall time.
#
# Usage: tests/hostile/run.sh MCPTRIAGE HOSTILE_GEN [plain|sanitized] [CASE...]
# "sanitized" (an ASan/UBSan build) widens the memory and time bounds.
set -u
bin=$1
gen=$2
mode=${3:-plain}
shift 3 2>/dev/null || shift $#
only=("$@")
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for tool in jq iconv /usr/bin/time; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "hostile: $tool is missing (scripts/setup --all installs jq and time)"
    exit 1
  fi
done

# Bounds are for a RelWithDebInfo build; ASan+UBSan needs about 3x the memory and is slower.
mem_scale=1 mem_extra=0 time_scale=1
if [ "$mode" = sanitized ]; then mem_scale=3 mem_extra=200 time_scale=6; fi

passed=0 failed=0 skipped=0
name="" rss_kb=0 secs=0 code=0

# run NAME MAX_MB MAX_SECONDS INPUT [mcptriage args...]
#   INPUT is "gen:KIND[:N]" (streamed from hostile_gen) or "file:PATH" (relative to the root).
run() {
  name=$1
  local max_mb=$2 max_s=$3 input=$4
  shift 4
  local limit_s=$((max_s * time_scale))
  local source_cmd
  case "$input" in
    gen:*)
      local spec=${input#gen:}
      local kind=${spec%%:*} n=""
      [ "$spec" != "$kind" ] && n=${spec#*:}
      source_cmd=("$gen" "$kind" $n)
      ;;
    file:*) source_cmd=(cat "$root/${input#file:}") ;;
  esac
  # mcptriage alone is measured: the generator writes into a pipe that time's child reads.
  "${source_cmd[@]}" 2>/dev/null |
    /usr/bin/time -f '%M %e' -o "$tmp/time" \
      timeout -k 5 $((limit_s * 3)) "$bin" --format jsonl --quiet "$@" - >"$tmp/out" 2>"$tmp/err"
  code=${PIPESTATUS[1]}
  rss_kb=$(tail -n 1 "$tmp/time" | cut -d' ' -f1)
  secs=$(tail -n 1 "$tmp/time" | cut -d' ' -f2)
  local problems=()
  if [ "$code" -ge 124 ]; then problems+=("killed or timed out (exit $code)"); fi
  local max_kb=$(((max_mb * mem_scale + mem_extra) * 1024))
  if [ "${rss_kb:-0}" -gt "$max_kb" ]; then problems+=("peak RSS ${rss_kb} KB > ${max_kb} KB"); fi
  if awk -v s="${secs:-0}" -v l="$limit_s" 'BEGIN { exit !(s > l) }'; then
    problems+=("took ${secs} s > ${limit_s} s")
  fi
  if ! iconv -f UTF-8 -t UTF-8 "$tmp/out" >/dev/null 2>&1; then problems+=("stdout is not valid UTF-8"); fi
  if [ -s "$tmp/out" ] && ! jq -e . "$tmp/out" >/dev/null 2>&1; then problems+=("stdout is not JSON Lines"); fi
  if grep -q $'\x1b' "$tmp/err"; then problems+=("stderr holds a raw ESC"); fi
  pending=("${problems[@]}")
}

# Expectations on the last run; `done_case` prints the verdict.
pending=()
expect_exit() { [ "$code" = "$1" ] || pending+=("exit $code, expected $1"); }
expect_err() { grep -Eq -- "$1" "$tmp/err" || pending+=("stderr lacks /$1/: $(head -c 300 "$tmp/err")"); }
expect_no_records() { [ ! -s "$tmp/out" ] || pending+=("records on stdout, expected none"); }
# expect_records N OUTCOME/REASON: N exchange records (other kinds, such as session summaries,
# are not counted), all with that outcome and reason.
expect_records() {
  jq -c 'select(.kind == "exchange")' "$tmp/out" >"$tmp/records"
  local n
  n=$(wc -l <"$tmp/records")
  [ "$n" = "$1" ] || pending+=("$n records, expected $1")
  local got
  got=$(jq -r '"\(.outcome)/\(.reason)"' "$tmp/records" | sort -u | tr '\n' ' ')
  [ "$got" = "$2 " ] || pending+=("outcomes: ${got}expected $2")
}
expect_jq() { jq -e "$1" "$tmp/records" >/dev/null 2>&1 || pending+=("jq $1 is not true on $(head -c 600 "$tmp/records")"); }
done_case() {
  local measured="$((rss_kb / 1024)) MB, ${secs} s"
  if [ ${#pending[@]} -eq 0 ]; then
    passed=$((passed + 1))
    printf 'PASS %-34s %s\n' "$name" "$measured"
  else
    failed=$((failed + 1))
    printf 'FAIL %-34s %s\n' "$name" "$measured"
    for p in "${pending[@]}"; do printf '       %s\n' "$p"; done
  fi
}
skip_case() {
  skipped=$((skipped + 1))
  printf 'SKIP %-34s %s\n' "$1" "$2"
}
want() {
  [ ${#only[@]} -eq 0 ] && return 0
  local c
  for c in "${only[@]}"; do [ "$c" = "$1" ] && return 0; done
  return 1
}

tool=(--id 1 --method tools/call)

# --- unsupported or unrecognised formats: a clear error, exit 3, no record
if want random-binary; then
  run random-binary 64 5 gen:random-binary:1048576
  expect_exit 3; expect_err 'stdin: unrecognised input: \\x00'; expect_no_records; done_case
fi
if want pcap; then
  run pcap 64 5 gen:pcap
  expect_exit 3; expect_err 'pcap capture: unsupported'; expect_no_records; done_case
fi
if want pcapng; then
  run pcapng 64 5 gen:pcapng
  expect_exit 3; expect_err 'pcap capture: unsupported'; expect_no_records; done_case
fi
if want mitmproxy-flows; then
  run mitmproxy-flows 64 5 file:testdata/hostile/mitmproxy-flows.mitm
  expect_exit 3; expect_err 'mitmproxy flow file: unsupported'; expect_no_records; done_case
fi
if want nul-only; then
  run nul-only 64 5 gen:nul-only
  expect_exit 3; expect_err 'unrecognised input'; expect_no_records; done_case
fi
if want nul-status; then
  run nul-status 64 5 gen:nul-status
  expect_exit 3; expect_err 'unrecognised input: HTTP/1.1 200 O\\x00K'; expect_no_records; done_case
fi
if want long-garbage-line; then
  run long-garbage-line 64 5 gen:long-garbage-line
  expect_exit 3; expect_err '^mcptriage: error: stdin: unrecognised input: a{40}$'; expect_no_records; done_case
fi

# --- deep nesting: simdjson's depth limit (1024), never a stack overflow
if want deep-json; then
  run deep-json 64 5 gen:deep-json:100000 "${tool[@]}"
  expect_exit 0; expect_records 1 MALFORMED_JSON/too_deep; done_case
fi
if want deep-json-bare; then
  run deep-json-bare 64 5 gen:deep-json-bare:100000 "${tool[@]}"
  expect_exit 0; expect_records 1 MALFORMED_JSON/too_deep; done_case
fi
if want deep-json-sse; then
  run deep-json-sse 64 5 gen:deep-json-sse:100000 "${tool[@]}"
  expect_exit 0; expect_records 1 MALFORMED_JSON/too_deep; done_case
fi

# --- invalid UTF-8 and NUL bytes: classified, and the JSON output stays valid UTF-8
if want utf8-string; then
  run utf8-string 64 5 gen:utf8-string "${tool[@]}"
  expect_exit 0; expect_records 1 MALFORMED_JSON/invalid_utf8; done_case
fi
if want utf8-header; then
  run utf8-header 64 5 gen:utf8-header "${tool[@]}"
  expect_exit 0; expect_records 1 INVALID_HTTP_RESPONSE/unexpected_content_type
  expect_jq '.http.content_type_bytes == "YXBwbGljYXRpb24vanNvbsMo"'
  expect_jq '.detail_bytes | type == "string"'
  done_case
fi
if want utf8-sse-id; then
  run utf8-sse-id 64 5 gen:utf8-sse-id "${tool[@]}"
  expect_exit 0; expect_records 1 STREAM_INCOMPLETE/no_final_response
  expect_jq '.stream.resumable == true and (.detail_bytes | @base64d | test("ev-"))'
  done_case
fi
if want nul-bytes; then
  run nul-bytes 64 5 gen:nul-bytes "${tool[@]}"
  expect_exit 0; expect_records 1 MALFORMED_JSON/invalid_json; done_case
fi

# --- big and many header fields
if want big-header-line; then
  run big-header-line 64 5 gen:big-header-line:1048576 "${tool[@]}"
  expect_exit 0; expect_records 1 TOOL_SUCCESS/tool_success; done_case
fi
if want many-headers; then
  run many-headers 128 10 gen:many-headers:100000 "${tool[@]}"
  expect_exit 0; expect_records 1 TOOL_SUCCESS/tool_success; done_case
fi

# --- the header block cut short: nothing to judge, never ACCEPTED
if want header-cut; then
  run header-cut 64 5 gen:header-cut "${tool[@]}"
  expect_exit 0; expect_records 1 NOT_CAPTURED/body_absent; done_case
fi
if want header-cut-202; then
  run header-cut-202 64 5 gen:header-cut-202 --method notifications/initialized
  expect_exit 0; expect_records 1 NOT_CAPTURED/body_absent; done_case
fi

# --- long streams
if want sse-empty-events; then
  run sse-empty-events 128 10 gen:sse-empty-events:1000000 "${tool[@]}"
  expect_exit 0; expect_records 1 STREAM_INCOMPLETE/no_final_response; done_case
fi
if want sse-empty-events-then-response; then
  run sse-empty-events-then-response 128 10 gen:sse-empty-events-then-response:1000000 "${tool[@]}"
  expect_exit 0; expect_records 1 TOOL_SUCCESS/tool_success; done_case
fi
if want sse-cr-comments-then-response; then
  run sse-cr-comments-then-response 64 5 gen:sse-cr-comments-then-response:2000000 "${tool[@]}"
  expect_exit 0; expect_records 1 TOOL_SUCCESS/tool_success; done_case
fi
if want curlv-body-of-glued-notes; then
  run curlv-body-of-glued-notes 256 5 gen:curlv-body-of-glued-notes:1000000 "${tool[@]}"
  expect_exit 0; expect_records 1 MALFORMED_JSON/trailing_data; done_case
fi
if want sse-bad-events; then
  run sse-bad-events 256 10 gen:sse-bad-events:100000 "${tool[@]}"
  expect_exit 0; expect_records 1 MALFORMED_JSON/invalid_json; done_case
fi

# --- many records from one input
if want batch-100000; then
  run batch-100000 512 30 gen:batch:100000 --protocol-version 2025-03-26
  expect_exit 0; expect_records 100000 TOOL_SUCCESS/tool_success; done_case
fi
if want glued-100000; then
  run glued-100000 512 30 gen:glued:100000 --method notifications/initialized
  expect_exit 0; expect_records 100000 ACCEPTED/accepted; done_case
fi
if want har-100000; then
  # Only once the HAR reader exists (src/capture/har*): until then the sample is not recognised.
  if "$bin" --format jsonl --quiet "$root/testdata/samples/chrome-devtools-http11.har" >/dev/null 2>&1; then
    run har-100000 1024 60 gen:har:100000
    expect_exit 0; expect_records 100000 TOOL_SUCCESS/tool_success; done_case
  else
    skip_case har-100000 "no HAR reader yet: testdata/samples/chrome-devtools-http11.har is not recognised"
  fi
fi

# --- size limits (docs/security.md): --max-input, --max-body, gzip bombs
if want big-body-1g-stdin; then
  # A 1 GiB single-line body streamed into stdin: refused once past --max-input (default
  # 512 MiB), reading no further.
  run big-body-1g-stdin 700 30 gen:big-body:1073741824 "${tool[@]}"
  expect_exit 3; expect_err 'stdin: input is larger than --max-input \(536870912 bytes\); raise the limit with --max-input BYTES'
  expect_no_records; done_case
fi
if want big-body-max-body; then
  run big-body-max-body 256 10 gen:big-body-bare:67108864 "${tool[@]}" --max-body 8M
  expect_exit 0; expect_records 1 MALFORMED_JSON/cut_at_limit
  expect_jq '.warnings | any(test("larger than --max-body \\(8388608 bytes\\)"))'; done_case
fi
if want gzip-bomb; then
  run gzip-bomb 700 30 gen:gzip-bomb:314572800 "${tool[@]}"
  expect_exit 0; expect_records 1 MALFORMED_JSON/cut_at_limit
  expect_jq '.warnings | any(test("larger than --max-body \\(268435456 bytes\\) once inflated \\(gzip\\)"))'; done_case
fi
if want gzip-input-bomb; then
  run gzip-input-bomb 256 20 gen:gzip-input:104857600 "${tool[@]}" --max-input 64M
  expect_exit 3; expect_err 'gzip input inflates to more than --max-input \(67108864 bytes\)'; expect_no_records; done_case
fi

echo "hostile: $passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ]
