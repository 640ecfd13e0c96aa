// The game page: whose turn, the board with the legal placements of the drawn tile,
// the figure spots, the move, scores, history and chat, the analysis (web/analysis.js);
// once it is over, a rematch and the review.
// Follows the live stream (GET /v1/stream) and refreshes when the game moves; polls only
// while the stream is down.
//
// The page's parts are in web/game/: state.js (the one state object they share),
// turnline.js and clock.js (the head), board-view.js and selection.js (the board and the
// placement being prepared), move.js, seats.js and send.js (the move panel and the
// writes), history.js (scores and history), automation.js (standing orders and plans),
// chat.js, review.js (the analysis, the review, the rematch), live.js (the stream and the
// polling), words.js (tiles, actions and history in words).

import * as api from "./api.js";
import { gameState, waitsFor } from "./game/state.js";
import { knowsTiles, learnTiles } from "./game/words.js";
import { current } from "./game/selection.js";
import { renderTop } from "./game/turnline.js";
import { renderBoard } from "./game/board-view.js";
import { renderMove } from "./game/move.js";
import { renderSide } from "./game/history.js";
import { fetchAutomation, applyAutomation } from "./game/automation.js";
import { loadChat, addChatForm } from "./game/chat.js";
import { loadAnalysis } from "./game/review.js";
import { poll, follow } from "./game/live.js";

/** @typedef {import("./game/state.js").GameState} GameState */
/** @typedef {import("./types/api").components["schemas"]["GameView"]} GameView */
/** @typedef {import("./types/api").components["schemas"]["EventsPage"]} EventsPage */
/** @typedef {import("./types/api").components["schemas"]["PlacementsView"]} PlacementsView */
/** @typedef {import("./types/api").components["schemas"]["ActionsView"]} ActionsView */
/** @typedef {import("./types/api").components["schemas"]["TileCatalog"]} TileCatalog */

/** Reads the game (and on my turn what I may do), then redraws the whole page. Every read
 * comes first and the page changes only after all of them, in one go: a load that fails
 * changes nothing (the next refresh reads again), and one still reading has not yet made
 * the page's view newer than what it shows (a refresh meanwhile would take it as drawn).
 * @param {GameState} g */
async function load(g) {
  const { enc, me } = g;
  /** @type {GameView} */
  const v = await api.get(`/v1/games/${enc}`);
  const after = Math.max(0, v.version - 40);
  const mine = waitsFor(v, me);
  /** @type {[EventsPage, PlacementsView | null, ActionsView | null, TileCatalog | null, Awaited<ReturnType<typeof fetchAutomation>>]} */
  const [ev, pl, ac, cat, auto] = await Promise.all([
    api.get(`/v1/games/${enc}/events?after=${after}&limit=200`),
    mine && v.pending?.kind === "place_tile" ? api.get(`/v1/games/${enc}/placements`) : null,
    mine && v.pending?.kind !== "place_tile" ? api.get(`/v1/games/${enc}/actions`) : null,
    // the tile names; without the catalog the page names tiles by their ids
    knowsTiles() ? null : api.tiles().catch(() => null),
    fetchAutomation(g, v),
  ]);
  if (cat) learnTiles(cat);
  // loads may overlap (a move sent, the stream, a poll): one that read an older version
  // than the page shows draws nothing
  if (g.view && g.view.version > v.version) return;
  g.view = v;
  g.events = ev.events;
  g.placements = pl;
  g.actions = ac;
  if (g.sel && !current(g)) {
    g.sel = null;
    g.choice = null;
  }
  applyAutomation(g, auto);
  renderTop(g);
  renderMove(g);
  renderBoard(g);
  renderSide(g);
  g.dom.wrap.dataset.version = String(g.view.version);
  g.ctx.main.dataset.version = String(g.view.version);
  // the analysis takes its time: the page does not wait for it
  loadAnalysis(g);
  await loadChat(g);
}

/** The game page. @param {import("./ui.js").PageContext} ctx @param {string} id */
export async function gamePage(ctx, id) {
  const g = gameState(ctx, id);
  g.load = () => load(g);
  g.poll = () => poll(g);
  g.redraw = () => {
    renderMove(g);
    renderBoard(g);
  };
  if (g.me) addChatForm(g);
  follow(g);
  await g.load();
}
