// A fetch for the MCP TypeScript SDK's StreamableHTTPClientTransport (option `fetch`) that appends
// one line per HTTP exchange to a JSON Lines file that `mcptriage` reads (docs/capture-sdk.md).
import { appendFileSync } from "node:fs";

// Credentials never reach the file: the scheme is kept ("Bearer [REDACTED]"), the rest hidden.
const SECRET = /^(authorization|proxy-authorization|cookie|set-cookie)$/;
const headersOf = (headers) => {
  const out = {};
  for (let [name, value] of headers) {
    if (SECRET.test(name)) value = value.replace(/^((?:Bearer|Basic|DPoP)\s+)?[\s\S]*$/i, "$1[REDACTED]");
    out[name] = name in out ? [].concat(out[name], value) : value;
  }
  return out;
};

// The transport's own requests: POSTs and the GET stream accept an event stream, and every request
// after initialize carries the session id. The SDK's OAuth requests (metadata, token: bodies
// that hold codes and tokens) go through the same fetch and are not logged.
const isMcp = (req) => req.headers.has("mcp-session-id") || /text\/event-stream/.test(req.headers.get("accept") ?? "");

export function loggingFetch(file, baseFetch = globalThis.fetch) {
  const pending = new Set();
  const write = (line) => appendFileSync(file, JSON.stringify(line) + "\n");
  const logged = async (input, init) => {
    const req = new Request(input, init);
    if (!isMcp(req)) return baseFetch(req);
    const request = { method: req.method, url: req.url, headers: headersOf(req.headers),
                      body: req.body ? await req.clone().text() : null };
    let response;
    try {
      response = await baseFetch(req);
    } catch (e) {
      write({ request }); // no response: mcptriage reports NOT_CAPTURED
      throw e;
    }
    const line = { status: response.status, headers: headersOf(response.headers), body: "", request };
    if (!response.body) {
      write(line);
      return response;
    }
    // Tee the body: the SDK reads one branch as bytes arrive, this reads the other to its end
    // (for an event stream: until the server or the client closes it), then writes the line.
    const [forSdk, forLog] = response.body.tee();
    const done = (async () => {
      const decoder = new TextDecoder();
      try {
        for await (const chunk of forLog) line.body += decoder.decode(chunk, { stream: true });
      } catch {} // aborted (the client closed the stream): log what arrived
      line.body += decoder.decode();
      write(line);
    })();
    pending.add(done);
    done.finally(() => pending.delete(done));
    return new Response(forSdk, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
  // Resolves once every exchange begun so far is written: await it before the process exits.
  logged.flush = () => Promise.all(pending);
  return logged;
}
