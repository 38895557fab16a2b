// Preloaded with `node --require ./loopback.cjs`: makes a listen() that names only a
// port bind to 127.0.0.1 instead of every interface. server-everything has no host
// option (it calls app.listen(PORT)), and the test server must not be reachable from
// other machines. Nothing else about the server changes.
"use strict";
const net = require("net");

const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  const first = args[0];
  if (typeof first === "number" || (typeof first === "string" && /^\d+$/.test(first))) {
    if (typeof args[1] !== "string") args.splice(1, 0, "127.0.0.1");
  } else if (
    first !== null && typeof first === "object" && !Array.isArray(first) &&
    first.port !== undefined && first.host === undefined && first.path === undefined
  ) {
    args[0] = Object.assign({}, first, { host: "127.0.0.1" });
  }
  return listen.apply(this, args);
};
