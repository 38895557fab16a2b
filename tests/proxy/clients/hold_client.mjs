// Holds N TCP connections to HOST:PORT open (127.0.0.1 only) the way an abusive or broken client
// does, for tests/proxy/abuse.sh:
//   node hold_client.mjs PORT N idle|half SECONDS
// idle: connects and sends nothing; half: sends half a request header and then nothing.
// Prints one JSON line when all N are connected ({"connected": N}), and at the end (after SECONDS,
// or as soon as the proxy has closed all of them) {"connected": N, "closed_by_peer": K, "after_ms": T}:
// how many the proxy closed, and when the last of them was closed.
import net from 'node:net';

const [port, count, mode, seconds] = [Number(process.argv[2]), Number(process.argv[3]), process.argv[4],
  Number(process.argv[5] ?? 5)];
const t0 = Date.now();
let connected = 0;
let closed = 0;
let lastClose = 0;
const sockets = [];
function done() {
  for (const s of sockets) s.destroy();
  console.log(JSON.stringify({ connected, closed_by_peer: closed, after_ms: lastClose ? lastClose - t0 : null }));
  process.exit(0);
}
for (let i = 0; i < count; i++) {
  const s = net.connect({ host: '127.0.0.1', port }, () => {
    s.wasConnected = true;
    if (++connected === count) console.log(JSON.stringify({ connected }));
    if (mode === 'half') s.write('POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: appl');
  });
  s.on('data', () => {});
  s.on('error', () => {});
  s.on('close', () => {
    if (s.destroyedByUs || !s.wasConnected) return;
    closed++;
    lastClose = Date.now();
    if (closed === connected && connected === count) done();
  });
  sockets.push(s);
}
setTimeout(() => {
  for (const s of sockets) s.destroyedByUs = true;
  done();
}, seconds * 1000);
