// What the browser tests share: Debian's chromium started headless by playwright-core
// (no browser is downloaded), and a watch over pages that collects every console error or
// warning and page error (a test expecting one, such as a refused request, says so first).

import { chromium } from "playwright-core";

/** Starts headless Chromium on a fresh temporary profile of its own. */
export function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    headless: true,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

/** Console problems of the pages watched: `problems` seen, `expected` ones (regexps). */
export class Watch {
  constructor() {
    /** @type {string[]} */
    this.problems = [];
    /** @type {RegExp[]} removed when seen */
    this.expected = [];
  }

  /** Watches `page`, naming it `who` in what it reports. */
  page(page, who) {
    page.on("console", (m) => {
      if (m.type() !== "error" && m.type() !== "warning") return;
      const text = `${who} console ${m.type()}: ${m.text()} (${m.location().url})`;
      const i = this.expected.findIndex((re) => re.test(text));
      if (i >= 0) {
        this.expected.splice(i, 1);
        return;
      }
      this.problems.push(text);
    });
    page.on("pageerror", (e) => this.problems.push(`${who} page error: ${e.message}`));
    page.on("requestfailed", (r) => {
      // a navigation away cancels pending image loads: that is not a fault
      if (r.failure()?.errorText === "net::ERR_ABORTED") return;
      this.problems.push(`${who} request failed: ${r.url()} ${r.failure()?.errorText}`);
    });
  }

  /** The problems seen since the last call. */
  take() {
    const seen = this.problems;
    this.problems = [];
    return seen;
  }
}
