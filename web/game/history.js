// The game page's side: the scores table (points, figures left, the expansions'
// holdings), my standing orders, and the history, latest first.

import { el, when, playerLink } from "../ui.js";
import { t } from "../i18n.js";
import { figureIcon, figureCount } from "../board.js";
import { nameOf, viewOf } from "./state.js";
import { describeEntry } from "./words.js";

/** @typedef {import("./state.js").GameState} GameState */
/** @typedef {import("../types/api").components["schemas"]["PlayerView"]} PlayerView */

/** A player's row of the scores table. @param {GameState} g @param {PlayerView} p */
function scoreRow(g, p) {
  const v = viewOf(g);
  const who = el("th", { scope: "row" }, figureIcon("follower", p.colour, p.seat), " ", playerLink(p.username));
  if (v.pending && v.pending.seat === p.seat) who.append(el("span", { class: "turn-mark" }, ` ${t("scores.to-play")}`));
  if (!p.active) who.append(` ${t("scores.left")}`);
  if (p.bot) who.append(el("span", { class: "bot" }, ` ${t("scores.bot", { level: t(`bot.${p.bot}`) })}`));
  // the expansions' holdings
  const extra = [];
  const goods = p.goods;
  if (goods && goods.wine + goods.grain + goods.cloth > 0) extra.push(t("scores.goods", { wine: goods.wine, grain: goods.grain, cloth: goods.cloth }));
  if (p.gold) extra.push(t("scores.gold", { count: p.gold }));
  if (typeof p.hand === "number") extra.push(t("scores.hand", { count: p.hand }));
  if (p.track && p.track.length > 1) extra.push(t("scores.track", { meeple: p.track[0], messenger: p.track[1] }));
  if (p.robber != null) extra.push(t("scores.robber", { space: p.robber }));
  if (p.abbey) extra.push(t("scores.abbey"));
  if (extra.length) who.append(el("span", { class: "extra" }, extra.join("; ")));
  const supply = Object.entries(p.supply || {})
    .filter(([, n]) => n > 0)
    .map(([k, n]) => figureCount(k, n))
    .join(", ");
  return el("tr", { class: p.username === g.me ? "me" : "" }, who, el("td", {}, String(p.score)), el("td", {}, supply || "0"));
}

/** The scores table. @param {GameState} g */
function scoresTable(g) {
  const table = el(
    "table",
    { class: "scores" },
    el("caption", {}, t("scores.title")),
    el("thead", {}, el("tr", {}, el("th", { scope: "col" }, t("scores.player")), el("th", { scope: "col" }, t("scores.points")), el("th", { scope: "col" }, t("scores.figures")))),
  );
  const tbody = el("tbody");
  for (const p of viewOf(g).players) tbody.append(scoreRow(g, p));
  table.append(tbody);
  return table;
}

/** The history, latest first. @param {GameState} g */
function historyList(g) {
  const hist = el("ol", { class: "history", "aria-label": t("history.latest-first") });
  for (const e of [...g.events].reverse()) {
    const lines = describeEntry(e, (s) => nameOf(g, s));
    if (e.decided_by) lines.push(t(`history.by-${e.decided_by.replace(/_/g, "-")}`));
    hist.append(el("li", {}, el("time", { datetime: e.at, title: when(e.at) }, `#${e.seq}`), " ", lines.join(" ")));
  }
  return hist;
}

/** Draws the side: scores, my standing orders (if any), history. @param {GameState} g */
export function renderSide(g) {
  g.dom.side.replaceChildren(
    el("section", { class: "card" }, scoresTable(g)),
    ...(g.automationCard ? [g.automationCard] : []),
    el("section", { class: "card", "aria-labelledby": "h-hist" }, el("h2", { id: "h-hist" }, t("history.title")), historyList(g)),
  );
}
