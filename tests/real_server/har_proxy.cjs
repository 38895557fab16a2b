// A small recording HTTP proxy for the real-server test: forwards every request to the MCP
// server on 127.0.0.1 (same path, the target's origin) and records the traffic as a HAR 1.2
// file, optionally answering chosen calls with an injected error first (a stand-in for a
// flaky gateway). Loopback only.
//
// Usage: node har_proxy.cjs --target http://127.0.0.1:PORT/mcp --har FILE
//                           [--fail METHOD[:TOOL]:STATUS ...]   (each once, in order)
// Prints "listening on 127.0.0.1:PORT" when ready. The HAR file is rewritten after every
// completed exchange (write to FILE.tmp, then rename), so it is whole whenever it is read.
// No dependencies beyond Node.js (20).
'use strict';

const http = require('node:http');
const fs = require('node:fs');

function parseArgs(argv) {
  const args = { fail: [] };
  for (let i = 2; i < argv.length; i++) {
    const a = argv[i];
    const v = argv[i + 1];
    if (a === '--target') { args.target = v; i++; }
    else if (a === '--har') { args.har = v; i++; }
    else if (a === '--fail') { args.fail.push(v); i++; }
    else { throw new Error(`unknown argument ${a}`); }
  }
  if (!args.target || !args.har) throw new Error('--target and --har are required');
  return args;
}

const args = parseArgs(process.argv);
const target = new URL(args.target);
if (target.protocol !== 'http:' || !['127.0.0.1', 'localhost', '[::1]'].includes(target.hostname)) {
  console.error(`refusing target ${args.target}: loopback http only`);
  process.exit(2);
}
// Injected failures: {method, tool, status, used}.
const failures = args.fail.map((spec) => {
  const parts = spec.split(':');
  const status = Number(parts.pop());
  if (!(status >= 400 && status <= 599)) throw new Error(`bad --fail ${spec}`);
  return { method: parts[0], tool: parts[1] || null, status, used: false };
});

const entries = [];  // index -> entry, in request order
let started = 0;

function headerList(raw) {
  const out = [];
  for (let i = 0; i + 1 < raw.length; i += 2) out.push({ name: raw[i], value: raw[i + 1] });
  return out;
}

function headerValue(list, name) {
  const h = list.find((x) => x.name.toLowerCase() === name.toLowerCase());
  return h ? h.value : '';
}

/// Text of a body, as HAR keeps it: UTF-8 text, or base64 when it is not UTF-8.
function content(buf) {
  const text = buf.toString('utf8');
  if (Buffer.from(text, 'utf8').equals(buf)) return { text };
  return { text: buf.toString('base64'), encoding: 'base64' };
}

function writeHar() {
  const done = entries.filter(Boolean);
  const har = {
    log: {
      version: '1.2',
      creator: { name: 'mcptriage-har-proxy', version: '1' },
      pages: [],
      entries: done,
    },
  };
  const tmp = `${args.har}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(har, null, 2) + '\n');
  fs.renameSync(tmp, args.har);
}

/// The injected failure this request matches, if any (each is used once).
function injected(body) {
  let msg;
  try { msg = JSON.parse(body.toString('utf8')); } catch { return null; }
  if (!msg || typeof msg !== 'object' || Array.isArray(msg)) return null;
  for (const f of failures) {
    if (f.used || msg.method !== f.method) continue;
    if (f.tool && !(msg.params && msg.params.name === f.tool)) continue;
    f.used = true;
    return f;
  }
  return null;
}

function record(index, req, reqBody, t0, status, statusText, resHeaders, resBody, tWait) {
  const reqHeaders = headerList(req.rawHeaders);
  const entry = {
    startedDateTime: new Date(t0).toISOString(),
    time: Date.now() - t0,
    request: {
      method: req.method,
      url: `http://${req.headers.host || `${target.host}`}${req.url}`,
      httpVersion: `HTTP/${req.httpVersion}`,
      headers: reqHeaders,
      queryString: [],
      cookies: [],
      headersSize: -1,
      bodySize: reqBody.length,
    },
    response: {
      status,
      statusText,
      httpVersion: 'HTTP/1.1',
      headers: resHeaders,
      cookies: [],
      content: { size: resBody.length, mimeType: headerValue(resHeaders, 'content-type'), ...content(resBody) },
      redirectURL: '',
      headersSize: -1,
      bodySize: resBody.length,
    },
    cache: {},
    timings: { send: 0, wait: tWait - t0, receive: Date.now() - tWait },
  };
  if (reqBody.length > 0) {
    entry.request.postData = { mimeType: headerValue(reqHeaders, 'content-type'), text: reqBody.toString('utf8') };
  }
  entries[index] = entry;
  writeHar();
}

const server = http.createServer((req, res) => {
  const index = started++;
  const t0 = Date.now();
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const reqBody = Buffer.concat(chunks);
    const fail = injected(reqBody);
    if (fail) {
      const body = Buffer.from(`injected by har_proxy: ${fail.status}\n`);
      const headers = [{ name: 'Content-Type', value: 'text/plain' }, { name: 'Content-Length', value: String(body.length) }];
      res.writeHead(fail.status, { 'Content-Type': 'text/plain', 'Content-Length': body.length });
      res.end(body);
      record(index, req, reqBody, t0, fail.status, http.STATUS_CODES[fail.status] || '', headers, body, Date.now());
      return;
    }
    const headers = { ...req.headers, host: target.host };
    delete headers.connection;
    // Same path on the target's origin: /mcp goes to the endpoint, /favicon.ico to the server's 404.
    const up = http.request({ hostname: target.hostname, port: target.port, path: req.url, method: req.method, headers },
      (upRes) => {
        const tWait = Date.now();
        const resChunks = [];
        res.writeHead(upRes.statusCode, upRes.statusMessage, upRes.rawHeaders);
        upRes.on('data', (c) => { resChunks.push(c); res.write(c); });
        upRes.on('end', () => {
          res.end();
          record(index, req, reqBody, t0, upRes.statusCode, upRes.statusMessage || '', headerList(upRes.rawHeaders),
            Buffer.concat(resChunks), tWait);
        });
      });
    up.on('error', (e) => {
      const body = Buffer.from(`har_proxy: upstream error: ${e.message}\n`);
      if (!res.headersSent) res.writeHead(502, { 'Content-Type': 'text/plain' });
      res.end(body);
      record(index, req, reqBody, t0, 502, 'Bad Gateway', [{ name: 'Content-Type', value: 'text/plain' }], body, Date.now());
    });
    up.end(reqBody);
  });
});

server.listen(0, '127.0.0.1', () => {
  const { port } = server.address();
  console.log(`listening on 127.0.0.1:${port}`);
});
for (const sig of ['SIGTERM', 'SIGINT']) {
  process.on(sig, () => {
    writeHar();
    process.exit(0);
  });
}
