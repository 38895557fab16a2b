#!/usr/bin/env node
// A Node.js classifier for the benchmark: the reference classifier's approach (JSON.parse, then
// plain JavaScript checks) applied to the same contract as mcptriage (shared/classification.md:
// the outcomes, the layer order, the precedence rules), on a JSON Lines exchange log of the shape
// {"status":200,"headers":{...},"body":"<raw body>","request":{<JSON-RPC request>}}.
// Prints one outcome per line of the log, in order. It decides outcomes, not every reason code,
// and it cannot see duplicate member names (JSON.parse keeps the last one).
//
// Usage: node bench/node-classifier.js LOG.jsonl > outcomes.txt
'use strict';

const fs = require('fs');

const V20250326 = '2025-03-26';
const V20250618 = '2025-06-18';
const V20251125 = '2025-11-25';
const V20260728 = '2026-07-28';

function isObject(v) { return v !== null && typeof v === 'object' && !Array.isArray(v); }
function has(o, k) { return Object.prototype.hasOwnProperty.call(o, k); }
function isInteger(v) { return typeof v === 'number' && Number.isInteger(v); }
function tryParse(text) {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (e) {
    return { ok: false };
  }
}
function sameId(a, b) { return typeof a === typeof b && a === b; }

function header(headers, name) {
  if (!isObject(headers)) return undefined;
  for (const k of Object.keys(headers)) if (k.toLowerCase() === name) return String(headers[k]);
  return undefined;
}

function mediaType(ct) {
  if (ct === undefined) return '';
  const semi = ct.indexOf(';');
  return (semi < 0 ? ct : ct.slice(0, semi)).trim().toLowerCase();
}

/// Request context from the logged JSON-RPC request.
function context(request) {
  const ctx = { id: undefined, method: '', kindKnown: false, notification: false, version: '' };
  if (!isObject(request)) return ctx;
  ctx.kindKnown = true;
  if (typeof request.method !== 'string') {
    ctx.notification = true;  // a client's response to a server request
    return ctx;
  }
  ctx.method = request.method;
  if (has(request, 'id')) ctx.id = request.id;
  else ctx.notification = true;
  const meta = isObject(request.params) && isObject(request.params._meta) ? request.params._meta : null;
  if (meta && typeof meta['io.modelcontextprotocol/protocolVersion'] === 'string') {
    ctx.version = meta['io.modelcontextprotocol/protocolVersion'];
  }
  return ctx;
}

function inferVersion(ctx, msg) {
  if (ctx.version) return ctx.version;
  const r = isObject(msg) && isObject(msg.result) ? msg.result : null;
  if (r && has(r, 'resultType')) return V20260728;
  if (r && isObject(r.task)) return V20251125;
  if (r && typeof r.protocolVersion === 'string' && has(r, 'serverInfo')) return r.protocolVersion;
  return V20251125;
}

function inferMethod(result) {
  const h = (k) => has(result, k);
  if (h('content') || h('isError') || h('structuredContent') || h('task') || h('inputRequests') || h('requestState') ||
      h('taskId')) return 'tools/call';
  if (h('protocolVersion') && (h('serverInfo') || h('capabilities'))) return 'initialize';
  if (h('supportedVersions')) return 'server/discover';
  if (h('tools')) return 'tools/list';
  if (h('resourceTemplates')) return 'resources/templates/list';
  if (h('resources')) return 'resources/list';
  if (h('prompts')) return 'prompts/list';
  if (h('contents')) return 'resources/read';
  if (h('messages')) return 'prompts/get';
  if (h('completion')) return 'completion/complete';
  return Object.keys(result).every((k) => k === '_meta' || k === 'resultType') ? '' : 'tools/call';
}

const isTool = (m) => m === 'tools/call' || m === 'tasks/result';

function judgeTask(task) {
  if (!isObject(task) || typeof task.taskId !== 'string' || typeof task.status !== 'string') return 'INVALID_TOOL_RESULT';
  return 'TASK_CREATED';
}

function judgeToolResult(result, version) {
  if (!Array.isArray(result.content)) return 'INVALID_TOOL_RESULT';
  for (const item of result.content) {
    if (!isObject(item) || typeof item.type !== 'string') return 'INVALID_TOOL_RESULT';
    let required;
    if (item.type === 'text') required = ['text'];
    else if (item.type === 'image' || item.type === 'audio') required = ['data', 'mimeType'];
    else if (item.type === 'resource_link' && version >= V20250618) required = ['uri', 'name'];
    else if (item.type === 'resource') required = ['resource'];
    else return 'INVALID_TOOL_RESULT';
    for (const name of required) {
      if (name === 'resource' ? !isObject(item.resource) : typeof item[name] !== 'string') return 'INVALID_TOOL_RESULT';
    }
    if (item.type === 'resource' && (typeof item.resource.uri !== 'string' ||
        (typeof item.resource.text !== 'string' && typeof item.resource.blob !== 'string'))) return 'INVALID_TOOL_RESULT';
  }
  if (has(result, 'isError') && typeof result.isError !== 'boolean') return 'INVALID_TOOL_RESULT';
  if (has(result, 'structuredContent') && (version === V20250618 || version === V20251125) &&
      !isObject(result.structuredContent)) return 'INVALID_TOOL_RESULT';
  return result.isError === true ? 'TOOL_ERROR' : 'TOOL_SUCCESS';
}

function judgeOtherResult(result, method) {
  const need = (k, pred) => has(result, k) && pred(result[k]);
  if (method === 'initialize') {
    if (!need('protocolVersion', (v) => typeof v === 'string') || !need('capabilities', isObject) ||
        !need('serverInfo', isObject)) return 'INVALID_RESULT';
    return 'RPC_SUCCESS';
  }
  if (method === 'tools/list') {
    if (!need('tools', Array.isArray)) return 'INVALID_RESULT';
    for (const t of result.tools) if (!isObject(t) || typeof t.name !== 'string' || !isObject(t.inputSchema)) return 'INVALID_RESULT';
    return 'RPC_SUCCESS';
  }
  const lists = { 'resources/list': 'resources', 'resources/templates/list': 'resourceTemplates', 'prompts/list': 'prompts',
    'resources/read': 'contents', 'prompts/get': 'messages', 'server/discover': 'supportedVersions' };
  if (has(lists, method)) return need(lists[method], Array.isArray) ? 'RPC_SUCCESS' : 'INVALID_RESULT';
  if (method === 'completion/complete' && !need('completion', isObject)) return 'INVALID_RESULT';
  return 'RPC_SUCCESS';
}

function judgeResult(ctx, result, version) {
  const method = ctx.method || inferMethod(result);
  const tool = isTool(method);
  const invalid = tool ? 'INVALID_TOOL_RESULT' : 'INVALID_RESULT';
  let resultType = 'complete';
  if (has(result, 'resultType')) {
    if (typeof result.resultType !== 'string') return invalid;
    resultType = result.resultType;
  }
  if (resultType === 'input_required') {
    if (!(method === 'tools/call' || method === 'prompts/get' || method === 'resources/read' || method === '')) return 'INVALID_RESULT';
    const req = result.inputRequests;
    const state = result.requestState;
    if (req !== undefined && !isObject(req)) return invalid;
    if (state !== undefined && typeof state !== 'string') return invalid;
    if (req === undefined && state === undefined) return invalid;
    return 'INPUT_REQUIRED';
  }
  if (resultType === 'task') return tool || method === 'tools/call' ? judgeTask(result) : 'INVALID_RESULT';
  if (resultType !== 'complete') return invalid;
  if (method === 'tools/call' && has(result, 'task') && !has(result, 'content')) return judgeTask(result.task);
  return tool ? judgeToolResult(result, version) : judgeOtherResult(result, method);
}

/// Envelope, then the result, of one JSON-RPC message.
function judgeMessage(ctx, msg) {
  const version = inferVersion(ctx, msg);
  if (!isObject(msg) || msg.jsonrpc !== '2.0' || has(msg, 'method')) return 'INVALID_ENVELOPE';
  const hasResult = has(msg, 'result');
  const hasError = has(msg, 'error');
  if (hasResult === hasError) return 'INVALID_ENVELOPE';
  const id = msg.id;
  const idPresent = has(msg, 'id');
  if (idPresent && !(typeof id === 'string' || isInteger(id) || id === null)) return 'INVALID_ENVELOPE';
  if (hasError) {
    const e = msg.error;
    if (!isObject(e) || !isInteger(e.code) || typeof e.message !== 'string') return 'INVALID_ENVELOPE';
    if (!idPresent || id === null) return 'JSONRPC_ERROR';  // cannot be paired: a warning, never success
    if (ctx.id !== undefined && !sameId(id, ctx.id)) return 'INVALID_ENVELOPE';
    return 'JSONRPC_ERROR';
  }
  if (!idPresent || id === null) return 'INVALID_ENVELOPE';
  if (ctx.id !== undefined && !sameId(id, ctx.id)) return 'INVALID_ENVELOPE';
  if (!isObject(msg.result)) return 'INVALID_ENVELOPE';
  return judgeResult(ctx, msg.result, version);
}

function judgeJsonBody(ctx, body) {
  const p = tryParse(body);
  if (!p.ok) return 'MALFORMED_JSON';
  if (Array.isArray(p.value)) {
    const version = ctx.version || V20250326;
    if (version !== V20250326 || p.value.length === 0) return 'INVALID_ENVELOPE';
    const el = ctx.id === undefined ? p.value[0] : p.value.find((m) => isObject(m) && sameId(m.id, ctx.id));
    return el === undefined ? 'INVALID_ENVELOPE' : judgeMessage(ctx, el);
  }
  return judgeMessage(ctx, p.value);
}

/// WHATWG event-stream parsing: the `data` of every dispatched event, in order.
function sseEvents(body) {
  const events = [];
  let data = null;
  let type = '';
  const lines = body.split(/\r\n|\r|\n/);
  lines.pop();  // the text after the last line end is not a complete line
  for (const line of lines) {
    if (line === '') {
      if (data !== null && data !== '') events.push({ type: type || 'message', data });
      data = null;
      type = '';
      continue;
    }
    if (line[0] === ':') continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value[0] === ' ') value = value.slice(1);
    if (field === 'data') data = data === null ? value : data + '\n' + value;
    else if (field === 'event') type = value;
  }
  return events;  // an event without its closing blank line is dropped
}

function judgeSse(ctx, body) {
  let decider = null;
  let fallback = null;
  let firstInvalid = false;
  let lastServerRequest = null;
  let afterRequest = false;
  for (const ev of sseEvents(body)) {
    const p = tryParse(ev.data);
    if (!p.ok) {
      if (ev.type !== 'endpoint' && decider === null) firstInvalid = true;
      continue;
    }
    const m = p.value;
    if (isObject(m) && typeof m.method === 'string') {
      if (has(m, 'id')) {
        lastServerRequest = m.method;
        afterRequest = false;
      }
      continue;  // notifications and server requests do not decide
    }
    if (lastServerRequest !== null) afterRequest = true;
    if (decider !== null) continue;
    if (Array.isArray(m)) {
      decider = m;
      continue;
    }
    const id = isObject(m) ? m.id : undefined;
    if (ctx.id === undefined || sameId(id, ctx.id)) decider = m;
    else if (isObject(m) && has(m, 'error') && (id === undefined || id === null) && fallback === null) fallback = m;
  }
  if (decider === null) decider = fallback;
  if (decider !== null) return Array.isArray(decider) ? judgeJsonBody(ctx, JSON.stringify(decider)) : judgeMessage(ctx, decider);
  if (firstInvalid) return 'MALFORMED_JSON';
  const version = ctx.version || V20251125;
  if (lastServerRequest !== null && !afterRequest && version < V20260728 &&
      ['elicitation/create', 'sampling/createMessage', 'roots/list'].includes(lastServerRequest)) return 'INPUT_REQUIRED';
  return 'STREAM_INCOMPLETE';
}

const PAIRED_400 = new Set([-32700, -32600, -32602, -32020, -32021, -32022]);

function classify(ex) {
  const ctx = context(ex.request);
  const status = typeof ex.status === 'number' ? ex.status : 200;
  const body = typeof ex.body === 'string' ? ex.body : null;
  if (body === null) return 'NOT_CAPTURED';
  const media = mediaType(header(ex.headers, 'content-type'));
  const isJson = media === 'application/json' || media.endsWith('+json');
  const isSse = media === 'text/event-stream';
  if (status < 200 || status > 299) {
    // The 2026-07-28 pairs hold under 2026-07-28 rules only; the generator's captures carry no protocol
    // version (2025-11-25 assumed), so the status decides.
    if (ctx.version2026 && isJson && body !== '') {
      const p = tryParse(body);
      const m = p.ok ? p.value : null;
      const e = isObject(m) ? m.error : null;
      if (isObject(e) && m.jsonrpc === '2.0' && !has(m, 'result') && isInteger(e.code) && typeof e.message === 'string' &&
          ((status === 400 && PAIRED_400.has(e.code)) || (status === 404 && e.code === -32601))) {
        return judgeJsonBody(ctx, body);
      }
    }
    return 'HTTP_ERROR';
  }
  const empty = /^[ \t\r\n]*$/.test(body);
  if (ctx.kindKnown && ctx.notification) return status === 202 && empty ? 'ACCEPTED' : 'INVALID_HTTP_RESPONSE';
  if (status === 202 || status === 204) return !ctx.kindKnown && status === 202 && empty ? 'ACCEPTED' : 'INVALID_HTTP_RESPONSE';
  if (isSse) return judgeSse(ctx, body);
  if (isJson) return empty ? 'INVALID_HTTP_RESPONSE' : judgeJsonBody(ctx, body);
  return 'INVALID_HTTP_RESPONSE';
}

function classifyLine(line) {
  const p = tryParse(line);
  if (!p.ok || !isObject(p.value)) return 'UNREADABLE_LINE';
  return classify(p.value);
}

// Reads the log in large blocks and splits it at line ends; writes the outcomes in blocks too.
function main() {
  const file = process.argv[2];
  if (!file) {
    process.stderr.write('usage: node-classifier.js LOG.jsonl\n');
    process.exit(2);
  }
  const fd = fs.openSync(file, 'r');
  let buf = Buffer.alloc(16 << 20);
  let used = 0;
  let out = [];
  const flush = () => {
    if (out.length) fs.writeSync(1, out.join('\n') + '\n');
    out = [];
  };
  for (;;) {
    if (used === buf.length) {
      const bigger = Buffer.alloc(buf.length * 2);
      buf.copy(bigger, 0, 0, used);
      buf = bigger;
    }
    const n = fs.readSync(fd, buf, used, buf.length - used, null);
    const end = used + n;
    const view = buf.subarray(0, end);
    let start = 0;
    for (let nl = view.indexOf(10, start); nl >= 0; nl = view.indexOf(10, start)) {
      if (nl > start) out.push(classifyLine(buf.toString('utf8', start, nl)));
      start = nl + 1;
    }
    if (n === 0) {
      if (start < end) out.push(classifyLine(buf.toString('utf8', start, end)));
      break;
    }
    buf.copy(buf, 0, start, end);
    used = end - start;
    if (out.length > 4096) flush();
  }
  flush();
}

main();
