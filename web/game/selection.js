// The placement being prepared on my turn: the tile to place, where it fits, the cell and
// rotation chosen, and the figure decision that follows a placed tile.

import { myTurn, pendingOf } from "./state.js";

/** @typedef {import("./state.js").GameState} GameState */
/** @typedef {import("../types/api").components["schemas"]["PlacementView"]} PlacementView */

/** The tile to place: the drawn tile, or the chosen tile of the hand (tiles_in_hand).
 * @param {GameState} g */
export function tileToPlace(g) {
  const { view, placements } = g;
  if (view && view.pending && view.pending.tile) return view.pending.tile;
  const hand = (view && view.hand) || [];
  if (g.handTile && hand.includes(g.handTile)) return g.handTile;
  // the first tile of the hand that fits somewhere
  const fits = placements ? hand.find((id) => placements.placements.some((p) => p.tile === id)) : undefined;
  return fits || hand[0] || null;
}

/** Candidate cells of the tile to place: "x,y" → placements there.
 * @param {GameState} g @returns {Map<string, PlacementView[]>} */
export function candidates(g) {
  const m = new Map();
  if (!g.placements) return m;
  const tile = tileToPlace(g);
  for (const p of g.placements.placements) {
    if (p.tile && p.tile !== tile) continue;
    const k = `${p.x},${p.y}`;
    if (!m.has(k)) m.set(k, []);
    m.get(k).push(p);
  }
  return m;
}

/** The placement chosen: the cell's candidates at the chosen rotation. @param {GameState} g */
export function current(g) {
  const sel = g.sel;
  if (!sel) return null;
  const list = candidates(g).get(`${sel.x},${sel.y}`) || [];
  return list[sel.i % list.length] || null;
}

/** The cell of the latest tile placed ("x,y"), from the history. @param {GameState} g */
export function lastPlaced(g) {
  for (let i = g.events.length - 1; i >= 0; i--) {
    const d = g.events[i].decision;
    if (d && d.type === "tile_placed") return `${d.x},${d.y}`;
  }
  return null;
}

/** The place_figure decision on its own: the tile just placed and its spots (from …/actions).
 * @param {GameState} g */
export function figureDecision(g) {
  if (!myTurn(g) || pendingOf(g).kind !== "place_figure" || !g.actions) return null;
  const at = lastPlaced(g);
  if (!at) return null;
  const [x, y] = at.split(",").map(Number);
  const bySpot = new Map();
  for (const a of g.actions.actions) {
    if (a.type !== "place_figure") continue;
    if (!bySpot.has(a.spot)) bySpot.set(a.spot, []);
    bySpot.get(a.spot).push(a.figure);
  }
  return { x, y, spots: [...bySpot].map(([spot, figures]) => ({ spot, figures })) };
}
