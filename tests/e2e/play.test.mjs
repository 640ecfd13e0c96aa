// End-to-end tests of the web client under /play, in headless Chromium (Debian's
// chromium, driven by playwright-core; no browser is downloaded).
//
// Two players sign up in two browser contexts, one creates a game, the other joins it,
// and they play turns by clicking placements and figure spots on the game page (one
// turn with the keyboard only, one on a 360-px-wide screen); a stale page gets 409 and
// reloads; a figure left pending (by another client) is placed from the page; a wrong
// password is refused; every page is usable with the keyboard. Then one posts a seek in
// the lobby and the other joins it (both end on the new game's page); the game over, a
// rematch; a player's name leads to their profile, and that to the leaderboard. Any
// console error or warning, or uncaught page error, fails the test.
//
// Environment: TILEPOST_URL (the running server), CHROMIUM (default /usr/bin/chromium),
// TILEPOST_SCREENSHOT (where to write the picture of the game page; optional);
// TILEPOST_SCREENSHOT_NARROW and TILEPOST_SCREENSHOT_EXPANSIONS (the 360-px page and a game
// with every expansion; optional).

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { launch, Watch } from "./browser.mjs";

const BASE = process.env.TILEPOST_URL;
if (!BASE) throw new Error("set TILEPOST_URL to the running server");
const SCREENSHOT = process.env.TILEPOST_SCREENSHOT;
const SCREENSHOT_NARROW = process.env.TILEPOST_SCREENSHOT_NARROW;
const SCREENSHOT_EXPANSIONS = process.env.TILEPOST_SCREENSHOT_EXPANSIONS;
const suffix = Date.now().toString(36).slice(-5);
const ANN = `ann${suffix}`;
const BEN = `ben${suffix}`;
const PASSWORD = "correct horse battery";

/** @type {import("playwright-core").Browser} */
let browser;
/** Console errors, warnings and page errors; expected ones (a 409 the test provokes). */
const watch = new Watch();

let ann;
let ben;
let gameUrl;

// launch() starts the browser on a fresh temporary profile (user-data-dir) of its own
before(async () => {
  browser = await launch();
  for (const who of ["ann", "ben"]) {
    const context = await browser.newContext({ viewport: { width: 1100, height: 860 }, baseURL: BASE });
    context.setDefaultTimeout(10000);
    const page = await context.newPage();
    watch.page(page, who);
    if (who === "ann") ann = page;
    else ben = page;
  }
});

after(async () => {
  await browser?.close();
});

/** Once a step failed, the ones after it (which build on it) are skipped. */
let broken = false;

/** A test that builds on the ones before it, and fails on any console problem. */
function step(name, f) {
  test(name, async (t) => {
    if (broken) {
      t.skip("an earlier step failed");
      return;
    }
    try {
      await f();
      assert.deepEqual(watch.take(), [], "no console errors, warnings or page errors");
    } catch (e) {
      broken = true;
      throw e;
    }
  });
}

/** The status line (aria-live) says `re`. */
async function status(page, re) {
  await page.locator("#status").filter({ hasText: re }).waitFor();
}

async function signUp(page, name) {
  await page.goto("/play");
  // not logged in: the log-in page
  await page.getByRole("heading", { name: "Log in" }).waitFor();
  assert.equal(new URL(page.url()).pathname, "/play/login");
  await page.getByRole("link", { name: "Sign up" }).first().click();
  await page.getByLabel("Username").fill(name);
  await page.getByLabel("Email").fill(`${name}@example.com`);
  await page.getByLabel(/^Password/).fill(PASSWORD);
  await page.getByRole("button", { name: "Sign up" }).click();
  await page.waitForURL("**/play/games");
  await page.getByRole("heading", { name: "My games" }).waitFor();
}

/** The game's version as the page shows it. */
async function version(page) {
  return Number(await page.locator("main").getAttribute("data-version"));
}

/** The page's game as the server shows its player now (`{ answer }`, the status, when
 * it cannot be read). */
async function serverView(page) {
  return page.evaluate(async () => {
    const game = location.pathname.split("/").pop();
    const token = localStorage.getItem("tilepost.token");
    const r = await fetch(`/v1/games/${game}`, token ? { headers: { Authorization: `Bearer ${token}` } } : {});
    return r.ok ? r.json() : { answer: r.status };
  });
}

/** Brings the page up to date the way a player coming back to the tab does: after the
 * focus, the page has refreshed and shows at least the version the server had before. */
async function refocus(page) {
  // the game page listens for the focus once it is set up, which a freshly loaded
  // document shows by its version: a focus before that would reach nobody
  await page.locator("main[data-version]").waitFor();
  const polls = Number((await page.locator("main").getAttribute("data-polls")) || 0);
  const now = (await serverView(page)).version || 0;
  await page.evaluate(() => window.dispatchEvent(new Event("focus")));
  try {
    // a debug server answering while both pages' analyses of a game with every
    // expansion run can take longer than the default 10 seconds; another refresh (the
    // live stream's) may end first, having read an older version, so the page's drawn
    // version is what tells that this one is done
    await page.waitForFunction(
      ([old, version]) => {
        const d = document.querySelector("main")?.dataset;
        return Number(d?.polls || 0) > old && Number(d?.version || 0) >= version;
      },
      [polls, now],
      { timeout: 30000 },
    );
  } catch (e) {
    // what the page was doing, for the report
    const state = await page.evaluate(() => ({ main: { ...document.querySelector("main")?.dataset }, status: document.querySelector("[role=status]")?.textContent, hidden: document.hidden }));
    throw new Error(`${e.message}; the server's version before the focus: ${now}; the page: ${JSON.stringify(state)}; console: ${JSON.stringify(watch.take())}`);
  }
}

/** For a report: what each page shows, and what the server says the game waits for. */
async function whoDecides(pages) {
  return Promise.all(
    pages.map(async (p) => {
      const shown = await p.evaluate(() => ({
        main: { ...document.querySelector("main")?.dataset },
        heading: document.querySelector("#h-move")?.textContent ?? null,
        status: document.querySelector("#status")?.textContent ?? null,
      }));
      const v = await serverView(p);
      return { ...shown, server: { status: v.status ?? v.answer, version: v.version, pending: v.pending } };
    }),
  );
}

/** Whose turn: the page whose move panel shows. */
async function mover() {
  for (const page of [ann, ben]) await refocus(page);
  for (const page of [ann, ben]) {
    if (await page.getByRole("heading", { name: /^Your move/ }).isVisible()) return page;
  }
  throw new Error(`nobody's move panel is showing: ${JSON.stringify(await whoDecides([ann, ben]))}`);
}

/** Plays the drawn tile by clicking: a cell, maybe a turn, maybe a figure spot, submit. */
async function clickTurn(page, n) {
  const before = await version(page);
  const cands = page.locator("button.cand");
  const count = await cands.count();
  if (count === 0) throw new Error(`no candidate cell for the drawn tile on move ${n}: ${JSON.stringify(await whoDecides([ann, ben]))}; console: ${JSON.stringify(watch.take())}`);
  const cell = cands.nth((n * 7) % count);
  await cell.click();
  await page.locator("button.cand.chosen").waitFor();
  const turn = page.getByRole("button", { name: "Turn (R)" });
  if (n % 2 === 1 && (await turn.isEnabled())) await turn.click();
  // a figure on every other turn, by clicking its spot on the board
  const spots = page.locator(".spots button.spot");
  if (n % 2 === 0 && (await spots.count()) > 0) {
    await spots.nth(n % (await spots.count())).click();
    await page.locator(".spots button.spot.picked").waitFor();
  }
  await page.getByRole("button", { name: "Submit move" }).click();
  await status(page, "Move sent.");
  await page.waitForFunction((old) => Number(document.querySelector("main")?.dataset.version) > old, before);
}

/** Presses Tab (or Shift+Tab) until the focused element matches `selector`. */
async function tabTo(page, selector, { back = false, max = 200 } = {}) {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press(back ? "Shift+Tab" : "Tab");
    if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return;
  }
  throw new Error(`Tab never reached ${selector}`);
}

/** Plays the drawn tile with the keyboard only. */
async function keyboardTurn(page) {
  const before = await version(page);
  await page.locator("main").focus();
  await tabTo(page, "[data-focus=first]");
  await page.keyboard.press("Enter");
  assert.ok(await page.evaluate(() => document.activeElement?.matches("button.cand")), "focus is on a placement");
  await page.keyboard.press("Enter");
  await page.locator("button.cand.chosen").waitFor();
  assert.ok(await page.evaluate(() => document.activeElement?.matches("button.cand.chosen")), "focus stays on the chosen cell");
  const rotation = async () => page.locator("button.cand.chosen img").evaluate((i) => i.style.transform);
  const r0 = await rotation();
  if (await page.getByRole("button", { name: "Turn (R)" }).isEnabled()) {
    await page.keyboard.press("r");
    await page.waitForFunction((r) => document.querySelector("button.cand.chosen img")?.style.transform !== r, r0);
  }
  // back into the move panel: the figure choices, then the submit button
  await tabTo(page, "input[name=figure]", { back: true });
  const options = await page.locator("input[name=figure]").count();
  if (options > 1) {
    await page.keyboard.press("ArrowDown");
    await page.locator(".spots button.spot.picked").waitFor();
  }
  await tabTo(page, "[data-focus=submit]");
  await page.keyboard.press("Enter");
  await status(page, "Move sent.");
  await page.waitForFunction((old) => Number(document.querySelector("main")?.dataset.version) > old, before);
}

step("two players sign up; one creates a game, the other joins it", async () => {
  await signUp(ann, ANN);
  await signUp(ben, BEN);

  await ann.getByRole("link", { name: "New game" }).click();
  await ann.getByRole("heading", { name: "New game" }).waitFor();
  await ann.getByLabel("Seats").selectOption("2");
  await ann.getByLabel("Days per move (1 to 14)").fill("3");
  await ann.getByRole("button", { name: "Create game" }).click();
  await ann.waitForURL("**/play/games/*");
  gameUrl = new URL(ann.url()).pathname;
  await ann.getByRole("heading", { name: "Waiting for players" }).waitFor();

  await ben.goto("/play/games");
  const open = ben.getByRole("region", { name: "Open games to join" }).getByRole("listitem").filter({ hasText: ANN });
  await open.getByRole("button", { name: "Join" }).click();
  await ben.waitForURL(`**${gameUrl}`);
  await status(ben, "the game has started");
  await ann.reload();
  await ann.getByText("Your turn: you drew").waitFor();
  // my games: my turn first, with its deadline
  await ann.getByRole("link", { name: "My games" }).click();
  const first = ann.locator("ul.games li").first();
  await first.getByRole("link", { name: /Your turn/ }).waitFor();
  await first.locator(".deadline").waitFor();
  await first.getByRole("link", { name: /Your turn/ }).click();
  await ann.waitForURL(`**${gameUrl}`);
});

step("they play turns by clicking placements and figure spots", async () => {
  const turns = { ann: 0, ben: 0 };
  for (let n = 0; n < 6; n++) {
    const page = await mover();
    turns[page === ann ? "ann" : "ben"]++;
    await clickTurn(page, n);
  }
  assert.ok(turns.ann >= 3 && turns.ben >= 3, `each played 3 turns: ${JSON.stringify(turns)}`);
  // the history tells the moves; a chat message gets across
  await refocus(ann);
  await ann.getByRole("heading", { name: "History" }).waitFor();
  // tiles by their description ("placed a city cap with a straight road at 0, 1"), not their ids
  // (a description may begin without an article: "two city caps on opposite sides")
  assert.ok((await ann.locator("ol.history li").filter({ hasText: / placed [a-z].+ at -?\d+, -?\d+\./ }).count()) >= 6);
  assert.equal(await ann.locator("ol.history li").filter({ hasText: /placed [a-z0-9_-]+\/[A-Za-z0-9_-]+ at/ }).count(), 0);
  await ann.getByRole("textbox", { name: "Message" }).fill("Nice road!");
  await ann.getByRole("button", { name: "Send" }).click();
  await ann.locator("ol.chat li").filter({ hasText: "Nice road!" }).waitFor();
  await ben.reload();
  await ben.locator("ol.chat li").filter({ hasText: "Nice road!" }).waitFor();
});

step("a turn played with the keyboard only", async () => {
  const page = await mover();
  await keyboardTurn(page);
  const next = await mover();
  assert.notEqual(next, page, "the turn passed");
  await keyboardTurn(next);
});

step("the other player's page follows the game live, without polling", async () => {
  const page = await mover();
  const other = page === ann ? ben : ann;
  await other.locator('main[data-live="open"]').waitFor();
  const before = await version(other);
  await clickTurn(page, 1);
  // no focus, no reload: the stream brings the move within seconds (polling would take 15 s)
  await other.waitForFunction((old) => Number(document.querySelector("main")?.dataset.version || 0) > old, before, { timeout: 5000 });
  await other.getByRole("heading", { name: /^Your move/ }).waitFor({ timeout: 5000 });
  // a chat message arrives the same way
  await page.getByRole("textbox", { name: "Message" }).fill("Live!");
  await page.getByRole("button", { name: "Send" }).click();
  await other.locator("ol.chat li").filter({ hasText: "Live!" }).waitFor({ timeout: 5000 });
});

step("the game page works on a 360-px-wide screen", async () => {
  const page = await mover();
  await page.setViewportSize({ width: 360, height: 740 });
  await page.reload();
  await page.getByRole("heading", { name: /^Your move/ }).waitFor();
  const widths = await page.evaluate(() => ({
    doc: document.documentElement.scrollWidth,
    board: document.querySelector(".board-wrap")?.getBoundingClientRect().right ?? 0,
    grid: document.querySelector(".grid")?.scrollWidth ?? 0,
  }));
  assert.ok(widths.doc <= 360, `the page does not scroll sideways (${widths.doc} px)`);
  assert.ok(widths.board <= 360, `the board's box fits (${widths.board} px)`);
  if (SCREENSHOT_NARROW) await page.screenshot({ path: SCREENSHOT_NARROW, fullPage: true });
  // the board itself is wider than the box: it scrolls inside it
  await clickTurn(page, 3);
  // the other pages fit too
  for (const path of ["/play/games", "/play/new", "/play/lobby", "/play/leaderboard", `/play/users/${ANN}`, "/play/settings"]) {
    await page.goto(path);
    await page.locator("main h1").waitFor();
    const w = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(w <= 360, `${path} does not scroll sideways (${w} px)`);
  }
  await page.goto(gameUrl);
  await page.locator("main[data-version]").waitFor();
  await page.setViewportSize({ width: 1100, height: 860 });
});

step("a stale page gets 409 and reloads the game", async () => {
  const page = await mover();
  // a page whose live stream cannot get through (it would hear of the other tab's move
  // at once): it shows the old version until it sends its own move
  await page.route("**/v1/stream", (route) => route.abort("aborted"));
  await page.reload();
  await page.getByRole("heading", { name: /^Your move/ }).waitFor();
  const context = page.context();
  const other = await context.newPage();
  watch.page(other, "second tab");
  await other.goto(gameUrl);
  await other.getByRole("heading", { name: /^Your move/ }).waitFor();
  // the second tab plays; the first still shows the old version
  await clickTurn(other, 5);
  const stale = await version(page);
  await page.locator("button.cand").first().click();
  watch.expected.push(/console error: Failed to load resource: the server responded with a status of 409.*\/moves/);
  await page.getByRole("button", { name: "Submit move" }).click();
  await status(page, "The game had moved on");
  await page.waitForFunction((old) => Number(document.querySelector("main")?.dataset.version) > old, stale);
  assert.equal(await page.getByRole("heading", { name: /^Your move/ }).count(), 0, "not my turn any more");
  await other.close();
  await page.unroute("**/v1/stream");
  await page.reload();
  await page.locator('main[data-live="open"]').waitFor();
  assert.deepEqual(watch.expected, [], "the 409 answer was seen");
});

step("a figure decided on its own, on the tile just placed", async () => {
  const page = await mover();
  // another client places the tile alone: the figure decision is left pending
  const game = gameUrl.split("/").pop();
  await page.evaluate(async (id) => {
    const auth = { Authorization: `Bearer ${localStorage.getItem("tilepost.token")}`, "Content-Type": "application/json" };
    const p = await (await fetch(`/v1/games/${id}/placements`, { headers: auth })).json();
    // a placement with a spot for a figure (one without is decided by the server at once)
    const { x, y, rotation } = p.placements.find((pl) => (pl.spots || []).length > 0) || p.placements[0];
    const r = await fetch(`/v1/games/${id}/moves`, {
      method: "POST",
      headers: auth,
      body: JSON.stringify({ expected_version: p.version, actions: [{ type: "place_tile", x, y, rotation }] }),
    });
    if (!r.ok) throw new Error(`move refused: ${r.status}`);
  }, game);
  await refocus(page);
  await page.getByRole("heading", { name: "Your move: a figure" }).waitFor();
  const before = await version(page);
  // the figure decision's options (from …/actions): its spots on the board and as a list
  const spots = page.locator(".spots button.spot");
  const radios = page.locator("input[name=figure]");
  assert.equal(await radios.count(), (await spots.count()) + 1, "one option per spot, and no figure");
  if ((await spots.count()) > 0) {
    await spots.first().click();
    await page.locator(".spots button.spot.picked").waitFor();
    assert.ok(!(await radios.first().isChecked()), "no figure is not the option chosen any more");
    assert.equal(await page.locator("input[name=figure]:checked").count(), 1, "the spot clicked is the option chosen");
  }
  await page.getByRole("button", { name: "Submit", exact: true }).click();
  await status(page, "Move sent.");
  await page.waitForFunction((old) => Number(document.querySelector("main")?.dataset.version) > old, before);
  assert.equal(await page.getByRole("heading", { name: "Your move: a figure" }).count(), 0);
});

/** Whether the server still takes `token` (it refuses a token that was logged out). */
async function tokenWorks(page, token) {
  const r = await page.request.get(new URL("/v1/users/me", page.url()).href, {
    headers: { Authorization: `Bearer ${token}` },
  });
  return r.status() === 200;
}

const storedToken = (page) => page.evaluate(() => localStorage.getItem("tilepost.token"));

step("log out, a wrong password is refused, log in again", async () => {
  const first = await storedToken(ben);
  assert.ok(await tokenWorks(ben, first));
  await ben.getByRole("button", { name: /^Log out/ }).click();
  await ben.waitForURL("**/play/login");
  assert.equal(await storedToken(ben), null, "the token is forgotten");
  assert.ok(!(await tokenWorks(ben, first)), "the server refuses the token logged out");
  await ben.getByLabel("Username").fill(BEN);
  await ben.getByLabel("Password").fill("not the password");
  watch.expected.push(/console error: Failed to load resource: the server responded with a status of 401.*\/v1\/auth\/token/);
  await ben.getByRole("button", { name: "Log in" }).click();
  await ben.locator("#status.error").filter({ hasText: /./ }).waitFor();
  await ben.getByLabel("Password").fill(PASSWORD);
  await ben.getByRole("button", { name: "Log in" }).click();
  await ben.getByRole("heading", { name: "My games" }).waitFor();
  assert.deepEqual(watch.expected, [], "the 401 answer was seen");
  // log out everywhere, from the settings page; then log in again
  const second = await storedToken(ben);
  await ben.getByRole("link", { name: "Settings" }).click();
  await ben.getByRole("button", { name: "Log out everywhere" }).click();
  await ben.waitForURL("**/play/login");
  assert.ok(!(await tokenWorks(ben, second)), "every session of ben has ended");
  await ben.getByLabel("Username").fill(BEN);
  await ben.getByLabel("Password").fill(PASSWORD);
  await ben.getByRole("button", { name: "Log in" }).click();
  await ben.getByRole("heading", { name: "My games" }).waitFor();
  await ben.locator("ul.games a").first().click();
  await ben.waitForURL(`**${gameUrl}`);
  await ben.locator("main[data-version]").waitFor();
});

/** Tabs through the page: every visible control is reached and has a name. */
async function keyboardReachesEverything(page) {
  const controls = await page.evaluate(() => {
    const named = (e) => {
      const label = e.getAttribute("aria-label") || (e.labels && e.labels.length ? e.labels[0].textContent : "") || e.textContent;
      return Boolean(label && label.trim());
    };
    const all = [...document.querySelectorAll("a[href], button, input, select, textarea")].filter(
      (e) => e.getAttribute("tabindex") !== "-1" && !e.disabled && e.getClientRects().length > 0,
    );
    all.forEach((e, i) => (e.dataset.e2e = String(i)));
    return all.map((e) => ({ id: e.dataset.e2e, named: named(e), what: e.outerHTML.slice(0, 80) }));
  });
  for (const c of controls) assert.ok(c.named, `a control without a name: ${c.what}`);
  const seen = new Set();
  await page.locator("body").focus();
  for (let i = 0; i < controls.length + 20; i++) {
    await page.keyboard.press("Tab");
    const id = await page.evaluate(() => document.activeElement?.getAttribute("data-e2e"));
    if (id) seen.add(id);
  }
  const missed = controls.filter((c) => !seen.has(c.id)).map((c) => c.what);
  assert.deepEqual(missed, [], "every control is reached with Tab");
}

step("every page is usable with the keyboard", async () => {
  for (const path of ["/play/games", "/play/new", "/play/lobby", "/play/leaderboard", `/play/users/${BEN}`, "/play/settings", gameUrl]) {
    await ann.goto(path);
    await ann.locator("main h1").waitFor();
    if (path === gameUrl) await ann.locator("main[data-version]").waitFor();
    await keyboardReachesEverything(ann);
  }
  const anon = await browser.newPage({ baseURL: BASE });
  watch.page(anon, "visitor");
  for (const path of ["/play/login", "/play/signup", "/play/leaderboard", `/play/users/${ANN}`]) {
    await anon.goto(path);
    await anon.locator("main h1").waitFor();
    await keyboardReachesEverything(anon);
  }
  await anon.close();
});

step("the game page, mid-game (screenshot)", async () => {
  const page = await mover();
  await page.setViewportSize({ width: 1100, height: 980 });
  await page.reload();
  await page.getByRole("heading", { name: /^Your move/ }).waitFor();
  const cands = page.locator("button.cand");
  await cands.nth(Math.floor((await cands.count()) / 2)).click();
  // a figure on a city when one may go there
  const city = page.locator(".spots button.spot[aria-label*='city']");
  const spots = (await city.count()) > 0 ? city : page.locator(".spots button.spot");
  if ((await spots.count()) > 0) await spots.first().click();
  await page.evaluate(() => document.activeElement instanceof HTMLElement && document.activeElement.blur());
  // every tile picture is loaded
  await page.waitForFunction(() => [...document.images].every((i) => i.complete && i.naturalWidth > 0));
  if (SCREENSHOT) await page.screenshot({ path: SCREENSHOT });
  // and the other pages: settings (notifications, vacation) and the game list
  await page.getByRole("link", { name: "Settings" }).click();
  await page.getByRole("heading", { name: "Email notifications" }).waitFor();
  await page.getByLabel("It is my turn").uncheck();
  await page.getByLabel("Remind me before a deadline (hours)").fill("2, 48");
  await page.getByRole("button", { name: "Save" }).click();
  await status(page, "Notification settings saved.");
  assert.equal(await page.getByLabel("Remind me before a deadline (hours)").inputValue(), "48, 2");
  // the deadline calendar: made (its address shown once, and it serves a calendar),
  // then revoked (the address stops working)
  await page.getByRole("button", { name: "Make a calendar address" }).click();
  await status(page, "Calendar address made.");
  const feed = await page.getByLabel("Calendar address").inputValue();
  const ics = await fetch(feed);
  assert.equal(ics.status, 200);
  assert.match(await ics.text(), /^BEGIN:VCALENDAR\r\n/);
  await page.getByRole("button", { name: "Revoke the address" }).click();
  await status(page, "Calendar address revoked.");
  assert.equal((await fetch(feed)).status, 404);
  await page.getByRole("button", { name: "Start a vacation" }).click();
  await status(page, "Vacation started.");
  await page.getByRole("button", { name: "End my vacation now" }).click();
  await status(page, "Vacation ended.");
});

step("a game with every expansion, played by clicking", async () => {
  for (const page of [ann, ben]) await page.setViewportSize({ width: 1100, height: 980 });
  await ann.goto("/play/new");
  await ann.getByRole("heading", { name: "New game" }).waitFor();
  const boxes = ann.locator("input[name=expansions]");
  assert.ok((await boxes.count()) >= 12, "every expansion can be chosen");
  for (let i = 0; i < (await boxes.count()); i++) await boxes.nth(i).check();
  await ann.getByLabel("Seats").selectOption("2");
  await ann.getByRole("button", { name: "Create game" }).click();
  await ann.waitForURL("**/play/games/*");
  const url = new URL(ann.url()).pathname;
  assert.notEqual(url, gameUrl);
  await ann.getByRole("heading", { name: "Waiting for players" }).waitFor();
  await ben.goto(url);
  await ben.getByRole("button", { name: "Join this game" }).click();
  await status(ben, "You joined the game.");
  await ann.reload();
  // 24 decisions, whatever they are: tiles and figures by clicking, the expansions'
  // other decisions from their list of options
  let tiles = 0;
  for (let n = 0; n < 24; n++) {
    for (const page of [ann, ben]) await refocus(page);
    let page = null;
    let heading = "";
    for (const p of [ann, ben]) {
      const h = p.locator("#h-move");
      if (await h.isVisible()) {
        page = p;
        heading = (await h.textContent()) || "";
      }
    }
    if (!page) throw new Error(`nobody has a decision after ${n} of them: ${JSON.stringify(await whoDecides([ann, ben]))}; console: ${JSON.stringify(watch.take())}`);
    const before = await version(page);
    if (heading === "Your move: place the tile") {
      await clickTurn(page, n);
      tiles++;
      continue;
    }
    if (heading === "Your move: a figure") {
      await page.getByRole("button", { name: "Submit", exact: true }).click();
    } else {
      await page.locator("ul.actions button").first().click();
    }
    await status(page, "Move sent.");
    await page.waitForFunction((old) => Number(document.querySelector("main")?.dataset.version) > old, before);
  }
  assert.ok(tiles >= 4, `tiles were placed: ${tiles}`);
  if (SCREENSHOT_EXPANSIONS) await ann.screenshot({ path: SCREENSHOT_EXPANSIONS, fullPage: true });
});

/** The game both seek players end on, and the rematch ben creates of it. */
let seekGameUrl;
let rematchUrl;

/** The player of `page` resigns `game` from another client (the page does not know). */
async function resignElsewhere(page, game) {
  await page.evaluate(async (game) => {
    const r = await fetch(`/v1/games/${game}/resign`, {
      method: "POST",
      headers: { Authorization: `Bearer ${localStorage.getItem("tilepost.token")}` },
    });
    if (!r.ok) throw new Error(`resign refused: ${r.status}`);
  }, game);
}

step("a seek posted in the lobby by one player, joined by another, becomes a game", async () => {
  await ann.getByRole("link", { name: "Lobby", exact: true }).click();
  await ann.getByRole("heading", { name: "Lobby", exact: true }).waitFor();
  const form = ann.getByRole("form", { name: "Post a seek" });
  await form.getByLabel("Seats").selectOption("2");
  await form.getByLabel("Rated (the result changes").check();
  await form.getByLabel(/^Lowest rating/).fill("1000");
  await form.getByLabel(/^Highest rating/).fill("2000");
  await form.getByRole("button", { name: "Post seek" }).click();
  await status(ann, "Your seek is in the lobby.");
  const mine = ann.getByRole("region", { name: "Your open seeks" }).getByRole("listitem").filter({ hasText: ANN });
  await mine.getByRole("button", { name: "Withdraw" }).waitFor();
  // in a seek, the page follows the live stream
  await ann.locator('main[data-live="open"]').waitFor();

  await ben.goto("/play/lobby");
  const seek = ben.getByRole("region", { name: "Seeks you can join" }).getByRole("listitem").filter({ hasText: ANN });
  await seek.getByText("rating 1000 to 2000").waitFor();
  await seek.getByRole("button", { name: "Join" }).click();
  await ben.waitForURL("**/play/games/*");
  seekGameUrl = new URL(ben.url()).pathname;
  assert.notEqual(seekGameUrl, gameUrl);
  await status(ben, "the game has started");
  await ben.locator(".turnline").filter({ hasText: "Rated game." }).waitFor();
  // the seek's creator, still in the lobby, is taken to the game by the live stream
  await ann.waitForURL(`**${seekGameUrl}`);
  await status(ann, "Your seek is full");
  await ann.getByText("Your turn: you drew").waitFor();
});

step("once the game is over, its players get a rematch", async () => {
  const id = seekGameUrl.split("/").pop();
  // a turn each (a tile, then a figure or none: two decisions of their own), so that the
  // rated game counts for the ratings
  for (let n = 0; n < 2; n++) await clickTurn(await mover(), n);
  // ann resigns from another client: one player is left, so the game is over
  await resignElsewhere(ann, id);
  await ben.reload();
  await ben.getByRole("heading", { name: "The game is over" }).waitFor();
  await ben.getByRole("button", { name: "Rematch" }).click();
  await status(ben, "Rematch created");
  await ben.waitForURL((url) => url.pathname.startsWith("/play/games/") && url.pathname !== seekGameUrl);
  await ben.getByRole("heading", { name: "Waiting for players" }).waitFor();
  rematchUrl = new URL(ben.url()).pathname;
  // the other player is invited to it
  await ann.goto(new URL(ben.url()).pathname);
  await ann.getByRole("button", { name: "Accept the invitation" }).click();
  await status(ann, "Invitation accepted.");
});

step("a player's name leads to their profile, and the profile to the leaderboard", async () => {
  await ben.goto(seekGameUrl);
  await ben.locator("main[data-version]").waitFor();
  await ben.locator("table.scores").getByRole("link", { name: ANN, exact: true }).click();
  await ben.waitForURL(`**/play/users/${ANN}`);
  await ben.getByRole("heading", { name: `${ANN}'s profile` }).waitFor();
  // the finished game's page stopped when the profile replaced it (its live stream, its
  // timers, its refresh on focus): a refocus asks nothing of that game any more
  const seekId = seekGameUrl.split("/").pop();
  const asked = ben.waitForRequest((r) => r.url().includes(`/v1/games/${seekId}`), { timeout: 3000 }).then(
    () => true,
    () => false,
  );
  await ben.evaluate(() => window.dispatchEvent(new Event("focus")));
  assert.equal(await asked, false, "the game page left behind still refreshes its game");
  assert.equal(await ben.locator("main").getAttribute("data-polls"), null);
  // ben resigns the rematch at once: a rated game too short to count
  const rematch = rematchUrl.split("/").pop();
  await resignElsewhere(ben, rematch);
  await ben.reload();
  await ben.getByRole("heading", { name: `${ANN}'s profile` }).waitFor();
  // the rated game ann resigned: in the record, the ratings and the recent games; the
  // rematch in the record and the recent games, as a rated game that did not count
  const record = await ben.locator("dl.facts").evaluate((dl) =>
    Object.fromEntries([...dl.querySelectorAll("dt")].map((dt) => [dt.textContent, dt.nextElementSibling?.textContent])),
  );
  assert.equal(record["Games played"], "2");
  assert.equal(record["Resigned"], "1");
  assert.equal(record["Finish rate"], "50%");
  assert.equal(record["Rated games that did not count"], "1");
  const ratings = ben.getByRole("region", { name: "Ratings" });
  const base = ratings.getByRole("row").filter({ hasText: "Base game" });
  await base.filter({ hasText: "(provisional)" }).waitFor();
  assert.equal(await base.getByRole("cell").last().textContent(), "1", "one rated game counted");
  await ratings.getByText(/A rated game counts only when every player made at least two decisions/).waitFor();
  const games = ben.getByRole("region", { name: "Recent games" }).getByRole("listitem");
  const uncounted = games.first();
  await uncounted.getByText(/Base game: rated, but it did not count \(too short: a player made fewer than two decisions\)/).waitFor();
  assert.equal(await uncounted.getByRole("link", { name: `Game ${rematch.slice(0, 8)}` }).count(), 1);
  const recent = games.nth(1);
  await recent.filter({ hasText: "resigned" }).waitFor();
  await recent.getByText(/Base game: rating \d+ → \d+ \(−\d+\)/).waitFor();
  const id = seekGameUrl.split("/").pop();
  assert.equal(await recent.getByRole("link", { name: `Game ${id.slice(0, 8)}` }).getAttribute("href"), seekGameUrl);
  // with ratings and games, the profile still fits a phone
  await ben.setViewportSize({ width: 360, height: 740 });
  const width = await ben.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 360, `the profile does not scroll sideways (${width} px)`);
  await ben.setViewportSize({ width: 1100, height: 980 });

  await ben.getByRole("link", { name: "See the leaderboard" }).click();
  await ben.getByRole("heading", { name: "Leaderboard" }).waitFor();
  const pools = ben.getByRole("navigation", { name: "Rating pools" });
  assert.equal(await pools.getByRole("link", { name: "Base game" }).getAttribute("aria-current"), "page");
  // one rated game is not enough to settle a rating
  await ben.getByText("No established ratings here yet.").waitFor();
  await pools.getByRole("link", { name: "With expansions" }).click();
  await ben.waitForURL("**/play/leaderboard?pool=expansions");
  await ben.locator("main table caption").filter({ hasText: "With expansions" }).waitFor({ state: "attached" });
  await ben.reload();
  await ben.getByRole("heading", { name: "Leaderboard" }).waitFor();
  assert.equal(await pools.getByRole("link", { name: "With expansions" }).getAttribute("aria-current"), "page");
  // the leaderboard is in the header, for a visitor too
  const anon = await browser.newPage({ baseURL: BASE });
  watch.page(anon, "visitor");
  await anon.goto(`/play/users/${BEN}`);
  await anon.getByRole("heading", { name: `${BEN}'s profile` }).waitFor();
  await anon.getByRole("link", { name: "Leaderboard", exact: true }).click();
  await anon.getByRole("heading", { name: "Leaderboard" }).waitFor();
  await anon.close();
});

/** The API as the player of `page` (the page's login token), from the test. */
async function apiAs(page, method, path, body) {
  const token = await page.evaluate(() => localStorage.getItem("tilepost.token"));
  const r = await fetch(`${BASE}${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await r.text();
  if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

step("the analysis of a running game; a finished game stepped through, its chart and the bot's review", async () => {
  // the first game runs, casual: its analysis shows everything, an open city's chance too
  await ann.goto(gameUrl);
  const analysis = ann.getByRole("region", { name: "Analysis" });
  await analysis.getByRole("table", { name: "If the game ended now" }).waitFor();
  // the tile tracker, folded until opened
  await analysis.getByText(/^Tiles left: \d+$/).click();
  await analysis.getByRole("list", { name: /^Tiles left: \d+$/ }).getByRole("listitem").first().waitFor();
  await analysis.getByRole("list", { name: /^Tiles left: \d+$/ }).getByRole("listitem").filter({ hasText: /fits in \d+ places now/ }).first().waitFor();
  await analysis
    .locator(".features li")
    .filter({ hasText: /^city of \d+ tiles/i })
    .filter({ hasText: /Chance of completion: \d+%|can no longer be completed/ })
    .first()
    .waitFor();
  // a short game, played to its end over the API, every figure left in the supply
  const order = ["base/D", "base/E", "base/U", "base/V", "base/B", "base/K", "base/L", "base/N"];
  const g = await apiAs(ann, "POST", "/v1/games", { seats: 2, options: { tile_order: order } });
  await apiAs(ben, "POST", `/v1/games/${g.id}/join`, {});
  for (let n = 0; n < 100; n++) {
    const a = await apiAs(ann, "GET", `/v1/games/${g.id}/actions`);
    if (!a.pending) break;
    const pick = a.actions.find((x) => x.type === "pass") || a.actions[0];
    await apiAs(a.pending.username === ANN ? ann : ben, "POST", `/v1/games/${g.id}/moves`, { expected_version: a.version, actions: [pick] });
  }
  const over = await apiAs(ann, "GET", `/v1/games/${g.id}`);
  assert.equal(over.status, "finished");
  await ann.goto(`/play/games/${g.id}?v=3`);
  const review = ann.getByRole("region", { name: "Review of the game" });
  const viewer = review.getByRole("group", { name: /^The game, step by step/ });
  await viewer.waitFor();
  assert.equal(await viewer.getAttribute("data-version"), "3");
  await viewer.focus();
  await ann.keyboard.press("ArrowRight");
  assert.equal(await viewer.getAttribute("data-version"), "4");
  await ann.keyboard.press("ArrowLeft");
  await ann.keyboard.press("ArrowLeft");
  assert.equal(await viewer.getAttribute("data-version"), "2");
  await ann.keyboard.press("End");
  assert.equal(await viewer.getAttribute("data-version"), String(over.version));
  await viewer.getByText(`Version ${over.version} of ${over.version}:`).waitFor();
  await ann.keyboard.press("Home");
  assert.equal(await viewer.getAttribute("data-version"), "1");
  assert.equal(new URL(ann.url()).searchParams.get("v"), "1", "the URL follows the viewer");
  // the chart of the points
  await review.getByRole("img", { name: /^Every player's points over the game/ }).waitFor();
  // the bot's review, asked for by a player: its biggest losses
  await review.getByRole("button", { name: "Ask for the bot's review" }).click();
  const losses = review.getByRole("list", { name: "Biggest losses" });
  await losses.getByRole("listitem").first().waitFor({ timeout: 60000 });
  const first = losses.getByRole("listitem").first();
  await first.filter({ hasText: /the bot preferred .+ \(about \d+\.\d points of final margin lost\)/ }).waitFor();
  // a loss's button shows the position before it
  await first.getByRole("button", { name: /^See the position/ }).click();
  assert.notEqual(await viewer.getAttribute("data-version"), "1");
});
