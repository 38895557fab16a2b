// Loads an HTML session report in headless Chromium (Debian's /usr/bin/chromium, driven by
// playwright-core) and checks the rendered DOM. Usage:
//   node browser.cjs REPORT.html SCREENSHOT.png EXCHANGES FAILURES [--hostile | --replays]
// EXCHANGES: the exchange records the run gave (counted from its JSON Lines); FAILURES: how many
// of them are failures (0: none may be marked). Prints ok/not ok lines; exit 1 on any failure.
"use strict";
const path = require("path");
const { chromium } = require("playwright-core");

const [report, shot, wantExchanges, wantFailures, flag] = process.argv.slice(2);
const hostile = flag === "--hostile";
const replays = flag === "--replays";
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
    const requests = [];
    page.on("console", (m) => { if (m.type() === "error") errors.push(m.text()); });
    page.on("pageerror", (e) => errors.push(String(e)));
    page.on("request", (r) => { if (!r.url().startsWith("file:")) requests.push(r.url()); });
    page.on("dialog", (d) => { errors.push("dialog: " + d.message()); d.dismiss(); });
    await page.goto("file://" + path.resolve(report));
    await page.waitForSelector("body[data-ready='1']", { timeout: 20000 });

    const total = Number(await page.getAttribute("body", "data-exchanges"));
    check(total === Number(wantExchanges), "the page counts " + wantExchanges + " exchanges", "it counts " + total);
    // One timeline mark per exchange: rows are drawn a window at a time, so scroll through.
    const marks = await page.evaluate(async () => {
      const list = document.getElementById("list");
      const seen = new Set();
      for (let top = 0; ; top += list.clientHeight / 2) {
        list.scrollTop = top;
        list.dispatchEvent(new Event("scroll"));
        await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
        document.querySelectorAll("[data-mark]").forEach((m) => seen.add(m.getAttribute("data-mark")));
        if (top > list.scrollHeight) break;
      }
      list.scrollTop = 0;
      return seen.size;
    });
    check(marks === Number(wantExchanges), "the timeline has one mark per exchange (" + wantExchanges + ")", "marks: " + marks);

    const failures = Number(await page.getAttribute("body", "data-failures"));
    check(failures === Number(wantFailures), "the page counts " + wantFailures + " failures", "it counts " + failures);
    // The summary's "N not successful" breaks down into the failures the badges count and the rest.
    const notOk = await page.textContent(".not-successful");
    check(Number(wantFailures) === 0 ? !/ failed/.test(notOk) : notOk.includes(": " + wantFailures + " failed"),
          "the summary's not-successful count names the " + wantFailures + " failures", notOk);
    if (Number(wantFailures) > 0) {
      await page.click("#first-failure a");
      const first = await page.$$("[data-first-failure='run']");
      check(first.length === 1, "the first failure is marked and its link reveals it", first.length + " rows marked");
      const sel = await page.$("[data-first-failure='run'].sel");
      check(sel !== null, "the link selects the first failure");
      const detail = await page.textContent("#detail");
      check(/reason/.test(detail) && /spec/.test(detail), "the detail shows the reason and its spec link");
    } else {
      check((await page.$$("[data-first-failure]")).length === 0, "no failure is marked");
    }
    // The filter: failures only.
    await page.selectOption("#filter", "failed");
    const shownFailed = await page.$$eval("[data-mark]", (ms) => ms.length);
    const count = await page.textContent("#count");
    check(/^\d+ of \d+ exchanges$/.test(count), "the filter shows its count", count);
    await page.selectOption("#filter", "");
    void shownFailed;

    if (replays) {
      // A replay links back to the failed call it repeats, with its safety.
      const link = await page.$("a.replay");
      check(link !== null, "a replay is drawn with a link");
      if (link) {
        const safety = await page.evaluate((a) => a.nextSibling && a.nextSibling.textContent, link);
        check(safety === "safe" || safety === "unsafe" || safety === "unknown", "the replay shows its safety", safety);
        await link.click();
        const sel = await page.getAttribute(".row.sel", "data-outcome");
        check(sel !== null && sel !== "TOOL_SUCCESS" && sel !== "RPC_SUCCESS", "the replay's link selects the failed call", sel);
      }
    }
    if (hostile) {
      // Open every exchange's detail so that every capture text is drawn.
      const rows = await page.$$("[data-mark]");
      for (const r of rows) await r.click();
      await page.fill("#search", "script");
      await page.waitForTimeout(100);
      const pwned = await page.evaluate(() => window.__pwned);
      check(pwned === undefined, "no script from the capture ran", "window.__pwned = " + pwned);
      const scripts = await page.$$eval("script", (s) => s.length);
      check(scripts === 2, "the page holds only its own two script elements", scripts + " script elements");
      const injected = await page.$$eval("img, svg, b, [onerror], [onload], [onmouseover]", (e) => e.length);
      check(injected === 0, "no element from capture text", injected + " injected elements");
      const html = await page.content();
      check(!/sk-hostile-secret-123|hostilecookie456|hunter2-hostile/.test(html), "credentials are redacted in the page");
      const text = await page.evaluate(() => document.body.textContent);
      check(text.includes("<script>window.__pwned"), "capture text is shown as text");
    }
    await page.screenshot({ path: shot, fullPage: false });
    check(errors.length === 0, "no console errors", errors.join(" | "));
    check(requests.length === 0, "no network request", requests.join(" "));
  } finally {
    await browser.close();
  }
  process.exit(failed ? 1 : 0);
})().catch((e) => {
  console.log("not ok - the browser check ran: " + (e && e.stack ? e.stack : e));
  process.exit(1);
});
