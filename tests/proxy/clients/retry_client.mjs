// A hand-written Streamable HTTP client (Node 20 fetch) that does what the SDK client 1.32.2 does
// not: after a 503 or 429 it resends the same tools/call (a new id), waiting Retry-After; after a
// 404 on its session it initializes again and then resends. For tests/proxy's client-behaviour
// report ("the other branch"). Usage: node retry_client.mjs URL TOOL JSON_ARGS [--attempts N] [--no-wait]
// Prints one JSON line per HTTP exchange and a last line with the outcome.
const [url, tool, args, ...rest] = process.argv.slice(2);
let attempts = 3, wait = true;
for (let i = 0; i < rest.length; i++) {
  if (rest[i] === "--attempts") attempts = Number(rest[++i]);
  else if (rest[i] === "--no-wait") wait = false;  // resend at once, whatever Retry-After says
}
let id = 0;
let session = null;
let version = "2025-11-25";

function out(obj) { process.stdout.write(JSON.stringify(obj) + "\n"); }

async function post(message) {
  const headers = { "Content-Type": "application/json", Accept: "application/json, text/event-stream" };
  if (session) headers["Mcp-Session-Id"] = session;
  if (message.method !== "initialize") headers["MCP-Protocol-Version"] = version;
  const res = await fetch(url, { method: "POST", headers, body: JSON.stringify(message) });
  const text = await res.text();
  let reply = null;
  const type = res.headers.get("content-type") ?? "";
  if (type.startsWith("text/event-stream")) {
    for (const block of text.split(/\r?\n\r?\n/)) {
      const data = block.split(/\r?\n/).filter((l) => l.startsWith("data:")).map((l) => l.slice(5).trimStart()).join("\n");
      if (!data) continue;
      const m = JSON.parse(data);
      if (m.id === message.id && (m.result || m.error)) reply = m;
    }
  } else if (type.startsWith("application/json") && text) {
    try { reply = JSON.parse(text); } catch { reply = null; }
  }
  out({ method: message.method, id: message.id ?? null, status: res.status });
  return { status: res.status, headers: res.headers, reply };
}

async function initialize() {
  session = null;
  const r = await post({ jsonrpc: "2.0", id: ++id, method: "initialize",
    params: { protocolVersion: version, capabilities: {}, clientInfo: { name: "retry-client", version: "1" } } });
  session = r.headers.get("mcp-session-id");
  version = r.reply?.result?.protocolVersion ?? version;
  await post({ jsonrpc: "2.0", method: "notifications/initialized" });
}

await initialize();
await post({ jsonrpc: "2.0", id: ++id, method: "tools/list" });
let result = null;
for (let attempt = 1; attempt <= attempts; attempt++) {
  const r = await post({ jsonrpc: "2.0", id: ++id, method: "tools/call", params: { name: tool, arguments: JSON.parse(args ?? "{}") } });
  if (r.status === 200 && r.reply) { result = r.reply; break; }
  if (r.status === 503 || r.status === 429) {
    const after = wait ? Number(r.headers.get("retry-after") ?? "0") : 0;
    await new Promise((ok) => setTimeout(ok, after * 1000));
    continue;
  }
  if (r.status === 404 && session) {
    await initialize();
    continue;
  }
  break;
}
out({ label: "result", resolved: result !== null && !result.error, isError: result?.result?.isError === true });
