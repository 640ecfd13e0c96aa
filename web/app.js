// The reference web client of tilepost: a router over the pages under /play.
//
//   /play, /play/games          my games (my turn first) and open games to join
//   /play/login, /play/signup   log in, sign up
//   /play/new                   create a game
//   /play/lobby                 seeks: games looking for players (join, withdraw, post)
//   /play/games/{id}            a game: board, move, scores, history, chat
//   /play/users/{username}      a player's profile: record, ratings, recent games
//   /play/leaderboard           the best established ratings of a pool (?pool=expansions)
//   /play/tournaments           tournaments; /play/tournaments/new creates one;
//   /play/tournaments/{id}      an event: join, start, standings, rounds, bracket
//   /play/settings              account (address, password, data, deletion), email
//                               notifications and vacation
//   /play/forgot-password       ask for a password reset link
//   /play/reset-password        choose a new password (the link of the reset email)
//   /play/verify-email          confirm an address (the link of the confirmation email)
//
// Every text comes from the catalog of the page's locale (i18n.js); the header has a
// language switcher.

import * as api from "./api.js";
import * as i18n from "./i18n.js";
import { t } from "./i18n.js";
import { el, announce, clearStatus } from "./ui.js";
import * as account from "./pages/account.js";
import { gamesPage } from "./pages/games.js";
import { newGamePage } from "./pages/new-game.js";
import { lobbyPage } from "./pages/lobby.js";
import { settingsPage } from "./pages/settings.js";
import { profilePage, leaderboardPage } from "./pages/players.js";
import * as tournaments from "./pages/tournaments.js";
import { gamePage } from "./game.js";
import { registerWorker } from "./push.js";

const main = /** @type {HTMLElement} */ (document.getElementById("main"));

/** What the page being shown stops (timers, the live stream, listeners) when another one
 * replaces it: every part of a page may add its own. @type {(() => void)[]} */
let leaving = [];
/** Counts the pages shown: a page that is no longer the one shown stops at once. */
let shown = 0;

/**
 * Goes to a path of the client (history entry + render).
 * @param {string} path
 * @param {{replace?: boolean}} [options] replace: no new history entry
 */
export function go(path, { replace = false } = {}) {
  if (replace) history.replaceState(null, "", path);
  else history.pushState(null, "", path);
  render();
}

function nav() {
  const skip = document.querySelector("a.skip");
  if (skip) skip.textContent = t("page.skip");
  const ul = /** @type {HTMLElement} */ (document.getElementById("nav"));
  ul.replaceChildren();
  const here = location.pathname;
  /** @param {string} href @param {string} text */
  const link = (href, text) => {
    const a = el("a", { href }, text);
    if (here === href) a.setAttribute("aria-current", "page");
    ul.append(el("li", {}, a));
  };
  const user = api.username();
  if (user) {
    link("/play/games", t("nav.games"));
    link("/play/new", t("nav.new"));
    link("/play/lobby", t("nav.lobby"));
    link("/play/tournaments", t("nav.tournaments"));
    link("/play/leaderboard", t("nav.leaderboard"));
    link("/play/settings", t("nav.settings"));
    const out = el("button", { type: "button", class: "linkish" }, t("nav.logout", { name: user }));
    out.addEventListener("click", async () => {
      out.disabled = true;
      await api.logOutOnServer(false);
      announce(t("nav.logged-out"));
      go("/play/login");
    });
    ul.append(el("li", {}, out));
  } else {
    link("/play/login", t("nav.login"));
    link("/play/signup", t("nav.signup"));
    link("/play/leaderboard", t("nav.leaderboard"));
  }
  ul.append(el("li", {}, switcher()));
}

/** The language switcher: the page changes at once; a signed-in player's setting too. */
function switcher() {
  const select = el(
    "select",
    { id: "lang", "aria-label": t("nav.language") },
    ...i18n.LOCALES.map((l) => el("option", { value: l, selected: l === i18n.locale(), lang: l }, t(`locale.${l}`))),
  );
  select.addEventListener("change", async () => {
    const l = /** @type {HTMLSelectElement} */ (select).value;
    try {
      if (api.token()) await api.patch("/v1/users/me", { locale: l });
      await i18n.use(l, { remember: true });
      render();
    } catch (e) {
      if (e instanceof api.ApiProblem) {
        if (!e.loggedOut) announce(e.describe(), true);
      } else {
        announce(String(e), true);
      }
    }
  });
  return select;
}

/** The signed-in player's locale and time zone (GET /v1/users/me), once per login.
 * @type {string | null} the username they were read for */
let settingsOf = null;
async function adoptSettings() {
  const user = api.username();
  if (!user || settingsOf === user) return;
  settingsOf = user;
  try {
    /** @type {import("./types/api").components["schemas"]["UserView"]} */
    const me = await api.get("/v1/users/me");
    await i18n.use(me.locale, { timeZone: me.time_zone });
  } catch {
    // the page works in the browser's language; a lost login is handled by the router
    settingsOf = null;
  }
}

async function render() {
  for (const f of leaving.splice(0)) f();
  const page = ++shown;
  let path = location.pathname.replace(/\/+$/, "") || "/play";
  if (path === "/play") {
    path = "/play/games";
    history.replaceState(null, "", path);
  }
  if (!api.username()) settingsOf = null;
  await adoptSettings();
  const ctx = {
    main,
    go,
    /** @param {() => void} f */
    onLeave(f) {
      if (page === shown) leaving.push(f);
      else f();
    },
  };
  nav();
  main.replaceChildren();
  for (const k of Object.keys(main.dataset)) delete main.dataset[k];
  const loggedIn = Boolean(api.token());
  const open = ["/play/login", "/play/signup", "/play/forgot-password", "/play/reset-password", "/play/verify-email", "/play/leaderboard"];
  const gameMatch = path.match(/^\/play\/games\/([^/]+)$/);
  const userMatch = path.match(/^\/play\/users\/([^/]+)$/);
  const tournamentMatch = path.match(/^\/play\/tournaments\/([^/]+)$/);
  if (!loggedIn && !open.includes(path) && !gameMatch && !userMatch) {
    sessionStorage.setItem("tilepost.next", location.pathname);
    history.replaceState(null, "", "/play/login");
    return render();
  }
  try {
    if (path === "/play/login") await account.loginPage(ctx);
    else if (path === "/play/signup") await account.signupPage(ctx);
    else if (path === "/play/games") await gamesPage(ctx);
    else if (path === "/play/new") await newGamePage(ctx);
    else if (path === "/play/lobby") await lobbyPage(ctx);
    else if (path === "/play/leaderboard") await leaderboardPage(ctx);
    else if (path === "/play/tournaments") await tournaments.tournamentsPage(ctx);
    else if (path === "/play/tournaments/new") await tournaments.newTournamentPage(ctx);
    else if (tournamentMatch) await tournaments.tournamentPage(ctx, decodeURIComponent(tournamentMatch[1]));
    else if (path === "/play/settings") await settingsPage(ctx);
    else if (path === "/play/forgot-password") await account.forgotPasswordPage(ctx);
    else if (path === "/play/reset-password") await account.resetPasswordPage(ctx);
    else if (path === "/play/verify-email") await account.verifyEmailPage(ctx);
    else if (gameMatch) await gamePage(ctx, decodeURIComponent(gameMatch[1]));
    else if (userMatch) await profilePage(ctx, decodeURIComponent(userMatch[1]));
    else {
      main.append(el("h1", {}, t("page.not-found")), el("p", {}, el("a", { href: "/play/games" }, t("nav.games"))));
    }
  } catch (e) {
    if (e instanceof api.ApiProblem) {
      if (e.loggedOut) return;
      main.append(el("p", { class: "error" }, e.describe()));
      announce(e.describe(), true);
    } else {
      throw e;
    }
  }
  const h1 = main.querySelector("h1");
  document.title = h1 ? `${h1.textContent} · tilepost` : "tilepost";
}

// 401 anywhere: the token is gone or expired; log in again, then come back here.
api.setUnauthorizedHandler(() => {
  api.logout();
  if (location.pathname !== "/play/login") {
    sessionStorage.setItem("tilepost.next", location.pathname);
    announce(t("nav.login-again"));
    go("/play/login", { replace: true });
  }
});

// Links inside the client navigate without reloading the page.
document.addEventListener("click", (ev) => {
  const a = /** @type {HTMLElement} */ (ev.target).closest?.("a");
  if (!a || ev.defaultPrevented || ev.button !== 0) return;
  if (ev.metaKey || ev.ctrlKey || ev.shiftKey || ev.altKey) return;
  const href = a.getAttribute("href") || "";
  if (href.startsWith("#")) return;
  const url = new URL(a.href, location.href);
  if (url.origin !== location.origin || !url.pathname.startsWith("/play")) return;
  ev.preventDefault();
  clearStatus();
  go(url.pathname + url.search);
  main.focus();
});

window.addEventListener("popstate", () => render());

// the browser's language until the player's own setting is known
i18n
  .use(i18n.browserLocale())
  .catch(() => {})
  .then(() => render());

// the service worker: push notifications and the offline page
registerWorker();
