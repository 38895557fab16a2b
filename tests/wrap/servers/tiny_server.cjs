// A minimal hand-written stdio MCP server for tests/wrap (no SDK): newline-delimited JSON-RPC 2.0
// on stdin/stdout, protocolVersion 2025-11-25. Behaviour chosen by argv[2]:
//   clean    initialize, tools/list (echo, fail), tools/call, ping; unknown method -> -32601
//   pollute  like clean, but writes "[info] handling tools/call" to STDOUT before each tools/call
//   crash    like clean, but on tools/call writes a fatal message to STDERR and exits 3 unanswered
//   noinit   never answers anything; exits when stdin ends
//   pretty   like clean, but the tools/list response is pretty-printed over several lines
//   slow     like clean, but tools/call echo is answered 2.5 s late, and tool "hang" never
// Notifications are ignored. Exits 0 when stdin ends (after answering what it read).
"use strict";
const readline = require("node:readline");

const mode = process.argv[2] || "clean";
const MODES = ["clean", "pollute", "crash", "noinit", "pretty", "slow"];
if (!MODES.includes(mode)) {
  process.stderr.write(`tiny_server: unknown mode ${mode} (want ${MODES.join("|")})\n`);
  process.exit(2);
}

const TOOLS = [
  { name: "echo", description: "Echoes back the message",
    inputSchema: { type: "object", properties: { message: { type: "string" } }, required: ["message"] },
    annotations: { readOnlyHint: true } },
  { name: "fail", description: "Always returns a tool error (isError: true)",
    inputSchema: { type: "object", properties: {} } },
];

function send(msg, pretty = false) {
  process.stdout.write((pretty ? JSON.stringify(msg, null, 2) : JSON.stringify(msg)) + "\n");
}
const result = (id, r, pretty) => send({ jsonrpc: "2.0", id, result: r }, pretty);
const error = (id, code, message) => send({ jsonrpc: "2.0", id, error: { code, message } });

function callTool(id, params) {
  if (mode === "pollute") process.stdout.write("[info] handling tools/call\n");
  if (mode === "crash") {
    process.stderr.write("fatal: out of widgets\n    at crash (tiny_server.cjs)\n");
    process.exit(3);
  }
  const name = params?.name;
  const args = params?.arguments ?? {};
  if (mode === "slow" && name === "hang") return; // never answered
  if (mode === "slow" && name === "echo") {
    return setTimeout(() => result(id, { content: [{ type: "text", text: `Echo: ${args.message}` }] }), 2500);
  }
  if (name === "echo") return result(id, { content: [{ type: "text", text: `Echo: ${args.message}` }] });
  if (name === "fail") return result(id, { content: [{ type: "text", text: "fail: this tool always fails" }],
                                           isError: true });
  return error(id, -32602, `Unknown tool: ${name}`);
}

function handle(msg) {
  const isRequest = msg && typeof msg === "object" && typeof msg.method === "string" && "id" in msg;
  if (!isRequest) return; // notifications and responses are ignored
  const { id, method, params } = msg;
  switch (method) {
    case "initialize":
      return result(id, { protocolVersion: "2025-11-25", capabilities: { tools: {} },
                          serverInfo: { name: "tiny-server", version: "1.0.0" } });
    case "tools/list":
      return result(id, { tools: TOOLS }, mode === "pretty");
    case "tools/call":
      return callTool(id, params);
    case "ping":
      return result(id, {});
    default:
      return error(id, -32601, `Method not found: ${method}`);
  }
}

const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
rl.on("line", (line) => {
  if (mode === "noinit" || line.trim() === "") return;
  let msg;
  try {
    msg = JSON.parse(line);
  } catch {
    return error(null, -32700, "Parse error");
  }
  handle(msg);
});
rl.on("close", () => { process.exitCode = 0; });
