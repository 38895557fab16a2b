// Load for tests/mock: N tools/call POSTs that no recording matches (each its own arguments), C at a
// time on keep-alive connections, in a session opened with the recorded initialize (its body in the
// file named by INIT). Prints {"sent":N,"errors":K}. Usage: INIT=FILE node flood.mjs URL N [C]
import http from "node:http";
const [url, nArg, cArg] = process.argv.slice(2);
const n = Number(nArg), c = Number(cArg ?? 16);
const agent = new http.Agent({ keepAlive: true, maxSockets: c });
const u = new URL(url);
let next = 0, done = 0, errors = 0;
// The session: the recorded initialize (its body in the file INIT), whose answer gives the session id.
let sid = "";
if (process.env.INIT) {
  const fs = await import("node:fs");
  const r = await fetch(url, { method: "POST", body: fs.readFileSync(process.env.INIT),
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" } });
  sid = r.headers.get("mcp-session-id") ?? "";
  await r.text();
}
function one() {
  if (next >= n) return Promise.resolve();
  const k = next++;
  const body = JSON.stringify({ jsonrpc: "2.0", id: k, method: "tools/call", params: { name: "echo", arguments: { message: "flood " + k } } });
  return new Promise((resolve) => {
    const req = http.request({ host: u.hostname, port: u.port, path: u.pathname, method: "POST", agent,
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...(sid ? { "mcp-session-id": sid } : {}) } },
      (res) => { res.resume(); res.on("end", () => { if (res.statusCode !== 200) errors++; done++; resolve(); }); });
    req.on("error", () => { errors++; resolve(); });
    req.end(body);
  }).then(one);
}
await Promise.all(Array.from({ length: c }, one));
console.log(JSON.stringify({ sent: done, errors }));
