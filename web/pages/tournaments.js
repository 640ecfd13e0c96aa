// Tournaments: the list of events, creating one (with its games' expansions, house
// rules, rated or casual and assistance), and an event's page (join, leave,
// start, the player's next game, standings with tie-breaks, rounds with their tables
// and games, a knockout's bracket, the organiser's adjustments with their reasons).
// Everything is read from /v1/tournaments.

import * as api from "../api.js";
import { t, list } from "../i18n.js";
import { el, announce, fail, field, playerLink, when } from "../ui.js";
import { expansionName, expansionsField, houseRulesFields, assistanceField, rulesLine } from "../forms.js";

/** @typedef {import("../types/api").components["schemas"]["CreateTournamentRequest"]} CreateTournamentRequest */
/** @typedef {import("../types/api").components["schemas"]["StageSettings"]} StageSettings */
/** @typedef {import("../types/api").components["schemas"]["TournamentView"]} TournamentView */
/** @typedef {import("../types/api").components["schemas"]["RoundList"]} RoundList */
/** @typedef {import("../types/api").components["schemas"]["TournamentPlayer"]} TournamentPlayer */
/** @typedef {import("../ui.js").PageContext} PageContext */

/** A tournament's status in words.
 * @param {import("../types/api").components["schemas"]["TournamentStatus"]} s */
function statusName(s) {
  return t(`tournament.status.${s}`);
}

/** A stage's format in words ("Swiss, 5 rounds", "knockout, best of 3").
 * @param {StageSettings} s */
function stageName(s) {
  const parts = [t(`tournament.format.${s.format}`)];
  if (s.format === "swiss" && s.rounds) parts.push(t("tournament.rounds", { count: s.rounds }));
  if (s.double) parts.push(t("tournament.double"));
  if (s.best_of && s.best_of > 1) parts.push(t("tournament.best-of", { count: s.best_of }));
  if (s.table_size && s.table_size > 2) parts.push(t("tournament.table-size", { count: s.table_size }));
  if (s.top) parts.push(t("tournament.top", { count: s.top }));
  return parts.join(", ");
}

/** A number of points as players write it (1, 1.5). @param {number} x */
function points(x) {
  return Number.isInteger(x) ? String(x) : x.toFixed(1);
}

/** @param {import("../ui.js").PageContext} ctx */
export async function tournamentsPage(ctx) {
  ctx.main.append(
    el("h1", {}, t("tournaments.title")),
    el("p", {}, t("tournaments.intro"), " ", el("a", { href: "/play/tournaments/new", id: "new-tournament" }, t("tournaments.new"))),
  );
  /** @type {import("../types/api").components["schemas"]["TournamentList"]} */
  const list = await api.get("/v1/tournaments?limit=50");
  if (!list.tournaments.length) {
    ctx.main.append(el("p", { class: "empty" }, t("tournaments.none")));
    return;
  }
  ctx.main.append(
    el(
      "ul",
      { class: "tournaments" },
      ...list.tournaments.map((x) =>
        el(
          "li",
          {},
          el("a", { href: `/play/tournaments/${x.id}` }, x.name),
          ` · ${statusName(x.status)} · ${t("tournament.players", { count: x.players })} · ${x.stages.map(stageName).join(" → ")}`,
        ),
      ),
    ),
  );
}

/** @param {import("../ui.js").PageContext} ctx */
export async function newTournamentPage(ctx) {
  // the tiles (for the expansions) and the house rules, as for a new game
  /** @type {[import("../types/api").components["schemas"]["TileCatalog"], import("../types/api").components["schemas"]["RuleCatalog"]]} */
  const [catalog, rules] = await Promise.all([api.tiles(), api.get("/v1/rules")]);
  ctx.main.append(el("h1", {}, t("tournaments.new")));
  const house = houseRulesFields(rules);
  const format = el(
    "select",
    { name: "format", id: "t-format" },
    ...["swiss", "round_robin", "knockout"].map((f) => el("option", { value: f }, t(`tournament.format.${f}`))),
  );
  const bestOf = el("select", { name: "best_of", id: "t-best-of" }, ...[1, 3, 5].map((n) => el("option", { value: n }, String(n))));
  const table = el("select", { name: "table_size", id: "t-table" }, ...[2, 3, 4, 5, 6].map((n) => el("option", { value: n }, String(n))));
  const form = el(
    "form",
    { class: "card" },
    field(t("tournament.name"), { name: "name", required: true, maxlength: 80, id: "t-name" }),
    el("label", { class: "field", for: "t-format" }, el("span", {}, t("tournament.format")), format),
    field(t("tournament.swiss-rounds"), { type: "number", name: "rounds", min: 1, max: 20, value: 5 }),
    el("label", { class: "check" }, el("input", { type: "checkbox", name: "double" }), ` ${t("tournament.double-field")}`),
    el("label", { class: "field", for: "t-best-of" }, el("span", {}, t("tournament.best-of-field")), bestOf),
    el("label", { class: "field", for: "t-table" }, el("span", {}, t("tournament.table-size-field")), table),
    field(t("tournament.top-field"), { type: "number", name: "top", min: 0, max: 64, value: 0 }),
    field(t("tournament.days"), { type: "number", name: "days_per_move", min: 1, max: 14, value: 3 }),
    field(t("tournament.max-players"), { type: "number", name: "max_players", min: 2, max: 1024, value: 64 }),
    el("label", { class: "check" }, el("input", { type: "checkbox", name: "start_when_full" }), ` ${t("tournament.start-when-full")}`),
    field(t("tournament.starts-at-field"), { type: "datetime-local", name: "starts_at" }),
    el("label", { class: "check" }, el("input", { type: "checkbox", name: "invitation_only" }), ` ${t("tournament.invitation-only-field")}`),
    field(t("tournament.min-rating-field"), { type: "number", name: "min_rating", min: 0, max: 4000 }),
    field(t("tournament.max-rating-field"), { type: "number", name: "max_rating", min: 0, max: 4000 }),
    el("label", { class: "check" }, el("input", { type: "checkbox", name: "computer_opponents" }), ` ${t("tournament.bots-allowed")}`),
    expansionsField(catalog),
    house.node,
    el("label", { class: "check" }, el("input", { type: "checkbox", name: "rated" }), ` ${t("new.rated")}`),
    el("p", { class: "meta" }, t("tournament.rated-hint")),
    assistanceField(),
    el("button", { type: "submit", class: "primary" }, t("tournament.create")),
  );
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const f = new FormData(form);
    /** @type {StageSettings} */
    const first = { format: /** @type {StageSettings["format"]} */ (String(f.get("format"))), best_of: Number(f.get("best_of")) };
    if (first.format === "swiss") {
      first.rounds = Number(f.get("rounds"));
      first.table_size = Number(f.get("table_size"));
    } else if (f.has("double")) first.double = true;
    const stages = [first];
    const top = Number(f.get("top"));
    if (top > 1) stages.push({ format: "knockout", top, best_of: Number(f.get("best_of")) });
    /** @type {CreateTournamentRequest} */
    const body = {
      name: String(f.get("name")).trim(),
      stages,
      days_per_move: Number(f.get("days_per_move")),
      max_players: Number(f.get("max_players")),
      computer_opponents: f.has("computer_opponents"),
      start_when_full: f.has("start_when_full"),
      invitation_only: f.has("invitation_only"),
      expansions: f.getAll("expansions").map(String),
      rated: f.has("rated"),
      ...house.value(f),
    };
    if (f.get("assistance")) body.assistance = /** @type {CreateTournamentRequest["assistance"]} */ (String(f.get("assistance")));
    const startsAt = String(f.get("starts_at") || "");
    // the browser's local time, sent as UTC
    if (startsAt) body.starts_at = new Date(startsAt).toISOString();
    for (const k of /** @type {("min_rating" | "max_rating")[]} */ (["min_rating", "max_rating"])) {
      const v = String(f.get(k) || "");
      if (v) body[k] = Number(v);
    }
    const button = /** @type {HTMLButtonElement} */ (form.querySelector("button"));
    button.disabled = true;
    try {
      /** @type {import("../types/api").components["schemas"]["TournamentView"]} */
      const made = await api.post("/v1/tournaments", body);
      announce(t("tournament.created"));
      ctx.go(`/play/tournaments/${made.id}`);
    } catch (e) {
      fail(e);
    } finally {
      button.disabled = false;
    }
  });
  ctx.main.append(form);
}

/** The standings of a stage as a table (rank, player, points, tie-breaks).
 * @param {import("../types/api").components["schemas"]["StandingsPage"]} page */
function standingsTable(page) {
  const kinds = page.standings.length ? page.standings[0].tie_breaks.map((b) => b.kind) : [];
  return el(
    "table",
    { class: "standings", id: "standings" },
    el("caption", {}, t("tournament.standings")),
    el(
      "thead",
      {},
      el(
        "tr",
        {},
        el("th", { scope: "col" }, t("tournament.rank")),
        el("th", { scope: "col" }, t("tournament.player")),
        el("th", { scope: "col" }, t("tournament.points")),
        el("th", { scope: "col" }, t("tournament.games")),
        ...kinds.map((k) => el("th", { scope: "col" }, t(`tournament.tb.${k}`))),
      ),
    ),
    el(
      "tbody",
      {},
      ...page.standings.map((s) =>
        el(
          "tr",
          { class: s.withdrawn ? "withdrawn" : null },
          el("td", {}, String(s.rank)),
          el("th", { scope: "row" }, playerLink(s.player.username)),
          el("td", {}, points(s.points)),
          el("td", {}, String(s.games)),
          ...s.tie_breaks.map((b) => el("td", {}, points(b.value))),
        ),
      ),
    ),
  );
}

/** The rounds: each table's players (start order) and its games with their results.
 * @param {RoundList} rounds */
function roundsSection(rounds) {
  const section = el("section", { class: "card", "aria-labelledby": "h-rounds" }, el("h2", { id: "h-rounds" }, t("tournament.rounds-title")));
  for (const r of rounds.rounds) {
    const items = r.tables.map((tb) => {
      const games = tb.games.map((g) => {
        const label = g.scores ? g.scores.join("–") : g.status ? t(`tournament.game.${g.status}`) : t("tournament.game.pending");
        return g.game_id ? el("a", { href: `/play/games/${g.game_id}`, class: "tournament-game" }, label) : el("span", {}, label);
      });
      return el(
        "li",
        {},
        tb.bracket ? `${tb.bracket}: ` : "",
        ...tb.players.flatMap((p, i) => (i ? [" – ", playerLink(p.username)] : [playerLink(p.username)])),
        " · ",
        ...games.flatMap((g, i) => (i ? [", ", g] : [g])),
      );
    });
    const byes = r.byes.length ? [el("li", {}, t("tournament.byes", { names: r.byes.map((p) => p.username).join(", ") }))] : [];
    section.append(
      el("h3", {}, t("tournament.round", { stage: r.stage + 1, round: r.round })),
      el("ul", { class: "tables" }, ...items, ...byes),
    );
  }
  if (!rounds.rounds.length) section.append(el("p", { class: "empty" }, t("tournament.no-rounds")));
  return section;
}

/** @param {import("../ui.js").PageContext} ctx @param {string} id */
export async function tournamentPage(ctx, id) {
  /** @type {import("../types/api").components["schemas"]["TournamentView"]} */
  const v = await api.get(`/v1/tournaments/${encodeURIComponent(id)}`);
  const me = api.username();
  ctx.main.append(el("h1", {}, v.name));
  const facts = [
    `${statusName(v.status)} · ${t("tournament.players", { count: v.players })} · ${t("tournament.organised-by", { name: v.organiser })}`,
    v.stages.map(stageName).join(" → "),
  ];
  if (v.days_per_move) facts.push(t("tournament.clock", { days: v.days_per_move }));
  // the terms of every game
  facts.push(v.expansions.length ? t("tournament.expansions", { names: list(v.expansions.map(expansionName)) }) : t("tournament.base-game"));
  const rules = rulesLine(v.rules);
  if (rules) facts.push(rules);
  facts.push(t(v.rated ? "tournament.rated" : "tournament.casual"));
  facts.push(t(`game.assistance-${v.assistance}`));
  if (v.invitation_only) facts.push(t(v.invited ? "tournament.invitation-only-invited" : "tournament.invitation-only"));
  if (v.min_rating != null || v.max_rating != null) {
    const bounds = v.expansions.length ? "tournament.rating-bounds-expansions" : "tournament.rating-bounds";
    facts.push(t(bounds, { min: v.min_rating ?? 0, max: v.max_rating ?? 4000 }));
  }
  if (v.status === "registering" && v.start_when_full) facts.push(t("tournament.starts-when-full", { count: v.max_players }));
  if (v.status === "running") facts.push(t("tournament.current", { stage: v.current_stage + 1, round: v.current_round }));
  if (v.paused_at) {
    facts.push(t("tournament.paused-since", { when: when(v.paused_at), reason: v.pause_reason ?? "" }));
  } else if (v.round_deadline) facts.push(t("tournament.deadline", { when: when(v.round_deadline) }));
  if (v.status === "registering" && v.starts_at) facts.push(t("tournament.starts-at", { when: when(v.starts_at) }));
  else if (v.next_round_at) facts.push(t("tournament.next-round", { when: when(v.next_round_at) }));
  ctx.main.append(el("section", { class: "card" }, ...facts.map((f) => el("p", {}, f)), actions(ctx, v, me)));
  if (v.organiser === me && v.status !== "ended") ctx.main.append(inviteForm(ctx, v));
  if (v.organiser === me && v.status === "running" && !v.paused_at) ctx.main.append(pauseForm(ctx, v));

  if (v.registered && v.status !== "registering") {
    /** @type {import("../types/api").components["schemas"]["TournamentGameList"]} */
    const mine = await api.get(`/v1/tournaments/${encodeURIComponent(id)}/games?player=me`);
    const next = mine.games.find((g) => g.status === "active");
    ctx.main.append(
      el(
        "p",
        { class: "next-game" },
        next ? el("a", { href: `/play/games/${next.game_id}`, id: "next-game" }, t("tournament.your-next-game")) : t("tournament.no-next-game"),
      ),
    );
  }
  if (v.status === "registering") return;
  const stage = v.status === "ended" ? Math.max(0, v.stages.length - 1) : v.current_stage;
  for (let s = 0; s <= stage; s++) {
    if (v.stages[s] && v.stages[s].format === "knockout") {
      /** @type {import("../types/api").components["schemas"]["BracketView"]} */
      const b = await api.get(`/v1/tournaments/${encodeURIComponent(id)}/bracket?stage=${s}`);
      ctx.main.append(
        el(
          "section",
          { class: "card bracket", "aria-labelledby": `h-bracket-${s}` },
          el("h2", { id: `h-bracket-${s}` }, t("tournament.bracket", { stage: s + 1 })),
          el(
            "ul",
            {},
            ...b.matches.map((m) =>
              el(
                "li",
                {},
                `${m.name}: `,
                m.players.map((p) => (p ? p.username : t("tournament.to-come"))).join(" – "),
                m.winner ? ` · ${t("tournament.winner", { name: m.winner.username })}` : "",
              ),
            ),
          ),
        ),
      );
    } else {
      /** @type {import("../types/api").components["schemas"]["StandingsPage"]} */
      const st = await api.get(`/v1/tournaments/${encodeURIComponent(id)}/standings?stage=${s}&limit=200`);
      ctx.main.append(el("section", { class: "card" }, el("h2", {}, t("tournament.stage", { stage: s + 1 })), standingsTable(st)));
    }
  }
  /** @type {import("../types/api").components["schemas"]["RoundList"]} */
  const rounds = await api.get(`/v1/tournaments/${encodeURIComponent(id)}/rounds?limit=50`);
  ctx.main.append(roundsSection(rounds));
  const made = await adjustmentsMade(id, rounds);
  if (made) ctx.main.append(made);
  if (v.organiser === me && v.status === "running") ctx.main.append(await adjustForm(ctx, v, rounds));
}

/** The organiser's adjustments so far, each with its reason (from the event's log;
 * players are named as the rounds name them). @param {string} id @param {RoundList} rounds */
async function adjustmentsMade(id, rounds) {
  const names = new Map();
  for (const r of rounds.rounds) for (const tb of r.tables) for (const p of tb.players) names.set(p.user_id, p.username);
  const items = [];
  let after = 0;
  for (let page = 0; page < 10; page++) {
    /** @type {import("../types/api").components["schemas"]["TournamentEventList"]} */
    const log = await api.get(`/v1/tournaments/${encodeURIComponent(id)}/events?after=${after}&limit=200`);
    for (const e of log.events) {
      if (e.type !== "organiser_adjusted") continue;
      // the log's payload is free-form JSON in the document
      const payload = /** @type {any} */ (e.payload);
      const a = payload.adjustment || {};
      const what =
        a.kind === "points"
          ? t("tournament.adjusted-points", { name: names.get(a.player) || a.player, points: points(a.half_points / 2) })
          : a.kind === "player_removed"
            ? t("tournament.adjusted-removed", { name: names.get(a.player) || a.player })
            : t("tournament.adjusted-result", { stage: (a.stage || 0) + 1, round: a.round, table: a.table });
      items.push(el("li", {}, `${what}: ${payload.reason}`));
    }
    if (log.next_after == null) break;
    after = log.next_after;
  }
  if (!items.length) return null;
  return el("section", { class: "card", "aria-labelledby": "h-adjustments" }, el("h2", { id: "h-adjustments" }, t("tournament.adjustments")), el("ul", {}, ...items));
}

/** The organiser's form: points to a player, or a recorded game's result replaced,
 * each with the reason the players will see.
 * @param {PageContext} ctx @param {TournamentView} v @param {RoundList} rounds */
async function adjustForm(ctx, v, rounds) {
  /** @type {import("../types/api").components["schemas"]["StandingsPage"]} */
  const st = await api.get(`/v1/tournaments/${encodeURIComponent(v.id)}/standings?stage=${v.current_stage}&limit=200`);
  const kind = el(
    "select",
    { name: "kind", id: "adj-kind" },
    el("option", { value: "points" }, t("tournament.adjust-points")),
    el("option", { value: "result" }, t("tournament.adjust-result")),
    el("option", { value: "remove" }, t("tournament.adjust-remove")),
  );
  const player = el("select", { name: "player", id: "adj-player" }, ...st.standings.map((s) => el("option", { value: s.player.user_id }, s.player.username)));
  // the games with a result, and their tables' players in seat order
  /** @type {{stage: number, round: number, table: number, game: number, players: TournamentPlayer[], scores: number[]}[]} */
  const recorded = [];
  for (const r of rounds.rounds) {
    for (const tb of r.tables) {
      for (const g of tb.games) {
        if (g.scores) recorded.push({ stage: r.stage, round: r.round, table: tb.table, game: g.game, players: tb.players, scores: g.scores });
      }
    }
  }
  const game = el(
    "select",
    { name: "game", id: "adj-game" },
    ...recorded.map((g, i) =>
      el("option", { value: i }, `${t("tournament.round", { stage: g.stage + 1, round: g.round })} · ${g.players.map((p) => p.username).join(" – ")} (${g.scores.join(" – ")})`),
    ),
  );
  const scores = el("div", { class: "row" });
  const showScores = () => {
    const g = recorded[Number(/** @type {HTMLSelectElement} */ (game).value)];
    scores.replaceChildren(...(g ? g.players.map((p, i) => field(t("tournament.score-of", { name: p.username }), { type: "number", name: `score-${i}`, value: g.scores[i], min: -10000, max: 10000 })) : []));
  };
  game.addEventListener("change", showScores);
  showScores();
  const pointsField = field(t("tournament.points-change"), { type: "number", name: "points", step: 0.5, min: -100, max: 100, value: 1 });
  const pointsBox = el("div", {}, el("label", { class: "field" }, el("span", {}, t("tournament.player")), player), pointsField);
  const resultBox = el("div", { hidden: true }, el("label", { class: "field" }, el("span", {}, t("tournament.game-to-correct")), game), scores);
  kind.addEventListener("change", () => {
    const chosen = /** @type {HTMLSelectElement} */ (kind).value;
    pointsBox.hidden = chosen === "result";
    pointsField.hidden = chosen !== "points";
    resultBox.hidden = chosen !== "result";
  });
  const form = el(
    "form",
    { class: "card", "aria-labelledby": "h-adjust" },
    el("h2", { id: "h-adjust" }, t("tournament.adjust")),
    el("label", { class: "field" }, el("span", {}, t("tournament.adjust-kind")), kind),
    pointsBox,
    resultBox,
    field(t("tournament.reason"), { name: "reason", required: true, maxlength: 500, id: "adj-reason" }),
    el("button", { type: "submit", class: "primary" }, t("tournament.adjust-submit")),
  );
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const f = new FormData(/** @type {HTMLFormElement} */ (form));
    const reason = String(f.get("reason") || "");
    let body;
    if (f.get("kind") === "points") {
      body = { kind: "points", player: f.get("player"), points: Number(f.get("points")), reason };
    } else if (f.get("kind") === "remove") {
      body = { kind: "remove", player: f.get("player"), reason };
    } else {
      const g = recorded[Number(f.get("game"))];
      if (!g) return;
      body = { kind: "result", stage: g.stage, round: g.round, table: g.table, game: g.game, scores: g.players.map((_, i) => Number(f.get(`score-${i}`))), reason };
    }
    const button = /** @type {HTMLButtonElement} */ (form.querySelector("button"));
    button.disabled = true;
    try {
      await api.post(`/v1/tournaments/${encodeURIComponent(v.id)}/adjustments`, body);
      announce(t("tournament.adjusted"));
      ctx.go(location.pathname, { replace: true });
    } catch (e) {
      fail(e);
    } finally {
      button.disabled = false;
    }
  });
  return form;
}

/** The organiser invites a player by name (`player_invited`).
 * @param {PageContext} ctx @param {TournamentView} v */
function inviteForm(ctx, v) {
  const form = el(
    "form",
    { class: "card", "aria-labelledby": "h-invite" },
    el("h2", { id: "h-invite" }, t("tournament.invite")),
    field(t("tournament.invite-name"), { name: "username", required: true, maxlength: 64, id: "t-invite" }),
    el("button", { type: "submit", class: "primary" }, t("tournament.invite-submit")),
  );
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const username = String(new FormData(/** @type {HTMLFormElement} */ (form)).get("username") || "").trim();
    const button = /** @type {HTMLButtonElement} */ (form.querySelector("button"));
    button.disabled = true;
    try {
      await api.post(`/v1/tournaments/${encodeURIComponent(v.id)}/invitations`, { username });
      announce(t("tournament.invited", { name: username }));
      /** @type {HTMLFormElement} */ (form).reset();
    } catch (e) {
      fail(e);
    } finally {
      button.disabled = false;
    }
  });
  return form;
}

/** The organiser pauses the running event, with a reason the players see.
 * @param {PageContext} ctx @param {TournamentView} v */
function pauseForm(ctx, v) {
  const form = el(
    "form",
    { class: "card", "aria-labelledby": "h-pause" },
    el("h2", { id: "h-pause" }, t("tournament.pause")),
    el("p", {}, t("tournament.pause-help")),
    field(t("tournament.pause-reason"), { name: "reason", required: true, maxlength: 500, id: "t-pause-reason" }),
    el("button", { type: "submit" }, t("tournament.pause-submit")),
  );
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const reason = String(new FormData(/** @type {HTMLFormElement} */ (form)).get("reason") || "").trim();
    const button = /** @type {HTMLButtonElement} */ (form.querySelector("button"));
    button.disabled = true;
    try {
      await api.post(`/v1/tournaments/${encodeURIComponent(v.id)}/pause`, { reason });
      announce(t("tournament.paused"));
      ctx.go(location.pathname, { replace: true });
    } catch (e) {
      button.disabled = false;
      fail(e);
    }
  });
  return form;
}

/** Join, leave and start (the organiser) as the event allows.
 * @param {PageContext} ctx @param {TournamentView} v @param {string | null} me the player's username */
function actions(ctx, v, me) {
  const box = el("div", { class: "row" });
  /** @param {string} label @param {string} path under the event's @param {string} done what is announced after */
  const act = (label, path, done) => {
    const b = el("button", { type: "button", class: "primary" }, label);
    b.addEventListener("click", async () => {
      b.disabled = true;
      try {
        await api.post(`/v1/tournaments/${encodeURIComponent(v.id)}/${path}`, {});
        announce(done);
        ctx.go(location.pathname, { replace: true });
      } catch (e) {
        b.disabled = false;
        fail(e);
      }
    });
    box.append(b, " ");
  };
  if (!me || v.status === "ended") return box;
  const mayJoin = !v.invitation_only || v.invited;
  if (!v.registered && v.status === "registering" && mayJoin) act(t("tournament.join"), "join", t("tournament.joined"));
  if (v.registered) act(t("tournament.leave"), "leave", t("tournament.left"));
  if (v.organiser === me && v.status === "registering") act(t("tournament.start"), "start", t("tournament.started"));
  if (v.organiser === me && v.status === "running" && v.paused_at) act(t("tournament.resume"), "resume", t("tournament.resumed"));
  return box;
}

/** The line of a game page that says which event and round the game belongs to.
 * @param {import("../types/api").components["schemas"]["GameTournament"]} tournament */
export function gameTournamentLine(tournament) {
  return el(
    "p",
    { class: "game-tournament" },
    el("a", { href: `/play/tournaments/${tournament.id}` }, tournament.name),
    ` · ${t("tournament.round", { stage: tournament.stage + 1, round: tournament.round })}`,
    tournament.game > 0 ? ` · ${t("tournament.match-game", { game: tournament.game + 1 })}` : "",
  );
}
