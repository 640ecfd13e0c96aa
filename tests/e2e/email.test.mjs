// The emails' HTML parts, as the server writes them (the snapshots of
// src/notify/snapshots/, every email in every locale), checked two ways:
//
// - against what common mail clients support (caniemail's data, through doiuse-email):
//   no feature that one of CLIENTS drops, apart from ALLOWED, each of which degrades to
//   something that still reads well where it is not supported;
// - in headless Chromium at 360 and 800 px wide, light and dark (prefers-color-scheme):
//   nothing is wider than the screen, and in a turn email the "Play your turn" button is
//   on the first screen of a phone (360 × 640) without scrolling.
//
// The pictures load from the running server (the tile) and from docs/board-base.png
// (the board). TILEPOST_EMAIL_PICTURES=dir writes the turn email's four pictures there
// (docs/ has them: turn-email-{360,800}-{light,dark}.png).

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { doIUseEmail } from "@jsx-email/doiuse-email";
import { launch } from "./browser.mjs";

const BASE = process.env.TILEPOST_URL;
if (!BASE) throw new Error("set TILEPOST_URL to the running server");
const PICTURES = process.env.TILEPOST_EMAIL_PICTURES;
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const SNAPSHOTS = path.join(ROOT, "src/notify/snapshots");

/** The mail clients checked: the webmails, the phone apps and the desktop programs
 * most people read mail with. */
const CLIENTS = ["gmail.*", "apple-mail.*", "outlook.*", "yahoo.*", "samsung-email.*", "thunderbird.*"];

/** Features used on purpose although some of CLIENTS drop them, and why that is fine. */
const ALLOWED = {
  // the dark palette: a client without it shows the light design (and the clients that
  // darken mail themselves, as Outlook and Gmail's apps do, still can)
  "@media": true,
  // some apps replace <body> by a <div>: the background is on the outer table too
  "<body> element": true,
  // role="presentation" tells screen readers that layout tables are not data; clients
  // that drop the attribute lose nothing else
  "role attribute": true,
};

/** Every HTML part of every snapshot: `{name, kind, html}`. */
function emails() {
  const out = [];
  for (const file of fs.readdirSync(SNAPSHOTS).filter((f) => f.endsWith(".snap"))) {
    const text = fs.readFileSync(path.join(SNAPSHOTS, file), "utf8");
    const blocks = text.split(/^===== /m).slice(1);
    blocks.forEach((block, i) => {
      const kind = block.slice(0, block.indexOf("\n"));
      const at = block.indexOf("----- html\n");
      assert.ok(at >= 0, `${file} #${i}: an HTML part`);
      const html = block.slice(at + "----- html\n".length).trim();
      out.push({ name: `${file.replace(/^tilepost__notify__tests__|\.snap$/g, "")} #${i} ${kind}`, kind, html });
    });
  }
  return out;
}

const ALL = emails();

test("there are emails to check (every type, both locales)", () => {
  assert.ok(ALL.length >= 20, `${ALL.length} emails`);
  for (const loc of ["en", "pt-BR"]) {
    assert.ok(ALL.some((e) => e.name.startsWith(`emails_${loc} `) && e.kind === "game.turn_started"));
  }
});

test("no email uses what common mail clients do not support (caniemail)", () => {
  const problems = [];
  for (const e of ALL) {
    const r = doIUseEmail(e.html, { emailClients: CLIENTS });
    for (const err of r.errors || []) {
      const feature = /^`([^`]+)`/.exec(err)?.[1] ?? err;
      if (!ALLOWED[feature]) problems.push(`${e.name}: ${err}`);
    }
  }
  assert.deepEqual(problems, []);
});

/** @type {import("playwright-core").Browser} */
let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

const BOARD = fs.readFileSync(path.join(ROOT, "docs/board-base.png"));

/** A page that shows emails as a mail client would, at `width` × `height`, in `scheme`. */
async function reader(width, height, scheme) {
  const context = await browser.newContext({ viewport: { width, height }, colorScheme: scheme });
  const page = await context.newPage();
  await page.route("https://tilepost.example/**", async (route) => {
    const url = new URL(route.request().url());
    if (url.pathname.endsWith("/board.png")) {
      await route.fulfill({ status: 200, contentType: "image/png", body: BOARD });
    } else if (url.pathname.startsWith("/v1/tiles/")) {
      const r = await fetch(`${BASE}${url.pathname}`);
      await route.fulfill({ status: r.status, contentType: r.headers.get("content-type") || "", body: Buffer.from(await r.arrayBuffer()) });
    } else {
      await route.fulfill({ status: 404, body: "" });
    }
  });
  return { page, context };
}

for (const width of [360, 800]) {
  for (const scheme of ["light", "dark"]) {
    test(`every email fits a ${width}-px screen (${scheme})`, async () => {
      const { page, context } = await reader(width, 640, scheme);
      for (const e of ALL) {
        await page.setContent(e.html, { waitUntil: "load" });
        const wide = await page.evaluate(() => document.documentElement.scrollWidth);
        assert.ok(wide <= width, `${e.name}: ${wide} px wide on a ${width}-px screen`);
        // the document's colours follow the scheme
        const bg = await page.evaluate(() => getComputedStyle(document.querySelector(".tp-card")).backgroundColor);
        assert.equal(bg, scheme === "dark" ? "rgb(32, 35, 40)" : "rgb(255, 255, 255)", e.name);
        // one button; in a turn email, on the first screen
        const button = page.locator("a.tp-btn");
        assert.equal(await button.count(), 1, e.name);
        if (e.kind === "game.turn_started") {
          const box = await button.boundingBox();
          assert.ok(box && box.y + box.height <= 640, `${e.name}: the button ends at ${box && box.y + box.height} px`);
        }
      }
      await context.close();
    });
  }
}

test("pictures of the turn email", { skip: !PICTURES }, async () => {
  const turn = ALL.find((e) => e.name.startsWith("emails_en ") && e.kind === "game.turn_started");
  assert.ok(turn);
  for (const width of [360, 800]) {
    for (const scheme of ["light", "dark"]) {
      const { page, context } = await reader(width, 640, scheme);
      await page.setContent(turn.html, { waitUntil: "load" });
      await page.screenshot({ path: path.join(PICTURES, `turn-email-${width}-${scheme}.png`), fullPage: true });
      await context.close();
    }
  }
});
