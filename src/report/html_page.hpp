// The fixed parts of the HTML session report (html.cpp): the page before the data element and
// the page after it (style and script). Self-contained: no network request, no font, no image
// (the Content-Security-Policy below forbids them). The script reads the data element with
// JSON.parse and draws only through createElement and textContent: no capture text is ever
// parsed as HTML. The data is one JSON value per line (html.cpp): compact rows with a string
// table, read at load; each kept detail stays text until its row is selected. Rows are drawn a
// window at a time (fixed row height), so scrolling stays quick at any size (docs/report.md "Size").
#pragma once

#include <string_view>

namespace mcptriage {

inline std::string_view html_page_head() {
  return R"HTML(<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="mcptriage">
<title>mcptriage session report</title>
<style>
:root { --ok:#1a7f37; --tool:#d4781a; --proto:#c62828; --http:#8e1b1b; --transport:#6a1b9a; --wait:#1565c0; --none:#777; --bg:#fafafa; --line:#ddd; }
* { box-sizing: border-box; }
body { margin:0; font:13px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif; color:#222; background:var(--bg); }
header { padding:10px 16px; background:#263238; color:#fff; }
header h1 { font-size:16px; margin:0; }
header .sub { opacity:.8; font-size:12px; }
#summary { display:flex; flex-wrap:wrap; gap:12px; padding:10px 16px; border-bottom:1px solid var(--line); background:#fff; }
.card { border:1px solid var(--line); border-radius:6px; padding:6px 10px; min-width:160px; background:#fff; }
.card h2 { font-size:11px; text-transform:uppercase; letter-spacing:.05em; margin:0 0 4px; color:#555; }
.card table { border-collapse:collapse; }
.card td { padding:1px 6px 1px 0; vertical-align:top; }
.big { font-size:20px; font-weight:600; }
#controls { display:flex; gap:10px; align-items:center; padding:8px 16px; border-bottom:1px solid var(--line); background:#f0f0f0; }
#controls input[type=search] { width:320px; padding:4px 6px; }
#main { display:flex; height:calc(100vh - 230px); min-height:320px; }
#list { flex:1 1 60%; overflow-y:auto; position:relative; border-right:1px solid var(--line); background:#fff; }
#spacer { position:relative; width:100%; }
.row { position:absolute; left:0; right:0; height:24px; display:flex; align-items:center; gap:8px; padding:0 8px; white-space:nowrap; overflow:hidden; border-bottom:1px solid #f0f0f0; cursor:pointer; }
.row:hover { background:#f5f9ff; }
.row.sel { background:#e3f0ff; }
.row.head { background:#eceff1; font-weight:600; cursor:default; }
.row.skip { color:#888; }
.mark { width:12px; height:12px; border-radius:3px; flex:none; background:var(--none); }
.o-TOOL_SUCCESS, .o-RPC_SUCCESS, .o-ACCEPTED { background:var(--ok); }
.o-TOOL_ERROR, .o-INVALID_TOOL_RESULT { background:var(--tool); }
.o-INPUT_REQUIRED, .o-TASK_CREATED { background:var(--wait); }
.o-JSONRPC_ERROR, .o-INVALID_ENVELOPE, .o-MALFORMED_JSON, .o-INVALID_RESULT { background:var(--proto); }
.o-HTTP_ERROR, .o-INVALID_HTTP_RESPONSE { background:var(--http); }
.o-STREAM_INCOMPLETE { background:var(--transport); }
.o-NOT_CAPTURED { background:var(--none); }
.mark.skipped { background:transparent; border:1px dashed #999; }
.c-src { width:60px; overflow:hidden; text-overflow:ellipsis; }
.c-st { width:34px; text-align:right; font-variant-numeric:tabular-nums; }
.c-m { width:150px; overflow:hidden; text-overflow:ellipsis; }
.c-tool { width:120px; overflow:hidden; text-overflow:ellipsis; color:#444; }
.c-id { width:60px; overflow:hidden; text-overflow:ellipsis; color:#666; }
.c-o { width:150px; font-weight:600; }
.c-dur { width:64px; text-align:right; color:#666; }
.badge { font-size:11px; padding:0 5px; border-radius:8px; border:1px solid #bbb; color:#333; background:#fff; }
.badge.first { border-color:var(--proto); color:var(--proto); font-weight:700; }
.badge.unsafe { border-color:var(--proto); color:var(--proto); }
.badge.safe { border-color:var(--ok); color:var(--ok); }
.badge.broke { border-color:var(--transport); color:var(--transport); }
a.jump { color:#0b57d0; cursor:pointer; text-decoration:underline; }
#detail { flex:1 1 40%; overflow:auto; padding:10px 14px; background:#fff; }
#detail h3 { margin:10px 0 4px; font-size:12px; text-transform:uppercase; color:#555; }
#detail pre { white-space:pre-wrap; word-break:break-all; background:#f6f8fa; border:1px solid #eee; padding:6px; margin:0; max-height:320px; overflow:auto; }
#detail table { border-collapse:collapse; width:100%; }
#detail td { border-bottom:1px solid #f0f0f0; padding:2px 6px 2px 0; vertical-align:top; word-break:break-all; }
#detail td.k { width:180px; color:#555; white-space:nowrap; word-break:normal; }
.ev { display:flex; gap:6px; align-items:baseline; padding:1px 0; }
.empty { color:#888; padding:16px; }
.note { color:#8a5a00; }
#budget { border-color:#d4781a; max-width:420px; }
</style>
</head>
<body>
<header><h1>mcptriage session report</h1><div class="sub" id="sub"></div></header>
<section id="summary" aria-label="summary"></section>
<section id="controls">
<label>Outcome <select id="filter"><option value="">all</option><option value="failed">failures</option></select></label>
<input type="search" id="search" placeholder="search source, method, tool, reason, detail, id, status" aria-label="search">
<span id="count"></span>
</section>
<div id="main"><div id="list" role="list"><div id="spacer"></div></div><aside id="detail"><div class="empty">Select an exchange to see its detail.</div></aside></div>
)HTML";
}

inline std::string_view html_page_tail() {
  return R"HTML(<script>
"use strict";
(function () {
  var ROW = 24;
  var FAILURE = { HTTP_ERROR: 1, INVALID_HTTP_RESPONSE: 1, STREAM_INCOMPLETE: 1, MALFORMED_JSON: 1, INVALID_ENVELOPE: 1,
    JSONRPC_ERROR: 1, INVALID_TOOL_RESULT: 1, INVALID_RESULT: 1, TOOL_ERROR: 1 };
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function idText(id) { return id === null || id === undefined ? "" : (typeof id === "string" ? JSON.stringify(id) : String(id)); }
  // The data: one JSON value per line (html.cpp says the forms). A row keeps its summary; its
  // detail line stays text until the row is selected.
  var S = [];
  function s(v) { return typeof v === "number" ? S[v] : v; }
  var rows = [], bySource = Object.create(null), inputs = [], cur = null, errors = [], last = null, meta = null;
  var firstFailure = null, exchanges = 0, failed = 0, warned = 0, skipped = 0, withDetail = 0, pending = 0, uncaptured = 0;
  var byLayer = Object.create(null), advice = Object.create(null), outcomesSeen = Object.create(null);
  var lines = document.getElementById("mcptriage-data").textContent.split("\n");
  for (var li = 0; li < lines.length; li++) {
    var line = lines[li];
    if (!line) continue;
    if (line.charCodeAt(0) === 123) { if (last) { last.dl = line; withDetail++; } continue; }  // "{": a detail
    var d = JSON.parse(line);
    last = null;
    switch (d[0]) {
      case 0: S.push(d[1]); break;
      case 1:
        cur = { name: d[2], head: null, count: 0, failures: 0, first: null, summary: null, rows: Object.create(null) };
        inputs.push(cur);
        cur.head = { kind: "head", input: cur };
        rows.push(cur.head);
        break;
      case 2: {
        var f = d[11], r = { source: cur.name + "#" + d[1], n: d[1], status: d[2], hm: s(d[3]), method: s(d[4]), tool: s(d[5]),
          id: d[6], outcome: s(d[7]), layer: s(d[8]), reason: s(d[9]), detail: s(d[10]), failed: !!(f & 1), captured: !!(f & 2),
          advice: s(d[12]), dur: d[13], events: d[14], stream: !!(f & 16), replay: d[15] === null ? null : { n: d[15], safety: s(d[16]) } };
        var row = { kind: "x", r: r, input: cur, index: exchanges, dl: null };
        exchanges++;
        cur.count++;
        rows.push(row);
        cur.rows[r.n] = row;
        bySource[r.source] = row;
        byLayer[r.layer] = byLayer[r.layer] || Object.create(null);
        byLayer[r.layer][r.outcome] = (byLayer[r.layer][r.outcome] || 0) + 1;
        outcomesSeen[r.outcome] = 1;
        if (r.failed) failed++;
        if (r.outcome === "INPUT_REQUIRED" || r.outcome === "TASK_CREATED") pending++;
        if (r.outcome === "NOT_CAPTURED") uncaptured++;
        if (f & 4) warned++;
        if (r.advice && r.advice !== "none") advice[r.advice] = (advice[r.advice] || 0) + 1;
        if (FAILURE[r.outcome]) {
          cur.failures++;
          if (!cur.first) cur.first = row;
          if (!firstFailure) firstFailure = row;
        }
        if (f & 8) last = row;
        break;
      }
      case 3: {
        skipped++;
        var sr = { source: cur.name + "#" + d[1], n: d[1], reason: s(d[2]), detail: s(d[3]) };
        var sk = { kind: "skip", r: sr, input: cur };
        rows.push(sk);
        bySource[sr.source] = sk;
        break;
      }
      case 4: if (cur) cur.summary = d[2]; break;
      case 5: errors.push({ name: d[1], why: d[2] }); break;
      case 6: meta = { details: d[1], all: d[2], failures: d[3] }; break;
    }
  }
  lines = null;
  inputs.forEach(function (i) { if (i.first) i.first.firstInInput = true; });
  if (firstFailure) firstFailure.firstInRun = true;
  document.body.setAttribute("data-exchanges", String(exchanges));
  document.body.setAttribute("data-details", String(withDetail));
  document.body.setAttribute("data-failures", String(inputs.reduce(function (n, i) { return n + i.failures; }, 0)));
  document.getElementById("sub").textContent = inputs.length + " input" + (inputs.length === 1 ? "" : "s") + ", " +
    exchanges + " exchange" + (exchanges === 1 ? "" : "s") + (skipped ? ", " + skipped + " skipped" : "") +
    (errors.length ? ", " + errors.length + " input error" + (errors.length === 1 ? "" : "s") : "");

  // ---- summary -------------------------------------------------------------------------------
  var summary = document.getElementById("summary");
  function card(title) { var c = el("div", "card"); c.appendChild(el("h2", null, title)); summary.appendChild(c); return c; }
  var c1 = card("Exchanges");
  c1.appendChild(el("div", "big", exchanges));
  // "Not successful" is the records' `failed`; the timeline's "failed" badges count failures
  // only: say how the two numbers meet (a NOT_CAPTURED is no failure, and no success either).
  var allFailures = inputs.reduce(function (n, i) { return n + i.failures; }, 0), parts = [];
  if (allFailures) parts.push(allFailures + " failed");
  if (pending) parts.push(pending + " waiting (input required or task)");
  if (uncaptured) parts.push(uncaptured + " not captured");
  c1.appendChild(el("div", "not-successful", failed + " not successful" + (parts.length ? ": " + parts.join(", ") : "")));
  var c2 = card("Outcomes by layer"), t2 = el("table");
  ["transport", "protocol", "interaction", "application"].forEach(function (layer) {
    if (!byLayer[layer]) return;
    Object.keys(byLayer[layer]).sort().forEach(function (o) {
      var tr = el("tr"), td = el("td");
      td.appendChild(el("span", "mark o-" + o));
      tr.appendChild(td);
      tr.appendChild(el("td", null, layer));
      tr.appendChild(el("td", null, o));
      tr.appendChild(el("td", null, byLayer[layer][o]));
      t2.appendChild(tr);
    });
  });
  c2.appendChild(t2);
  var c3 = card("First failure");
  c3.id = "first-failure";
  if (firstFailure) {
    var a = el("a", "jump", firstFailure.r.source);
    a.addEventListener("click", function () { reveal(firstFailure); });
    c3.appendChild(a);
    c3.appendChild(el("div", null, firstFailure.r.outcome + " (" + firstFailure.r.reason + ")"));
  } else {
    c3.appendChild(el("div", null, "none"));
  }
  if (withDetail < exchanges) {
    // Past the detail budget (html.cpp HtmlBudget): say so where it is seen first.
    var cb = card("Details kept");
    cb.id = "budget";
    cb.appendChild(el("div", "big", withDetail + " of " + exchanges));
    cb.appendChild(el("div", null, "Full detail (record, headers, bodies, events) is kept for every exchange up to " +
      (meta ? Math.round(meta.all / 1048576) : "?") + " MiB of detail, then for failures only up to " +
      (meta ? Math.round(meta.failures / 1048576) : "?") + " MiB; the other rows keep their summary. " +
      "Run mcptriage on a smaller input for all."));
  }
  var c4 = card("Retry advice"), t4 = el("table");
  Object.keys(advice).sort().forEach(function (k) {
    var tr = el("tr");
    tr.appendChild(el("td", null, k));
    tr.appendChild(el("td", null, advice[k]));
    t4.appendChild(tr);
  });
  if (!Object.keys(advice).length) c4.appendChild(el("div", null, "none"));
  c4.appendChild(t4);
  var c5 = card("Warnings");
  c5.appendChild(el("div", null, warned + " record" + (warned === 1 ? "" : "s") + " with warnings"));
  errors.forEach(function (e) { c5.appendChild(el("div", null, "input error: " + e.name + ": " + e.why)); });

  // ---- filter and search ---------------------------------------------------------------------
  var filter = document.getElementById("filter"), search = document.getElementById("search");
  Object.keys(outcomesSeen).sort().forEach(function (o) { filter.appendChild(el("option", null, o)).value = o; });
  var shown = rows.slice();
  function hay(row) {
    if (row.hay !== undefined) return row.hay;
    var r = row.r;
    row.hay = [r.source, r.method, r.tool, r.outcome, r.reason, r.detail, r.status, r.id, r.hm].join("\n").toLowerCase();
    return row.hay;
  }
  function applyFilter() {
    var f = filter.value, q = search.value.trim().toLowerCase();
    shown = rows.filter(function (row) {
      if (row.kind === "head") return true;
      if (f === "failed" && !(row.kind === "x" && row.r.failed)) return false;
      if (f && f !== "failed" && !(row.kind === "x" && row.r.outcome === f)) return false;
      if (q && hay(row).indexOf(q) < 0) return false;
      return true;
    });
    var n = shown.filter(function (r) { return r.kind === "x"; }).length;
    document.getElementById("count").textContent = n + " of " + exchanges + " exchanges";
    spacer.style.height = (shown.length * ROW) + "px";
    drawn = Object.create(null);
    while (spacer.firstChild) spacer.removeChild(spacer.firstChild);
    draw();
  }
  filter.addEventListener("change", applyFilter);
  search.addEventListener("input", applyFilter);

  // ---- the timeline: a window of rows ------------------------------------------------------
  var list = document.getElementById("list"), spacer = document.getElementById("spacer");
  var drawn = Object.create(null), selected = null;
  // "#N" for a record of the input whose head row names it.
  function shortSource(source, input) {
    return input && source.length > input.name.length && source.lastIndexOf(input.name, 0) === 0 ? source.slice(input.name.length) : source;
  }
  function rowElement(row, at) {
    var e = el("div", "row");
    e.style.top = (at * ROW) + "px";
    e.setAttribute("role", "listitem");
    if (row.kind === "head") {
      e.className = "row head";
      var i = row.input;
      e.appendChild(el("span", null, i.name));
      e.appendChild(el("span", "badge", i.count + " exchange" + (i.count === 1 ? "" : "s")));
      if (i.failures) e.appendChild(el("span", "badge unsafe", i.failures + " failed"));
      if (i.summary && i.summary.posts) e.appendChild(el("span", "badge", i.summary.posts + " POSTs"));
      return e;
    }
    var r = row.r;
    if (row.kind === "skip") {
      e.className = "row skip";
      e.appendChild(el("span", "mark skipped"));
      e.appendChild(el("span", "c-src", shortSource(r.source, row.input)));
      e.appendChild(el("span", null, "skipped: " + r.reason + " - " + r.detail));
      e.addEventListener("click", function () { select(row, e); });
      return e;
    }
    var mark = el("span", "mark o-" + r.outcome);
    mark.title = r.outcome + " (" + r.layer + ")";
    mark.setAttribute("data-mark", String(row.index));
    e.setAttribute("data-source", r.source);
    e.setAttribute("data-outcome", r.outcome);
    e.appendChild(mark);
    var src = el("span", "c-src", shortSource(r.source, row.input));
    src.title = r.source;
    e.appendChild(src);
    var st = r.captured && r.status !== null ? r.status : "";
    e.appendChild(el("span", "c-st", st));
    var m = (r.hm ? r.hm + " " : "") + (r.method || "");
    e.appendChild(el("span", "c-m", m));
    e.appendChild(el("span", "c-tool", r.tool || ""));
    e.appendChild(el("span", "c-id", r.id));
    e.appendChild(el("span", "c-o", r.outcome));
    e.appendChild(el("span", "c-dur", typeof r.dur === "number" ? r.dur.toFixed(r.dur < 10 ? 1 : 0) + " ms" : ""));
    if (row.firstInRun || row.firstInInput) {
      e.setAttribute("data-first-failure", row.firstInRun ? "run" : "input");
      e.appendChild(el("span", "badge first", "first failure"));
    }
    if (r.stream) {
      e.appendChild(el("span", "badge", "SSE " + r.events + " ev"));
      if (r.outcome === "STREAM_INCOMPLETE") e.appendChild(el("span", "badge broke", "broke after event " + r.events));
    }
    var rp = r.replay;
    if (rp) {
      var link = el("a", "jump replay", "replay of #" + rp.n);
      link.addEventListener("click", function (ev) { ev.stopPropagation(); var t = row.input.rows[rp.n]; if (t) reveal(t); });
      e.appendChild(link);
      e.appendChild(el("span", "badge " + (rp.safety === "safe" ? "safe" : "unsafe"), rp.safety));
    }
    e.addEventListener("click", function () { select(row, e); });
    if (selected === row) e.className += " sel";
    return e;
  }
  function draw() {
    var top = list.scrollTop, h = list.clientHeight || 600;
    var from = Math.max(0, Math.floor(top / ROW) - 20), to = Math.min(shown.length, Math.ceil((top + h) / ROW) + 20);
    var keep = Object.create(null);
    for (var k = from; k < to; k++) keep[k] = 1;
    Object.keys(drawn).forEach(function (k) { if (!keep[k]) { spacer.removeChild(drawn[k]); delete drawn[k]; } });
    for (var j = from; j < to; j++) {
      if (!drawn[j]) { drawn[j] = rowElement(shown[j], j); spacer.appendChild(drawn[j]); }
    }
  }
  var pending = false;
  list.addEventListener("scroll", function () {
    if (pending) return;
    pending = true;
    window.requestAnimationFrame(function () { pending = false; draw(); });
  });
  window.addEventListener("resize", draw);
  function reveal(row) {
    var at = shown.indexOf(row);
    if (at < 0) { filter.value = ""; search.value = ""; applyFilter(); at = shown.indexOf(row); }
    list.scrollTop = Math.max(0, at * ROW - list.clientHeight / 3);
    draw();
    select(row, drawn[at]);
  }

  // ---- detail ------------------------------------------------------------------------------
  var detail = document.getElementById("detail");
  function kv(table, k, v) {
    if (v === null || v === undefined || v === "") return;
    var tr = el("tr");
    tr.appendChild(el("td", "k", k));
    var td = el("td");
    if (v instanceof Node) td.appendChild(v); else td.textContent = String(v);
    tr.appendChild(td);
    table.appendChild(tr);
  }
  function headersTable(hs) {
    var t = el("table");
    hs.forEach(function (h) { kv(t, h[0], h[1]); });
    return t;
  }
  function section(title, node) { detail.appendChild(el("h3", null, title)); detail.appendChild(node); }
  function body(text, size) {
    var p = el("pre", null, text);
    if (size > text.length) p.appendChild(document.createTextNode("\n... (" + size + " bytes captured, preview cut)"));
    return p;
  }
  function select(row, e) {
    if (selected) { Object.keys(drawn).forEach(function (k) { drawn[k].classList.remove("sel"); }); }
    selected = row;
    if (e) e.classList.add("sel");
    while (detail.firstChild) detail.removeChild(detail.firstChild);
    var d = row.dl ? JSON.parse(row.dl) : null, r = d ? d.rec : row.r, v = d ? d.v : null;
    detail.appendChild(el("h2", null, row.r.source));
    var t = el("table");
    if (row.kind === "skip") {
      kv(t, "skipped", r.reason);
      kv(t, "detail", r.detail);
      detail.appendChild(t);
      return;
    }
    kv(t, "outcome", r.outcome + " (layer " + r.layer + ")");
    if (!d) {
      // Past the report's detail budget: the row's summary only.
      kv(t, "reason", r.reason);
      kv(t, "detail", r.detail);
      kv(t, "http", r.status === null ? "" : r.status + (r.captured ? "" : " (assumed)"));
      kv(t, "method", ((r.hm ? r.hm + " " : "") + (r.method || "")).trim());
      kv(t, "tool", r.tool);
      kv(t, "id", r.id);
      if (typeof r.dur === "number") kv(t, "duration", r.dur + " ms");
      kv(t, "retry", r.advice);
      if (r.replay) kv(t, "replay", "repeats #" + r.replay.n + "; " + r.replay.safety);
      detail.appendChild(t);
      detail.appendChild(el("p", "note", "Not kept: this report holds the full detail (record, headers, bodies, events) " +
        "of " + withDetail + " of " + exchanges + " exchanges. Run mcptriage on a smaller input (a slice of the capture) for this one's."));
      return;
    }
    kv(t, "reason", r.reason);
    if (r.spec) {
      var a = el("a", null, r.spec);
      // Only the catalogue's own links (plain https URLs) become links.
      if (/^https:\/\/[A-Za-z0-9./#_%?=&~+-]+$/.test(r.spec)) { a.href = r.spec; a.rel = "noreferrer noopener"; a.target = "_blank"; }
      kv(t, "spec", a);
    }
    kv(t, "detail", r.detail);
    kv(t, "pointer", r.pointer);
    kv(t, "http", r.http ? r.http.status + (r.http.transport_captured ? "" : " (assumed)") + (r.http.content_type ? " " + r.http.content_type : "") : "");
    if (v) kv(t, "request", (v.hm + " " + v.tg).trim());
    kv(t, "method", r.method);
    kv(t, "tool", r.tool);
    if (r.jsonrpc) {
      kv(t, "id", idText(r.jsonrpc.id));
      kv(t, "request id", idText(r.jsonrpc.request_id));
      if (r.jsonrpc.error) kv(t, "JSON-RPC error", r.jsonrpc.error.code + " " + r.jsonrpc.error.message);
    }
    kv(t, "protocol version", r.protocol_version ? r.protocol_version + " (" + r.protocol_version_source + ")" : "");
    if (v && typeof v.dur === "number") kv(t, "duration", v.dur + " ms");
    if (v && v.t0) kv(t, "started", new Date(Number(BigInt(v.t0) / 1000000n)).toISOString());
    kv(t, "retry", r.retry ? r.retry.advice + (r.retry.detail ? ": " + r.retry.detail : "") : "");
    if (d.check) kv(t, "expectation", d.check.passed ? "held" : "broken: " + d.check.failure);
    if (r.session) {
      kv(t, "session entry", r.session.entry + (r.session.post_index ? " (POST " + r.session.post_index + ")" : ""));
      if (r.session.replay_of) {
        var rp = r.session.replay_of, link = el("a", "jump", rp.source);
        link.addEventListener("click", function () { var x = bySource[rp.source] || row.input.rows[rp.source.slice(rp.source.lastIndexOf("#") + 1)]; if (x) reveal(x); });
        var span = el("span");
        span.appendChild(document.createTextNode("repeats "));
        span.appendChild(link);
        span.appendChild(document.createTextNode(" (" + rp.after + "); " + rp.safety + ": " + rp.decided_by));
        kv(t, "replay", span);
      }
      (r.session.findings || []).forEach(function (f) { kv(t, "finding", f.code + ": " + f.detail); });
    }
    detail.appendChild(t);
    if (r.warnings && r.warnings.length) {
      var ul = el("ul");
      r.warnings.forEach(function (w) { ul.appendChild(el("li", null, w)); });
      section("Warnings", ul);
    }
    if (!v) return;
    if (v.ev.length || r.stream) {
      var evs = el("div");
      v.ev.forEach(function (x, n) {
        var line = el("div", "ev");
        line.appendChild(el("span", "badge", "#" + (n + 1)));
        line.appendChild(el("span", null, x.t + (x.id ? " id=" + x.id : "")));
        line.appendChild(el("span", null, x.ro + (x.m ? " " + x.m : "")));
        line.appendChild(el("code", null, x.p));
        evs.appendChild(line);
      });
      if (v.evn > v.ev.length) evs.appendChild(el("div", null, "... " + (v.evn - v.ev.length) + " more events"));
      if (r.outcome === "STREAM_INCOMPLETE") evs.appendChild(el("div", "badge broke", "the stream broke after event " + v.evn + ": " + r.detail));
      else if (v.cut) evs.appendChild(el("div", null, "the stream ended inside an event"));
      section("Event stream (" + v.evn + " events)", evs);
    }
    if (v.qh.length) section("Request headers (redacted)", headersTable(v.qh));
    if (v.qbn) section("Request body (redacted)", body(v.qb, v.qbn));
    if (v.rh.length) section("Response headers (redacted)", headersTable(v.rh));
    if (v.rbn) section("Response body (redacted)", body(v.rb, v.rbn));
  }
  applyFilter();
  document.body.setAttribute("data-ready", "1");
})();
</script>
</body>
</html>
)HTML";
}

}  // namespace mcptriage
