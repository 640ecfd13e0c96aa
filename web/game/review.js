// The game page's analysis of the position (web/analysis.js), and once the game is over
// its review and, for its players, a rematch.

import * as api from "../api.js";
import { el, announce, fail } from "../ui.js";
import { t } from "../i18n.js";
import { analysisCard, reviewCard } from "../analysis.js";
import { seat, nameOf } from "./state.js";
import { tileName, describeAction, describeEntry } from "./words.js";

/** @typedef {import("./state.js").GameState} GameState */
/** @typedef {import("../types/api").components["schemas"]["GameView"]} GameView */

/** The analysis of the position, and once the game is over its review (made once);
 * one request at a time, the latest version last. @param {GameState} g */
export async function loadAnalysis(g) {
  if (g.left || !g.view || g.view.version === g.analysedAt || g.analysing) return;
  g.analysing = true;
  g.analysedAt = g.view.version;
  /** @param {number} s */
  const seatName = (s) => nameOf(g, s);
  try {
    const card = await analysisCard(g.view, tileName, seatName);
    g.dom.analysisBox.replaceChildren(...(card ? [card] : []));
    if (g.view.status === "finished" && !g.reviewed && !g.left) {
      g.reviewed = true;
      /** @param {import("../types/api").components["schemas"]["HistoryEntry"]} e */
      const describe = (e) => describeEntry(e, seatName).join(" ");
      g.dom.reviewBox.replaceChildren(await reviewCard(g.view, { nameOf: seatName, describe, describeAction, isPlayer: Boolean(seat(g)), onLeave: g.ctx.onLeave }));
    }
  } catch (e) {
    fail(e);
  } finally {
    g.analysing = false;
  }
  // the game moved on meanwhile
  if (g.view && g.view.version !== g.analysedAt) loadAnalysis(g);
}

/** The end of a game, for its players: a rematch (the others are invited to it). @param {GameState} g */
export function overPanel(g) {
  const again = el("button", { type: "button", class: "primary", "data-focus": "rematch" }, t("over.rematch"));
  again.addEventListener("click", async () => {
    again.disabled = true;
    try {
      /** @type {GameView} */
      const next = await api.post(`/v1/games/${g.enc}/rematch`);
      announce(t("over.rematch-done"));
      g.ctx.go(`/play/games/${encodeURIComponent(next.id)}`);
    } catch (e) {
      again.disabled = false;
      fail(e);
    }
  });
  return el("div", { class: "move" }, el("div", {}, el("p", { class: "intro" }, t("over.intro")), el("div", { class: "row" }, again)));
}
