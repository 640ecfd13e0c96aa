// Seeing the game, on the game page: the analysis of the position (the score if the
// game ended now, the tiles left and where they fit, the open features with their
// chances; as far as the game's assistance shows while it runs), and once it is over
// a step-through viewer of the whole game (keyboard: ←/→, Home/End; `?v=57` opens it at
// a version), a chart of every player's points and score-if-ended-now, and the
// strongest bot's review with each player's biggest losses.

import * as api from "./api.js";
import { t, percent } from "./i18n.js";
import { el, fail } from "./ui.js";
import { COLOURS } from "./board.js";

/** @typedef {import("./types/api").components["schemas"]["GameView"]} GameView */
/** @typedef {import("./types/api").components["schemas"]["TimelineView"]} TimelineView */
/** @typedef {import("./types/api").components["schemas"]["HistoryEntry"]} HistoryEntry */
/** @typedef {import("./types/api").components["schemas"]["ActionDto"]} ActionDto */

/**
 * The analysis card, or null when the game shows none now.
 * @param {GameView} view
 * @param {(id: string) => string} tileName
 * @param {(seat: number) => string} nameOf
 */
export async function analysisCard(view, tileName, nameOf) {
  if (view.status === "open" || (view.status === "active" && view.assistance === "none")) return null;
  const enc = encodeURIComponent(view.id);
  /** @type {import("./types/api").components["schemas"]["AnalysisView"]} */
  let a;
  try {
    a = await api.get(`/v1/games/${enc}/analysis`);
  } catch (e) {
    // a spectator of a game with hidden hands: nothing to show
    if (e instanceof api.ApiProblem && e.status === 403) return null;
    throw e;
  }
  const card = el("section", { class: "card analysis", "aria-labelledby": "h-analysis" }, el("h2", { id: "h-analysis" }, t("analysis.title")));
  // the score if it ended now
  const table = el(
    "table",
    { class: "scores" },
    el("caption", {}, t("analysis.if-ended")),
    el("thead", {}, el("tr", {}, el("th", { scope: "col" }, t("scores.player")), el("th", { scope: "col" }, t("analysis.now")), el("th", { scope: "col" }, t("analysis.ended")))),
  );
  const body = el("tbody");
  for (const s of a.scores) {
    const p = s.parts;
    const parts = [
      ["roads", p.roads],
      ["cities", p.cities],
      ["monasteries", p.monasteries],
      ["fields", p.fields],
    ]
      .filter(([, n]) => n)
      .map(([k, n]) => t(`analysis.part-${k}`, { points: n }));
    for (const x of p.expansions || []) if (x.points) parts.push(t("analysis.part-expansion", { expansion: t(`expansion.${x.expansion}`), points: x.points }));
    if (p.track) parts.push(t("analysis.part-track", { points: p.track }));
    body.append(
      el(
        "tr",
        {},
        el("th", { scope: "row" }, nameOf(s.player)),
        el("td", {}, String(s.score)),
        el("td", {}, String(s.if_ended), parts.length ? el("span", { class: "extra" }, parts.join(", ")) : ""),
      ),
    );
  }
  table.append(body);
  card.append(table);
  // the tiles left
  const tiles = el("ul", { class: "tracker", "aria-label": t("analysis.tiles", { count: a.tiles.left }) });
  for (const k of a.tiles.kinds) {
    tiles.append(
      el(
        "li",
        {},
        el("img", { src: api.tileSvg(k.tile, 40), alt: "", width: "40", height: "40", loading: "lazy" }),
        el("span", {}, t("analysis.tile-left", { count: k.count, tile: tileName(k.tile) }), el("span", { class: "extra" }, t("analysis.tile-fits", { count: k.cells }))),
      ),
    );
  }
  // folded: a game with every expansion has some 180 types to come, and their pictures
  // load only when it is opened
  card.append(el("details", { class: "tracker-box" }, el("summary", {}, t("analysis.tiles", { count: a.tiles.left })), tiles));
  // the open features (with full assistance, or once over)
  if (a.features) {
    const list = el("ul", { class: "features" });
    for (const f of a.features) {
      const owners = f.owners.length ? f.owners.map(nameOf).join(", ") : t("analysis.nobody");
      const where = t("analysis.at", { x: f.feature.x, y: f.feature.y });
      const chance = f.dead ? t("analysis.dead") : t("analysis.chance", { chance: percent(f.chance) });
      list.append(
        el(
          "li",
          { class: f.dead ? "dead" : "" },
          el("strong", {}, t("analysis.feature", { feature: t(`feature.${f.feature.kind}`), tiles: f.feature.tiles })),
          ` ${where}: `,
          t("analysis.feature-line", { owners, now: f.worth_now, completed: f.worth_completed, cells: f.needs.length }),
          " ",
          el("span", { class: "chance" }, chance),
        ),
      );
    }
    card.append(el("h3", {}, t("analysis.features")), a.features.length ? list : el("p", { class: "meta" }, t("analysis.no-features")));
  } else {
    card.append(el("p", { class: "meta" }, t("analysis.scores-only")));
  }
  return card;
}

/**
 * The review card of a finished game: the viewer, the chart and the bot's review.
 * @param {GameView} view
 * @param {{nameOf: (seat: number) => string, describe: (e: HistoryEntry) => string, describeAction: (a: ActionDto) => string, isPlayer: boolean, onLeave: (f: () => void) => void}} o
 */
export async function reviewCard(view, o) {
  const enc = encodeURIComponent(view.id);
  const card = el("section", { class: "card review", "aria-labelledby": "h-review" }, el("h2", { id: "h-review" }, t("review.title")));
  // once the page is left, nothing more is asked of the server and the address is left
  // alone (the card may still be on its way)
  let left = false;
  let timer = 0;
  o.onLeave(() => {
    left = true;
    clearTimeout(timer);
  });
  // the whole history, for the viewer's words
  /** @type {HistoryEntry[]} */
  const events = [];
  let after = 0;
  for (let page = 0; page < 20; page++) {
    /** @type {import("./types/api").components["schemas"]["EventsPage"]} */
    const p = await api.get(`/v1/games/${enc}/events?after=${after}&limit=200`);
    events.push(...p.events);
    if (p.next_after == null) break;
    after = p.next_after;
  }
  if (left) return card;
  const last = view.version;
  const asked = Number(new URL(location.href).searchParams.get("v"));
  let at = Number.isInteger(asked) && asked >= 1 && asked <= last ? asked : last;
  const img = el("img", { class: "viewer-board", alt: "", width: "480" });
  const caption = el("p", { class: "viewer-line", "aria-live": "polite" });
  /** @param {string} key a catalog message @param {() => void} f */
  const button = (key, f) => {
    const b = el("button", { type: "button" }, t(key));
    b.addEventListener("click", f);
    return b;
  };
  const viewer = el(
    "div",
    { class: "viewer", tabindex: "0", role: "group", "aria-label": t("review.viewer"), "data-version": String(at) },
    el("div", { class: "row" }, button("review.first", () => go(1)), button("review.back", () => go(at - 1)), button("review.next", () => go(at + 1)), button("review.last", () => go(last))),
    caption,
    img,
  );
  /** @param {number} v */
  function go(v) {
    if (left) return;
    at = Math.max(1, Math.min(last, v));
    viewer.dataset.version = String(at);
    img.src = `/v1/games/${enc}/board.svg?version=${at}`;
    img.alt = t("review.board-at", { version: at });
    const e = events.find((x) => x.seq === at);
    caption.textContent = `${t("review.at", { version: at, last })} ${e ? o.describe(e) : ""}`;
    const url = new URL(location.href);
    url.searchParams.set("v", String(at));
    history.replaceState(history.state, "", url);
  }
  viewer.addEventListener("keydown", (ev) => {
    /** @type {Record<string, number>} */
    const moves = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 1, End: last };
    if (!(ev.key in moves) || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    ev.preventDefault();
    go(moves[ev.key]);
  });
  go(at);
  card.append(el("h3", {}, t("review.step")), viewer);
  // the points over the game
  /** @type {import("./types/api").components["schemas"]["TimelineView"]} */
  const tl = await api.get(`/v1/games/${enc}/timeline`);
  if (left) return card;
  card.append(el("h3", {}, t("review.chart")), chart(tl, view));
  // the bot's review
  const box = el("div", { class: "bot-review" });
  card.append(el("h3", {}, t("review.bot")), box);
  async function showReview() {
    if (left) return;
    /** @type {import("./types/api").components["schemas"]["ReviewView"]} */
    const r = await api.get(`/v1/games/${enc}/review`);
    box.replaceChildren();
    if (r.status === "none") {
      box.append(el("p", { class: "meta" }, t("review.none")));
      if (o.isPlayer) {
        const ask = el("button", { type: "button", class: "primary" }, t("review.ask"));
        ask.addEventListener("click", async () => {
          ask.disabled = true;
          try {
            await api.post(`/v1/games/${enc}/review`);
            await showReview();
          } catch (e) {
            ask.disabled = false;
            fail(e);
          }
        });
        box.append(ask);
      }
      return;
    }
    if (r.status === "failed") {
      box.append(el("p", { class: "meta" }, t("review.failed")));
      return;
    }
    if (r.status !== "done") {
      box.append(el("p", { class: "meta", role: "status" }, t("review.running", { done: r.judged.length, total: r.total })));
      if (!left) timer = window.setTimeout(() => showReview().catch(fail), 3000);
      return;
    }
    box.append(el("p", { class: "meta" }, t("review.done", { count: r.judged.length })));
    const list = el("ol", { class: "losses", "aria-label": t("review.losses") });
    for (const j of r.biggest_losses) {
      const jump = el("button", { type: "button", class: "link" }, t("review.see", { version: j.version - 1 }));
      jump.addEventListener("click", () => {
        go(j.version - 1);
        viewer.focus();
      });
      list.append(
        el(
          "li",
          {},
          t("review.loss", {
            who: j.username,
            played: o.describeAction(j.played),
            best: o.describeAction(j.best),
            loss: j.loss.toFixed(1),
          }),
          " ",
          jump,
        ),
      );
    }
    box.append(el("h4", {}, t("review.losses")), r.biggest_losses.length ? list : el("p", { class: "meta" }, t("review.no-losses")));
  }
  await showReview();
  return card;
}

/**
 * A line chart of every player's points (solid) and score if the game ended then
 * (dashed), over the game's versions.
 * @param {TimelineView} tl
 * @param {GameView} view
 */
function chart(tl, view) {
  const W = 480;
  const H = 200;
  const pad = 28;
  const pts = tl.points;
  const maxV = Math.max(1, ...pts.map((p) => p.version));
  const maxY = Math.max(1, ...pts.flatMap((p) => [...p.scores, ...p.if_ended]));
  /** @param {number} v */
  const x = (v) => pad + ((W - 2 * pad) * v) / maxV;
  /** @param {number} s */
  const y = (s) => H - pad - ((H - 2 * pad) * s) / maxY;
  const NS = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.setAttribute("class", "chart");
  svg.setAttribute("role", "img");
  const finals = tl.players.map((n, i) => `${n} ${pts.length ? pts[pts.length - 1].scores[i] : 0}`).join(", ");
  svg.setAttribute("aria-label", t("review.chart-label", { finals }));
  /** @param {[number, number][]} points [version, points] @param {string} colour @param {boolean} dashed */
  const line = (points, colour, dashed) => {
    const pl = document.createElementNS(NS, "polyline");
    pl.setAttribute("points", points.map(([v, s]) => `${x(v).toFixed(1)},${y(s).toFixed(1)}`).join(" "));
    pl.setAttribute("fill", "none");
    pl.setAttribute("stroke", colour);
    pl.setAttribute("stroke-width", dashed ? "1.5" : "2.5");
    if (dashed) pl.setAttribute("stroke-dasharray", "5 4");
    svg.append(pl);
  };
  const axis = document.createElementNS(NS, "path");
  axis.setAttribute("d", `M${pad},${pad / 2} V${H - pad} H${W - pad / 2}`);
  axis.setAttribute("stroke", "currentColor");
  axis.setAttribute("fill", "none");
  svg.append(axis);
  for (const [v, s, anchor] of /** @type {[number, number, string][]} */ ([
    [0, maxY, "end"],
    [0, 0, "end"],
  ])) {
    const label = document.createElementNS(NS, "text");
    label.setAttribute("x", String(x(v) - 4));
    label.setAttribute("y", String(y(s) + 4));
    label.setAttribute("text-anchor", anchor);
    label.setAttribute("font-size", "11");
    label.setAttribute("fill", "currentColor");
    label.textContent = String(s);
    svg.append(label);
  }
  tl.players.forEach((_, i) => {
    const colour = COLOURS[/** @type {string} */ (view.players.find((p) => p.seat === i)?.colour)] || "#888";
    line(
      pts.map((p) => /** @type {[number, number]} */ ([p.version, p.scores[i]])),
      colour,
      false,
    );
    line(
      pts.map((p) => /** @type {[number, number]} */ ([p.version, p.if_ended[i]])),
      colour,
      true,
    );
  });
  // a swatch of each player's colour (an attribute: the page's policy allows no inline style)
  /** @param {string} colour */
  const swatch = (colour) => {
    const sw = document.createElementNS(NS, "svg");
    sw.setAttribute("viewBox", "0 0 10 10");
    sw.setAttribute("width", "12");
    sw.setAttribute("height", "12");
    sw.setAttribute("aria-hidden", "true");
    const r = document.createElementNS(NS, "rect");
    r.setAttribute("width", "10");
    r.setAttribute("height", "10");
    r.setAttribute("fill", colour);
    sw.append(r);
    return sw;
  };
  const legend = el(
    "p",
    { class: "meta" },
    t("review.chart-legend"),
    ...tl.players.map((n, i) => el("span", { class: "legend" }, " ", swatch(COLOURS[/** @type {string} */ (view.players.find((p) => p.seat === i)?.colour)] || "#888"), ` ${n}`)),
  );
  return el("figure", { class: "chart" }, svg, legend);
}
