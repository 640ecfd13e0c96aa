// The lobby: seeks, games looking for players (join, withdraw, post).

import * as api from "../api.js";
import * as i18n from "../i18n.js";
import { t } from "../i18n.js";
import { el, announce, fail, field, busy, fill, playerLink, playerLinks, when, relative, paged } from "../ui.js";
import { expansionName, seatsField, expansionsField, rulesLine, clockFields } from "../forms.js";

/** @typedef {import("../types/api").components["schemas"]["SeekView"]} SeekView */

/** One seek in a list. @param {SeekView} s */
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

/**
 * The form that posts a seek (POST /v1/seeks).
 * @param {import("../ui.js").PageContext} ctx
 * @param {import("../types/api").components["schemas"]["TileCatalog"]} catalog
 */
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
    /** The number in a field, or null when it is left empty. @param {string} name */
    const number = (name) => {
      const v = String(f.get(name) || "").trim();
      return v ? Number(v) : null;
    };
    /** @type {import("../types/api").components["schemas"]["CreateSeekRequest"]} */
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

/**
 * A page of seeks (GET /v1/seeks) as `paged` reads it.
 * @param {boolean} mine the player's own seeks, else those they may join
 * @param {string | null | undefined} cursor
 */
async function seeks(mine, cursor) {
  const q = new URLSearchParams({ mine: String(mine), limit: "50" });
  if (cursor) q.set("cursor", cursor);
  /** @type {import("../types/api").components["schemas"]["SeekList"]} */
  const page = await api.get(`/v1/seeks?${q}`);
  return { items: page.seeks, next: page.next_cursor };
}

/**
 * The lobby: the seeks the player may join, their own open seeks, and a form to post
 * one. While the player is in an open seek, the page follows the live stream: when the
 * seek fills (its game starts), the page goes to the game.
 * @param {import("../ui.js").PageContext} ctx
 */
export async function lobbyPage(ctx) {
  const me = api.username();
  const catalog = await api.tiles();
  ctx.main.append(el("h1", {}, t("lobby.title")), el("p", {}, t("lobby.intro")));
  const joinable = el("section", { "aria-labelledby": "h-seeks" }, el("h2", { id: "h-seeks" }, t("lobby.open-title")));
  const mine = el("section", { "aria-labelledby": "h-my-seeks" }, el("h2", { id: "h-my-seeks" }, t("lobby.mine-title")));
  ctx.main.append(joinable, mine, seekForm(ctx, catalog));

  /** A button that acts on a seek, then shows where that leads. @param {string} label @param {() => Promise<void>} f */
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
  /** @param {string} id */
  const gamePath = (id) => `/play/games/${encodeURIComponent(id)}`;

  /** The ids of the open seeks the player is in. @type {Set<string>} */
  const waiting = new Set();
  const openList = el("ul", { class: "games" });
  const mineList = el("ul", { class: "games" });
  await Promise.all([
    paged(joinable, openList, t("lobby.none-open"), (cursor) => seeks(false, cursor), (s) => {
      const li = seekItem(s);
      li.append(
        act(t("lobby.join"), async () => {
          /** @type {import("../types/api").components["schemas"]["SeekView"]} */
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
      /** @type {import("../types/api").components["schemas"]["SeekView"]} */
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
