// A scripted Streamable HTTP upstream for tests/proxy and bench/proxy: answers a JSON-RPC POST
// the way its path says, so that the proxy's handling of streams, cuts, resets, slow clients and
// load can be tested against exact bytes. Listens on 127.0.0.1 only (port 0: any free port) and
// prints "listening on PORT". No dependencies beyond Node.js 20.
//
//   POST /stream?events=N&interval=MS&size=BYTES   text/event-stream: N notifications/progress
//        events (params.seq from 1, params.t the send time in ns of process.hrtime, padded to
//        about BYTES), then the result; interval 0 writes them as fast as the socket takes them
//   POST /reset?events=N     N events, then the TCP connection is reset (RST)
//   POST /close?events=N     N events, then the connection is closed without the last chunk
//   POST /hang               a priming event, then nothing until the client goes away
//   POST /slow?ms=N          a JSON result after N ms (nothing before it)
//   POST /json?bytes=N       one JSON result whose text is N bytes
//   POST /shortjson          a JSON result with a Content-Length longer than the bytes sent, then close
//   POST /headers            a JSON result whose text is the request's headers, one per line
//   POST /redirect           307 to /moved (not followed by the proxy)
//   POST /interim            100 Continue and 103 Early Hints (interim responses), then a JSON
//                            result saying the request's Expect header and body size
//   GET  /.well-known/oauth-protected-resource   JSON metadata (not MCP)
//   anything else            a JSON result echoing the method
// With TLS_CERT and TLS_KEY (PEM files) in the environment it speaks https instead.
// Every stream's events are counted; GET /stats gives {"closed_early": N} (streams whose client
// went away before the end), so a test can tell that the proxy closed the upstream.
'use strict';
const http = require('node:http');
const https = require('node:https');
const fs = require('node:fs');

let closedEarly = 0;
const pad = (n) => (n > 0 ? 'x'.repeat(n) : '');

function result(id, text) {
  return { jsonrpc: '2.0', id, result: { content: [{ type: 'text', text }] } };
}

function sse(res) {
  res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
  res.flushHeaders();
}

function event(res, message) {
  return res.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
}

function progress(seq, size) {
  const m = { jsonrpc: '2.0', method: 'notifications/progress',
              params: { progressToken: 1, progress: seq, seq, t: process.hrtime.bigint().toString(), pad: '' } };
  const base = JSON.stringify(m).length;
  m.params.pad = pad(size - base - 30);
  return m;
}

const tls = process.env.TLS_CERT && process.env.TLS_KEY
  ? { cert: fs.readFileSync(process.env.TLS_CERT), key: fs.readFileSync(process.env.TLS_KEY) } : null;
const handler = (req, res) => {
  const url = new URL(req.url, 'http://x');
  const q = (k, d) => (url.searchParams.has(k) ? Number(url.searchParams.get(k)) : d);
  if (req.method === 'GET' && url.pathname === '/stats') {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    return res.end(JSON.stringify({ closed_early: closedEarly }));
  }
  if (req.method === 'GET' && url.pathname.startsWith('/.well-known/')) {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    return res.end(JSON.stringify({ resource: 'http://127.0.0.1/mcp', authorization_servers: [] }));
  }
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    let msg = {};
    try { msg = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}'); } catch { msg = {}; }
    const id = msg.id ?? null;
    if (id === null) {  // a notification
      res.writeHead(202);
      return res.end();
    }
    let ended = false;
    res.on('finish', () => { ended = true; });
    res.on('close', () => { if (!ended) closedEarly++; });
    switch (url.pathname) {
      case '/stream': {
        const n = q('events', 10), interval = q('interval', 0), size = q('size', 100);
        sse(res);
        let seq = 0;
        const next = () => {
          while (seq < n) {
            if (res.destroyed) return;
            const more = event(res, progress(++seq, size));
            if (interval > 0) return void setTimeout(next, interval);
            if (!more) return void res.once('drain', next);
          }
          event(res, result(id, `done: ${n} events`));
          res.end();
        };
        next();
        return;
      }
      case '/reset':
      case '/close': {
        const n = q('events', 2);
        sse(res);
        for (let i = 1; i <= n; i++) event(res, progress(i, 100));
        setTimeout(() => {
          if (url.pathname === '/reset') res.socket.resetAndDestroy();
          else res.socket.destroy();
        }, 50);
        return;
      }
      case '/hang':
        sse(res);
        res.write('id: p1\ndata:\n\n');
        return;  // until the client goes away
      case '/slow': {
        const body = JSON.stringify(result(id, 'late'));
        const t = setTimeout(() => {
          res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
          res.end(body);
        }, q('ms', 5000));
        res.on('close', () => clearTimeout(t));
        return;
      }
      case '/json': {
        const body = JSON.stringify(result(id, pad(q('bytes', 1000))));
        res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
        return res.end(body);
      }
      case '/headers': {
        const text = Object.entries(req.headers).map(([k, v]) => `${k}: ${v}`).join('\n');
        const body = JSON.stringify(result(id, text));
        res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
        return res.end(body);
      }
      case '/interim': {
        const size = chunks.reduce((n, c) => n + c.length, 0);
        const body = JSON.stringify(result(id, `expect=${req.headers.expect ?? 'none'} bytes=${size}`));
        res.writeContinue();
        res.writeEarlyHints({ link: '</style.css>; rel=preload; as=style' });
        res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
        return res.end(body);
      }
      case '/redirect':
        res.writeHead(307, { Location: '/moved', 'Content-Length': 0 });
        return res.end();
      case '/shortjson': {
        const body = JSON.stringify(result(id, 'this body is cut'));
        res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) + 100 });
        res.write(body);
        setTimeout(() => res.socket.destroy(), 50);
        return;
      }
      default: {
        const body = JSON.stringify(result(id, `${msg.method ?? '?'} ok`));
        res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
        return res.end(body);
      }
    }
  });
};
const server = tls ? https.createServer(tls, handler) : http.createServer(handler);
server.keepAliveTimeout = 60000;
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  console.log(`listening on ${server.address().port}`);
});
