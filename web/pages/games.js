// My games (my turn first) and the open games to join.

import * as api from "../api.js";
import { t } from "../i18n.js";
import { el, announce, fail, fill, playerLink, playerLinks, when, relative } from "../ui.js";

/**
 * One game in a list (GameSummary).
 * @param {import("../types/api").components["schemas"]["GameSummary"]} g
 * @param {string | null} me the player's username (null when signed out)
 */
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

/** @param {import("../ui.js").PageContext} ctx */
export async function gamesPage(ctx) {
  const me = api.username();
  ctx.main.append(el("h1", {}, t("games.title")));
  /** @type {[import("../types/api").components["schemas"]["GameList"], import("../types/api").components["schemas"]["GameList"], import("../types/api").components["schemas"]["UserView"]]} */
  const [mine, open, user] = await Promise.all([
    api.get("/v1/games?player=me&limit=100"),
    api.get("/v1/games?status=open&limit=50"),
    api.get("/v1/users/me"),
  ]);
  if (user.waiting && user.waiting.invitations > 0) {
    ctx.main.append(el("p", { class: "note" }, t("games.invitations", { count: user.waiting.invitations })));
  }
  /** @type {[string, string, import("../types/api").components["schemas"]["GameSummary"][]][]} */
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
          /** @type {import("../types/api").components["schemas"]["GameView"]} */
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
