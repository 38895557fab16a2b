# The outcome of each exchange of a JSON Lines exchange log, in jq: what CI users write today.
# Same contract as mcptriage (shared/classification.md: outcomes, layer order, precedence) and
# the same checks as bench/node-classifier.js. Input lines:
#   {"status":200,"headers":{...},"body":"<raw body>","request":{<JSON-RPC request>}}
# Usage: jq -r -f bench/classify.jq LOG.jsonl   (one outcome per line)

def isobj: type == "object";
def isint: type == "number" and . == floor;
def parse: try {ok: true, v: fromjson} catch {ok: false};
def sameid($a; $b): ($a|type) == ($b|type) and $a == $b;

def header($name):
  .headers as $h
  | if ($h | isobj | not) then null
    else $h[$name] // first($h | to_entries[] | select(.key | ascii_downcase == $name) | .value) // null end;
def media: if . == null then "" else split(";")[0] | ascii_downcase | ltrimstr(" ") | rtrimstr(" ") end;

# Request context: {id?, method, known, notification, version}
def context:
  .request as $r
  | if ($r | isobj | not) then {method: "", known: false, notification: false, version: ""}
    elif ($r.method | type) != "string" then {method: "", known: true, notification: true, version: ""}
    else {method: $r.method, known: true, notification: ($r | has("id") | not),
          version: ((($r.params // {}) | if isobj then (._meta // {}) else {} end
                     | if isobj then .["io.modelcontextprotocol/protocolVersion"] else null end) // "")}
         + (if $r | has("id") then {id: $r.id} else {} end)
    end;

def version($ctx):
  if $ctx.version != "" then $ctx.version
  elif (isobj and (.result | isobj)) then
    .result as $r
    | if $r | has("resultType") then "2026-07-28"
      elif ($r.task | isobj) then "2025-11-25"
      elif ($r.protocolVersion | type) == "string" and ($r | has("serverInfo")) then $r.protocolVersion
      else "2025-11-25" end
  else "2025-11-25" end;

def infer_method:
  if has("content") or has("isError") or has("structuredContent") or has("task") or has("inputRequests")
     or has("requestState") or has("taskId") then "tools/call"
  elif has("protocolVersion") and (has("serverInfo") or has("capabilities")) then "initialize"
  elif has("supportedVersions") then "server/discover"
  elif has("tools") then "tools/list"
  elif has("resourceTemplates") then "resources/templates/list"
  elif has("resources") then "resources/list"
  elif has("prompts") then "prompts/list"
  elif has("contents") then "resources/read"
  elif has("messages") then "prompts/get"
  elif has("completion") then "completion/complete"
  elif (keys | all(. == "_meta" or . == "resultType")) then ""
  else "tools/call" end;

def task_outcome:
  if isobj and (.taskId | type) == "string" and (.status | type) == "string" then "TASK_CREATED"
  else "INVALID_TOOL_RESULT" end;

def item_ok($v):
  isobj and (.type | type) == "string" and
  (if .type == "text" then (.text | type) == "string"
   elif .type == "image" or .type == "audio" then (.data | type) == "string" and (.mimeType | type) == "string"
   elif .type == "resource_link" and $v >= "2025-06-18" then (.uri | type) == "string" and (.name | type) == "string"
   elif .type == "resource" then (.resource | isobj) and (.resource.uri | type) == "string"
        and ((.resource.text | type) == "string" or (.resource.blob | type) == "string")
   else false end);

def tool_result($v):
  if (.content | type) != "array" then "INVALID_TOOL_RESULT"
  elif (.content | all(item_ok($v)) | not) then "INVALID_TOOL_RESULT"
  elif has("isError") and (.isError | type) != "boolean" then "INVALID_TOOL_RESULT"
  elif has("structuredContent") and ($v == "2025-06-18" or $v == "2025-11-25") and (.structuredContent | isobj | not)
    then "INVALID_TOOL_RESULT"
  elif .isError == true then "TOOL_ERROR"
  else "TOOL_SUCCESS" end;

def other_result($m):
  {"resources/list": "resources", "resources/templates/list": "resourceTemplates", "prompts/list": "prompts",
   "resources/read": "contents", "prompts/get": "messages", "server/discover": "supportedVersions"}[$m] as $list
  | if $m == "initialize" then
      (if (.protocolVersion | type) == "string" and (.capabilities | isobj) and (.serverInfo | isobj)
       then "RPC_SUCCESS" else "INVALID_RESULT" end)
    elif $m == "tools/list" then
      (if (.tools | type) == "array" and (.tools | all(isobj and (.name | type) == "string" and (.inputSchema | isobj)))
       then "RPC_SUCCESS" else "INVALID_RESULT" end)
    elif $list != null then (if (.[$list] | type) == "array" then "RPC_SUCCESS" else "INVALID_RESULT" end)
    elif $m == "completion/complete" and (.completion | isobj | not) then "INVALID_RESULT"
    else "RPC_SUCCESS" end;

def result_outcome($ctx; $v):
  (if $ctx.method != "" then $ctx.method else infer_method end) as $m
  | ($m == "tools/call" or $m == "tasks/result") as $tool
  | (if $tool then "INVALID_TOOL_RESULT" else "INVALID_RESULT" end) as $invalid
  | if has("resultType") and (.resultType | type) != "string" then $invalid
    else (.resultType // "complete") as $rt
    | if $rt == "input_required" then
        (if ($m == "tools/call" or $m == "prompts/get" or $m == "resources/read" or $m == "") | not then "INVALID_RESULT"
         elif has("inputRequests") and (.inputRequests | isobj | not) then $invalid
         elif has("requestState") and (.requestState | type) != "string" then $invalid
         elif (has("inputRequests") or has("requestState")) | not then $invalid
         else "INPUT_REQUIRED" end)
      elif $rt == "task" then (if $tool then task_outcome else "INVALID_RESULT" end)
      elif $rt != "complete" then $invalid
      elif $m == "tools/call" and has("task") and (has("content") | not) then .task | task_outcome
      elif $tool then tool_result($v)
      else other_result($m) end
    end;

def message_outcome($ctx):
  version($ctx) as $v
  | if (isobj | not) or .jsonrpc != "2.0" or has("method") then "INVALID_ENVELOPE"
    elif has("result") == has("error") then "INVALID_ENVELOPE"
    elif has("id") and ((.id | type) == "string" or (.id | isint) or .id == null | not) then "INVALID_ENVELOPE"
    elif has("error") then
      (if (.error | isobj | not) or (.error.code | isint | not) or (.error.message | type) != "string" then "INVALID_ENVELOPE"
       elif (has("id") | not) or .id == null then "JSONRPC_ERROR"
       elif ($ctx | has("id")) and (sameid(.id; $ctx.id) | not) then "INVALID_ENVELOPE"
       else "JSONRPC_ERROR" end)
    elif (has("id") | not) or .id == null then "INVALID_ENVELOPE"
    elif ($ctx | has("id")) and (sameid(.id; $ctx.id) | not) then "INVALID_ENVELOPE"
    elif (.result | isobj | not) then "INVALID_ENVELOPE"
    else .result | result_outcome($ctx; $v) end;

def json_body($ctx):
  parse as $p
  | if ($p.ok | not) then "MALFORMED_JSON"
    elif ($p.v | type) == "array" then
      (if ($ctx.version | if . == "" then "2025-03-26" else . end) != "2025-03-26" or ($p.v | length) == 0 then "INVALID_ENVELOPE"
       else ([$p.v[] | select(($ctx | has("id") | not) or (isobj and sameid(.id; $ctx.id)))] | .[0]) as $el
       | if $el == null then "INVALID_ENVELOPE" else $el | message_outcome($ctx) end end)
    else $p.v | message_outcome($ctx) end;

# Event-stream parsing as jq users write it (WHATWG rules for LF and CRLF line ends; a lone CR is
# not a line end here): blocks end at a blank line, `data` lines are joined with LF, one space after
# the colon is dropped, empty-data (priming) blocks and an unterminated last block are not events.
def field_values($name):
  map(select(startswith($name + ":")) | .[($name | length) + 1:] | if startswith(" ") then .[1:] else . end);
def sse_events:
  split("\r\n") | join("\n") | split("\n\n") | .[:-1]
  | map(split("\n") | map(select(startswith(":") | not))
        | {type: (field_values("event") | last // "message"), data: (field_values("data") | join("\n"))}
        | select(.data != ""));

def sse_body($ctx):
  reduce (sse_events[]) as $ev ({decider: null, fallback: null, invalid: false, request: null, after: false};
    if .decider != null then (if .request != null then .after = true else . end)
    else ($ev.data | parse) as $p
    | if ($p.ok | not) then (if $ev.type != "endpoint" then .invalid = true else . end)
      elif ($p.v | isobj) and ($p.v.method | type) == "string" then
        (if $p.v | has("id") then .request = $p.v.method | .after = false else . end)
      else (if .request != null then .after = true else . end)
        | if ($p.v | type) == "array" then .decider = {v: $p.v}
          elif ($ctx | has("id") | not) or (($p.v | isobj) and sameid($p.v.id; $ctx.id)) then .decider = {v: $p.v}
          elif ($p.v | isobj) and ($p.v | has("error")) and $p.v.id == null and .fallback == null then .fallback = {v: $p.v}
          else . end
      end
    end)
  | (.decider // .fallback) as $d
  | if $d != null then
      (if ($d.v | type) == "array" then ($d.v | tojson | json_body($ctx)) else $d.v | message_outcome($ctx) end)
    elif .invalid then "MALFORMED_JSON"
    elif .request != null and (.after | not) and (($ctx.version | if . == "" then "2025-11-25" else . end) < "2026-07-28")
         and (.request == "elicitation/create" or .request == "sampling/createMessage" or .request == "roots/list")
      then "INPUT_REQUIRED"
    else "STREAM_INCOMPLETE" end;

def classify:
  context as $ctx
  | (.status // 200) as $status
  | (header("content-type") | media) as $media
  | ($media == "application/json" or ($media | endswith("+json"))) as $json
  | ($media == "text/event-stream") as $sse
  | if (.body | type) != "string" then "NOT_CAPTURED"
    else .body as $body
    | ($body | test("\\A[ \t\r\n]*\\z")) as $empty
    | if $status < 200 or $status > 299 then
        # the 2026-07-28 pairs hold under 2026-07-28 rules only; the generator's captures carry no
        # protocol version (2025-11-25 assumed), so the status decides
        (if ($ctx.version2026 // false) and $json and $body != "" then
           ($body | parse) as $p
           | if ($p.v | isobj) and ($p.v.error | isobj) and $p.v.jsonrpc == "2.0" and ($p.v | has("result") | not)
                and ($p.v.error.code | isint) and ($p.v.error.message | type) == "string"
                and (($status == 400 and ([-32700, -32600, -32602, -32020, -32021, -32022] | index([$p.v.error.code])) != null)
                     or ($status == 404 and $p.v.error.code == -32601))
             then $body | json_body($ctx) else "HTTP_ERROR" end
         else "HTTP_ERROR" end)
      elif $ctx.known and $ctx.notification then (if $status == 202 and $empty then "ACCEPTED" else "INVALID_HTTP_RESPONSE" end)
      elif $status == 202 or $status == 204 then
        (if ($ctx.known | not) and $status == 202 and $empty then "ACCEPTED" else "INVALID_HTTP_RESPONSE" end)
      elif $sse then $body | sse_body($ctx)
      elif $json then (if $empty then "INVALID_HTTP_RESPONSE" else $body | json_body($ctx) end)
      else "INVALID_HTTP_RESPONSE" end
    end;

classify
