// A real MCP client that answers server requests, for recording the client's JSON-RPC responses
// (POSTed answers to elicitation/create and sampling/createMessage) through `mcptriage proxy`:
// the TypeScript SDK 1.32.2 client, pinned in ../package-lock.json. Usage:
//   node server_requests_client.mjs URL
// initializes with the elicitation and sampling capabilities, calls server-everything's
// trigger-elicitation-request (answered "decline") and trigger-sampling-request (answered with a
// fixed text), prints one JSON line per call, and ends the session.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CreateMessageRequestSchema, ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const [url] = process.argv.slice(2);
const out = (obj) => process.stdout.write(JSON.stringify(obj) + "\n");

const client = new Client({ name: "mcptriage-server-requests", version: "1.0.0" },
                          { capabilities: { elicitation: {}, sampling: {} } });
client.setRequestHandler(ElicitRequestSchema, async () => ({ action: "decline" }));
client.setRequestHandler(CreateMessageRequestSchema, async () => ({
  model: "fixed-test-model", role: "assistant", content: { type: "text", text: "a fixed sampled answer" },
}));
const transport = new StreamableHTTPClientTransport(new URL(url));
await client.connect(transport);
for (const [name, args] of [["trigger-elicitation-request", {}],
                            ["trigger-sampling-request", { prompt: "say hi", maxTokens: 10 }]]) {
  try {
    const r = await client.callTool({ name, arguments: args }, undefined, { timeout: 10000 });
    out({ label: name, resolved: true, isError: r?.isError === true });
  } catch (e) {
    out({ label: name, resolved: false, message: String(e?.message ?? e).slice(0, 300) });
  }
}
await transport.terminateSession();
await client.close();
