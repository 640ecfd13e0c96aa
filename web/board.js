// The board, drawn in the page: one tile picture (GET /v1/tiles/{set}/{name}.svg) per
// placed tile on a grid, turned with CSS; the cells where the drawn tile fits are
// buttons; the figures are small silhouettes in the seat colours.
//
// Board coordinates: x grows to the east, y to the north (the API's convention), so a
// tile at (x, y) is drawn in column x - minX and row maxY - y.

import { el } from "./ui.js";
import { tileSvg } from "./api.js";
import { t } from "./i18n.js";

/** @typedef {import("./types/api").components["schemas"]["BoardTile"]} BoardTile */
/** @typedef {import("./types/api").components["schemas"]["PlayerView"]} PlayerView */
/** @typedef {import("./types/api").components["schemas"]["PlacementView"]} PlacementView */
/** @typedef {import("./types/api").components["schemas"]["SpotView"]} SpotView */

/** Seat colours as the API names them (Okabe-Ito, as in the board pictures).
 * @type {Record<string, string>} */
export const COLOURS = {
  orange: "#E69F00",
  sky_blue: "#56B4E9",
  bluish_green: "#009E73",
  yellow: "#F0E442",
  blue: "#0072B2",
  vermillion: "#D55E00",
};

/**
 * Where a figure on spot `spot` stands, in percent of the tile (board orientation; the
 * spot names are already turned with the tile): sides, half-sides (fields), the centre,
 * corners (barns); a catalog feature id (an inner field) stands below the centre. No
 * named spot's centre lies under another's button on the narrowest cell (56 px; the
 * buttons are 22 px wide), so that each one can be clicked where it is drawn
 * (tests/e2e/spots.test.mjs).
 * @type {Record<string, [number, number]>}
 */
const SPOT_XY = {
  N: [50, 17],
  E: [83, 50],
  S: [50, 83],
  W: [17, 50],
  C: [50, 50],
  NNW: [30, 14],
  NNE: [70, 14],
  ENE: [86, 30],
  ESE: [86, 70],
  SSE: [70, 86],
  SSW: [30, 86],
  WSW: [14, 70],
  WNW: [14, 30],
  NE: [90, 10],
  SE: [90, 90],
  SW: [10, 90],
  NW: [10, 10],
};

/**
 * Where a figure on `spot` stands: [left, top] in percent of the tile.
 * @param {string} spot a spot name (`N`, `ESE`, `NW`, ...) or a catalog feature id
 * @returns {[number, number]}
 */
export function spotXY(spot) {
  if (SPOT_XY[spot]) return SPOT_XY[spot];
  // a catalog feature id (an inner field): below the centre, side by side by its number,
  // so that two on one tile do not cover each other
  const n = Math.max(1, Number(String(spot).replace(/\D+/g, "")) || 1);
  return [32 + ((n - 1) % 3) * 18, 68 + (Math.floor((n - 1) / 3) % 2) * 14];
}

/** Names of the features by the letter of their catalog id (`c1` city, `r2` road, ...).
 * @type {Record<string, string>} */
const FEATURE_NAMES = { c: "city", r: "road", f: "field", m: "monastery", g: "garden", l: "lake", a: "abbey", v: "river" };

/**
 * A catalog message by a key made at run time, or `otherwise` when the catalog has none.
 * @param {string} key
 * @param {string} otherwise
 * @param {Record<string, string | number>} [args]
 */
function word(key, otherwise, args = {}) {
  const m = t(key, args);
  return m === key ? otherwise : m;
}

/**
 * The feature a catalog feature id names, in the page's language ("city", "cidade").
 * @param {string} id
 */
export function featureName(id) {
  const kind = FEATURE_NAMES[String(id).charAt(0)] || "feature";
  return word(`feature.${kind}`, kind);
}

/**
 * A feature kind of the history (`city`, `road`, ...) with its article ("a city").
 * @param {string | null | undefined} kind
 */
export function featureWord(kind) {
  const k = String(kind || "feature");
  return word(`feature.a.${k}`, `a ${k.replace(/_/g, " ")}`);
}

/** Words for spots as the board shows them (north up), for labels and screen readers.
 * @type {Record<string, string>} */
const SPOT_WORDS = {
  N: "top",
  E: "right",
  S: "bottom",
  W: "left",
  C: "centre",
  NNW: "top left",
  NNE: "top right",
  ENE: "right, upper part",
  ESE: "right, lower part",
  SSE: "bottom right",
  SSW: "bottom left",
  WSW: "left, lower part",
  WNW: "left, upper part",
  NE: "top right corner",
  SE: "bottom right corner",
  SW: "bottom left corner",
  NW: "top left corner",
};

/**
 * A figure kind with its article: `follower` → "a follower", `abbot` → "an abbot".
 * @param {string | null | undefined} kind
 */
export function aFigure(kind) {
  const k = String(kind || "figure");
  const words = k.replace(/_/g, " ");
  return word(`figure.a.${k}`, `${/^[aeiou]/.test(words) ? "an" : "a"} ${words}`);
}

/**
 * A figure kind's name: `big_follower` → "big follower".
 * @param {string | null | undefined} kind
 */
export function figureWord(kind) {
  const k = String(kind || "figure");
  return word(`figure.${k}`, k.replace(/_/g, " "));
}

/**
 * `n` figures of a kind: "2 followers", "1 abbot".
 * @param {string | null | undefined} kind
 * @param {number} n
 */
export function figureCount(kind, n) {
  const k = String(kind || "figure");
  return word(`figure.count.${k}`, `${n} ${k.replace(/_/g, " ")}${n > 1 ? "s" : ""}`, { count: n });
}

/**
 * A spot in words as the board shows it ("top left"), or "inside" for a feature id.
 * @param {string | null | undefined} spot (callers pass optional fields: none reads "inside")
 */
export function spotWords(spot) {
  const key = SPOT_WORDS[/** @type {string} */ (spot)] ? `spot.${spot}` : "spot.inside";
  return word(key, SPOT_WORDS[/** @type {string} */ (spot)] || "inside");
}

const SVG_NS = "http://www.w3.org/2000/svg";

/** Silhouettes in a 24×24 box. @type {Record<string, string>} */
const SHAPES = {
  follower:
    "M12 1.5a4 4 0 0 1 4 4c0 1.3-.6 2.4-1.5 3.1l6.2 2.2c1.6.6 2.1 1.9 1.4 3l-.6.9-5.1-1.3 2.4 8.1h-4.4L12 17.3l-2.4 4.2H5.2l2.4-8.1-5.1 1.3-.6-.9c-.7-1.1-.2-2.4 1.4-3l6.2-2.2A4 4 0 0 1 8 5.5a4 4 0 0 1 4-4z",
  abbot:
    "M12 1 17 7c0 1-.4 1.7-1 2.3l4.5 2c1.3.6 1.6 1.8 1 2.8l-.6.8-4.2-1.1 2.3 8.7H5l2.3-8.7-4.2 1.1-.6-.8c-.6-1 -.3-2.2 1-2.8l4.5-2C7.4 8.7 7 8 7 7z",
  barn: "M2 11 12 3l10 8v10H2z",
  pig: "M4 9c2-3 10-4 14-1l3-2v4c1 1 1 3 0 5l-2 1v4h-3v-3H8v3H5v-4c-2-1-3-4-1-7z",
  wagon: "M2 8h20v8H2zM6 18a2.5 2.5 0 1 0 0 .1zM18 18a2.5 2.5 0 1 0 0 .1z",
};

/**
 * A figure as an inline SVG: the seat colour, a dark outline and the seat number.
 * @param {string} kind the figure (`follower`, `abbot`, ...)
 * @param {string | undefined} colour the seat's colour (COLOURS' names; grey when unknown)
 * @param {number | null | undefined} seat the seat number shown (none when left out)
 * @param {boolean} [big]
 */
export function figureIcon(kind, colour, seat, big = false) {
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("class", big ? "figure big" : "figure");
  svg.setAttribute("aria-hidden", "true");
  const path = document.createElementNS(SVG_NS, "path");
  path.setAttribute("d", SHAPES[kind] || SHAPES.follower);
  path.setAttribute("fill", COLOURS[/** @type {string} */ (colour)] || "#888");
  path.setAttribute("stroke", "#1b1b1b");
  path.setAttribute("stroke-width", "1.3");
  path.setAttribute("stroke-linejoin", "round");
  svg.append(path);
  if (seat !== undefined && seat !== null) {
    const label = document.createElementNS(SVG_NS, "text");
    label.setAttribute("x", "12");
    label.setAttribute("y", kind === "barn" ? "18" : "16.5");
    label.setAttribute("text-anchor", "middle");
    label.setAttribute("class", "seatno");
    label.textContent = String(seat + 1);
    svg.append(label);
  }
  return svg;
}

/**
 * Places `node` in grid cell (col, row).
 * @template {HTMLElement} E
 * @param {E} node
 * @param {number} col
 * @param {number} row
 */
function at(node, col, row) {
  node.style.left = `calc(var(--cell) * ${col})`;
  node.style.top = `calc(var(--cell) * ${row})`;
  return node;
}

/**
 * Draws the board into `wrap`.
 * @param {HTMLElement} wrap the scrolling box
 * @param {object} o
 * @param {BoardTile[]} o.board from GameView
 * @param {PlayerView[]} o.players
 * @param {Map<string, PlacementView[]>} [o.candidates] "x,y" → the legal placements there
 * @param {{x: number, y: number, rotation: number, tile?: string | null, spots: SpotView[]} | null} [o.preview]
 * @param {{x: number, y: number, spots: {spot: string, figures: string[], feature?: string}[]} | null} [o.spotsAt] figure spots on a placed tile
 * @param {{spot: string, figure: string} | null} [o.choice] the figure chosen for the preview
 * @param {string | null} [o.last] "x,y" of the last tile placed
 * @param {string} [o.mine] the player's colour (for the figure being placed)
 * @param {number} [o.mySeat] the player's seat
 * @param {(x: number, y: number) => void} [o.onCell]
 * @param {(spot: string, figure: string) => void} [o.onSpot]
 */
export function drawBoard(wrap, o) {
  const colourOf = new Map(o.players.map((p) => [p.seat, p.colour]));
  const cells = o.board.map((b) => [b.x, b.y]);
  for (const k of o.candidates ? o.candidates.keys() : []) cells.push(k.split(",").map(Number));
  if (!cells.length) cells.push([0, 0]);
  const xs = cells.map((c) => c[0]);
  const ys = cells.map((c) => c[1]);
  const minX = Math.min(...xs) - 1;
  const maxX = Math.max(...xs) + 1;
  const minY = Math.min(...ys) - 1;
  const maxY = Math.max(...ys) + 1;
  const cols = maxX - minX + 1;
  const rows = maxY - minY + 1;
  /** @param {number} x */
  const col = (x) => x - minX;
  /** @param {number} y */
  const row = (y) => maxY - y;

  const grid = el("div", { class: "grid" });
  grid.style.width = `calc(var(--cell) * ${cols})`;
  grid.style.height = `calc(var(--cell) * ${rows})`;

  for (const tile of o.board) {
    const key = `${tile.x},${tile.y}`;
    const cell = at(el("div", { class: key === o.last ? "tile last" : "tile", "data-xy": key }), col(tile.x), row(tile.y));
    const img = el("img", { src: tileSvg(tile.tile), alt: "", draggable: "false" });
    img.style.transform = `rotate(${tile.rotation}deg)`;
    cell.append(img);
    for (const f of tile.figures || []) {
      const [fx, fy] = spotXY(f.spot);
      const fig = figureIcon(f.figure, colourOf.get(f.seat), f.seat, f.figure === "big_follower");
      fig.style.left = `${fx}%`;
      fig.style.top = `${fy}%`;
      cell.append(fig);
    }
    if (tile.ferry) {
      // the ferry joins two road ends across the lake
      const [ax, ay] = spotXY(tile.ferry.from);
      const [bx, by] = spotXY(tile.ferry.to);
      const NS = "http://www.w3.org/2000/svg";
      const svg = document.createElementNS(NS, "svg");
      svg.setAttribute("class", "ferry");
      svg.setAttribute("viewBox", "0 0 100 100");
      svg.setAttribute("aria-hidden", "true");
      const line = document.createElementNS(NS, "line");
      for (const [k, v] of /** @type {[string, number][]} */ ([["x1", ax], ["y1", ay], ["x2", bx], ["y2", by]])) line.setAttribute(k, String(v));
      svg.append(line);
      cell.append(svg);
      cell.title = t("board.ferry", { from: spotWords(tile.ferry.from), to: spotWords(tile.ferry.to) });
    }
    if (tile.ingots) {
      const gold = el("span", { class: "ingots", title: t("board.ingots", { count: tile.ingots }) }, `${tile.ingots}`);
      cell.append(gold);
    }
    for (const n of tile.neutral || []) {
      const [fx, fy] = spotXY(n.spot);
      const mark = el("span", { class: "neutral", title: n.figure }, n.figure === "mage" ? "M" : "W");
      mark.style.left = `${fx}%`;
      mark.style.top = `${fy}%`;
      cell.append(mark);
    }
    grid.append(cell);
  }

  if (o.candidates) {
    for (const [key, list] of o.candidates) {
      const [x, y] = key.split(",").map(Number);
      const chosen = o.preview && o.preview.x === x && o.preview.y === y;
      const rots = list.map((p) => p.rotation);
      const label = chosen
        ? t("board.placed-here", { x, y, rotation: o.preview?.rotation ?? 0, count: rots.length })
        : t("board.place-here", { x, y, count: rots.length });
      const b = el("button", {
        type: "button",
        class: chosen ? "cand chosen" : "cand",
        "data-xy": key,
        "data-focus": `cell:${key}`,
        "aria-label": label,
        "aria-pressed": chosen ? "true" : "false",
      });
      at(b, col(x), row(y));
      if (chosen && o.preview) {
        const img = el("img", { src: tileSvg(o.preview.tile), alt: "" });
        img.style.transform = `rotate(${o.preview.rotation}deg)`;
        b.append(img);
      }
      b.addEventListener("click", () => o.onCell && o.onCell(x, y));
      grid.append(b);
    }
  }

  // the figure spots: of the chosen placement (over the preview), or of the tile just
  // placed when the figure is a decision of its own
  const spotsAt = o.spotsAt || (o.preview ? { x: o.preview.x, y: o.preview.y, spots: o.preview.spots } : null);
  if (spotsAt && o.onSpot) {
    const layer = at(el("div", { class: "spots", "data-xy": `${spotsAt.x},${spotsAt.y}` }), col(spotsAt.x), row(spotsAt.y));
    for (const s of spotsAt.spots) {
      if (!s.figures.length) continue;
      const figure = s.figures.includes("follower") ? "follower" : s.figures[0];
      const [sx, sy] = spotXY(s.spot);
      const picked = o.choice && o.choice.spot === s.spot;
      const b = el("button", {
        type: "button",
        class: picked ? "spot picked" : "spot",
        "data-spot": s.spot,
        "data-focus": `spot:${s.spot}`,
        "aria-label": s.feature
          ? t("board.put-feature", { figure: aFigure(figure), feature: featureName(s.feature), spot: spotWords(s.spot) })
          : t("action.put", { figure: aFigure(figure), spot: spotWords(s.spot) }),
        "aria-pressed": picked ? "true" : "false",
        tabindex: "-1",
      });
      b.style.left = `${sx}%`;
      b.style.top = `${sy}%`;
      if (picked && o.choice) b.append(figureIcon(o.choice.figure, o.mine, o.mySeat, o.choice.figure === "big_follower"));
      b.addEventListener("click", (ev) => {
        ev.stopPropagation();
        o.onSpot && o.onSpot(s.spot, figure);
      });
      layer.append(b);
    }
    grid.append(layer);
  }

  wrap.replaceChildren(grid);
  return {
    /** Scrolls so that cell (x, y) is in view, centred when possible. @param {number} x @param {number} y */
    reveal(x, y) {
      const cellPx = grid.clientWidth / cols;
      wrap.scrollLeft = Math.max(0, (col(x) + 0.5) * cellPx - wrap.clientWidth / 2);
      wrap.scrollTop = Math.max(0, (row(y) + 0.5) * cellPx - wrap.clientHeight / 2);
    },
  };
}
