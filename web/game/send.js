// The game page's writes: a move (with expansions, the tile and then the figure), an
// undo; one at a time, a stale version reloads the game.

import * as api from "../api.js";
import { announce, fail } from "../ui.js";
import { t } from "../i18n.js";
import { viewOf } from "./state.js";

/** @typedef {import("./state.js").GameState} GameState */
/** @typedef {import("../types/api").components["schemas"]["ActionDto"]} ActionDto */
/** @typedef {import("../types/api").components["schemas"]["MoveRequest"]} MoveRequest */

/** Runs a write of the page (`work`: a move, an undo), one at a time, with the
 * panel's buttons off meanwhile. A stale version reloads the game (after `onStale`);
 * a refresh asked for meanwhile runs once it is done.
 * @param {GameState} g @param {() => Promise<void>} work @param {() => void} [onStale] */
async function sendWith(g, work, onStale = () => {}) {
  if (g.sending) return;
  g.sending = true;
  const panel = g.dom.panel;
  panel.querySelectorAll("button").forEach((b) => (b.disabled = true));
  try {
    await work();
  } catch (e) {
    if (e instanceof api.ApiProblem && e.code === "stale-version") {
      onStale();
      announce(t("move.stale"), true);
      await g.load();
    } else {
      fail(e);
      panel.querySelectorAll("button").forEach((b) => (b.disabled = false));
    }
  } finally {
    g.sending = false;
    if (g.pollAfterSend) {
      g.pollAfterSend = false;
      g.poll();
    }
  }
}

/** Sends my decisions (POST …/moves). @param {GameState} g @param {ActionDto[]} list */
export function submit(g, list) {
  const moves = `/v1/games/${g.enc}/moves`;
  /** @param {ActionDto[]} actions */
  const move = (actions) => api.post(moves, /** @type {MoveRequest} */ ({ expected_version: viewOf(g).version, actions }));
  return sendWith(
    g,
    async () => {
      const split = list.length === 2 && list[0].type === "place_tile" && (viewOf(g).expansions || []).length > 0;
      if (!split) {
        await move(list);
        g.choice = null;
      } else {
        // With expansions the placed tile may lead to another decision before the figure
        // (a robber, a ferry...): send the tile alone, then the chosen figure when it is
        // the next decision (the figure stays chosen on the page otherwise).
        await move([list[0]]);
        /** @type {import("./state.js").ActionsView} */
        const next = await api.get(`/v1/games/${g.enc}/actions`);
        const want = /** @type {import("./state.js").FigureFields} */ (list[1]);
        const a = next.pending && next.pending.username === g.me && next.pending.kind === "place_figure"
          ? next.actions.find((/** @type {import("./state.js").FigureFields} */ o) => o.type === want.type && (o.type === "pass" || (o.spot === want.spot && o.figure === want.figure)))
          : undefined;
        if (a) {
          await api.post(moves, /** @type {MoveRequest} */ ({ expected_version: next.version, actions: [a] }));
          g.choice = null;
        }
      }
      g.sel = null;
      announce(t("move.sent"));
      await g.load();
    },
    () => {
      g.sel = null;
      g.choice = null;
    },
  );
}

/** Takes back the caller's last decision (offered when …/actions says `undo`). @param {GameState} g */
export function undoLast(g) {
  return sendWith(g, async () => {
    /** @type {import("../types/api").components["schemas"]["UndoRequest"]} */
    const body = { expected_version: viewOf(g).version };
    await api.post(`/v1/games/${g.enc}/undo`, body);
    g.sel = null;
    g.choice = null;
    announce(t("move.undone"));
    await g.load();
  });
}
