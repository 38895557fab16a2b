// The host of the streaming runs (bench/wrap/stream, tests/wrap/run.sh): starts COMMAND (a server
// such as tests/wrap/servers/stream_server.cjs, directly or through `mcptriage wrap`), sends
// `initialize`, `notifications/initialized` and a `ping`, reads everything the server writes
// until the ping's answer, then closes the server's input and waits for it to exit. Meanwhile it
// reads the started process's peak resident set (VmHWM in /proc/PID/status) every 50 ms: the
// wrapper's when COMMAND is the wrapper. Prints one JSON line: the notification bytes and lines
// received (newlines included), the seconds from `notifications/initialized` to the ping's
// answer (`secs`, and MB/s over them) and to the process's exit (`exit_secs`: a wrapper still
// judging what it relayed ends later), the peak RSS in KiB, and the exit code. Usage:
//   node stream.mjs -- COMMAND [ARGS...]
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";

const sep = process.argv.indexOf("--");
const [cmd, ...args] = process.argv.slice(sep + 1);
const child = spawn(cmd, args, { stdio: ["pipe", "pipe", "inherit"] });

let hwm = 0;
const sample = () => {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"));
    if (m) hwm = Math.max(hwm, Number(m[1]));
  } catch { /* gone */ }
};
const sampler = setInterval(sample, 50);

const write = (msg) => child.stdin.write(JSON.stringify(msg) + "\n");
let bytes = 0, lines = 0, t0 = 0n, secs = 0;
let pending = Buffer.alloc(0);  // the start of a line not yet ended
let onInit, onPing;
const initialized = new Promise((r) => { onInit = r; });
const pinged = new Promise((r) => { onPing = r; });
// One whole line (no newline): answers are found by their id; everything else is counted.
const NOTE = Buffer.from('{"jsonrpc":"2.0","method":"notifications/');
function line(buf, size) {
  if (buf.subarray(0, NOTE.length).equals(NOTE)) { bytes += size; lines++; return; }
  const msg = JSON.parse(buf.toString("utf8"));
  if (msg.id === 0) onInit();
  else if (msg.id === 1) onPing();
}
child.stdout.on("data", (d) => {
  let start = 0, nl;
  while ((nl = d.indexOf(10, start)) >= 0) {
    const part = d.subarray(start, nl);
    if (pending.length > 0) {
      const whole = Buffer.concat([pending, part]);
      pending = Buffer.alloc(0);
      line(whole, whole.length + 1);
    } else {
      line(part, part.length + 1);
    }
    start = nl + 1;
  }
  if (start < d.length) pending = Buffer.concat([pending, d.subarray(start)]);
});
const exited = new Promise((r) => child.on("exit", (code, signal) => r(code ?? 128 + (signal ? 9 : 0))));

write({ jsonrpc: "2.0", id: 0, method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "stream-host", version: "1" } } });
await initialized;
t0 = process.hrtime.bigint();
write({ jsonrpc: "2.0", method: "notifications/initialized" });
write({ jsonrpc: "2.0", id: 1, method: "ping" });
await pinged;
secs = Number(process.hrtime.bigint() - t0) / 1e9;
sample();
child.stdin.end();
const code = await exited;
const exitSecs = Number(process.hrtime.bigint() - t0) / 1e9;
clearInterval(sampler);
console.log(JSON.stringify({ bytes, lines, secs, mb_per_s: bytes / 1e6 / secs, exit_secs: exitSecs, peak_rss_kib: hwm, exit: code }));
