// The real SDK client (pinned in ../package-lock.json) with the fetch of docs/recipes/logging-fetch.mjs,
// for ../sdk_fetch.sh. Usage: node recipe_client.mjs URL LOG
//   initialize (and the GET stream the SDK opens after it), tools/list, tools/call echo, a
//   tools/call of a tool that does not exist, a GET of OAuth metadata (not to be logged), DELETE
//   (terminateSession), close; then waits until every exchange's line is written. Prints one JSON
//   line per step with what the client got.
// It sends `Authorization: Bearer` with a made-up token, which the recipe must keep out of LOG.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { loggingFetch } from "../../../docs/recipes/logging-fetch.mjs";

const [url, log] = process.argv.slice(2);
const out = (obj) => process.stdout.write(JSON.stringify(obj) + "\n");
async function step(label, promise) {
  try {
    const r = await promise;
    out({ label, resolved: true, isError: r?.isError === true });
  } catch (e) {
    out({ label, resolved: false, code: e?.code ?? null, message: String(e?.message ?? e).slice(0, 300) });
  }
}

const fetch = loggingFetch(log);
const transport = new StreamableHTTPClientTransport(new URL(url), {
  fetch,
  requestInit: { headers: { Authorization: "Bearer recipe-test-secret-token" } },
});
const client = new Client({ name: "mcptriage-fetch-recipe-test", version: "1.0.0" });
const opts = { timeout: 10000 };
await step("initialize", client.connect(transport));
// The SDK opens the GET stream after notifications/initialized without waiting for it: give it
// a moment, so that the stream is open before the session ends.
await new Promise((r) => setTimeout(r, 300));
await step("tools/list", client.listTools(undefined, opts));
await step("echo", client.callTool({ name: "echo", arguments: { message: "hello from the recipe" } }, undefined, opts));
await step("unknown-tool", client.callTool({ name: "no-such-tool", arguments: {} }, undefined, opts));
// Not one of the transport's own requests (like the SDK's OAuth metadata discovery): passed
// through, not logged.
const meta = await fetch(new URL("/.well-known/oauth-authorization-server", url), { headers: { accept: "application/json" } });
await meta.body?.cancel();
out({ label: "well-known", status: meta.status });
await step("terminate", transport.terminateSession());
await client.close();
// Bounded: every body has ended or was aborted by close(); 10 s at most.
const flushed = await Promise.race([fetch.flush().then(() => true), new Promise((r) => setTimeout(() => r(false), 10000))]);
out({ label: "flush", resolved: flushed });
process.exit(flushed ? 0 : 1);
