// A hand-written stdio MCP server (no SDK) that streams notifications: for the memory check of
// `mcptriage wrap` (issue 28, "memory stays flat with a server that streams 1 GB of
// notifications"; tests/wrap/run.sh and bench/wrap/stream). Usage:
//   node stream_server.cjs BYTES [LINE]
// It answers `initialize` (the client's protocolVersion, capability `logging`); after
// `notifications/initialized` it writes `notifications/message` lines (level info, logger
// "stream", a string `data` padded so that each line is LINE bytes, newline included; default
// 1024) totalling exactly BYTES bytes (the last line takes the remainder), as fast as its output
// is read (it waits for 'drain'). A `ping` is answered once the stream is done; other requests get
// -32601. Exits 0 when its input ends.
"use strict";

const total = Number(process.argv[2]);
const lineSize = Number(process.argv[3] || 1024);
if (!Number.isSafeInteger(total) || total < 0 || !Number.isSafeInteger(lineSize) || lineSize < 128) {
  process.stderr.write("usage: node stream_server.cjs BYTES [LINE>=128]\n");
  process.exit(2);
}

const send = (msg) => process.stdout.write(JSON.stringify(msg) + "\n");

// One notification line of exactly `size` bytes (newline included), numbered `seq`.
const head = '{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","logger":"stream","data":"';
const tail = '"}}\n';
function line(seq, size) {
  const text = `notification ${seq} `;
  const pad = size - head.length - tail.length - text.length;
  return head + text + "x".repeat(Math.max(0, pad)) + tail;
}

let streamed = null;  // a Promise once the stream started
async function stream() {
  const batchLines = Math.max(1, Math.floor(65536 / lineSize));
  let left = total;
  let seq = 0;
  while (left > 0) {
    let batch = "";
    for (let i = 0; i < batchLines && left > 0; i++) {
      // The last line takes the remainder (it is then between LINE and 2 LINE - 1 bytes long).
      const size = left < 2 * lineSize ? left : lineSize;
      batch += line(++seq, size);
      left -= size;
    }
    if (!process.stdout.write(batch)) await new Promise((r) => process.stdout.once("drain", r));
  }
  process.stderr.write(`stream_server: ${total} bytes in ${seq} notifications\n`);
}

function handle(msg) {
  if (msg.method === "initialize") {
    send({ jsonrpc: "2.0", id: msg.id, result: {
      protocolVersion: msg.params?.protocolVersion ?? "2025-11-25",
      capabilities: { logging: {} },
      serverInfo: { name: "stream_server", version: "1.0.0" },
    } });
  } else if (msg.method === "notifications/initialized") {
    streamed ??= stream();
  } else if (msg.method === "ping") {
    (streamed ?? Promise.resolve()).then(() => send({ jsonrpc: "2.0", id: msg.id, result: {} }));
  } else if (msg.id !== undefined && msg.method !== undefined) {
    send({ jsonrpc: "2.0", id: msg.id, error: { code: -32601, message: "Method not found" } });
  }
}

let buf = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (d) => {
  buf += d;
  let nl;
  while ((nl = buf.indexOf("\n")) >= 0) {
    const text = buf.slice(0, nl);
    buf = buf.slice(nl + 1);
    if (text.trim() === "") continue;
    try { handle(JSON.parse(text)); } catch { /* not JSON: ignored */ }
  }
});
process.stdin.on("end", () => (streamed ?? Promise.resolve()).then(() => process.exit(0)));
