// The account pages: log in, sign up, and the password and address links.

import * as api from "../api.js";
import * as i18n from "../i18n.js";
import { t } from "../i18n.js";
import { el, announce, fail, field, busy } from "../ui.js";

/** After a login: back to the page that asked for it, else my games.
 * @param {import("../ui.js").PageContext} ctx */
function afterLogin(ctx) {
  const next = sessionStorage.getItem("tilepost.next");
  sessionStorage.removeItem("tilepost.next");
  ctx.go(next && next.startsWith("/play") && !next.startsWith("/play/login") ? next : "/play/games");
}

/** @param {import("../ui.js").PageContext} ctx */
export async function loginPage(ctx) {
  const form = el(
    "form",
    { class: "card narrow", "aria-labelledby": "login-h" },
    el("h1", { id: "login-h" }, t("login.title")),
    field(t("field.username"), { name: "username", autocomplete: "username", required: true, autocapitalize: "none" }),
    field(t("field.password"), { name: "password", type: "password", autocomplete: "current-password", required: true }),
    el("button", { type: "submit", class: "primary" }, t("login.submit")),
    el("p", {}, t("login.new-here"), " ", el("a", { href: "/play/signup" }, t("nav.signup"))),
    el("p", {}, el("a", { href: "/play/forgot-password" }, t("login.forgot"))),
  );
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const f = new FormData(form);
    busy(form, async () => {
      await api.login(String(f.get("username")).trim(), String(f.get("password")));
      announce(t("login.done", { name: api.username() || "" }));
      afterLogin(ctx);
    });
  });
  ctx.main.append(form);
}

/** @param {import("../ui.js").PageContext} ctx */
export async function signupPage(ctx) {
  const form = el(
    "form",
    { class: "card narrow", "aria-labelledby": "signup-h" },
    el("h1", { id: "signup-h" }, t("signup.title")),
    field(t("field.username"), {
      name: "username",
      autocomplete: "username",
      required: true,
      minlength: 3,
      maxlength: 32,
      pattern: "[A-Za-z0-9_.\\-]{3,32}",
      title: t("signup.username-rule"),
      autocapitalize: "none",
    }),
    field(t("field.email"), { name: "email", type: "email", autocomplete: "email", required: true }),
    field(t("signup.password"), {
      name: "password",
      type: "password",
      autocomplete: "new-password",
      required: true,
      minlength: 8,
    }),
    el("button", { type: "submit", class: "primary" }, t("signup.submit")),
    el("p", {}, t("signup.have-account"), " ", el("a", { href: "/play/login" }, t("nav.login"))),
  );
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const f = new FormData(form);
    const name = String(f.get("username")).trim();
    const password = String(f.get("password"));
    busy(form, async () => {
      // the account starts in the page's language and the browser's time zone (UTC when
      // the server does not know the browser's)
      const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
      /** @type {import("../types/api").components["schemas"]["RegisterRequest"]} */
      const account = { username: name, email: String(f.get("email")).trim(), password, locale: i18n.locale() };
      try {
        await api.post("/v1/users", zone ? { ...account, time_zone: zone } : account);
      } catch (e) {
        const zoneRefused = e instanceof api.ApiProblem && e.status === 400 && e.errors.some((x) => x.field === "time_zone");
        if (!zoneRefused) throw e;
        await api.post("/v1/users", account);
      }
      await api.login(name, password);
      announce(t("signup.welcome", { name }));
      afterLogin(ctx);
    });
  });
  ctx.main.append(form);
}

/** The `token` of the page's link. */
function linkToken() {
  return new URLSearchParams(location.search).get("token") || "";
}

/** Asks for a password reset link (the answer is the same for every address). @param {import("../ui.js").PageContext} ctx */
export async function forgotPasswordPage(ctx) {
  const form = el(
    "form",
    { class: "card narrow", "aria-labelledby": "forgot-h" },
    el("h1", { id: "forgot-h" }, t("forgot.title")),
    el("p", {}, t("forgot.text")),
    field(t("field.email"), { name: "email", type: "email", autocomplete: "email", required: true }),
    el("button", { type: "submit", class: "primary" }, t("forgot.submit")),
  );
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const email = String(new FormData(form).get("email")).trim();
    busy(form, async () => {
      await api.post("/v1/auth/password-reset", { email });
      form.replaceChildren(
        el("h1", { id: "forgot-h" }, t("forgot.sent-title")),
        el("p", {}, t("forgot.sent-text")),
      );
      announce(t("forgot.sent"));
    });
  });
  ctx.main.append(form);
}

/** Chooses a new password with the token of a reset link. @param {import("../ui.js").PageContext} ctx */
export async function resetPasswordPage(ctx) {
  const token = linkToken();
  const form = el(
    "form",
    { class: "card narrow", "aria-labelledby": "reset-h" },
    el("h1", { id: "reset-h" }, t("reset.title")),
    field(t("field.new-password"), {
      name: "password",
      type: "password",
      autocomplete: "new-password",
      required: true,
      minlength: 8,
    }),
    el("button", { type: "submit", class: "primary" }, t("reset.submit")),
  );
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const password = String(new FormData(form).get("password"));
    busy(form, async () => {
      await api.post("/v1/auth/password-reset/confirm", { token, password });
      api.logout();
      announce(t("reset.done"));
      ctx.go("/play/login", { replace: true });
    });
  });
  ctx.main.append(form);
}

/** Confirms an address with the token of a confirmation link (on a click, so that mail
 * scanners that open links do not use it up). @param {import("../ui.js").PageContext} ctx */
export async function verifyEmailPage(ctx) {
  const token = linkToken();
  const button = el("button", { type: "button", class: "primary" }, t("verify.submit"));
  const card = el(
    "section",
    { class: "card narrow", "aria-labelledby": "verify-h" },
    el("h1", { id: "verify-h" }, t("verify.title")),
    button,
  );
  button.addEventListener("click", async () => {
    button.disabled = true;
    try {
      await api.post("/v1/auth/verify-email", { token });
      card.replaceChildren(
        el("h1", { id: "verify-h" }, t("verify.done-title")),
        el("p", {}, t("verify.done-text")),
      );
      announce(t("verify.done"));
    } catch (e) {
      button.disabled = false;
      fail(e);
    }
  });
  ctx.main.append(card);
}
