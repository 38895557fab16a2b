// A large HTML session report in headless Chromium (Debian's /usr/bin/chromium, driven by
// playwright-core): it loads, counts every exchange, scrolls to the end and shows the last one.
// Usage: node load.cjs REPORT.html EXCHANGES LAST_SOURCE [MAX_LOAD_SECONDS]
// Prints ok/not ok lines and the load time; exit 1 on any failure.
"use strict";
const path = require("path");
const { chromium } = require("playwright-core");

const [report, wantExchanges, lastSource, maxSeconds] = process.argv.slice(2);
let failed = 0;
function check(ok, what, why) {
  console.log((ok ? "ok - " : "not ok - ") + what + (ok || !why ? "" : ": " + why));
  if (!ok) failed++;
}

(async () => {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu"],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const errors = [];
    page.on("console", (m) => { if (m.type() === "error") errors.push(m.text()); });
    page.on("pageerror", (e) => errors.push(String(e)));
    const t0 = Date.now();
    await page.goto("file://" + path.resolve(report), { timeout: 120000 });
    await page.waitForSelector("body[data-ready='1']", { timeout: 120000 });
    const seconds = (Date.now() - t0) / 1000;
    console.log("# loaded in " + seconds.toFixed(1) + " s");
    if (maxSeconds) check(seconds <= Number(maxSeconds), "the page loads within " + maxSeconds + " s", seconds + " s");
    const total = Number(await page.getAttribute("body", "data-exchanges"));
    check(total === Number(wantExchanges), "the page counts " + wantExchanges + " exchanges", "it counts " + total);
    const details = Number(await page.getAttribute("body", "data-details"));
    console.log("# details kept for " + details + " exchanges");
    if (details < total) {
      const budget = await page.textContent("#budget").catch(() => "");
      check(budget.includes(details + " of " + total) && /smaller input/.test(budget),
        "the summary says details are kept for " + details + " of " + total, budget);
    }
    const count = await page.textContent("#count");
    check(count === wantExchanges + " of " + wantExchanges + " exchanges", "the count says " + wantExchanges, count);
    const t1 = Date.now();
    const last = await page.evaluate(async () => {
      const list = document.getElementById("list");
      list.scrollTop = list.scrollHeight;
      list.dispatchEvent(new Event("scroll"));
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      const rows = Array.from(document.querySelectorAll("[data-source]"));
      rows.sort((a, b) => parseFloat(a.style.top) - parseFloat(b.style.top));
      return { last: rows.length ? rows[rows.length - 1].getAttribute("data-source") : null, drawn: document.querySelectorAll(".row").length };
    });
    console.log("# scrolled to the end in " + ((Date.now() - t1) / 1000).toFixed(2) + " s");
    check(last.last === lastSource, "scrolled to the end, the last row is " + lastSource, String(last.last));
    check(last.drawn < 500, "only a window of rows is in the DOM", last.drawn + " rows");
    // The last row's detail opens (its summary at least).
    await page.evaluate((src) => {
      const row = Array.from(document.querySelectorAll("[data-source]")).find((e) => e.getAttribute("data-source") === src);
      if (row) row.click();
    }, lastSource);
    const detail = await page.textContent("#detail");
    check(detail.includes(lastSource) && /outcome/.test(detail), "the last row's detail opens");
    check(errors.length === 0, "no console errors", errors.join(" | "));
  } finally {
    await browser.close();
  }
  process.exit(failed ? 1 : 0);
})().catch((e) => {
  console.log("not ok - the load check ran: " + (e && e.stack ? e.stack : e));
  process.exit(1);
});
