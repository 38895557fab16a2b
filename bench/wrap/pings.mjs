// The wrap benchmark's host (bench/wrap/run): starts COMMAND, sends N JSON-RPC pings on its
// standard input and reads the responses on its standard output. Latency: one ping at a time,
// each from its write to its response's read (process.hrtime); throughput: N pings written at
// once, the time until the last response. Prints one JSON line. Usage:
//   node pings.mjs N -- COMMAND [ARGS...]
import { spawn } from "node:child_process";

const n = Number(process.argv[2]);
const sep = process.argv.indexOf("--");
const [cmd, ...args] = process.argv.slice(sep + 1);
const child = spawn(cmd, args, { stdio: ["pipe", "pipe", "inherit"] });
let buf = "";
let waiting = null;  // resolves on each response line
child.stdout.setEncoding("utf8");
child.stdout.on("data", (d) => {
  buf += d;
  let nl;
  while ((nl = buf.indexOf("\n")) >= 0) {
    const line = buf.slice(0, nl);
    buf = buf.slice(nl + 1);
    if (line.includes('"result"') && waiting) waiting(line);
  }
});
const next = () => new Promise((r) => { waiting = r; });
const send = (id, method, params) =>
  child.stdin.write(JSON.stringify({ jsonrpc: "2.0", id, method, ...(params ? { params } : {}) }) + "\n");

let got = next();
send(0, "initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "bench", version: "1" } });
await got;
child.stdin.write(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) + "\n");
const lat = [];
for (let i = 1; i <= n; i++) {
  got = next();
  const t0 = process.hrtime.bigint();
  send(i, "ping");
  await got;
  lat.push(Number(process.hrtime.bigint() - t0) / 1e6);
}
// Throughput: all at once.
let left = n;
const done = new Promise((r) => { waiting = () => { if (--left === 0) r(); }; });
const t0 = process.hrtime.bigint();
let batch = "";
for (let i = 1; i <= n; i++) batch += JSON.stringify({ jsonrpc: "2.0", id: n + i, method: "ping" }) + "\n";
child.stdin.write(batch);
await done;
const secs = Number(process.hrtime.bigint() - t0) / 1e9;
child.stdin.end();
await new Promise((r) => child.on("exit", r));
lat.sort((a, b) => a - b);
const q = (p) => lat[Math.min(lat.length - 1, Math.floor(p * lat.length))];
console.log(JSON.stringify({ p50_ms: q(0.5), p99_ms: q(0.99), per_s: n / secs }));
