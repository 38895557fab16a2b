// Validates an OTLP/JSON trace file (mcptriage --report-otlp) against the official
// opentelemetry-proto definitions, as protobufjs code generated from them and shipped in
// @opentelemetry/otlp-proto-exporter-base: every member must be a field of its message (OTLP/JSON
// uses the lowerCamelCase JSON names), ids lowercase hex of 16/8 bytes (the OTLP/JSON rule, not
// base64), 64-bit integers strings, enums integers; then the request must pass the generated
// verify(), encode to protobuf, and decode back to the same values.
// Usage: node otlp_check.cjs FILE.json EXCHANGES FAILURES. Prints ok/not ok lines.
"use strict";
const fs = require("fs");
const root = require("@opentelemetry/otlp-proto-exporter-base/build/src/generated/root.js");
const pb = root.opentelemetry.proto;
const [file, wantSpans, wantErrors] = process.argv.slice(2);
let failed = 0;
function check(ok, what, why) {
  console.log((ok ? "ok - " : "not ok - ") + what + (ok || !why ? "" : ": " + why));
  if (!ok) failed++;
}
const problems = [];
// The message type of each nested member, for the members mcptriage may write.
const T = {
  req: [pb.collector.trace.v1.ExportTraceServiceRequest, { resourceSpans: "rs" }],
  rs: [pb.trace.v1.ResourceSpans, { resource: "res", scopeSpans: "ss" }],
  res: [pb.resource.v1.Resource, { attributes: "kv" }],
  ss: [pb.trace.v1.ScopeSpans, { scope: "scope", spans: "span" }],
  scope: [pb.common.v1.InstrumentationScope, { attributes: "kv" }],
  span: [pb.trace.v1.Span, { attributes: "kv", status: "status", events: "event", links: "link" }],
  event: [pb.trace.v1.Span.Event, { attributes: "kv" }],
  link: [pb.trace.v1.Span.Link, { attributes: "kv" }],
  status: [pb.trace.v1.Status, {}],
  kv: [pb.common.v1.KeyValue, { value: "any" }],
  any: [pb.common.v1.AnyValue, {}],
};
function walk(v, t, where) {
  const [Type, nested] = T[t];
  if (v === null || typeof v !== "object" || Array.isArray(v)) { problems.push(where + " is no object"); return; }
  for (const k of Object.keys(v)) {
    if (!Object.prototype.hasOwnProperty.call(Type.prototype, k) || k === "toJSON") {
      problems.push(where + "." + k + " is no field of " + t);
      continue;
    }
    if (nested[k]) {
      const items = Array.isArray(v[k]) ? v[k] : [v[k]];
      items.forEach((x, i) => walk(x, nested[k], where + "." + k + (Array.isArray(v[k]) ? "[" + i + "]" : "")));
    }
  }
  if (t === "span") {
    if (!/^[0-9a-f]{32}$/.test(v.traceId) || /^0+$/.test(v.traceId)) problems.push(where + ".traceId is not 16 bytes of hex");
    if (!/^[0-9a-f]{16}$/.test(v.spanId) || /^0+$/.test(v.spanId)) problems.push(where + ".spanId is not 8 bytes of hex");
    for (const k of ["startTimeUnixNano", "endTimeUnixNano"]) {
      if (typeof v[k] !== "string" || !/^\d+$/.test(v[k])) problems.push(where + "." + k + " is not a uint64 string");
    }
    if (BigInt(v.endTimeUnixNano || 0) < BigInt(v.startTimeUnixNano || 0)) problems.push(where + " ends before it starts");
    if (!Number.isInteger(v.kind)) problems.push(where + ".kind is not an enum integer");
    if (v.status && v.status.code !== undefined && !Number.isInteger(v.status.code)) problems.push(where + ".status.code is not an integer");
  }
  if (t === "any" && v.intValue !== undefined && !(typeof v.intValue === "string" && /^-?\d+$/.test(v.intValue))) {
    problems.push(where + ".intValue is not an int64 string");
  }
}
let doc;
try {
  doc = JSON.parse(fs.readFileSync(file, "utf8"));
} catch (e) {
  check(false, "the file is JSON", String(e));
  process.exit(1);
}
walk(doc, "req", "request");
check(problems.length === 0, "every member is an opentelemetry-proto field with the OTLP/JSON encoding", problems.slice(0, 5).join("; "));
// protobufjs's object form: bytes as Buffers (OTLP/JSON's hex ids turned back into bytes).
const spans = [];
for (const rs of doc.resourceSpans || []) for (const ss of rs.scopeSpans || []) for (const s of ss.spans || []) spans.push(s);
const obj = JSON.parse(JSON.stringify(doc));
// and 64-bit integers (strings in OTLP/JSON) as protobufjs Longs.
const Long = require("protobufjs/minimal").util.Long;
const longs = (kvs) => (kvs || []).forEach((kv) => {
  if (kv.value && kv.value.intValue !== undefined) kv.value.intValue = Long.fromString(kv.value.intValue, false);
});
for (const rs of obj.resourceSpans || []) {
  longs(rs.resource && rs.resource.attributes);
  for (const ss of rs.scopeSpans || []) for (const s of ss.spans || []) {
    s.traceId = Buffer.from(String(s.traceId || ""), "hex");
    s.spanId = Buffer.from(String(s.spanId || ""), "hex");
    s.startTimeUnixNano = Long.fromString(String(s.startTimeUnixNano || 0), true);
    s.endTimeUnixNano = Long.fromString(String(s.endTimeUnixNano || 0), true);
    longs(s.attributes);
  }
}
const Req = pb.collector.trace.v1.ExportTraceServiceRequest;
const err = Req.verify(obj);
check(err === null, "ExportTraceServiceRequest.verify() accepts it", err);
const bytes = Req.encode(Req.fromObject(obj)).finish();
const back = Req.toObject(Req.decode(bytes), { longs: String, enums: Number, bytes: String, defaults: false });
let same = true;
const backSpans = [];
for (const rs of back.resourceSpans || []) for (const ss of rs.scopeSpans || []) for (const s of ss.spans || []) backSpans.push(s);
same = backSpans.length === spans.length && backSpans.every((s, i) =>
  Buffer.from(s.traceId, "base64").toString("hex") === spans[i].traceId &&
  Buffer.from(s.spanId, "base64").toString("hex") === spans[i].spanId && s.name === spans[i].name &&
  s.startTimeUnixNano === spans[i].startTimeUnixNano && (s.attributes || []).length === (spans[i].attributes || []).length &&
  ((s.status && s.status.code) || 0) === ((spans[i].status && spans[i].status.code) || 0));
check(same, "it encodes to protobuf (" + bytes.length + " bytes) and decodes to the same spans");
check(spans.length === Number(wantSpans), "one span per exchange (" + wantSpans + ")", spans.length + " spans");
const errors = spans.filter((s) => s.status && s.status.code === 2).length;
check(errors === Number(wantErrors), "status ERROR on every failure (" + wantErrors + ")", errors + " spans with ERROR");
const attr = (s, k) => (s.attributes || []).find((a) => a.key === k);
check(spans.every((s) => attr(s, "mcptriage.outcome")), "every span has its outcome");
check(spans.filter((s) => s.status && s.status.code === 2).every((s) => attr(s, "error.type")), "every ERROR span has error.type");
check(spans.every((s) => !attr(s, "mcp.session.id") || /^fnv1a-[0-9a-f]{16}$/.test(attr(s, "mcp.session.id").value.stringValue)),
  "mcp.session.id is hashed");
process.exit(failed ? 1 : 0);
