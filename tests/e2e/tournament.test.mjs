// A tournament in headless Chromium: the organiser creates an event from the page, two
// players join from the event page, the organiser starts it (the first round is
// paired), pauses and resumes it, and gives a player points with a reason, a player goes from the event page to
// their game (which says which tournament and round it belongs to), the game is played
// to its end, and the event page's standings show the result with the adjustment, whose
// reason the players see.
// A second event, of rated games with an expansion, a house rule and no analysis while
// they run (chosen on the form, stated on the event page, carried by its game), starts
// by itself when the entry that fills it comes.
//
// The game itself is played through the API (the client's own requests, as
// play.test.mjs does by clicking): what is tested here is the event's pages.
//
// Environment: TILEPOST_URL (the running server), CHROMIUM (default /usr/bin/chromium).

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { launch, Watch } from "./browser.mjs";

const BASE = process.env.TILEPOST_URL;
if (!BASE) throw new Error("set TILEPOST_URL to the running server");
const SUFFIX = Date.now().toString(36).slice(-5);
const ANN = `tan${SUFFIX}`;
const BEN = `tben${SUFFIX}`;
const PASSWORD = "correct horse battery";

/** @type {import("playwright-core").Browser} */
let browser;
/** @type {Record<string, import("playwright-core").Page>} */
const pages = {};
/** @type {Record<string, string>} */
const tokens = {};
const watch = new Watch();

async function api(method, path, body, who) {
  const r = await fetch(BASE + path, {
    method,
    headers: { "Content-Type": "application/json", ...(who ? { Authorization: `Bearer ${tokens[who]}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await r.text();
  return { status: r.status, body: text ? JSON.parse(text) : null };
}

async function status(page, re) {
  await page.locator("#status").filter({ hasText: re }).waitFor();
}

before(async () => {
  browser = await launch();
  for (const name of [ANN, BEN]) {
    const r = await api("POST", "/v1/users", { username: name, email: `${name}@example.com`, password: PASSWORD });
    assert.equal(r.status, 201, JSON.stringify(r.body));
    const t = await api("POST", "/v1/auth/token", { username: name, password: PASSWORD });
    tokens[name] = t.body.access_token;
    const context = await browser.newContext({ viewport: { width: 1100, height: 900 }, baseURL: BASE, locale: "en-US" });
    context.setDefaultTimeout(15000);
    const page = await context.newPage();
    watch.page(page, name);
    await page.goto("/play/login");
    await page.evaluate(([tk, n]) => {
      localStorage.setItem("tilepost.token", tk);
      localStorage.setItem("tilepost.username", n);
    }, [tokens[name], name]);
    pages[name] = page;
  }
});

after(async () => {
  await browser?.close();
});

test("an event created, joined, started and adjusted from its pages; its game played; the standings follow", async () => {
  const ann = pages[ANN];
  const ben = pages[BEN];
  // create, from the list's link
  await ann.goto("/play/tournaments");
  await ann.getByRole("heading", { name: "Tournaments" }).waitFor();
  await ann.getByRole("link", { name: "Create a tournament" }).click();
  await ann.getByLabel("Name", { exact: true }).fill(`Spring open ${SUFFIX}`);
  await ann.getByLabel("Rounds (Swiss)").fill("1");
  await ann.getByRole("button", { name: "Create the tournament" }).click();
  await ann.waitForURL((u) => /^\/play\/tournaments\/(?!new$)[^/]+$/.test(u.pathname));
  const eventUrl = new URL(ann.url()).pathname;
  await ann.getByRole("heading", { name: `Spring open ${SUFFIX}` }).waitFor();
  // the games' terms left as they are: casual base games, the analysis in full
  await ann.getByText("Every game is a base game (no expansions)").waitFor();
  await ann.getByText("Casual games: no rating changes").waitFor();
  await ann.getByText("Analysis during the game: everything.").waitFor();
  // both join from the event page
  await ann.getByRole("button", { name: "Join" }).click();
  await status(ann, /You are registered/);
  await ben.goto(eventUrl);
  await ben.getByRole("button", { name: "Join" }).click();
  await status(ben, /You are registered/);
  // the organiser starts it: the first round is paired
  await ann.goto(eventUrl);
  await ann.getByRole("button", { name: "Start the tournament" }).click();
  await status(ann, /first round is paired/);
  await ann.getByRole("heading", { name: "Stage 1, round 1" }).waitFor();
  // the organiser gives a player points from the event page, with a reason the players
  // see
  await ann.getByLabel("What to adjust").selectOption("points");
  await ann.getByLabel(/^Player/).selectOption({ label: BEN });
  await ann.getByLabel("Points (negative to take away; in halves)").fill("1.5");
  await ann.getByLabel("Reason (the players see it)").fill("Welcome bonus");
  await ann.getByRole("button", { name: "Record the adjustment" }).click();
  await status(ann, /Adjustment recorded/);
  await ann.getByRole("region", { name: "The organiser's adjustments" }).getByText(`${BEN}: 1.5 points: Welcome bonus`).waitFor();
  // the organiser pauses the event with a reason the page shows, then resumes it
  await ann.getByLabel("Reason for the pause (the players see it)").fill("A short break");
  await ann.getByRole("button", { name: "Pause", exact: true }).click();
  await status(ann, /The tournament is paused/);
  await ann.getByText(/^Paused by the organiser since .+: A short break\./).waitFor();
  await ann.getByRole("button", { name: "Resume the tournament" }).click();
  await status(ann, /The tournament runs again/);
  // from the event page to the game, which names its event and round
  await ann.getByRole("link", { name: "Play your next game" }).click();
  await ann.waitForURL("**/play/games/*");
  const gameId = new URL(ann.url()).pathname.split("/").pop();
  await ann.locator(".game-tournament").filter({ hasText: "Stage 1, round 1" }).waitFor();
  // the game played to its end (each player's first listed option)
  for (let i = 0; i < 400; i++) {
    const a = await api("GET", `/v1/games/${gameId}/actions`, undefined, ANN);
    if (!a.body.pending) break;
    const who = a.body.pending.username;
    const r = await api("POST", `/v1/games/${gameId}/moves`, { expected_version: a.body.version, actions: [a.body.actions[0]] }, who);
    assert.equal(r.status, 200, JSON.stringify(r.body));
  }
  const g = await api("GET", `/v1/games/${gameId}`, undefined, ANN);
  assert.equal(g.body.status, "finished");
  // the event page: ended, the standings with the result
  await ben.goto(eventUrl);
  await ben.getByText(/ended/).first().waitFor();
  const rows = ben.locator("#standings tbody tr");
  await rows.nth(1).waitFor();
  assert.equal(await rows.count(), 2);
  const first = (await rows.nth(0).innerText()).split("\t");
  const second = (await rows.nth(1).innerText()).split("\t");
  assert.equal(first[0], "1");
  // a win is 1 point at a 2-player table (a draw: half each), and ben has the
  // organiser's 1.5 besides
  assert.ok(Number(first[2]) >= Number(second[2]));
  assert.equal(Number(first[2]) + Number(second[2]), 2.5);
  await ben.getByRole("region", { name: "The organiser's adjustments" }).getByText("Welcome bonus", { exact: false }).waitFor();
  // the round's table shows the game's scores
  await ben.locator("a.tournament-game").filter({ hasText: /\d+–\d+/ }).first().waitFor();
  assert.deepEqual(watch.take(), []);
});

test("an event that starts by itself when full", async () => {
  const ann = pages[ANN];
  const ben = pages[BEN];
  await ann.goto("/play/tournaments/new");
  await ann.getByLabel("Name", { exact: true }).fill(`Quick cup ${SUFFIX}`);
  await ann.getByLabel("Rounds (Swiss)").fill("1");
  await ann.getByLabel("Most players").fill("2");
  await ann.getByLabel("Start by itself as soon as it is full").check();
  // and a start date a week away, whichever comes first
  const week = new Date(Date.now() + 7 * 86_400_000);
  const local = new Date(week.getTime() - week.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
  await ann.getByLabel("Start by itself on (optional)").fill(local);
  // rating bounds that a new player (1500) meets
  await ann.getByLabel("Lowest rating to register (optional)").fill("1000");
  await ann.getByLabel("Highest rating to register (optional)").fill("2000");
  // and only the players invited
  await ann.getByLabel("By invitation only").check();
  // rated games with an expansion, a house rule and no analysis while they run
  await ann.getByLabel("Inns & Cathedrals", { exact: true }).check();
  await ann.locator('select[name="rule:small_city_points"]').selectOption("2");
  await ann.getByLabel("Rated (the result changes the players' ratings)").check();
  await ann.getByLabel("Analysis during the game").selectOption("none");
  await ann.getByRole("button", { name: "Create the tournament" }).click();
  await ann.waitForURL((u) => /^\/play\/tournaments\/(?!new$)[^/]+$/.test(u.pathname));
  const eventUrl = new URL(ann.url()).pathname;
  await ann.getByText("It starts by itself once 2 players are registered.").waitFor();
  await ann.getByText(/^Starts by itself on .+ \(with fewer than 2 players, it ends then\)$/).waitFor();
  const made = await api("GET", `/v1/tournaments/${eventUrl.split("/").pop()}`, undefined, ANN);
  assert.equal(made.body.starts_at.slice(0, 16), week.toISOString().slice(0, 16));
  assert.deepEqual([made.body.min_rating, made.body.max_rating], [1000, 2000]);
  // in the pool of its games: with expansions
  await ann.getByText("Open to ratings with expansions from 1000 to 2000 (without a rating: 1500)").waitFor();
  await ann.getByText("By invitation only: the organiser invites the players").waitFor();
  assert.deepEqual(
    [made.body.expansions, made.body.rules, made.body.rated, made.body.assistance],
    [["inns_cathedrals"], { small_city_points: "2" }, true, "none"],
  );
  await ann.getByText("Every game with Inns & Cathedrals").waitFor();
  await ann.getByText("House rules: small city points: 2.").waitFor();
  await ann.getByText("Rated games: each changes its players' ratings").waitFor();
  await ann.getByText("No analysis until the game is over.").waitFor();
  assert.equal(await ann.getByRole("button", { name: "Join" }).count(), 0);
  for (const name of [ANN, BEN]) {
    await ann.getByLabel("Name of the player to invite").fill(name);
    await ann.getByRole("button", { name: "Invite", exact: true }).click();
    await status(ann, new RegExp(`Invited ${name}\\.`));
  }
  await ann.reload();
  await ann.getByText("By invitation only: you are invited").waitFor();
  await ann.getByRole("button", { name: "Join" }).click();
  await status(ann, /You are registered/);
  // the second entry fills it: the first round is paired at once
  await ben.goto(eventUrl);
  await ben.getByRole("button", { name: "Join" }).click();
  await status(ben, /You are registered/);
  await ben.getByRole("heading", { name: "Stage 1, round 1" }).waitFor();
  await ben.getByRole("link", { name: "Play your next game" }).click();
  await ben.waitForURL("**/play/games/*");
  const game = await api("GET", `/v1/games/${new URL(ben.url()).pathname.split("/").pop()}`, undefined, BEN);
  assert.deepEqual([game.body.expansions, game.body.rules, game.body.rated, game.body.assistance], [["inns_cathedrals"], { small_city_points: "2" }, true, "none"]);
  await ben.getByText("Rated game.").waitFor();
  assert.deepEqual(watch.take(), []);
});
