// The pages around the game: log in, sign up, my games, new game, the lobby, the
// password and address links; and the small DOM helpers every page uses (the settings
// are in settings.js, profiles and the leaderboard in players.js).

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

/**
 * A message with elements where its placeholders are:
 * `fill(t("games.open-item", {game}), {by: playerLink(name)})`. The message comes from
 * t() with the text arguments; t() leaves the others' `{placeholders}` in it.
 * @param {string} text
 * @param {Record<string, Node | (Node | string)[]>} nodes
 * @returns {(Node | string)[]}
 */
export function fill(text, nodes) {
  return text.split(/\{(\w+)\}/).flatMap((part, i) => {
    if (i % 2 === 0) return part ? [part] : [];
    const node = nodes[part];
    if (node === undefined) return [`{${part}}`];
    return Array.isArray(node) ? node : [node];
  });
}

/** A player's name, linked to their profile page. */
export function playerLink(name) {
  return el("a", { href: `/play/users/${encodeURIComponent(name)}`, class: "player" }, name);
}

/** Players' names as a list in the locale's words ("ann, ben and cy"), each linked. */
export function playerLinks(names) {
  return i18n.listParts(names).map((p) => (p.type === "element" ? playerLink(p.value) : p.value));
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
export async function busy(form, f) {
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
  const names = g.players.map((p) => p.username);
  const kind = [
    g.rated ? t("games.rated") : "",
    g.visibility === "private" ? t("games.private") : "",
    g.players.some((p) => p.bot) ? t("games.bots") : "",
  ].filter(Boolean);
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
    el("span", { class: "meta" }, ...(names.length ? playerLinks(names) : [t("games.no-players")])),
  );
  if (kind.length) li.append(el("span", { class: "meta" }, kind.join(" · ")));
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
          el(
            "span",
            {},
            ...fill(t("games.open-item", { game: g.id.slice(0, 8), taken: g.players.length, seats: g.seats }), {
              by: g.players[0] ? playerLink(g.players[0].username) : "?",
            }),
          ),
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
export function expansionName(id) {
  const key = `expansion.${id}`;
  const name = t(key);
  return name === key ? id.replace(/_/g, " ") : name;
}

/** The number of seats: a select named `seats`, labelled. */
function seatsField(id) {
  const seats = el("select", { name: "seats", id }, ...[2, 3, 4, 5, 6].map((n) => el("option", { value: n }, String(n))));
  return el("label", { class: "field", for: id }, el("span", {}, t("new.seats")), seats);
}

/** A checkbox for each expansion (named `expansions`), from the tile catalog (GET /v1/tiles). */
export function expansionsField(catalog) {
  const fromTiles = catalog.tiles.map((t) => t.expansion).filter((x) => x !== "base" && !EXPANSIONS.includes(x));
  const expansions = [...EXPANSIONS, ...new Set(fromTiles)];
  return el(
    "fieldset",
    { class: "expansions" },
    el("legend", {}, t("new.expansions")),
    ...expansions.map((x) =>
      el("label", { class: "check" }, el("input", { type: "checkbox", name: "expansions", value: x }), ` ${expansionName(x)}`),
    ),
  );
}

/** A view's house rules (variant → value) in words ("House rules: …."), or "" without any. */
export function rulesLine(rules) {
  const entries = Object.entries(rules || {});
  return entries.length ? t("game.house-rules", { rules: entries.map(([k, x]) => `${k.replace(/_/g, " ")}: ${x}`).join(", ") }) : "";
}

/**
 * The house rules, from their catalog (GET /v1/rules): a preset, and any variant set
 * apart from it. `value(formData)` is `{preset, rules}` as a request takes them, each
 * left out when the form does not choose it.
 */
export function houseRulesFields(rules) {
  const preset = el("select", { name: "preset", id: "preset" }, ...rules.presets.map((p) => el("option", { value: p.name, title: p.description }, p.name.replace(/_/g, " "))));
  const node = el(
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
  return {
    node,
    /** @param {FormData} f */
    value: (f) => {
      /** @type {{preset?: string, rules?: Record<string, string>}} */
      const out = {};
      if (f.get("preset") && f.get("preset") !== "standard") out.preset = String(f.get("preset"));
      const chosen = {};
      for (const [k, v] of f.entries()) if (k.startsWith("rule:") && v) chosen[k.slice(5)] = String(v);
      if (Object.keys(chosen).length) out.rules = chosen;
      return out;
    },
  };
}

/** What the analysis shows during the game: a select named `assistance` (empty: the default). */
export function assistanceField() {
  return el(
    "label",
    { class: "field", for: "assistance" },
    el("span", {}, t("new.assistance")),
    el(
      "select",
      { name: "assistance", id: "assistance" },
      el("option", { value: "" }, t("new.assistance-default")),
      ...["full", "scores", "none"].map((a) => el("option", { value: a }, t(`assistance.${a}`))),
    ),
  );
}

/**
 * The clock: a checkbox and the days per move, which count only while it is checked.
 * `days()` is the number of days, or null for no clock.
 */
function clockFields() {
  const clock = /** @type {HTMLInputElement} */ (el("input", { type: "checkbox", name: "clock", checked: true }));
  const days = field(t("new.days"), { type: "number", name: "days", min: 1, max: 14, value: 3, required: true });
  const input = /** @type {HTMLInputElement} */ (days.querySelector("input"));
  clock.addEventListener("change", () => {
    input.disabled = !clock.checked;
  });
  return {
    nodes: [el("label", { class: "check" }, clock, ` ${t("new.clock")}`), days],
    days: () => (clock.checked ? Number(input.value) : null),
  };
}

/**
 * A time bank instead of days per move (with the clock on): each player's bank of hours
 * at the start, the hours each of their turns adds, and the most a bank holds.
 * `value()` is the request's `time_bank`, or null when it is not chosen.
 */
function bankFields() {
  const on = /** @type {HTMLInputElement} */ (el("input", { type: "checkbox", name: "time_bank" }));
  const initial = field(t("new.bank-initial"), { type: "number", name: "bank_initial", min: 1, max: 2160, value: 240 });
  const per = field(t("new.bank-per-move"), { type: "number", name: "bank_per_move", min: 0, max: 720, value: 36 });
  const max = field(t("new.bank-max"), { type: "number", name: "bank_max", min: 1, max: 2160, value: 480 });
  const inputs = [initial, per, max].map((f) => /** @type {HTMLInputElement} */ (f.querySelector("input")));
  const sync = () => inputs.forEach((i) => (i.disabled = !on.checked));
  on.addEventListener("change", sync);
  sync();
  return {
    node: el(
      "fieldset",
      { class: "time-bank" },
      el("legend", {}, t("new.bank")),
      el("label", { class: "check" }, on, ` ${t("new.bank-use")}`),
      el("p", { class: "meta" }, t("new.bank-hint")),
      initial,
      per,
      max,
    ),
    value: () =>
      on.checked
        ? { initial_hours: Number(inputs[0].value), hours_per_move: Number(inputs[1].value), max_hours: Number(inputs[2].value) }
        : null,
  };
}

export async function newGamePage(ctx) {
  // the tiles (for the expansions) and the house rules, then the page at once
  const [catalog, rules] = await Promise.all([api.tiles(), api.get("/v1/rules")]);
  ctx.main.append(
    el("h1", {}, t("new.title")),
    el("p", {}, t("new.or-seek"), " ", el("a", { href: "/play/lobby" }, t("new.seek-link"))),
  );
  const house = houseRulesFields(rules);
  const clock = clockFields();
  const bank = bankFields();
  const form = el(
    "form",
    { class: "card" },
    seatsField("seats"),
    expansionsField(catalog),
    house.node,
    ...clock.nodes,
    bank.node,
    field(t("new.invite"), { name: "invite", autocomplete: "off", autocapitalize: "none" }),
    el(
      "div",
      { class: "row" },
      el("label", { class: "field", for: "bots" }, el("span", {}, t("new.bots")), el("select", { name: "bots", id: "bots" }, ...[0, 1, 2, 3, 4, 5].map((n) => el("option", { value: n }, String(n))))),
      el("label", { class: "field", for: "bot-level" }, el("span", {}, t("new.bot-level")), el("select", { name: "bot_level", id: "bot-level" }, ...["greedy", "mcts", "expert", "random"].map((l) => el("option", { value: l }, t(`bot.${l}`))))),
    ),
    el("label", { class: "check" }, el("input", { type: "checkbox", name: "rated" }), ` ${t("new.rated")}`),
    el("label", { class: "check" }, el("input", { type: "checkbox", name: "private" }), ` ${t("new.private")}`),
    el("p", { class: "meta" }, t("new.rated-hint")),
    assistanceField(),
    el("button", { type: "submit", class: "primary" }, t("new.submit")),
  );
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const f = new FormData(form);
    /** @type {any} CreateGameRequest */
    const body = {
      seats: Number(f.get("seats")),
      expansions: f.getAll("expansions").map(String),
      rated: f.has("rated"),
      visibility: f.has("private") ? "private" : "public",
    };
    if (f.get("assistance")) body.assistance = String(f.get("assistance"));
    /** @type {any} GameOptions */
    const options = house.value(f);
    const days = clock.days();
    const timeBank = days !== null ? bank.value() : null;
    if (timeBank) options.time_bank = timeBank;
    else if (days !== null) options.days_per_move = days;
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

/**
 * A list read page by page: `load(cursor)` gives one page as `{items, next}`, `add(item)`
 * shows an item in `list`; a "More" button reads the next page while there is one, and
 * `empty` shows while there is nothing at all. Resolves once the first page is shown.
 * @template T
 * @param {HTMLElement} host where the list, the note and the button go
 * @param {HTMLElement} list
 * @param {string} empty
 * @param {(cursor: string | null) => Promise<{items: T[], next: string | null}>} load
 * @param {(item: T) => void} add
 */
export async function paged(host, list, empty, load, add) {
  const none = el("p", { class: "meta", hidden: true }, empty);
  const more = /** @type {HTMLButtonElement} */ (el("button", { type: "button", hidden: true }, t("list.more")));
  host.append(list, none, more);
  let cursor = null;
  let shown = 0;
  async function next() {
    const page = await load(cursor);
    page.items.forEach(add);
    shown += page.items.length;
    cursor = page.next;
    list.hidden = shown === 0;
    none.hidden = shown > 0 || Boolean(cursor);
    more.hidden = !cursor;
  }
  more.addEventListener("click", async () => {
    more.disabled = true;
    try {
      await next();
    } catch (e) {
      fail(e);
    } finally {
      more.disabled = false;
    }
  });
  await next();
}

function seekItem(s) {
  const terms = [
    s.expansions.length ? i18n.list(s.expansions.map(expansionName)) : t("lobby.base-game"),
    s.days_per_move ? t("lobby.days", { count: s.days_per_move }) : t("lobby.no-clock"),
    s.rated ? t("lobby.rated") : t("lobby.casual"),
  ];
  const rules = rulesLine(s.rules);
  if (rules) terms.push(rules);
  if (s.min_rating != null && s.max_rating != null) terms.push(t("lobby.rating-between", { min: s.min_rating, max: s.max_rating }));
  else if (s.min_rating != null) terms.push(t("lobby.rating-from", { min: s.min_rating }));
  else if (s.max_rating != null) terms.push(t("lobby.rating-to", { max: s.max_rating }));
  if (s.min_finish_rate) terms.push(t("lobby.finish-from", { rate: i18n.percent(s.min_finish_rate) }));
  const li = el(
    "li",
    { class: "game" },
    el("span", {}, ...fill(t("lobby.seek", { taken: s.players.length, seats: s.seats }), { by: playerLink(s.creator) })),
    el("span", { class: "meta" }, terms.join(" · ")),
  );
  if (s.players.length > 1) li.append(el("span", { class: "meta" }, ...fill(t("lobby.players"), { names: playerLinks(s.players) })));
  li.append(
    el("span", { class: "meta" }, t("lobby.expires"), " ", el("time", { datetime: s.expires_at, title: when(s.expires_at) }, relative(s.expires_at))),
  );
  return li;
}

/** The form that posts a seek (POST /v1/seeks). */
function seekForm(ctx, catalog) {
  const clock = clockFields();
  const form = el(
    "form",
    { class: "card", "aria-labelledby": "h-post" },
    el("h2", { id: "h-post" }, t("lobby.post-title")),
    seatsField("seek-seats"),
    expansionsField(catalog),
    ...clock.nodes,
    el("label", { class: "check" }, el("input", { type: "checkbox", name: "rated" }), ` ${t("new.rated")}`),
    el(
      "fieldset",
      {},
      el("legend", {}, t("lobby.who")),
      field(t("lobby.min-rating"), { type: "number", name: "min_rating", min: 0, max: 4000, step: 1 }),
      field(t("lobby.max-rating"), { type: "number", name: "max_rating", min: 0, max: 4000, step: 1 }),
      field(t("lobby.min-finish"), { type: "number", name: "min_finish", min: 0, max: 100, step: 1 }),
      el("p", { class: "meta" }, t("lobby.who-hint")),
    ),
    el("button", { type: "submit", class: "primary" }, t("lobby.post")),
  );
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const f = new FormData(form);
    /** The number in a field, or null when it is left empty. */
    const number = (name) => {
      const v = String(f.get(name) || "").trim();
      return v ? Number(v) : null;
    };
    /** @type {any} CreateSeekRequest */
    const body = { seats: Number(f.get("seats")), expansions: f.getAll("expansions").map(String), rated: f.has("rated") };
    const days = clock.days();
    if (days !== null) body.days_per_move = days;
    const min = number("min_rating");
    const max = number("max_rating");
    const finish = number("min_finish");
    if (min !== null) body.min_rating = min;
    if (max !== null) body.max_rating = max;
    if (finish !== null) body.min_finish_rate = finish / 100;
    busy(form, async () => {
      await api.post("/v1/seeks", body);
      ctx.go("/play/lobby", { replace: true });
      announce(t("lobby.posted"));
    });
  });
  return form;
}

/** A page of seeks (GET /v1/seeks) as `paged` reads it. */
async function seeks(mine, cursor) {
  const q = new URLSearchParams({ mine: String(mine), limit: "50" });
  if (cursor) q.set("cursor", cursor);
  const page = await api.get(`/v1/seeks?${q}`);
  return { items: page.seeks, next: page.next_cursor };
}

/**
 * The lobby: the seeks the player may join, their own open seeks, and a form to post
 * one. While the player is in an open seek, the page follows the live stream: when the
 * seek fills (its game starts), the page goes to the game.
 */
export async function lobbyPage(ctx) {
  const me = api.username();
  const catalog = await api.tiles();
  ctx.main.append(el("h1", {}, t("lobby.title")), el("p", {}, t("lobby.intro")));
  const joinable = el("section", { "aria-labelledby": "h-seeks" }, el("h2", { id: "h-seeks" }, t("lobby.open-title")));
  const mine = el("section", { "aria-labelledby": "h-my-seeks" }, el("h2", { id: "h-my-seeks" }, t("lobby.mine-title")));
  ctx.main.append(joinable, mine, seekForm(ctx, catalog));

  /** A button that acts on a seek, then shows where that leads. */
  const act = (label, f) => {
    const b = /** @type {HTMLButtonElement} */ (el("button", { type: "button" }, label));
    b.addEventListener("click", async () => {
      b.disabled = true;
      try {
        await f();
      } catch (e) {
        b.disabled = false;
        fail(e);
      }
    });
    return b;
  };
  const gamePath = (id) => `/play/games/${encodeURIComponent(id)}`;

  /** The ids of the open seeks the player is in. */
  const waiting = new Set();
  const openList = el("ul", { class: "games" });
  const mineList = el("ul", { class: "games" });
  await Promise.all([
    paged(joinable, openList, t("lobby.none-open"), (cursor) => seeks(false, cursor), (s) => {
      const li = seekItem(s);
      li.append(
        act(t("lobby.join"), async () => {
          const after = await api.post(`/v1/seeks/${encodeURIComponent(s.id)}/join`);
          if (after.game_id) {
            announce(t("lobby.started"));
            ctx.go(gamePath(after.game_id));
          } else {
            ctx.go("/play/lobby", { replace: true });
            announce(t("lobby.joined", { count: after.seats - after.players.length }));
          }
        }),
      );
      openList.append(li);
    }),
    paged(mine, mineList, t("lobby.none-mine"), (cursor) => seeks(true, cursor), (s) => {
      waiting.add(s.id);
      const li = seekItem(s);
      if (s.creator === me) {
        li.append(
          act(t("lobby.withdraw"), async () => {
            await api.del(`/v1/seeks/${encodeURIComponent(s.id)}`);
            ctx.go("/play/lobby", { replace: true });
            announce(t("lobby.withdrawn"));
          }),
        );
      }
      mineList.append(li);
    }),
  ]);

  if (!waiting.size) return;
  let left = false;
  /** Goes to the game a seek of the player's became, if one did. */
  async function follow() {
    for (const id of waiting) {
      const s = await api.get(`/v1/seeks/${encodeURIComponent(id)}`);
      if (left) return;
      if (s.game_id) {
        announce(t("lobby.full"));
        ctx.go(gamePath(s.game_id));
        return;
      }
    }
  }
  const close = api.stream(
    (type) => {
      if (type === "game.started" || type === "stream.reset") follow().catch(fail);
    },
    (live) => {
      ctx.main.dataset.live = live ? "open" : "closed";
      // what happened while it was down
      if (live) follow().catch(fail);
    },
  );
  ctx.onLeave(() => {
    left = true;
    close();
  });
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
