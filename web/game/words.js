// The game page's words for tiles, actions and the history's decisions and consequences
// (shared by the move panel, the history and the review).

import { t, list as words, describeTile } from "../i18n.js";
import { aFigure, spotWords, featureWord } from "../board.js";

/** @typedef {import("../types/api").components["schemas"]["TileCatalog"]} TileCatalog */
/** @typedef {import("../types/api").components["schemas"]["HistoryEntry"]} HistoryEntry */
/** @typedef {import("../types/api").components["schemas"]["ActionDto"]} ActionDto */
/**
 * A decision or a consequence of the history: the API document gives them no fields
 * (HistoryEntry.decision and .consequences are open objects, each `type` with fields of
 * its own), so they are read as untyped JSON.
 * @typedef {Record<string, any>} HistoryItem
 */

/** Tile id → its description (GET /v1/tiles), once the catalog is loaded. */
let tileDescriptions = new Map();

/** Whether the tile catalog is known (the page names tiles by their ids until it is). */
export function knowsTiles() {
  return tileDescriptions.size > 0;
}

/** Learns the tiles' descriptions from the catalog. @param {TileCatalog} cat */
export function learnTiles(cat) {
  tileDescriptions = new Map(cat.tiles.map((x) => [x.id, x.description]));
}

/** A tile type by its description in the reader's words ("a city cap with a straight
 * road"); its catalog id until the catalog is loaded. @param {string} id */
export function tileName(id) {
  return describeTile(tileDescriptions.get(id)) || id;
}

/** What one action of GET …/actions does, in words (for the generic decision list).
 * @param {ActionDto} a */
export function describeAction(a) {
  if (a.type === "pass") return t("action.pass");
  if (a.type === "place_figure" && a.spot) {
    return t("action.put", { figure: aFigure(a.figure), spot: spotWords(a.spot) }) + (/^[NESWC]/.test(a.spot) ? "" : ` (${a.spot})`);
  }
  const words = String(a.type).replace(/_/g, " ");
  const parts = [];
  for (const [k, v] of Object.entries(a)) {
    if (k === "type") continue;
    parts.push(`${k.replace(/_/g, " ")} ${typeof v === "object" ? JSON.stringify(v) : v}`);
  }
  return parts.length ? `${words}: ${parts.join(", ")}` : words;
}

/**
 * A line of history for a decision (HistoryEntry.decision).
 * @param {HistoryItem} d
 * @param {string} who the deciding player's name ("" for none)
 */
export function describeDecision(d, who) {
  switch (d.type) {
    case "game_created":
      return t("history.created");
    case "game_started":
      return t("history.started");
    case "tile_placed":
      return t("history.placed", { who, tile: tileName(d.tile), x: d.x, y: d.y });
    case "figure_placed":
      return t("history.figure", { who, figure: aFigure(d.figure), spot: spotWords(d.spot) });
    case "figure_skipped":
      return t("history.no-figure", { who });
    case "player_resigned":
      return t("history.resigned", { who });
    case "undone":
      return t("history.undone", { who });
    default:
      return `${who}: ${String(d.type).replace(/_/g, " ")}.`;
  }
}

/**
 * Lines for the consequences worth telling (scores, the end).
 * @param {HistoryItem[] | null | undefined} list HistoryEntry.consequences
 * @param {(seat: number) => string} nameOf
 */
export function describeConsequences(list, nameOf) {
  const out = [];
  for (const c of list || []) {
    if (c.type === "feature_scored" && c.points > 0) {
      const names = (c.seats || []).length ? words((c.seats || []).map(nameOf)) : t("history.nobody");
      out.push(t(c.final ? "history.scored-final" : "history.scored", { names, count: c.points, feature: featureWord(c.feature) }));
    } else if (c.type === "game_over") {
      out.push(t("history.over"));
    } else if (c.type === "player_left") {
      out.push(t("history.left", { who: nameOf(c.seat) }));
    }
  }
  return out;
}

/**
 * A history entry in words: its decision, then its consequences.
 * @param {HistoryEntry} e
 * @param {(seat: number) => string} nameOf
 */
export function describeEntry(e, nameOf) {
  const who = e.actor ? e.actor.username : "";
  return [describeDecision(e.decision || {}, who), ...describeConsequences(e.consequences, nameOf)];
}
