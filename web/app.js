// The reference web client of tilepost: a router over the pages under /play.
//
//   /play, /play/games          my games (my turn first) and open games to join
//   /play/login, /play/signup   log in, sign up
//   /play/new                   create a game
//   /play/games/{id}            a game: board, move, scores, history, chat
//   /play/settings              account (address, password, data, deletion), email
//                               notifications and vacation
//   /play/forgot-password       ask for a password reset link
//   /play/reset-password        choose a new password (the link of the reset email)
//   /play/verify-email          confirm an address (the link of the confirmation email)

import * as api from "./api.js";
import { el, announce, clearStatus } from "./pages.js";
import * as pages from "./pages.js";
import { gamePage } from "./game.js";

const main = /** @type {HTMLElement} */ (document.getElementById("main"));

/** The page being shown stops its timers when another one replaces it. */
let leaving = () => {};

/** Goes to a path of the client (history entry + render). */
export function go(path, { replace = false } = {}) {
  if (replace) history.replaceState(null, "", path);
  else history.pushState(null, "", path);
  render();
}

function nav() {
  const ul = /** @type {HTMLElement} */ (document.getElementById("nav"));
  ul.replaceChildren();
  const here = location.pathname;
  const link = (href, text) => {
    const a = el("a", { href }, text);
    if (here === href) a.setAttribute("aria-current", "page");
    ul.append(el("li", {}, a));
  };
  const user = api.username();
  if (user) {
    link("/play/games", "My games");
    link("/play/new", "New game");
    link("/play/settings", "Settings");
    const out = el("button", { type: "button", class: "linkish" }, `Log out (${user})`);
    out.addEventListener("click", () => {
      api.logout();
      announce("Logged out.");
      go("/play/login");
    });
    ul.append(el("li", {}, out));
  } else {
    link("/play/login", "Log in");
    link("/play/signup", "Sign up");
  }
}

async function render() {
  leaving();
  leaving = () => {};
  let path = location.pathname.replace(/\/+$/, "") || "/play";
  if (path === "/play") {
    path = "/play/games";
    history.replaceState(null, "", path);
  }
  const ctx = {
    main,
    go,
    /** @param {() => void} f */
    onLeave(f) {
      leaving = f;
    },
  };
  nav();
  main.replaceChildren();
  for (const k of Object.keys(main.dataset)) delete main.dataset[k];
  const loggedIn = Boolean(api.token());
  const open = ["/play/login", "/play/signup", "/play/forgot-password", "/play/reset-password", "/play/verify-email"];
  const gameMatch = path.match(/^\/play\/games\/([^/]+)$/);
  if (!loggedIn && !open.includes(path) && !gameMatch) {
    sessionStorage.setItem("tilepost.next", location.pathname);
    history.replaceState(null, "", "/play/login");
    return render();
  }
  try {
    if (path === "/play/login") await pages.loginPage(ctx);
    else if (path === "/play/signup") await pages.signupPage(ctx);
    else if (path === "/play/games") await pages.gamesPage(ctx);
    else if (path === "/play/new") await pages.newGamePage(ctx);
    else if (path === "/play/settings") await pages.settingsPage(ctx);
    else if (path === "/play/forgot-password") await pages.forgotPasswordPage(ctx);
    else if (path === "/play/reset-password") await pages.resetPasswordPage(ctx);
    else if (path === "/play/verify-email") await pages.verifyEmailPage(ctx);
    else if (gameMatch) await gamePage(ctx, decodeURIComponent(gameMatch[1]));
    else {
      main.append(el("h1", {}, "Not found"), el("p", {}, el("a", { href: "/play/games" }, "My games")));
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
    announce("Please log in again.");
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
  go(url.pathname);
  main.focus();
});

window.addEventListener("popstate", () => render());
render();
