#!/usr/bin/env node
// Deterministic benchmark corpus: MCP exchanges with a realistic mix, written as (a) a JSON Lines
// exchange log, (b) a folder of small `curl -i` captures, (c) one HAR 1.2 file. Same seed, same
// bytes. Each output has a sidecar `.expected` (one outcome per exchange, in order), the outcome
// the contract (shared/classification.md) gives, so the contenders can be checked against it.
//
// Usage:
//   node bench/gen.js jsonl --out FILE (--exchanges N | --mb MB) [--seed S] [--gateway]
//     --gateway: each line also carries a request id (`id`) and a duration (`timing.end_ms`), and
//     one line in 1,000 is cut short (a damaged line, `invalid_line` in .expected); the
//     exchanges are the same as without it (tests/stats/chdb.sh, docs/scale.md)
//   node bench/gen.js curl  --out DIR  --files N [--seed S]
//   node bench/gen.js har   --out FILE (--exchanges N | --mb MB) [--seed S]
'use strict';

const fs = require('fs');
const path = require('path');

// ---------------------------------------------------------------------------------------------
// Seeded PRNG (mulberry32): the corpus depends on the seed only, never on the machine.

function mulberry32(seed) {
  let a = seed >>> 0;
  return function next() {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

class Rng {
  constructor(seed) { this.next = mulberry32(seed); }
  int(lo, hi) { return lo + Math.floor(this.next() * (hi - lo + 1)); }  // inclusive
  pick(list) { return list[Math.floor(this.next() * list.length)]; }
  chance(p) { return this.next() < p; }
}

// ---------------------------------------------------------------------------------------------
// Text: words with the characters tool output really has (quotes, newlines, tabs, backslashes,
// non-ASCII), so that unescaping costs what it costs on real logs.

const WORDS = ('the of and to in is for on with that file line result query row error value ' +
  'server request response tool call session stream token user data name path status config ' +
  'build test commit branch repository function return string number object array index ' +
  'café naïve résumé Zürich 東京 données “quoted” — …').split(' ');

function sentence(rng, words) {
  const out = [];
  for (let i = 0; i < words; i++) out.push(rng.pick(WORDS));
  return out.join(' ');
}

function smallText(rng) {
  const kind = rng.int(0, 3);
  if (kind === 0) return sentence(rng, rng.int(3, 40));
  if (kind === 1) {
    const lines = [];
    for (let i = rng.int(2, 12); i > 0; i--) lines.push(`${rng.int(1, 999)}\t${sentence(rng, rng.int(2, 10))}`);
    return lines.join('\n');
  }
  if (kind === 2) {
    // JSON as text: a tool returning a serialized object (JSON in a string in a string).
    const rows = [];
    for (let i = rng.int(1, 6); i > 0; i--) rows.push({ id: rng.int(1, 1e6), name: sentence(rng, 2), ok: rng.chance(0.8) });
    return JSON.stringify({ rows, total: rows.length });
  }
  return `path "C:\\\\work\\\\${rng.pick(WORDS)}" said: "${sentence(rng, rng.int(2, 8))}"\n`;
}

/// A large tool output (a file, a page of search results, a query dump) of about `bytes` bytes.
function largeText(rng, bytes) {
  const parts = [];
  let size = 0;
  const style = rng.int(0, 2);
  while (size < bytes) {
    let piece;
    if (style === 0) {
      piece = `${rng.int(1, 99999)}: ${sentence(rng, rng.int(4, 16))} "${rng.pick(WORDS)}"\n`;
    } else if (style === 1) {
      piece = JSON.stringify({ line: rng.int(1, 99999), text: sentence(rng, rng.int(4, 12)), tags: [rng.pick(WORDS), rng.pick(WORDS)] }) + '\n';
    } else {
      piece = `\tif (x == "${rng.pick(WORDS)}") { return '${rng.pick(WORDS)}\\n'; }  // ${sentence(rng, 5)}\n`;
    }
    parts.push(piece);
    size += Buffer.byteLength(piece);
  }
  return parts.join('');
}

// ---------------------------------------------------------------------------------------------
// Exchanges. Each is {status, headers (lower-case names), body, request, outcome}.

const TOOLS = ['search', 'read_file', 'run_query', 'list_issues', 'fetch_url', 'git_log', 'echo'];

function jsonrpcId(rng, i) { return rng.chance(0.1) ? `req-${i}` : i; }

function toolRequest(rng, id) {
  return { jsonrpc: '2.0', id, method: 'tools/call',
    params: { name: rng.pick(TOOLS), arguments: { q: sentence(rng, rng.int(1, 5)), limit: rng.int(1, 100) },
      _meta: { progressToken: `tok-${id}` } } };
}

function toolResult(rng, text, isError) {
  const result = { content: [{ type: 'text', text }] };
  if (rng.chance(0.15)) result.content.push({ type: 'text', text: sentence(rng, rng.int(2, 10)) });
  if (!isError && rng.chance(0.2)) result.structuredContent = { count: rng.int(0, 50), items: [sentence(rng, 2)] };
  if (isError || rng.chance(0.7)) result.isError = isError;
  return result;
}

const jsonType = () => ({ 'content-type': 'application/json' });

function sseBody(rng, id, messages) {
  const stream = `s${rng.int(1000, 9999)}`;
  let body = '';
  let n = 0;
  if (rng.chance(0.3)) body += `id: ${stream}_0\ndata: \n\n`;  // 2025-11-25 priming event
  for (const m of messages) body += `event: message\nid: ${stream}_${++n}\ndata: ${JSON.stringify(m)}\n\n`;
  return body;
}

function progress(id, k, total) {
  return { jsonrpc: '2.0', method: 'notifications/progress',
    params: { progressToken: `tok-${id}`, progress: k, total, message: `step ${k} of ${total}` } };
}

// Weights of the mix (per thousand); the rest is small JSON tool successes.
const MIX = [
  ['sse_success', 80], ['tool_error', 50], ['rpc_error', 30], ['rpc_error_400', 10], ['http_5xx', 30],
  ['http_4xx', 20], ['rpc_success', 60], ['accepted', 30], ['stream_incomplete', 10], ['input_required', 5],
  ['malformed', 5], ['large', 5],
];

function pickKind(rng) {
  let r = rng.int(0, 999);
  for (const [kind, w] of MIX) {
    if (r < w) return kind;
    r -= w;
  }
  return 'tool_success';
}

function makeExchange(rng, i, opts) {
  const id = jsonrpcId(rng, i);
  const kind = pickKind(rng);
  const req = toolRequest(rng, id);
  const ok = (result) => JSON.stringify({ jsonrpc: '2.0', id, result });
  switch (kind) {
    case 'tool_success':
      return { status: 200, headers: rng.chance(0.2) ? { 'Content-Type': 'application/json; charset=utf-8' } : jsonType(),
        body: ok(toolResult(rng, smallText(rng), false)), request: req, outcome: 'TOOL_SUCCESS' };
    case 'large': {
      if (opts.noLarge) return makeExchangeOf(rng, id, req, 'TOOL_SUCCESS');
      const text = largeText(rng, rng.int(50 * 1024, 500 * 1024));
      return { status: 200, headers: jsonType(), body: ok({ content: [{ type: 'text', text }], isError: false }),
        request: req, outcome: 'TOOL_SUCCESS' };
    }
    case 'sse_success': {
      const total = rng.int(1, 5);
      const msgs = [];
      for (let k = 1; k <= total; k++) msgs.push(progress(id, k, total));
      msgs.push({ jsonrpc: '2.0', id, result: toolResult(rng, smallText(rng), false) });
      return { status: 200, headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' },
        body: sseBody(rng, id, msgs), request: req, outcome: 'TOOL_SUCCESS' };
    }
    case 'stream_incomplete': {
      const total = rng.int(2, 5);
      const msgs = [];
      for (let k = 1; k < total; k++) msgs.push(progress(id, k, total));
      return { status: 200, headers: { 'content-type': 'text/event-stream' }, body: sseBody(rng, id, msgs), request: req,
        outcome: 'STREAM_INCOMPLETE' };
    }
    case 'tool_error':
      return { status: 200, headers: jsonType(), body: ok(toolResult(rng, `Error: ${sentence(rng, rng.int(3, 20))}`, true)),
        request: req, outcome: 'TOOL_ERROR' };
    case 'rpc_error': {
      const [code, message] = rng.pick([[-32602, 'Invalid params: missing "q"'], [-32603, 'Internal error'],
        [-32601, 'Method not found'], [-32000, 'Tool timed out']]);
      return { status: 200, headers: jsonType(), body: JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } }),
        request: req, outcome: 'JSONRPC_ERROR' };
    }
    case 'rpc_error_400':
      // 2026-07-28 pairs -32602 with 400 (JSONRPC_ERROR), under 2026-07-28 rules only; these captures carry no
      // protocol version, so the assumed 2025-11-25 applies and the status decides (docs/classification.md).
      return { status: 400, headers: jsonType(),
        body: JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32602, message: `Invalid arguments for tool ${req.params.name}` } }),
        request: req, outcome: 'HTTP_ERROR' };
    case 'http_5xx': {
      const v = rng.int(0, 2);
      if (v === 0) {
        return { status: 500, headers: jsonType(),
          body: JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32603, message: 'Internal error' } }), request: req, outcome: 'HTTP_ERROR' };
      }
      return { status: v === 1 ? 502 : 503, headers: { 'content-type': 'text/html', 'retry-after': '5' },
        body: `<html><head><title>${v === 1 ? '502 Bad Gateway' : '503 Service Unavailable'}</title></head><body><h1>Error</h1></body></html>\n`,
        request: req, outcome: 'HTTP_ERROR' };
    }
    case 'http_4xx': {
      const v = rng.int(0, 2);
      if (v === 0) {
        return { status: 401, headers: { 'content-type': 'application/json', 'www-authenticate': 'Bearer resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource"' },
          body: JSON.stringify({ error: 'invalid_token', error_description: 'The access token expired' }), request: req, outcome: 'HTTP_ERROR' };
      }
      if (v === 1) {
        return { status: 404, headers: jsonType(),
          body: JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Session not found' } }), request: req, outcome: 'HTTP_ERROR' };
      }
      return { status: 429, headers: { 'content-type': 'text/plain', 'retry-after': '30' }, body: 'Too Many Requests\n', request: req, outcome: 'HTTP_ERROR' };
    }
    case 'rpc_success': {
      const v = rng.int(0, 2);
      if (v === 0) {
        return { status: 200, headers: jsonType(), request: { jsonrpc: '2.0', id, method: 'initialize',
          params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1.0' } } },
          body: ok({ protocolVersion: '2025-11-25', capabilities: { tools: { listChanged: true } }, serverInfo: { name: 'bench-server', version: '1.2.3' } }),
          outcome: 'RPC_SUCCESS' };
      }
      if (v === 1) {
        const tools = TOOLS.slice(0, rng.int(1, TOOLS.length)).map((name) => ({ name, description: sentence(rng, rng.int(4, 12)),
          inputSchema: { type: 'object', properties: { q: { type: 'string' } } }, annotations: { readOnlyHint: rng.chance(0.5) } }));
        return { status: 200, headers: jsonType(), request: { jsonrpc: '2.0', id, method: 'tools/list', params: {} },
          body: ok({ tools }), outcome: 'RPC_SUCCESS' };
      }
      return { status: 200, headers: jsonType(), request: { jsonrpc: '2.0', id, method: 'ping' }, body: ok({}), outcome: 'RPC_SUCCESS' };
    }
    case 'accepted':
      return { status: 202, headers: {}, body: '', request: { jsonrpc: '2.0', method: 'notifications/initialized' }, outcome: 'ACCEPTED' };
    case 'input_required':
      return { status: 200, headers: jsonType(), request: req,
        body: ok({ resultType: 'input_required', inputRequests: { confirm: { method: 'elicitation/create',
          params: { message: 'Proceed?', requestedSchema: { type: 'object', properties: {} } } } }, requestState: 'st-' + i }),
        outcome: 'INPUT_REQUIRED' };
    case 'malformed': {
      const full = ok(toolResult(rng, smallText(rng), false));
      return { status: 200, headers: jsonType(), body: full.slice(0, Math.max(5, Math.floor(full.length / 2))), request: req,
        outcome: 'MALFORMED_JSON' };
    }
  }
  throw new Error(`unknown kind ${kind}`);
}

function makeExchangeOf(rng, id, req, outcome) {
  return { status: 200, headers: jsonType(), body: JSON.stringify({ jsonrpc: '2.0', id, result: toolResult(rng, smallText(rng), false) }),
    request: req, outcome };
}

// ---------------------------------------------------------------------------------------------
// Writers

class Out {
  constructor(file) { this.fd = fs.openSync(file, 'w'); this.parts = []; this.pending = 0; this.bytes = 0; }
  write(s) {
    this.parts.push(s);
    const n = Buffer.byteLength(s);
    this.pending += n;
    this.bytes += n;
    if (this.pending > (8 << 20)) this.flush();
  }
  flush() {
    if (this.parts.length) fs.writeSync(this.fd, this.parts.join(''));
    this.parts = [];
    this.pending = 0;
  }
  close() { this.flush(); fs.closeSync(this.fd); }
}

function limits(args) {
  const n = args.exchanges ? Number(args.exchanges) : Infinity;
  const bytes = args.mb ? Number(args.mb) * 1e6 : Infinity;
  if (!Number.isFinite(n) && !Number.isFinite(bytes)) die('give --exchanges N or --mb MB');
  return { n, bytes };
}

function genJsonl(args) {
  const { n, bytes } = limits(args);
  const rng = new Rng(Number(args.seed || 1));
  const out = new Out(args.out);
  const expected = new Out(args.out + '.expected');
  const gateway = 'gateway' in args;
  const grng = new Rng(Number(args.seed || 1) + 7919);  // its own stream: the exchanges stay the same
  for (let i = 1; i <= n && out.bytes < bytes; i++) {
    const ex = makeExchange(rng, i, {});
    if (!gateway) {
      out.write(JSON.stringify({ status: ex.status, headers: ex.headers, body: ex.body, request: ex.request }) + '\n');
      expected.write(ex.outcome + '\n');
      continue;
    }
    const line = JSON.stringify({ id: `req-${i}`, status: ex.status, headers: ex.headers, body: ex.body, request: ex.request,
      timing: { end_ms: grng.int(1, 2500) } });
    if (i % 1000 === 500) {
      out.write(line.slice(0, Math.floor(line.length / 2)) + '\n');
      expected.write('invalid_line\n');
    } else {
      out.write(line + '\n');
      expected.write(ex.outcome + '\n');
    }
  }
  out.close();
  expected.close();
}

const REASONS = { 200: 'OK', 202: 'Accepted', 400: 'Bad Request', 401: 'Unauthorized', 404: 'Not Found', 429: 'Too Many Requests',
  500: 'Internal Server Error', 502: 'Bad Gateway', 503: 'Service Unavailable' };

function curlCapture(rng, ex) {
  const lines = [`HTTP/1.1 ${ex.status} ${REASONS[ex.status] || ''}`.trimEnd(), `Date: Mon, 30 Nov 2026 00:40:0${rng.int(0, 9)} GMT`];
  for (const [k, v] of Object.entries(ex.headers)) lines.push(`${k.replace(/(^|-)([a-z])/g, (m) => m.toUpperCase())}: ${v}`);
  lines.push(`Mcp-Session-Id: 7c2a4f0e-93d1-4b7a-9e55-${String(rng.int(0, 999999)).padStart(12, '0')}`);
  if (ex.headers['content-type'] === 'text/event-stream') lines.push('Transfer-Encoding: chunked');
  else lines.push(`Content-Length: ${Buffer.byteLength(ex.body)}`);
  return lines.join('\r\n') + '\r\n\r\n' + ex.body;
}

function genCurl(args) {
  const files = Number(args.files || die('give --files N'));
  const rng = new Rng(Number(args.seed || 1));
  fs.mkdirSync(args.out, { recursive: true });
  const expected = new Out(path.join(args.out, '..', path.basename(args.out) + '.expected'));
  const width = String(files).length;
  for (let i = 1; i <= files; i++) {
    let ex = makeExchange(rng, i, { noLarge: true });
    // Without the request the id is not checked and the method is inferred: the outcome stays.
    // A notification's 202 is then ACCEPTED with a warning; a 400 pair stays HTTP_ERROR (no version in force).
    fs.writeFileSync(path.join(args.out, `x${String(i).padStart(width, '0')}.txt`), curlCapture(rng, ex));
    expected.write(ex.outcome + '\n');
  }
  expected.close();
}

function genHar(args) {
  const { n, bytes } = limits(args);
  const rng = new Rng(Number(args.seed || 1));
  const out = new Out(args.out);
  const expected = new Out(args.out + '.expected');
  out.write('{"log":{"version":"1.2","creator":{"name":"mcptriage-bench","version":"1"},"entries":[\n');
  const t0 = Date.UTC(2026, 10, 30, 0, 0, 0);
  for (let i = 1; i <= n && out.bytes < bytes; i++) {
    const ex = makeExchange(rng, i, {});
    const reqText = JSON.stringify(ex.request);
    const entry = {
      startedDateTime: new Date(t0 + i * 37).toISOString(), time: rng.int(2, 900),
      request: { method: 'POST', url: 'http://127.0.0.1:3001/mcp', httpVersion: 'HTTP/1.1',
        headers: [{ name: 'Content-Type', value: 'application/json' }, { name: 'Accept', value: 'application/json, text/event-stream' }],
        queryString: [], cookies: [], headersSize: -1, bodySize: Buffer.byteLength(reqText),
        postData: { mimeType: 'application/json', text: reqText } },
      response: { status: ex.status, statusText: REASONS[ex.status] || '', httpVersion: 'HTTP/1.1',
        headers: Object.entries(ex.headers).map(([name, value]) => ({ name, value })), cookies: [],
        content: { size: Buffer.byteLength(ex.body), mimeType: ex.headers['content-type'] || ex.headers['Content-Type'] || 'x-unknown', text: ex.body },
        redirectURL: '', headersSize: -1, bodySize: Buffer.byteLength(ex.body) },
      cache: {}, timings: { send: 0, wait: rng.int(1, 800), receive: rng.int(0, 50) },
    };
    out.write((i > 1 ? ',\n' : '') + JSON.stringify(entry));
    expected.write(ex.outcome + '\n');
  }
  out.write('\n]}}\n');
  out.close();
  expected.close();
}

function die(msg) {
  process.stderr.write(`gen.js: ${msg}\n`);
  process.exit(2);
}

function parseArgs(argv) {
  const args = { _: [] };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--gateway') args.gateway = true;
    else if (argv[i].startsWith('--')) args[argv[i].slice(2)] = argv[++i];
    else args._.push(argv[i]);
  }
  return args;
}

const args = parseArgs(process.argv.slice(2));
if (!args.out) die('give --out');
({ jsonl: genJsonl, curl: genCurl, har: genHar }[args._[0]] || (() => die('first argument: jsonl, curl or har')))(args);
