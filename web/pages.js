// The pages around the game: log in, sign up, my games, new game, settings; and the
// small DOM helpers every page uses.

import * as api from "./api.js";
import * as i18n from "./i18n.js";
import { t } from "./i18n.js";

/**
 * Creates an element: `el("a", {href: "/play"}, "text", child, ...)`. Attributes with
 * `false`/`null`/`undefined` values are left out; `true` sets an empty attribute.
 * @param {string} tag
 * @param {Record<string, string | number | boolean | null | undefined>} [attrs]
 * @param {...(Node | string | number | null | undefined | false)} children
 */
export function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === false || v === null || v === undefined) continue;
    e.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    e.append(typeof c === "string" || typeof c === "number" ? String(c) : c);
  }
  return e;
}

/** Tells the user something (the status line is an aria-live region). */
export function announce(text, isError = false) {
  const s = /** @type {HTMLElement} */ (document.getElementById("status"));
  s.textContent = "";
  s.classList.toggle("error", isError);
  // a fresh text node is read out even when the text repeats
  requestAnimationFrame(() => {
    s.textContent = text;
  });
}

export function clearStatus() {
  const s = /** @type {HTMLElement} */ (document.getElementById("status"));
  s.textContent = "";
  s.classList.remove("error");
}

/** Shows a failed request: its problem detail (a lost login is handled by the router). */
export function fail(e) {
  if (e instanceof api.ApiProblem) {
    if (!e.loggedOut) announce(e.describe(), true);
    return;
  }
  announce(String(e), true);
}

/** A labelled input: `<label>Text <input ...></label>` with an id. */
export function field(label, attrs) {
  const input = el("input", attrs);
  return el("label", { class: "field" }, el("span", {}, label), input);
}

/** Runs `f` while the form's submit button is disabled. */
async function busy(form, f) {
  const buttons = form.querySelectorAll("button");
  buttons.forEach((b) => (b.disabled = true));
  try {
    await f();
  } catch (e) {
    fail(e);
  } finally {
    buttons.forEach((b) => (b.disabled = false));
  }
}

/** A short, readable form of an RFC 3339 time (in the reader's locale and time zone). */
export const when = i18n.when;

/** "in 2 days", "3 hours ago" (in the reader's locale). */
export const relative = i18n.relative;

function afterLogin(ctx) {
  const next = sessionStorage.getItem("tilepost.next");
  sessionStorage.removeItem("tilepost.next");
  ctx.go(next && next.startsWith("/play") && !next.startsWith("/play/login") ? next : "/play/games");
}

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

/** One game in a list (GameSummary). */
function gameItem(g, me) {
  const names = g.players.map((p) => p.username).join(", ");
  const li = el("li", { class: g.my_turn ? "game mine" : "game" });
  const title = g.my_turn
    ? t("games.your-turn")
    : g.status === "open"
      ? t("games.open-seats", { taken: g.players.length, seats: g.seats })
      : g.status === "finished"
        ? t("games.finished")
        : t("games.to-play", { name: g.current_username || t("games.someone") });
  li.append(
    el("a", { href: `/play/games/${encodeURIComponent(g.id)}` }, t("games.item", { title, game: g.id.slice(0, 8) })),
    el("span", { class: "meta" }, names || t("games.no-players")),
  );
  if (g.deadline) {
    li.append(
      el("span", { class: "meta deadline" }, t("games.due"), " ", el("time", { datetime: g.deadline, title: when(g.deadline) }, relative(g.deadline))),
    );
  }
  if (g.status === "open" && !g.players.some((p) => p.username === me)) li.dataset.joinable = "1";
  return li;
}

export async function gamesPage(ctx) {
  const me = api.username();
  ctx.main.append(el("h1", {}, t("games.title")));
  const [mine, open, user] = await Promise.all([
    api.get("/v1/games?player=me&limit=100"),
    api.get("/v1/games?status=open&limit=50"),
    api.get("/v1/users/me"),
  ]);
  if (user.waiting && user.waiting.invitations > 0) {
    ctx.main.append(el("p", { class: "note" }, t("games.invitations", { count: user.waiting.invitations })));
  }
  const groups = [
    ["mine", t("games.your-turn"), mine.games.filter((g) => g.my_turn)],
    ["waiting", t("games.waiting"), mine.games.filter((g) => !g.my_turn && g.status === "active")],
    ["open", t("games.not-started"), mine.games.filter((g) => g.status === "open")],
    ["finished", t("games.finished"), mine.games.filter((g) => g.status === "finished")],
  ];
  let any = false;
  for (const [key, title, games] of groups) {
    if (!games.length) continue;
    any = true;
    const id = `h-${key}`;
    ctx.main.append(
      el("section", { "aria-labelledby": id }, el("h2", { id }, t("games.group", { title, count: games.length })), el("ul", { class: "games" }, ...games.map((g) => gameItem(g, me)))),
    );
  }
  if (!any) ctx.main.append(el("p", {}, t("games.none"), " ", el("a", { href: "/play/new" }, t("games.create")), " ", t("games.or-join")));

  const joinable = open.games.filter((g) => !g.players.some((p) => p.username === me));
  const sec = el("section", { "aria-labelledby": "h-join" }, el("h2", { id: "h-join" }, t("games.join-title")));
  if (joinable.length) {
    const ul = el("ul", { class: "games" });
    for (const g of joinable) {
      const b = el("button", { type: "button" }, t("games.join"));
      b.addEventListener("click", async () => {
        b.disabled = true;
        try {
          const v = await api.post(`/v1/games/${encodeURIComponent(g.id)}/join`);
          announce(v.status === "active" ? t("games.joined-started") : t("games.joined-waiting"));
          ctx.go(`/play/games/${encodeURIComponent(g.id)}`);
        } catch (e) {
          b.disabled = false;
          fail(e);
        }
      });
      ul.append(
        el(
          "li",
          { class: "game" },
          el("span", {}, t("games.open-item", { game: g.id.slice(0, 8), by: g.players[0] ? g.players[0].username : "?", taken: g.players.length, seats: g.seats })),
          b,
        ),
      );
    }
    sec.append(ul);
  } else {
    sec.append(el("p", {}, t("games.no-open")));
  }
  ctx.main.append(sec);
}

/** The expansions by id (`CreateGameRequest.expansions`), with their names. Those with
 * tiles are also found in the tile catalog, which adds any id missing here. */
const EXPANSIONS = [
  "river",
  "abbot",
  "inns_cathedrals",
  "traders_builders",
  "abbey_mayor",
  "flying_machines",
  "messages",
  "ferries",
  "gold_mines",
  "mage_witch",
  "robbers",
  "crop_circles",
];

/** An expansion's name in the page's language (`expansion.<id>`), else its id in words. */
function expansionName(id) {
  const key = `expansion.${id}`;
  const name = t(key);
  return name === key ? id.replace(/_/g, " ") : name;
}

export async function newGamePage(ctx) {
  // the tiles (for the expansions) and the house rules, then the page at once
  const [catalog, rules] = await Promise.all([api.tiles(), api.get("/v1/rules")]);
  ctx.main.append(el("h1", {}, t("new.title")));
  const fromTiles = catalog.tiles.map((t) => t.expansion).filter((x) => x !== "base" && !EXPANSIONS.includes(x));
  const expansions = [...EXPANSIONS, ...new Set(fromTiles)];
  const seats = el("select", { name: "seats", id: "seats" }, ...[2, 3, 4, 5, 6].map((n) => el("option", { value: n }, String(n))));
  const exp = el(
    "fieldset",
    { class: "expansions" },
    el("legend", {}, t("new.expansions")),
    ...expansions.map((x) =>
      el("label", { class: "check" }, el("input", { type: "checkbox", name: "expansions", value: x }), ` ${expansionName(x)}`),
    ),
  );
  // house rules: a preset, and any variant set apart from it
  const preset = el("select", { name: "preset", id: "preset" }, ...rules.presets.map((p) => el("option", { value: p.name, title: p.description }, p.name.replace(/_/g, " "))));
  const house = el(
    "fieldset",
    { class: "house-rules" },
    el("legend", {}, t("new.rules")),
    el("label", { class: "field", for: "preset" }, el("span", {}, t("new.preset")), preset),
    el("p", { class: "meta" }, t("new.rules-intro")),
    ...rules.variants.map((v) =>
      el(
        "label",
        { class: "field", title: v.description },
        el("span", {}, `${v.name.replace(/_/g, " ")}${v.expansion ? ` (${expansionName(v.expansion)})` : ""}`),
        el("select", { name: `rule:${v.name}` }, el("option", { value: "" }, t("new.rule-as-preset")), ...v.values.map((x) => el("option", { value: x }, x === v.default ? t("new.rule-standard", { value: x }) : x))),
      ),
    ),
  );
  const clock = el("input", { type: "checkbox", name: "clock", checked: true });
  const form = el(
    "form",
    { class: "card" },
    el("label", { class: "field", for: "seats" }, el("span", {}, t("new.seats")), seats),
    exp,
    house,
    el("label", { class: "check" }, clock, ` ${t("new.clock")}`),
    field(t("new.days"), { type: "number", name: "days", min: 1, max: 14, value: 3, required: true }),
    field(t("new.invite"), { name: "invite", autocomplete: "off", autocapitalize: "none" }),
    el(
      "div",
      { class: "row" },
      el("label", { class: "field", for: "bots" }, el("span", {}, t("new.bots")), el("select", { name: "bots", id: "bots" }, ...[0, 1, 2, 3, 4, 5].map((n) => el("option", { value: n }, String(n))))),
      el("label", { class: "field", for: "bot-level" }, el("span", {}, t("new.bot-level")), el("select", { name: "bot_level", id: "bot-level" }, ...["greedy", "mcts", "random"].map((l) => el("option", { value: l }, t(`bot.${l}`))))),
    ),
    el("button", { type: "submit", class: "primary" }, t("new.submit")),
  );
  const days = /** @type {HTMLInputElement} */ (form.querySelector("input[name=days]"));
  clock.addEventListener("change", () => {
    days.disabled = !(/** @type {HTMLInputElement} */ (clock).checked);
  });
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const f = new FormData(form);
    /** @type {any} CreateGameRequest */
    const body = {
      seats: Number(f.get("seats")),
      expansions: f.getAll("expansions").map(String),
    };
    /** @type {any} GameOptions */
    const options = {};
    if (/** @type {HTMLInputElement} */ (clock).checked) options.days_per_move = Number(f.get("days"));
    if (f.get("preset") && f.get("preset") !== "standard") options.preset = String(f.get("preset"));
    const chosen = {};
    for (const [k, v] of f.entries()) if (k.startsWith("rule:") && v) chosen[k.slice(5)] = String(v);
    if (Object.keys(chosen).length) options.rules = chosen;
    if (Object.keys(options).length) body.options = options;
    const invite = String(f.get("invite") || "")
      .split(/[\s,]+/)
      .map((s) => s.trim())
      .filter(Boolean);
    if (invite.length) body.invite = invite;
    const bots = Number(f.get("bots") || 0);
    if (bots > 0) body.bots = Array(bots).fill(String(f.get("bot_level")));
    busy(form, async () => {
      const g = await api.post("/v1/games", body);
      announce(t("new.done"));
      ctx.go(`/play/games/${encodeURIComponent(g.id)}`);
    });
  });
  ctx.main.append(form);
}

/** The email event types in the settings (their names are `event.<type>`). */
function eventName(type) {
  const key = `event.${type}`;
  const name = t(key);
  return name === key ? type : name;
}

/** The time zones the browser knows (IANA names), with `current` among them. */
function timeZones(current) {
  let zones = [];
  try {
    zones = /** @type {any} */ (Intl).supportedValuesOf("timeZone");
  } catch {
    zones = [];
  }
  const all = new Set(["UTC", ...zones]);
  if (current) all.add(current);
  return [...all].sort();
}

/** Language and time zone: PATCH /v1/users/me {locale, time_zone}. */
function localeForm(ctx, me) {
  const lang = el(
    "select",
    { name: "locale", id: "set-locale" },
    ...i18n.LOCALES.map((l) => el("option", { value: l, selected: l === me.locale }, t(`locale.${l}`))),
  );
  const browserZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const zone = el(
    "select",
    { name: "time_zone", id: "set-zone" },
    ...timeZones(me.time_zone).map((z) => el("option", { value: z, selected: z === me.time_zone }, z.replace(/_/g, " "))),
  );
  const digest = el(
    "select",
    { name: "digest_hour", id: "set-digest" },
    el("option", { value: "", selected: me.digest_hour == null }, t("settings.digest-off")),
    ...Array.from({ length: 24 }, (_, h) => el("option", { value: String(h), selected: me.digest_hour === h }, t("settings.digest-at", { hour: String(h).padStart(2, "0") }))),
  );
  const bot = el("input", { type: "checkbox", name: "bot", id: "set-bot", checked: Boolean(me.bot) });
  const form = el(
    "form",
    { class: "card", "aria-labelledby": "h-locale" },
    el("h2", { id: "h-locale" }, t("settings.locale-title")),
    el("label", { class: "field", for: "set-locale" }, el("span", {}, t("settings.language")), lang),
    el("label", { class: "field", for: "set-zone" }, el("span", {}, t("settings.time-zone")), zone),
    el("p", { class: "meta" }, t("settings.zone-hint", { zone: browserZone || "UTC" })),
    el("label", { class: "field", for: "set-digest" }, el("span", {}, t("settings.digest")), digest),
    el("label", { class: "check", for: "set-bot" }, bot, ` ${t("settings.bot")}`),
    el("button", { type: "submit", class: "primary" }, t("settings.save-locale")),
  );
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const f = new FormData(form);
    const body = {
      locale: String(f.get("locale")),
      time_zone: String(f.get("time_zone")),
      digest_hour: f.get("digest_hour") ? Number(f.get("digest_hour")) : null,
      bot: /** @type {HTMLInputElement} */ (bot).checked,
    };
    busy(form, async () => {
      const u = await api.patch("/v1/users/me", body);
      await i18n.use(u.locale, { timeZone: u.time_zone, remember: true });
      ctx.go("/play/settings", { replace: true });
      announce(t("settings.locale-saved"));
    });
  });
  return form;
}

export async function settingsPage(ctx) {
  ctx.main.append(el("h1", {}, t("settings.title")));
  const [settings, me] = await Promise.all([api.get("/v1/users/me/notifications"), api.get("/v1/users/me")]);

  ctx.main.append(localeForm(ctx, me));

  const boxes = Object.keys(settings.email).map((type) =>
    el(
      "label",
      { class: "check" },
      el("input", { type: "checkbox", name: type, checked: settings.email[type] }),
      ` ${eventName(type)}`,
    ),
  );
  const notif = el(
    "form",
    { class: "card", "aria-labelledby": "h-email" },
    el("h2", { id: "h-email" }, t("settings.email-title")),
    el("p", {}, t("settings.email-to", { email: me.email })),
    el("fieldset", {}, el("legend", {}, t("settings.email-when")), ...boxes),
    el("button", { type: "submit", class: "primary" }, t("settings.save")),
  );
  notif.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const email = {};
    notif.querySelectorAll("input[type=checkbox]").forEach((i) => {
      const input = /** @type {HTMLInputElement} */ (i);
      email[input.name] = input.checked;
    });
    busy(notif, async () => {
      await api.patch("/v1/users/me/notifications", { email });
      announce(t("settings.email-saved"));
    });
  });
  ctx.main.append(notif);

  const v = me.vacation;
  const vac = el("section", { class: "card", "aria-labelledby": "h-vac" }, el("h2", { id: "h-vac" }, t("vacation.title")));
  if (v) vac.append(el("p", {}, t("vacation.days-left", { left: v.days_left, count: v.days_per_year })));
  const onVacation = v && (v.until || v.until_move);
  if (onVacation) {
    vac.append(
      el(
        "p",
        {},
        v.until
          ? t(v.until_move ? "vacation.until-or-move" : "vacation.until", { until: when(v.until) })
          : t("vacation.until-move"),
      ),
    );
    const end = el("button", { type: "button" }, t("vacation.end"));
    end.addEventListener("click", async () => {
      end.disabled = true;
      try {
        await api.del("/v1/users/me/vacation");
        announce(t("vacation.ended"));
        ctx.go("/play/settings", { replace: true });
      } catch (e) {
        end.disabled = false;
        fail(e);
      }
    });
    vac.append(end);
  } else {
    const form = el(
      "form",
      {},
      field(t("vacation.until-field"), { type: "datetime-local", name: "until" }),
      el("button", { type: "submit" }, t("vacation.start")),
    );
    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      const until = String(new FormData(form).get("until") || "");
      const body = until ? { until: new Date(until).toISOString().replace(/\.\d{3}Z$/, "Z") } : {};
      busy(form, async () => {
        await api.post("/v1/users/me/vacation", body);
        announce(t("vacation.started"));
        ctx.go("/play/settings", { replace: true });
      });
    });
    vac.append(form);
  }
  ctx.main.append(vac);

  const sessions = el(
    "section",
    { class: "card", "aria-labelledby": "h-sessions" },
    el("h2", { id: "h-sessions" }, t("sessions.title")),
    el("p", {}, t("sessions.text")),
  );
  const here = el("button", { type: "button" }, t("sessions.logout"));
  const everywhere = el("button", { type: "button" }, t("sessions.everywhere"));
  for (const [button, all] of [[here, false], [everywhere, true]]) {
    button.addEventListener("click", async () => {
      here.disabled = everywhere.disabled = true;
      await api.logOutOnServer(all);
      announce(all ? t("sessions.logged-out-everywhere") : t("nav.logged-out"));
      ctx.go("/play/login");
    });
  }
  sessions.append(here, " ", everywhere);
  ctx.main.append(sessions);
  accountSection(ctx, me);
}

/** The `token` of the page's link. */
function linkToken() {
  return new URLSearchParams(location.search).get("token") || "";
}

/** Asks for a password reset link (the answer is the same for every address). */
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

/** Chooses a new password with the token of a reset link. */
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
 * scanners that open links do not use it up). */
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

/** The account part of the settings: address, password, data download, deletion. */
function accountSection(ctx, me) {
  const sec = el("section", { class: "card", "aria-labelledby": "h-account" }, el("h2", { id: "h-account" }, t("account.title")));
  sec.append(
    el(
      "p",
      {},
      me.email_verified
        ? t("account.confirmed", { email: me.email })
        : t("account.unconfirmed", { email: me.email }),
    ),
  );
  if (!me.email_verified) {
    const resend = el("button", { type: "button" }, t("account.resend"));
    resend.addEventListener("click", async () => {
      resend.disabled = true;
      try {
        await api.post("/v1/users/me/email/verification", {});
        announce(t("account.resent"));
      } catch (e) {
        fail(e);
      } finally {
        resend.disabled = false;
      }
    });
    sec.append(resend);
  }

  const email = el(
    "form",
    { "aria-labelledby": "h-change-email" },
    el("h3", { id: "h-change-email" }, t("account.change-email")),
    field(t("field.new-email"), { name: "email", type: "email", autocomplete: "email", required: true }),
    field(t("field.password"), { name: "password", type: "password", autocomplete: "current-password", required: true }),
    el("button", { type: "submit" }, t("account.change-email")),
  );
  email.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const f = new FormData(email);
    busy(email, async () => {
      await api.post("/v1/users/me/email", { email: String(f.get("email")).trim(), password: String(f.get("password")) });
      announce(t("account.email-changed"));
      ctx.go("/play/settings", { replace: true });
    });
  });

  const pw = el(
    "form",
    { "aria-labelledby": "h-change-pw" },
    el("h3", { id: "h-change-pw" }, t("account.change-password")),
    field(t("field.current-password"), { name: "current_password", type: "password", autocomplete: "current-password", required: true }),
    field(t("field.new-password"), {
      name: "new_password",
      type: "password",
      autocomplete: "new-password",
      required: true,
      minlength: 8,
    }),
    el("button", { type: "submit" }, t("account.change-password")),
  );
  pw.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const f = new FormData(pw);
    busy(pw, async () => {
      await api.post("/v1/users/me/password", {
        current_password: String(f.get("current_password")),
        new_password: String(f.get("new_password")),
      });
      pw.reset();
      announce(t("account.password-changed"));
    });
  });

  const download = el("button", { type: "button" }, t("account.download"));
  download.addEventListener("click", async () => {
    download.disabled = true;
    try {
      const data = await api.get("/v1/users/me/export");
      const blob = new Blob([JSON.stringify(data, null, 2)], { type: "application/json" });
      const a = el("a", { href: URL.createObjectURL(blob), download: "tilepost-export.json" });
      a.click();
      URL.revokeObjectURL(a.getAttribute("href") || "");
      announce(t("account.downloaded"));
    } catch (e) {
      fail(e);
    } finally {
      download.disabled = false;
    }
  });
  const data = el("div", {}, el("h3", {}, t("account.data")), el("p", {}, t("account.data-text")), download);

  const del = el(
    "form",
    { "aria-labelledby": "h-delete" },
    el("h3", { id: "h-delete" }, t("account.delete")),
    el(
      "p",
      {},
      t("account.delete-text"),
    ),
    field(t("field.password"), { name: "password", type: "password", autocomplete: "current-password", required: true }),
    el("label", { class: "check" }, el("input", { type: "checkbox", name: "sure", required: true }), " " + t("account.delete-sure")),
    el("button", { type: "submit", class: "danger" }, t("account.delete-submit")),
  );
  del.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const f = new FormData(del);
    busy(del, async () => {
      await api.del("/v1/users/me", { password: String(f.get("password")) });
      api.logout();
      announce(t("account.deleted"));
      ctx.go("/play/login", { replace: true });
    });
  });
  sec.append(email, pw, data, del);
  ctx.main.append(sec);
}
