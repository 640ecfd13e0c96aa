// The game page's state: one object that every part of the page (web/game/*.js) reads
// and changes, with the page's elements and the hooks that redraw and reload it.

import * as api from "../api.js";
import { el } from "../ui.js";
import { t } from "../i18n.js";

/** @typedef {import("../types/api").components["schemas"]["GameView"]} GameView */
/** @typedef {import("../types/api").components["schemas"]["PlacementsView"]} PlacementsView */
/** @typedef {import("../types/api").components["schemas"]["ActionsView"]} ActionsView */
/** @typedef {import("../types/api").components["schemas"]["HistoryEntry"]} HistoryEntry */
/** @typedef {import("../types/api").components["schemas"]["ChatMessage"]} ChatMessage */
/** @typedef {import("../types/api").components["schemas"]["GameOrdersView"]} GameOrdersView */
/** @typedef {import("../types/api").components["schemas"]["PlanDto"]} PlanDto */
/** @typedef {import("../types/api").components["schemas"]["ActionDto"]} ActionDto */
/** @typedef {import("../types/api").components["schemas"]["Figure"]} Figure */
/** @typedef {import("../ui.js").PageContext} PageContext */
/** A decision's fields that name a figure and a spot, whatever its type (ActionDto).
 * @typedef {{type: string, figure?: string, spot?: string}} FigureFields */

/**
 * @typedef {object} GameState
 * @property {PageContext} ctx
 * @property {string} id the game's id
 * @property {string} enc the id as a path segment
 * @property {string | null} me the signed-in player
 * @property {GameView | null} view (null until loaded)
 * @property {PlacementsView | null} placements the legal placements of my tile, on my turn
 * @property {ActionsView | null} actions my other decisions, on my turn
 * @property {HistoryEntry[]} events the latest entries of the history
 * @property {ChatMessage[]} chat the latest messages, in the order written
 * @property {boolean} olderChat whether older messages stay on the server
 * @property {{x: number, y: number, i: number} | null} sel the placement being prepared: the cell, the index into its rotations
 * @property {{spot: string, figure: string} | null} choice the figure chosen for it (null: no figure)
 * @property {string | null} handTile house rule tiles_in_hand: the tile of the hand being placed
 * @property {boolean} sending a write is on its way
 * @property {boolean} pollAfterSend a refresh asked for while a move is being sent runs once the move is sent
 * @property {boolean} left another page replaced this one: nothing more is asked of the server
 * @property {boolean} live the live stream is connected
 * @property {number} polls refreshes so far
 * @property {string | null} lastKey the cell the board last scrolled to
 * @property {HTMLElement | null} automationCard my standing orders and conditional turns
 * @property {GameOrdersView | null} orders
 * @property {PlanDto[]} plans
 * @property {number} analysedAt the version the analysis shows
 * @property {boolean} reviewed the review is shown
 * @property {boolean} analysing an analysis is on its way
 * @property {GameElements} dom
 * @property {() => Promise<void>} load reloads the game and redraws the page
 * @property {() => Promise<void>} poll refreshes when the game moved
 * @property {() => void} redraw redraws the move panel and the board
 */

/**
 * @typedef {object} GameElements
 * @property {HTMLElement} h1
 * @property {HTMLElement} turnline whose turn, the clock, the tiles left
 * @property {HTMLElement} tourBox the tournament and round the game belongs to, if any
 * @property {HTMLElement} panel the move
 * @property {HTMLElement} wrap the board
 * @property {HTMLElement} side scores, standing orders, history
 * @property {HTMLElement} chatList
 * @property {HTMLElement} chatBox
 * @property {HTMLElement} analysisBox the analysis (redrawn as the game moves)
 * @property {HTMLElement} reviewBox once it is over, the review
 */

/** The page's elements, laid out in `ctx.main`. @param {PageContext} ctx @param {string} id */
function layout(ctx, id) {
  const dom = {
    h1: el("h1", {}, t("game.title", { game: id.slice(0, 8) })),
    turnline: el("p", { class: "turnline" }),
    tourBox: el("div"),
    panel: el("section", { class: "panel", "aria-labelledby": "h-move" }),
    wrap: el("div", { class: "board-wrap", tabindex: "0", role: "region", "aria-label": t("game.board") }),
    side: el("div", { class: "side" }),
    chatList: el("ol", { class: "chat", "aria-label": t("chat.messages") }),
    chatBox: el("section", { class: "card", "aria-labelledby": "h-chat" }, el("h2", { id: "h-chat" }, t("chat.title"))),
    analysisBox: el("div"),
    reviewBox: el("div"),
  };
  dom.chatBox.append(dom.chatList);
  ctx.main.append(
    dom.h1,
    dom.tourBox,
    dom.turnline,
    el("div", { class: "layout" }, dom.panel, dom.wrap, el("div", { class: "aside" }, dom.side, dom.analysisBox, dom.chatBox)),
    dom.reviewBox,
  );
  return dom;
}

/** A fresh state for the game `id`, its elements laid out; the hooks do nothing until
 * the page sets them. @param {PageContext} ctx @param {string} id @returns {GameState} */
export function gameState(ctx, id) {
  const nothing = async () => {};
  return {
    ctx,
    id,
    enc: encodeURIComponent(id),
    me: api.username(),
    view: null,
    placements: null,
    actions: null,
    events: [],
    chat: [],
    olderChat: false,
    sel: null,
    choice: null,
    handTile: null,
    sending: false,
    pollAfterSend: false,
    left: false,
    live: false,
    polls: 0,
    lastKey: null,
    automationCard: null,
    orders: null,
    plans: [],
    analysedAt: -1,
    reviewed: false,
    analysing: false,
    dom: layout(ctx, id),
    load: nothing,
    poll: nothing,
    redraw: () => {},
  };
}

/** The game's view, once loaded: the parts draw only after the page's first load.
 * @param {GameState} g @returns {GameView} */
export const viewOf = (g) => /** @type {GameView} */ (g.view);

/** What the game waits for, on my turn (`myTurn` holds). @param {GameState} g
 * @returns {import("../types/api").components["schemas"]["PendingView"]} */
export const pendingOf = (g) => /** @type {import("../types/api").components["schemas"]["PendingView"]} */ (viewOf(g).pending);

/** `me`'s seat in `view`, if they play in it. @param {GameView} view @param {string | null} me */
export const seatIn = (view, me) => view.players.find((p) => p.username === me);

/** My seat in the game, if I play in it. @param {GameState} g */
export const seat = (g) => (g.view ? seatIn(g.view, g.me) : undefined);

/** Whether `view` waits for `me`. @param {GameView} view @param {string | null} me */
export const waitsFor = (view, me) => Boolean(view.pending && me && view.pending.username === me);

/** Whether the game waits for me. @param {GameState} g */
export const myTurn = (g) => Boolean(g.view && waitsFor(g.view, g.me));

/** A seat's player by name. @param {GameState} g @param {number} s */
export const nameOf = (g, s) => (g.view && g.view.players.find((p) => p.seat === s)?.username) || t("game.seat", { seat: Number(s) + 1 });

/** Redraws with `f`, then gives the focus back to the element that had it (by its
 * `data-focus` key). @param {GameState} g @param {() => void} f */
export function keepFocus(g, f) {
  const active = document.activeElement;
  const key = active instanceof HTMLElement ? active.dataset.focus : undefined;
  f();
  if (key) {
    const again = g.ctx.main.querySelector(`[data-focus="${CSS.escape(key)}"]`);
    if (again instanceof HTMLElement) again.focus({ preventScroll: true });
  }
}
