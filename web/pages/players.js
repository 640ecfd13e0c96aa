// The players' pages: a profile (ratings by pool, the record, recent games) and the
// leaderboard.

import * as api from "../api.js";
import * as i18n from "../i18n.js";
import { t } from "../i18n.js";
import { el, playerLink, paged, when } from "../ui.js";

/** The rating pools: games without expansions, and games with any. */
const POOLS = ["base", "expansions"];

/** A pool's name in the page's language (the base game's when none is given).
 * @param {string | null | undefined} pool */
function poolName(pool) {
  return pool === "expansions" ? t("pool.expansions") : t("pool.base");
}

/** A rating change: "+12", "−3", "±0". @param {number} n */
function signed(n) {
  if (n > 0) return `+${n}`;
  if (n < 0) return `−${-n}`;
  return "±0";
}

/** A player's public page (GET /v1/users/{username}): figures, ratings, recent games. @param {import("../ui.js").PageContext} ctx @param {string} name */
export async function profilePage(ctx, name) {
  /** @type {import("../types/api").components["schemas"]["ProfileView"]} */
  const p = await api.get(`/v1/users/${encodeURIComponent(name)}`);
  ctx.main.append(el("h1", {}, t("profile.title", { name: p.username })));
  const about = [t("profile.joined", { date: when(p.joined) })];
  if (p.bot === "account") about.push(t("profile.bot-account"));
  else if (p.bot) about.push(t("profile.bot", { level: t(`bot.${p.bot}`) }));
  ctx.main.append(el("p", { class: "meta" }, about.join(" ")));

  const none = "–";
  const facts = [
    [t("profile.played"), String(p.games_played)],
    [t("profile.finished"), String(p.games_finished)],
    [t("profile.won"), String(p.games_won)],
    [t("profile.resigned"), String(p.games_resigned)],
    [t("profile.timed-out"), String(p.games_timed_out)],
    [t("profile.uncounted"), String(p.games_uncounted ?? 0)],
    [t("profile.finish-rate"), p.finish_rate == null ? none : i18n.percent(p.finish_rate)],
    [t("profile.timeout-rate"), p.timeout_rate == null ? none : i18n.percent(p.timeout_rate)],
    [t("profile.move-time"), p.average_move_seconds == null ? none : i18n.duration(p.average_move_seconds)],
  ];
  ctx.main.append(
    el(
      "section",
      { class: "card", "aria-labelledby": "h-record" },
      el("h2", { id: "h-record" }, t("profile.record")),
      el("dl", { class: "facts" }, ...facts.flatMap(([k, v]) => [el("dt", {}, k), el("dd", {}, v)])),
    ),
  );

  const ratings = el("section", { class: "card", "aria-labelledby": "h-ratings" }, el("h2", { id: "h-ratings" }, t("profile.ratings")));
  if (p.ratings.length) {
    const head = el(
      "tr",
      {},
      ...[t("profile.pool"), t("profile.rating"), t("profile.games")].map((h) => el("th", { scope: "col" }, h)),
    );
    const rows = p.ratings.map((r) =>
      el(
        "tr",
        {},
        el("th", { scope: "row" }, poolName(r.pool)),
        el("td", {}, `${r.rating} ±${r.deviation}`, r.provisional ? el("span", { class: "meta" }, ` ${t("profile.provisional")}`) : null),
        el("td", {}, String(r.games)),
      ),
    );
    ratings.append(el("table", { class: "scores" }, el("thead", {}, head), el("tbody", {}, ...rows)));
    if (p.ratings.some((r) => r.provisional)) ratings.append(el("p", { class: "meta" }, t("profile.provisional-hint")));
  } else {
    ratings.append(el("p", {}, t("profile.no-ratings")));
  }
  if (p.games_uncounted > 0) ratings.append(el("p", { class: "meta" }, t("profile.uncounted-hint")));
  ratings.append(el("p", {}, el("a", { href: "/play/leaderboard" }, t("profile.leaderboard"))));
  ctx.main.append(ratings);

  const recent = el("section", { "aria-labelledby": "h-recent" }, el("h2", { id: "h-recent" }, t("profile.recent")));
  if (p.recent_games.length) {
    recent.append(
      el(
        "ul",
        { class: "games" },
        ...p.recent_games.map((r) => {
          const result = [
            t("profile.rank", { rank: r.rank, seats: r.seats }),
            t("profile.score", { count: r.score }),
            t(`outcome.${r.outcome}`),
          ];
          const rating =
            r.rating_before != null && r.rating_after != null
              ? t("profile.rating-change", { pool: poolName(r.pool), before: r.rating_before, after: r.rating_after, change: signed(r.rating_after - r.rating_before) })
              : r.unrated_reason
                ? t("profile.unrated", { pool: poolName(r.pool), reason: t(`unrated.${r.unrated_reason}`) })
                : t(r.rated ? "profile.rated" : "profile.casual");
          return el(
            "li",
            { class: "game" },
            el("a", { href: `/play/games/${encodeURIComponent(r.game_id)}` }, t("profile.game", { game: r.game_id.slice(0, 8) })),
            el("span", {}, result.join(" · ")),
            el("span", { class: "meta" }, el("time", { datetime: r.ended_at }, when(r.ended_at)), ` · ${rating}`),
          );
        }),
      ),
    );
  } else {
    recent.append(el("p", {}, t("profile.no-games")));
  }
  ctx.main.append(recent);
}

/** The leaderboard of a pool (GET /v1/leaderboard), best first, page by page; the pool
 * is the page's `?pool=` (base by default). @param {import("../ui.js").PageContext} ctx */
export async function leaderboardPage(ctx) {
  const pool = new URLSearchParams(location.search).get("pool") === "expansions" ? "expansions" : "base";
  ctx.main.append(el("h1", {}, t("leaderboard.title")), el("p", {}, t("leaderboard.intro")));
  ctx.main.append(
    el(
      "nav",
      { "aria-label": t("leaderboard.pool") },
      el(
        "ul",
        { class: "pools" },
        ...POOLS.map((p) =>
          el("li", {}, el("a", { href: p === "base" ? "/play/leaderboard" : `/play/leaderboard?pool=${p}`, "aria-current": p === pool ? "page" : null }, poolName(p))),
        ),
      ),
    ),
  );
  const box = el("div", { class: "card" });
  ctx.main.append(box);
  const tbody = el("tbody");
  const table = el(
    "table",
    { class: "scores" },
    el("caption", {}, poolName(pool)),
    el(
      "thead",
      {},
      el(
        "tr",
        {},
        ...[t("leaderboard.rank"), t("scores.player"), t("profile.rating"), t("profile.games")].map((h) => el("th", { scope: "col" }, h)),
      ),
    ),
    tbody,
  );
  let rank = 0;
  await paged(
    box,
    table,
    t("leaderboard.empty"),
    async (cursor) => {
      const q = new URLSearchParams({ pool, limit: "50" });
      if (cursor) q.set("cursor", cursor);
      /** @type {import("../types/api").components["schemas"]["Leaderboard"]} */
      const page = await api.get(`/v1/leaderboard?${q}`);
      return { items: page.entries, next: page.next_cursor };
    },
    (e) => {
      rank += 1;
      tbody.append(
        el(
          "tr",
          { class: e.username === api.username() ? "me" : "" },
          el("td", {}, String(rank)),
          el("th", { scope: "row" }, playerLink(e.username)),
          el("td", {}, `${e.rating} ±${e.deviation}`),
          el("td", {}, String(e.games)),
        ),
      );
    },
  );
}

/** A seek in words: who seeks, the seats taken, and the game's terms. */
