// The game page's board: the tiles, the candidate cells of my tile and its preview, the
// figure spots; choosing a cell, turning the tile, choosing a figure.

import { announce } from "../ui.js";
import { t } from "../i18n.js";
import { drawBoard, aFigure, spotWords } from "../board.js";
import { seat, myTurn, keepFocus, viewOf, pendingOf } from "./state.js";
import { candidates, current, lastPlaced, figureDecision } from "./selection.js";

/** @typedef {import("./state.js").GameState} GameState */
/** @typedef {import("../types/api").components["schemas"]["PlacementView"]} PlacementView */

/** Draws the board, and scrolls to the placement being prepared (else the latest tile)
 * when that changed. @param {GameState} g */
export function renderBoard(g) {
  const view = viewOf(g);
  const p = current(g);
  const yours = myTurn(g) && g.placements && pendingOf(g).kind === "place_tile";
  keepFocus(g, () => {
    const b = drawBoard(g.dom.wrap, {
      board: view.board,
      players: view.players,
      candidates: yours ? candidates(g) : undefined,
      preview: yours && p ? { x: p.x, y: p.y, rotation: p.rotation, tile: p.tile || pendingOf(g).tile, spots: p.spots } : null,
      spotsAt: figureDecision(g),
      choice: g.choice,
      last: lastPlaced(g),
      mine: seat(g)?.colour,
      mySeat: seat(g)?.seat,
      onCell: (x, y) => pickCell(g, x, y),
      onSpot: (spot, figure) => pickSpot(g, spot, figure),
    });
    const target = p ? `${p.x},${p.y}` : lastPlaced(g) || "0,0";
    if (target !== g.lastKey) {
      g.lastKey = target;
      const [x, y] = target.split(",").map(Number);
      requestAnimationFrame(() => b.reveal(x, y));
    }
  });
}

/** A candidate cell chosen (again: the tile turns). @param {GameState} g @param {number} x @param {number} y */
export function pickCell(g, x, y) {
  if (g.sel && g.sel.x === x && g.sel.y === y) {
    rotate(g);
    return;
  }
  g.sel = { x, y, i: 0 };
  g.choice = null;
  // a candidate cell: it has a placement
  const p = /** @type {PlacementView} */ (current(g));
  const n = candidates(g).get(`${x},${y}`)?.length || 1;
  announce(n > 1 ? t("move.cell-turns", { x, y, rotation: p.rotation, count: n }) : t("move.cell", { x, y, rotation: p.rotation }));
  g.redraw();
}

/** Turns the tile to the cell's next legal rotation. @param {GameState} g */
export function rotate(g) {
  const sel = g.sel;
  if (!sel) return;
  const n = candidates(g).get(`${sel.x},${sel.y}`)?.length || 1;
  if (n < 2) {
    announce(t("move.one-way"));
    return;
  }
  sel.i = (sel.i + 1) % n;
  g.choice = null;
  announce(t("move.turned", { rotation: /** @type {PlacementView} */ (current(g)).rotation }));
  g.redraw();
}

/** A figure chosen for a spot (`spot` null: no figure). @param {GameState} g @param {string | null} spot @param {string} figure */
export function pickSpot(g, spot, figure) {
  g.choice = spot === null ? null : { spot, figure };
  announce(g.choice ? t("move.figure-on", { figure: aFigure(figure), spot: spotWords(spot) }) : t("move.no-figure-done"));
  g.redraw();
}
