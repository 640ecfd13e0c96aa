// The web client in Brazilian Portuguese, in headless Chromium (as play.test.mjs).
//
// Two players whose browsers speak pt-BR (São Paulo time) sign up: the pages speak
// Portuguese from the first one, the accounts get the locale and time zone, a refused
// log-in reads Portuguese (the server's problem, from Accept-Language), and so does a
// problem for a signed-in player whatever the request asks (their setting wins). One
// creates a game, the other joins, and a turn is played by clicking on the game page,
// asserting its Portuguese texts. The settings page changes the time zone: the deadline
// on the game page follows it. The switcher changes the language at once. The lobby and
// the leaderboard read Portuguese.
//
// Environment: TILEPOST_URL (the running server), CHROMIUM (default /usr/bin/chromium).

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { launch, Watch } from "./browser.mjs";

const BASE = process.env.TILEPOST_URL;
if (!BASE) throw new Error("set TILEPOST_URL to the running server");
const suffix = Date.now().toString(36).slice(-5);
const CAI = `cai${suffix}`;
const BIA = `bia${suffix}`;
const PASSWORD = "cavalo correto bateria";

/** @type {import("playwright-core").Browser} */
let browser;
const watch = new Watch();

let cai;
let bia;

before(async () => {
  browser = await launch();
  for (const who of ["cai", "bia"]) {
    const context = await browser.newContext({
      viewport: { width: 1100, height: 900 },
      baseURL: BASE,
      locale: "pt-BR",
      timezoneId: "America/Sao_Paulo",
    });
    context.setDefaultTimeout(10000);
    const page = await context.newPage();
    watch.page(page, who);
    if (who === "cai") cai = page;
    else bia = page;
  }
});

after(async () => {
  await browser?.close();
});

async function status(page, re) {
  await page.locator("#status").filter({ hasText: re }).waitFor();
}

async function signUp(page, name) {
  await page.goto("/play");
  await page.getByRole("heading", { name: "Entrar" }).waitFor();
  assert.equal(await page.evaluate(() => document.documentElement.lang), "pt-BR");
  await page.getByRole("link", { name: "Criar conta" }).first().click();
  await page.getByLabel("Nome de usuário").fill(name);
  await page.getByLabel("E-mail").fill(`${name}@example.com`);
  await page.getByLabel(/^Senha/).fill(PASSWORD);
  await page.getByRole("button", { name: "Criar conta" }).click();
  await page.waitForURL("**/play/games");
  await page.getByRole("heading", { name: "Minhas partidas" }).waitFor();
}

/** GET a path of the API as the signed-in page, with these headers. */
async function apiGet(page, path, headers = {}) {
  return page.evaluate(
    async ([p, h]) => {
      const r = await fetch(p, { headers: { Authorization: `Bearer ${localStorage.getItem("tilepost.token")}`, ...h } });
      return { status: r.status, language: r.headers.get("content-language"), body: await r.json() };
    },
    [path, headers],
  );
}

/** The deadline on the game page as the page writes it: its `title` and the text. */
async function deadlineShown(page) {
  const time = page.locator(".turnline time");
  await time.waitFor();
  return { iso: await time.getAttribute("datetime"), title: await time.getAttribute("title"), line: await page.locator(".turnline").textContent() };
}

/** A moment as the browser writes it in pt-BR in time zone `zone`. */
async function written(page, iso, zone) {
  return page.evaluate(
    ([i, z]) => new Date(i).toLocaleString("pt-BR", { dateStyle: "medium", timeStyle: "short", timeZone: z }),
    [iso, zone],
  );
}

test("a turn on the game page in Brazilian Portuguese", async () => {
  // the switcher: English at once, then back (remembered on this browser)
  await cai.goto("/play/login");
  await cai.getByRole("heading", { name: "Entrar" }).waitFor();
  await cai.getByRole("combobox", { name: "Idioma" }).selectOption("en");
  await cai.getByRole("heading", { name: "Log in" }).waitFor();
  await cai.getByRole("combobox", { name: "Language" }).selectOption("pt-BR");
  await cai.getByRole("heading", { name: "Entrar" }).waitFor();

  await signUp(cai, CAI);
  await signUp(bia, BIA);
  const me = await apiGet(cai, "/v1/users/me");
  assert.equal(me.body.locale, "pt-BR");
  assert.equal(me.body.time_zone, "America/Sao_Paulo");

  // a signed-in player's problems follow their setting, even when the request asks for English
  watch.expected.push(/console error: Failed to load resource: the server responded with a status of 404.*\/v1\/games\//);
  const missing = await apiGet(cai, "/v1/games/00000000-0000-4000-8000-000000000000", { "Accept-Language": "en" });
  assert.equal(missing.status, 404);
  assert.equal(missing.body.code, "game-not-found");
  assert.equal(missing.body.title, "Partida inexistente");
  assert.equal(missing.language, "pt-BR");

  // cai creates a game with a clock, bia joins it
  await cai.getByRole("link", { name: "Nova partida" }).click();
  await cai.getByRole("heading", { name: "Nova partida" }).waitFor();
  await cai.getByLabel("Lugares").selectOption("2");
  await cai.getByLabel("Dias por jogada (1 a 14)").fill("3");
  await cai.getByRole("button", { name: "Criar partida" }).click();
  await cai.waitForURL("**/play/games/*");
  const gameUrl = new URL(cai.url()).pathname;
  await cai.getByRole("heading", { name: "Esperando jogadores" }).waitFor();
  await bia.goto("/play/games");
  const open = bia.getByRole("region", { name: "Partidas abertas para entrar" }).getByRole("listitem").filter({ hasText: CAI });
  await open.getByRole("button", { name: "Entrar" }).click();
  await bia.waitForURL(`**${gameUrl}`);
  await status(bia, "a partida começou");

  // the creator plays first: the game page in Portuguese, the deadline in São Paulo time
  await cai.reload();
  await cai.getByText("Sua vez: você tirou").waitFor();
  await cai.getByRole("heading", { name: "Sua jogada: coloque a peça" }).waitFor();
  await cai.getByRole("heading", { name: "Histórico" }).waitFor();
  await cai.getByRole("columnheader", { name: "Pontos" }).waitFor();
  const due = await deadlineShown(cai);
  const saoPaulo = await written(cai, due.iso, "America/Sao_Paulo");
  assert.equal(due.title, saoPaulo);
  assert.match(due.line, /Prazo:/);
  assert.match(due.line, /Restam \d+ peças\./);

  const before = Number(await cai.locator("main").getAttribute("data-version"));
  await cai.locator("button.cand").first().click();
  await cai.locator("button.cand.chosen").waitFor();
  await cai.getByRole("group", { name: "Figura" }).getByLabel("Sem figura").check();
  await cai.getByRole("button", { name: "Enviar jogada" }).click();
  await status(cai, "Jogada enviada.");
  await cai.waitForFunction((old) => Number(document.querySelector("main")?.dataset.version) > old, before);
  await cai.locator("ol.history li").filter({ hasText: new RegExp(`${CAI} colocou [a-zà-ú].+ na posição`) }).waitFor();
  await cai.locator(".turnline").filter({ hasText: `Vez de ${BIA}` }).waitFor();

  // the other player's page: their turn, in Portuguese
  await bia.reload();
  await bia.getByText("Sua vez: você tirou").waitFor();
  await bia.locator("ol.history li").filter({ hasText: new RegExp(`${CAI} colocou [a-zà-ú].+ na posição`) }).waitFor();

  // the settings page: another time zone; the deadline follows the setting, not the browser
  await cai.getByRole("link", { name: "Configurações" }).click();
  await cai.getByRole("heading", { name: "Idioma e fuso horário" }).waitFor();
  await cai.getByRole("combobox", { name: "Fuso horário" }).selectOption("Asia/Tokyo");
  await cai.getByRole("button", { name: "Usar este idioma e fuso horário" }).click();
  await status(cai, "Idioma e fuso horário salvos.");
  assert.equal((await apiGet(cai, "/v1/users/me")).body.time_zone, "Asia/Tokyo");
  await cai.goto(gameUrl);
  await cai.locator(".turnline").filter({ hasText: `Vez de ${BIA}` }).waitFor();
  const later = await deadlineShown(cai);
  assert.equal(later.title, await written(cai, later.iso, "Asia/Tokyo"));
  assert.notEqual(later.title, await written(cai, later.iso, "America/Sao_Paulo"));

  // the lobby and the leaderboard speak Portuguese too
  await cai.getByRole("link", { name: "Saguão", exact: true }).click();
  await cai.getByRole("heading", { name: "Saguão", exact: true }).waitFor();
  await cai.getByRole("form", { name: "Publicar uma busca" }).getByLabel("Rating mínimo (0 a 4000)").waitFor();
  await cai.getByRole("link", { name: "Classificação", exact: true }).click();
  await cai.getByRole("heading", { name: "Classificação" }).waitFor();
  await cai.getByRole("navigation", { name: "Tipos de rating" }).getByRole("link", { name: "Com expansões" }).waitFor();

  // log out; a wrong password is refused in Portuguese (the server's problem)
  await bia.getByRole("button", { name: /^Sair/ }).click();
  await bia.waitForURL("**/play/login");
  await bia.getByLabel("Nome de usuário").fill(BIA);
  await bia.getByLabel("Senha").fill("senha errada");
  watch.expected.push(/console error: Failed to load resource: the server responded with a status of 401.*\/v1\/auth\/token/);
  await bia.getByRole("button", { name: "Entrar" }).click();
  await bia.locator("#status.error").filter({ hasText: "O nome de usuário ou a senha está incorreto." }).waitFor();
  assert.deepEqual(watch.expected, [], "the 401 answer was seen");

  assert.deepEqual(watch.take(), [], "no console errors, warnings or page errors");
});
