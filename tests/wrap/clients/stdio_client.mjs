// A real MCP client for tests/wrap: the TypeScript SDK 1.32.2 (`Client` and `StdioClientTransport`),
// pinned in ../../proxy/package-lock.json, starting COMMAND as a stdio server (stderr inherited).
// Prints one JSON line per step with what the client itself got: resolved or thrown, isError, the
// thrown error's class, code and message, the content. Usage:
//   node stdio_client.mjs SCENARIO [--timeout MS] -- COMMAND [ARGS...]
//   SCENARIO: session            tools/list, echo, unknown tool, bad arguments, long-running call
//                                 with progress, ping
//             call TOOL JSON     one tools/call with those arguments
//             retry TOOL JSON    tools/list, then the call; when it throws or is an isError result,
//                                 the same call once more (labels TOOL and TOOL-again)
//             init-only          initialize, then close
// Always exits 0 after printing {label:"closed"}. Unexpected transport events are printed as
// {label:"transport-error"|"transport-close", message, ...}.
import { pathToFileURL } from "node:url";

// The SDK lives in tests/proxy/node_modules; bare imports would resolve from this folder, so import
// the files by absolute URL (ESM build).
const sdk = new URL("../../proxy/node_modules/@modelcontextprotocol/sdk/dist/esm/", import.meta.url);
const { Client } = await import(new URL("client/index.js", sdk).href);
const { StdioClientTransport } = await import(new URL("client/stdio.js", sdk).href);

const argv = process.argv.slice(2);
const dashdash = argv.indexOf("--");
const before = dashdash < 0 ? argv : argv.slice(0, dashdash);
const [command, ...args] = dashdash < 0 ? [] : argv.slice(dashdash + 1);
let timeout = 10000;
const positional = [];
for (let i = 0; i < before.length; i++) {
  if (before[i] === "--timeout") timeout = Number(before[++i]);
  else positional.push(before[i]);
}
const [scenario, ...scenarioArgs] = positional;

function out(obj) {
  process.stdout.write(JSON.stringify(obj) + "\n");
}
function failure(label, e, started) {
  return { label, resolved: false, error_class: e?.constructor?.name ?? typeof e, code: e?.code ?? null,
           message: String(e?.message ?? e).slice(0, 300), ms: Date.now() - started };
}

if (!command || !["session", "call", "init-only", "retry"].includes(scenario)) {
  out({ label: "usage", resolved: false,
        message: "node stdio_client.mjs session|call TOOL JSON|retry TOOL JSON|init-only [--timeout MS] -- COMMAND [ARGS...]" });
  process.exit(2);
}

/// What the client got from one call: `resolved` with the result, or the error it threw.
/// For tools/list, `content` is the list of tool names.
async function outcome(label, promise) {
  const started = Date.now();
  try {
    const r = await promise;
    const content = r?.content ?? (Array.isArray(r?.tools) ? r.tools.map((t) => t.name) : null);
    out({ label, resolved: true, isError: r?.isError === true, content,
          ms: Date.now() - started });
  } catch (e) {
    out(failure(label, e, started));
  }
}

const client = new Client({ name: "mcptriage-wrap-test", version: "1.0.0" });
const transport = new StdioClientTransport({ command, args, stderr: "inherit" });

// Transport events the SDK's Protocol chains after ours (it wraps handlers set before connect).
let closing = false;
let exit = null;
let protocol = null;
transport.onerror = (e) => {
  if (!closing) out({ label: "transport-error", message: String(e?.message ?? e).slice(0, 300) });
};
transport.onclose = () => {
  if (!closing) out({ label: "transport-close", message: "server process closed", ...exit });
};
transport.onmessage = (m) => {
  if (m?.result?.protocolVersion && protocol === null) protocol = m.result.protocolVersion;
};
// Record how the child ended ('exit' comes before the 'close' that fires onclose).
const start = transport.start.bind(transport);
transport.start = async () => {
  await start();
  transport._process?.once("exit", (code, signal) => { exit = { exit_code: code, signal }; });
};

async function finish() {
  closing = true;
  try {
    await client.close();
  } catch (e) {
    out(failure("close", e, Date.now()));
  }
  out({ label: "closed" });
  process.exit(0);
}

const opts = { timeout };
const connectStarted = Date.now();
try {
  await client.connect(transport, opts);
} catch (e) {
  out(failure("connect", e, connectStarted));
  await finish();
}
out({ label: "connect", resolved: true, protocol, server: client.getServerVersion() ?? null,
      ms: Date.now() - connectStarted });

if (scenario === "session") {
  await outcome("tools/list", client.listTools(undefined, opts));
  await outcome("echo", client.callTool({ name: "echo", arguments: { message: "hello" } }, undefined, opts));
  await outcome("unknown-tool", client.callTool({ name: "no-such-tool", arguments: {} }, undefined, opts));
  await outcome("bad-arguments", client.callTool({ name: "get-sum", arguments: { a: "x" } }, undefined, opts));
  let progress = 0;
  await outcome("long-running", client.callTool(
    { name: "trigger-long-running-operation", arguments: { duration: 1, steps: 3 } }, undefined,
    { ...opts, onprogress: () => { progress++; } }));
  out({ label: "progress-notifications", count: progress });
  await outcome("ping", client.ping(opts));
} else if (scenario === "call") {
  const [tool, json] = scenarioArgs;
  await outcome(tool, client.callTool({ name: tool, arguments: JSON.parse(json ?? "{}") }, undefined, opts));
} else if (scenario === "retry") {
  const [tool, json] = scenarioArgs;
  const call = () => client.callTool({ name: tool, arguments: JSON.parse(json ?? "{}") }, undefined, opts);
  await outcome("tools/list", client.listTools(undefined, opts));
  let failed = false;
  try {
    const r = await call();
    failed = r?.isError === true;
    out({ label: tool, resolved: true, isError: failed, content: r?.content ?? null });
  } catch (e) {
    failed = true;
    out(failure(tool, e, Date.now()));
  }
  if (failed) await outcome(`${tool}-again`, call());
}
await finish();
