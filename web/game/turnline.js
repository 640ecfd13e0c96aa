// The game page's head: the tournament it belongs to, and the turn line (whose turn, the
// tile drawn, the clock, the tiles left, the hand, the house rules, how it is played).

import { el, fill, playerLink, playerLinks } from "../ui.js";
import { rulesLine } from "../forms.js";
import { t, list as words } from "../i18n.js";
import { gameTournamentLine } from "../pages/tournaments.js";
import { myTurn, viewOf } from "./state.js";
import { tileName } from "./words.js";
import { clockParts } from "./clock.js";

/** @typedef {import("./state.js").GameState} GameState */

/** Draws the tournament line and the turn line. @param {GameState} g */
export function renderTop(g) {
  const v = viewOf(g);
  const { tourBox, turnline } = g.dom;
  tourBox.replaceChildren(...(v.tournament ? [gameTournamentLine(v.tournament)] : []));
  turnline.replaceChildren();
  if (v.status === "open") {
    turnline.append(t("game.waiting-line", { taken: v.players.length, seats: v.seats }));
  } else if (v.status === "finished") {
    const first = (v.ranking || []).filter((r) => r.rank === 1).map((r) => r.username);
    turnline.append(t("game.over-line"));
    if (first.length) turnline.append(" ", ...fill(t("game.won-by"), { names: playerLinks(first) }));
  } else if (v.pending) {
    const p = v.pending;
    const who = { name: playerLink(p.username) };
    if (p.tile) {
      const tile = tileName(p.tile);
      turnline.append(...(myTurn(g) ? [t("game.your-turn-drew", { tile })] : fill(t("game.to-play-drew", { tile }), who)));
    }
    else turnline.append(...(myTurn(g) ? [t("game.your-turn")] : fill(t("game.to-play"), who)));
    turnline.append(...clockParts(v));
  }
  turnline.append(` ${t("game.tiles-left", { count: v.tiles_left })}`);
  if (v.hand && v.hand.length) turnline.append(` ${t("game.hand", { tiles: words(v.hand.map(tileName)) })}`);
  const rules = rulesLine(v.rules);
  if (rules) turnline.append(" ", el("span", { class: "house-rules" }, rules));
  if (v.rated) turnline.append(` ${t("game.rated")}`);
  if (v.visibility === "private") turnline.append(` ${t("game.private")}`);
  if (v.status === "active" && v.assistance) turnline.append(` ${t(`game.assistance-${v.assistance}`)}`);
  if (!g.me) {
    const login = el("a", { href: "/play/login" }, t("game.login-to-play"));
    login.addEventListener("click", () => sessionStorage.setItem("tilepost.next", location.pathname));
    turnline.append(" ", login);
  }
}
