// A real MCP client for tests/proxy: the TypeScript SDK 1.32.2 (`Client` and
// `StreamableHTTPClientTransport`), pinned in ../package-lock.json. Prints one JSON line per call
// with what the client itself got: resolved or thrown, isError, the thrown error's class, code
// and message, the content. Usage:
//   node sdk_client.mjs URL session            initialize, tools/list, calls that succeed and fail,
//                                               a long-running call with progress, the GET stream, DELETE
//   node sdk_client.mjs URL call TOOL JSON [--timeout MS] [--header 'Name: value']
//                                               initialize, tools/list, one tools/call, close
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";

const [url, scenario, ...rest] = process.argv.slice(2);
let timeout = 10000;
const headers = {};
const positional = [];
for (let i = 0; i < rest.length; i++) {
  if (rest[i] === "--timeout") timeout = Number(rest[++i]);
  else if (rest[i] === "--header") {
    const h = rest[++i];
    const at = h.indexOf(":");
    headers[h.slice(0, at).trim()] = h.slice(at + 1).trim();
  } else positional.push(rest[i]);
}

function out(obj) {
  process.stdout.write(JSON.stringify(obj) + "\n");
}

/// What the client got from one call: `resolved` with the result, or the error it threw.
async function outcome(label, promise) {
  const started = Date.now();
  try {
    const r = await promise;
    out({ label, resolved: true, isError: r?.isError === true, content: r?.content ?? null,
          resultType: r?.resultType ?? null, ms: Date.now() - started });
  } catch (e) {
    out({ label, resolved: false, error_class: e?.constructor?.name ?? typeof e, code: e?.code ?? null,
          message: String(e?.message ?? e).slice(0, 300), ms: Date.now() - started });
  }
}

const client = new Client({ name: "mcptriage-proxy-test", version: "1.0.0" });
const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } });
try {
  await client.connect(transport);
} catch (e) {
  out({ label: "connect", resolved: false, error_class: e?.constructor?.name, code: e?.code ?? null,
        message: String(e?.message ?? e).slice(0, 300) });
  process.exit(0);
}
out({ label: "connect", resolved: true, protocol: transport.protocolVersion ?? null });
const opts = { timeout };
if (scenario === "session") {
  await outcome("tools/list", client.listTools(undefined, opts));
  await outcome("echo", client.callTool({ name: "echo", arguments: { message: "hello" } }, undefined, opts));
  await outcome("unknown-tool", client.callTool({ name: "no-such-tool", arguments: {} }, undefined, opts));
  await outcome("bad-arguments", client.callTool({ name: "get-sum", arguments: { a: "x" } }, undefined, opts));
  await outcome("missing-name", client.request({ method: "tools/call", params: {} }, CallToolResultSchema, opts));
  let progress = 0;
  await outcome("long-running", client.callTool(
    { name: "trigger-long-running-operation", arguments: { duration: 1, steps: 3 } }, undefined,
    { ...opts, onprogress: () => { progress++; } }));
  out({ label: "progress-notifications", count: progress });
  await outcome("structured", client.callTool({ name: "get-structured-content", arguments: { location: "Chicago" } },
    undefined, opts));
  await transport.terminateSession();
  out({ label: "terminate", resolved: true });
} else if (scenario === "call") {
  const [tool, args] = positional;
  await outcome("tools/list", client.listTools(undefined, opts));
  await outcome(tool, client.callTool({ name: tool, arguments: JSON.parse(args ?? "{}") }, undefined, opts));
} else {
  out({ label: "usage", resolved: false, message: `unknown scenario ${scenario}` });
}
await client.close();
