// The game page's clock: when the move is due, and the players' time banks.

import { el, when, relative } from "../ui.js";
import { t } from "../i18n.js";

/** @typedef {import("../types/api").components["schemas"]["GameView"]} GameView */

/** The clock's words for the turn line: the deadline, then the time banks (nothing
 * without a clock). @param {GameView} v @returns {(Node | string)[]} */
export function clockParts(v) {
  const out = [];
  if (v.clock && v.clock.deadline) {
    out.push(
      ` ${t("game.due")} `,
      el("time", { datetime: v.clock.deadline, title: when(v.clock.deadline) }, relative(v.clock.deadline)),
      ` (${when(v.clock.deadline)})`,
      v.clock.paused ? ` ${t("game.paused")}` : ".",
    );
  }
  if (v.clock && v.clock.banks && v.clock.banks.length) {
    /** @param {number} seat */
    const name = (seat) => (v.players.find((p) => p.seat === seat) || {}).username || String(seat);
    /** @param {number} m minutes */
    const hours = (m) => t("game.bank-hours", { hours: Math.floor(m / 60), minutes: String(m % 60).padStart(2, "0") });
    out.push(
      " ",
      el("span", { class: "banks" }, t("game.banks", { banks: v.clock.banks.map((b) => `${name(b.player)} ${hours(b.minutes_left)}`).join(", ") })),
    );
  }
  return out;
}
