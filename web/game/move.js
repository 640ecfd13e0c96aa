// The game page's move panel: on my turn the tile to place (cell, rotation, figure), the
// figure on its own, or the other decisions as buttons; before the start the seats and
// invitations, after the end a rematch; and the undo.

import * as api from "../api.js";
import { el, announce } from "../ui.js";
import { t } from "../i18n.js";
import { featureName, spotWords, figureWord } from "../board.js";
import { seat, myTurn, keepFocus, viewOf, pendingOf } from "./state.js";
import { tileToPlace, candidates, current, figureDecision } from "./selection.js";
import { rotate, pickSpot } from "./board-view.js";
import { submit, undoLast } from "./send.js";
import { tileName, describeAction } from "./words.js";
import { openPanel } from "./seats.js";
import { overPanel } from "./review.js";

/** @typedef {import("./state.js").GameState} GameState */
/** @typedef {import("../types/api").components["schemas"]["ActionDto"]} ActionDto */

/** The drawn tile (or the tiles of the hand), where it goes, its figure. @param {GameState} g */
function placeTilePanel(g) {
  const p = current(g);
  const tile = tileToPlace(g);
  const tileImg = el("img", { class: "drawn", src: api.tileSvg(tile, 160), alt: t("move.drawn-alt", { tile: tileName(/** @type {string} */ (tile)) }) });
  if (p) tileImg.style.transform = `rotate(${p.rotation}deg)`;
  const n = candidates(g).size;
  const intro = p
    ? t("move.at", { x: p.x, y: p.y, rotation: p.rotation })
    : n
      ? t("move.fits", { count: candidates(g).size })
      : t("move.fits-nowhere");
  const box = el("div", { class: "move" }, el("div", { class: "drawnbox" }, tileImg), el("div", {}, el("p", { class: "intro" }, intro)));
  const body = /** @type {HTMLElement} */ (box.lastChild);
  const kinds = [...new Set(viewOf(g).hand || [])];
  if (kinds.length > 1) {
    // tiles in hand: choose the tile to place
    const fs = el("fieldset", { class: "hand" }, el("legend", {}, t("move.hand")));
    for (const id of kinds) {
      const input = el("input", { type: "radio", name: "hand", value: id, checked: id === tile, "data-focus": `hand:${id}` });
      input.addEventListener("change", () => {
        g.handTile = id;
        g.sel = null;
        g.choice = null;
        g.redraw();
      });
      fs.append(el("label", { class: "check" }, input, " ", el("img", { src: api.tileSvg(id, 48), alt: "" }), ` ${tileName(id)}`));
    }
    body.append(fs);
  }
  if (p) {
    const turns = candidates(g).get(`${p.x},${p.y}`)?.length || 1;
    const turn = el("button", { type: "button", "data-focus": "turn", disabled: turns < 2, "aria-keyshortcuts": "R" }, t("move.turn"));
    turn.addEventListener("click", () => rotate(g));
    const fs = el("fieldset", { class: "figures" }, el("legend", {}, t("move.figure")));
    /** @param {string} value `spot|figure`, "" for none @param {string} label @param {boolean} checked */
    const radio = (value, label, checked) => {
      const input = el("input", { type: "radio", name: "figure", value, checked, "data-focus": `radio:${value}` });
      input.addEventListener("change", () => {
        if (!value) pickSpot(g, null, "");
        else {
          const [spot, figure] = value.split("|");
          pickSpot(g, spot, figure);
        }
      });
      return el("label", { class: "check" }, input, ` ${label}`);
    };
    fs.append(radio("", t("move.no-figure"), !g.choice));
    for (const s of p.spots) {
      for (const f of s.figures) {
        const v = `${s.spot}|${f}`;
        fs.append(
          radio(
            v,
            t("move.figure-option", { figure: figureWord(f), feature: featureName(s.feature), spot: spotWords(s.spot) }),
            Boolean(g.choice && g.choice.spot === s.spot && g.choice.figure === f),
          ),
        );
      }
    }
    const send = el("button", { type: "button", class: "primary", "data-focus": "submit" }, t("move.submit"));
    send.addEventListener("click", () => {
      const q = current(g);
      if (!q) return;
      // with tiles in hand the placement names its tile
      /** @type {ActionDto} */
      const place = { type: "place_tile", x: q.x, y: q.y, rotation: q.rotation, ...(q.tile ? { tile: q.tile } : {}) };
      const choice = g.choice;
      submit(g, [
        place,
        choice ? { type: "place_figure", figure: /** @type {import("./state.js").Figure} */ (choice.figure), spot: choice.spot } : { type: "pass" },
      ]);
    });
    const cancel = el("button", { type: "button", "data-focus": "cancel" }, t("move.other-place"));
    cancel.addEventListener("click", () => {
      g.sel = null;
      g.choice = null;
      announce(t("move.choose-cell"));
      g.redraw();
      const first = g.dom.wrap.querySelector("button.cand");
      if (first instanceof HTMLElement) first.focus();
    });
    body.append(el("div", { class: "row" }, turn, cancel), fs, el("div", { class: "row" }, send));
  } else if (n) {
    const first = el("button", { type: "button", "data-focus": "first" }, t("move.first-place"));
    first.addEventListener("click", () => {
      const b = g.dom.wrap.querySelector("button.cand");
      if (b instanceof HTMLElement) {
        b.focus();
        b.scrollIntoView({ block: "nearest", inline: "nearest" });
      }
    });
    body.append(el("div", { class: "row" }, first));
  }
  return box;
}

/** The figure on the tile just placed, when it is a decision of its own. @param {GameState} g */
function figurePanel(g) {
  const box = el("div", { class: "move" });
  const body = el("div", {});
  box.append(body);
  const list = g.actions ? g.actions.actions : [];
  body.append(el("p", { class: "intro" }, t("move.figure-intro")));
  const fs = el("fieldset", { class: "figures" }, el("legend", {}, t("move.figure")));
  // "No figure" first, as when the figure goes with the tile
  const options = [...list.filter((a) => a.type === "pass"), ...list.filter((a) => a.type === "place_figure")];
  /** @param {ActionDto} a */
  const chosen = (a) => Boolean(g.choice && a.type === "place_figure" && a.spot === g.choice.spot && a.figure === g.choice.figure);
  if (g.choice && !options.some(chosen)) g.choice = null;
  for (const a of options) {
    const value = a.type === "pass" ? "" : `${a.spot}|${a.figure}`;
    const checked = a.type === "pass" ? !g.choice : chosen(a);
    const input = el("input", { type: "radio", name: "figure", value, checked, "data-focus": `radio:${value}` });
    input.addEventListener("change", () => (a.type === "pass" ? pickSpot(g, null, "") : pickSpot(g, a.spot, a.figure)));
    fs.append(el("label", { class: "check" }, input, ` ${a.type === "pass" ? t("move.no-figure") : describeAction(a)}`));
  }
  const send = el("button", { type: "button", class: "primary", "data-focus": "submit" }, t("move.submit-figure"));
  send.addEventListener("click", () => {
    const a = g.choice ? options.find(chosen) : options.find((o) => o.type === "pass");
    if (a) submit(g, [a]);
  });
  if (options.length) body.append(fs, el("div", { class: "row" }, send));
  // the other options of this phase (the Abbot's return, a flying machine, ...)
  const others = list.filter((a) => a.type !== "place_figure" && a.type !== "pass");
  if (others.length) body.append(actionList(g, others, { "aria-label": t("move.other-options") }));
  return box;
}

/** Listed actions as buttons, each posted back as it is.
 * @param {GameState} g @param {ActionDto[]} list @param {Record<string, string>} [attrs] */
function actionList(g, list, attrs = {}) {
  const ul = el("ul", { class: "actions", ...attrs });
  list.forEach((a, i) => {
    const b = el("button", { type: "button", "data-focus": `action:${i}` }, describeAction(a));
    b.addEventListener("click", () => submit(g, [a]));
    ul.append(el("li", {}, b));
  });
  return ul;
}

/** Any other decision: the listed actions. @param {GameState} g */
function actionsPanel(g) {
  const box = el("div", { class: "move" });
  const kind = String(pendingOf(g).kind).replace(/_/g, " ");
  box.append(el("p", { class: "intro" }, t("move.decide", { kind })));
  box.append(actionList(g, g.actions ? g.actions.actions : []));
  return box;
}

/** Draws the move panel for what the game waits for (hidden when it is nothing of mine).
 * @param {GameState} g */
export function renderMove(g) {
  const { panel } = g.dom;
  keepFocus(g, () => {
    panel.replaceChildren();
    const view = g.view;
    if (!view) return;
    let title = null;
    let body = null;
    if (view.status === "open") {
      title = t("open.title");
      body = openPanel(g);
    } else if (myTurn(g) && pendingOf(g).kind === "place_tile" && g.placements) {
      title = t("move.title-tile");
      body = placeTilePanel(g);
    } else if (myTurn(g) && pendingOf(g).kind === "place_figure" && figureDecision(g)) {
      title = t("move.title-figure");
      body = figurePanel(g);
    } else if (myTurn(g)) {
      title = t("move.title-decision");
      body = actionsPanel(g);
    } else if (view.status === "finished" && seat(g)) {
      title = t("over.title");
      body = overPanel(g);
    }
    panel.hidden = !title;
    if (title && body) panel.append(el("h2", { id: "h-move" }, title), body);
    if (title && myTurn(g) && g.actions && g.actions.undo) {
      const undo = el("button", { type: "button", "data-focus": "undo", title: t("move.undo-hint") }, t("move.undo"));
      undo.addEventListener("click", () => undoLast(g));
      panel.append(el("div", { class: "row" }, undo));
    }
  });
}
