// Load for tests/proxy and bench/proxy: S concurrent event streams (POST /stream of
// ../fault_server.cjs) at URL, each checked event by event: every notifications/progress in
// order (params.seq 1..E), then the final result with the request's id. Prints one JSON line:
//   {"streams":S,"complete":N,"events":TOTAL,"out_of_order":K,"errors":[...],"latency_ns":[...]?,
//    "bytes":B,"ms":T}
// Usage: node load_client.mjs URL STREAMS EVENTS [--interval MS] [--size BYTES] [--latency]
// --latency adds each event's delay from the server's send time (params.t, process.hrtime ns:
// one clock for every process on the machine) to its arrival here, for the benchmark.
import http from "node:http";

const [base, streamsArg, eventsArg, ...rest] = process.argv.slice(2);
const streams = Number(streamsArg), events = Number(eventsArg);
let interval = 0, size = 100, latency = false;
for (let i = 0; i < rest.length; i++) {
  if (rest[i] === "--interval") interval = Number(rest[++i]);
  else if (rest[i] === "--size") size = Number(rest[++i]);
  else if (rest[i] === "--latency") latency = true;
}
const agent = new http.Agent({ keepAlive: true, maxSockets: streams });
const target = new URL(base);
let complete = 0, total = 0, outOfOrder = 0, bytes = 0;
const errors = [];
const delays = [];

function one(k) {
  return new Promise((resolve) => {
    const body = JSON.stringify({ jsonrpc: "2.0", id: k, method: "tools/call", params: { name: "stream", arguments: { k } } });
    const req = http.request({
      host: target.hostname, port: target.port, method: "POST", agent,
      path: `/stream?events=${events}&interval=${interval}&size=${size}`,
      headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream",
                 "Content-Length": Buffer.byteLength(body) },
    }, (res) => {
      let buf = "", next = 1, done = false;
      res.setEncoding("utf8");
      res.on("data", (chunk) => {
        const now = process.hrtime.bigint();
        bytes += chunk.length;
        buf += chunk;
        let at;
        while ((at = buf.indexOf("\n\n")) >= 0) {
          const block = buf.slice(0, at);
          buf = buf.slice(at + 2);
          const line = block.split("\n").find((l) => l.startsWith("data: "));
          if (!line) continue;
          const m = JSON.parse(line.slice(6));
          if (m.method === "notifications/progress") {
            if (m.params.seq !== next) outOfOrder++;
            next = m.params.seq + 1;
            total++;
            if (latency) delays.push(Number(now - BigInt(m.params.t)));
          } else if (m.id === k && m.result) {
            done = next === events + 1;
          }
        }
      });
      res.on("end", () => {
        if (done) complete++;
        else errors.push(`stream ${k}: ended after ${next - 1} events without its result`);
        resolve();
      });
      res.on("error", (e) => { errors.push(`stream ${k}: ${e.message}`); resolve(); });
    });
    req.on("error", (e) => { errors.push(`stream ${k}: ${e.message}`); resolve(); });
    req.end(body);
  });
}

const started = Date.now();
await Promise.all(Array.from({ length: streams }, (_, k) => one(k + 1)));
const out = { streams, complete, events: total, out_of_order: outOfOrder, errors: errors.slice(0, 10), bytes,
              ms: Date.now() - started };
if (latency) out.latency_ns = delays;
process.stdout.write(JSON.stringify(out) + "\n");
agent.destroy();
