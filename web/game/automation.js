// The game page's standing orders and conditional turns (only I see them): the answer to
// each decision this game's expansions can ask for, and the plans for tiles I may draw.

import * as api from "../api.js";
import { el, announce, fail } from "../ui.js";
import { t } from "../i18n.js";
import { aFigure, spotWords } from "../board.js";
import { seatIn, viewOf } from "./state.js";
import { tileName } from "./words.js";

/** @typedef {import("./state.js").GameState} GameState */
/** @typedef {import("../types/api").components["schemas"]["PlanDto"]} PlanDto */
/** @typedef {import("../types/api").components["schemas"]["PlansDto"]} PlansDto */
/** @typedef {import("../types/api").components["schemas"]["ActionDto"]} ActionDto */
/** @typedef {import("../types/api").components["schemas"]["GameOrdersView"]} GameOrdersView */
/** @typedef {import("../types/api").components["schemas"]["StandingOrders"]} StandingOrders */
/** @typedef {import("../types/api").components["schemas"]["GameView"]} GameView */

/** The answers each standing order takes (StandingOrders' fields and their values).
 * @type {Record<keyof StandingOrders, string[]>} */
const ORDER_CHOICES = {
  crop_add: ["ask", "never", "when_possible"],
  crop_remove: ["ask", "ordinary_first", "special_first"],
  freed_wagon: ["ask", "supply"],
  message_figure: ["ask", "meeple", "messenger"],
  robber_victim: ["ask", "leader"],
};

/** Reads my orders and plans for `view` (nothing when I do not play or the game is over).
 * Only reads: `applyAutomation` puts what it read on the page, together with the view.
 * @param {GameState} g @param {GameView} view
 * @returns {Promise<{orders: GameOrdersView, plans: PlanDto[]} | null>} */
export async function fetchAutomation(g, view) {
  if (!g.me || !seatIn(view, g.me) || view.status === "finished") return null;
  /** @type {[GameOrdersView, PlansDto]} */
  const [orders, p] = await Promise.all([
    api.get(`/v1/games/${g.enc}/orders`),
    view.status === "active" ? api.get(`/v1/games/${g.enc}/plans`) : { plans: [] },
  ]);
  return { orders, plans: p.plans };
}

/** Makes the card of my orders and plans as `fetchAutomation` read them (after `g.view`
 * is the view they were read for). @param {GameState} g
 * @param {{orders: GameOrdersView, plans: PlanDto[]} | null} read */
export function applyAutomation(g, read) {
  if (!read) {
    g.automationCard = null;
    return;
  }
  g.orders = read.orders;
  g.plans = read.plans;
  g.automationCard = renderAutomation(g, read.orders);
}

/** Replaces my plans (PUT …/plans). @param {GameState} g @param {PlanDto[]} list */
async function savePlans(g, list) {
  try {
    /** @type {PlansDto} */
    const body = { plans: list };
    /** @type {PlansDto} */
    const r = await api.request("PUT", `/v1/games/${g.enc}/plans`, body);
    g.plans = r.plans;
    announce(t("auto.plans-saved", { count: g.plans.length }));
    await g.load();
  } catch (e) {
    fail(e);
  }
}

/** The standing orders: a select for each decision the game can ask for.
 * @param {GameState} g @param {GameOrdersView} orders */
function ordersForm(g, orders) {
  const form = el("form", { class: "orders" });
  for (const [kind, values] of /** @type {[keyof StandingOrders, string[]][]} */ (Object.entries(ORDER_CHOICES))) {
    if (!(orders.applicable || []).includes(kind)) continue;
    const select = /** @type {HTMLSelectElement} */ (el("select", { name: kind, id: `order-${kind}` }));
    const def = orders.defaults[kind];
    select.append(el("option", { value: "", selected: orders.game[kind] == null }, t("auto.default", { answer: t(`auto.${kind}.${def}`) })));
    for (const v of values) select.append(el("option", { value: v, selected: orders.game[kind] === v }, t(`auto.${kind}.${v}`)));
    select.addEventListener("change", async () => {
      try {
        await api.patch(`/v1/games/${g.enc}/orders`, { [kind]: select.value || null });
        announce(t("auto.order-saved"));
        await g.load();
      } catch (e) {
        fail(e);
      }
    });
    form.append(el("label", { class: "field", for: `order-${kind}` }, el("span", {}, t(`auto.${kind}`)), select));
  }
  return form;
}

/** My plans, each with a button that drops it. @param {GameState} g */
function planList(g) {
  const ul = el("ul", { class: "plans" });
  for (const p of g.plans) {
    const place = /** @type {Extract<ActionDto, {type: "place_tile"}>} */ (p.actions[0]);
    const then = /** @type {import("./state.js").FigureFields | undefined} */ (p.actions[1]);
    const what = t("auto.plan-line", { tile: tileName(p.tile), x: place.x, y: place.y, rotation: place.rotation })
      + " " + (then ? (then.type === "pass" ? t("auto.plan-no-figure") : t("auto.plan-figure", { figure: aFigure(then.figure), spot: spotWords(then.spot) })) : t("auto.plan-ask-figure"));
    const drop = el("button", { type: "button" }, t("auto.plan-drop"));
    drop.addEventListener("click", () => savePlans(g, g.plans.filter((q) => q.tile !== p.tile)));
    ul.append(el("li", {}, what, " ", drop));
  }
  if (!g.plans.length) ul.append(el("li", { class: "meta" }, t("auto.no-plans")));
  return ul;
}

/** The form that adds a plan for a tile still in the bag. @param {GameState} g @param {string[]} tiles */
function planForm(g, tiles) {
  const tile = el("select", { name: "tile", id: "plan-tile" }, ...tiles.map((id) => el("option", { value: id }, `${tileName(id)} (${id})`)));
  /** @param {string} name @param {string} label */
  const num = (name, label) => el("label", { class: "field" }, el("span", {}, label), el("input", { name, type: "number", required: true, step: "1", value: "0" }));
  const rot = el("select", { name: "rotation" }, ...[0, 90, 180, 270].map((r) => el("option", { value: String(r) }, `${r}°`)));
  const then = el("select", { name: "then" },
    el("option", { value: "" }, t("auto.plan-ask-figure")),
    el("option", { value: "pass" }, t("auto.plan-no-figure")),
    el("option", { value: "follower" }, t("auto.plan-follower")));
  const spot = el("input", { name: "spot", maxlength: 16, placeholder: "N, E, C, Nl…", autocomplete: "off" });
  const add = /** @type {HTMLFormElement} */ (el("form", { class: "plan-form" },
    el("label", { class: "field", for: "plan-tile" }, el("span", {}, t("auto.plan-tile")), tile),
    num("x", "x"), num("y", "y"),
    el("label", { class: "field" }, el("span", {}, t("auto.plan-rotation")), rot),
    el("label", { class: "field" }, el("span", {}, t("auto.plan-then")), then),
    el("label", { class: "field" }, el("span", {}, t("auto.plan-spot")), spot),
    el("button", { type: "submit" }, t("auto.plan-add"))));
  add.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const data = new FormData(add);
    /** @type {ActionDto[]} */
    const actions = [{ type: "place_tile", x: Number(data.get("x")), y: Number(data.get("y")), rotation: Number(data.get("rotation")) }];
    if (data.get("then") === "pass") actions.push({ type: "pass" });
    if (data.get("then") === "follower") actions.push({ type: "place_figure", figure: "follower", spot: String(data.get("spot") || "").trim() });
    const id = String(data.get("tile"));
    savePlans(g, [...g.plans.filter((q) => q.tile !== id), { tile: id, actions }]);
  });
  return add;
}

/** The card of my orders and plans (null when there is nothing to set).
 * @param {GameState} g @param {GameOrdersView} orders */
function renderAutomation(g, orders) {
  const view = viewOf(g);
  // only the decisions this game's expansions can ask for
  const applicable = orders.applicable || [];
  if (!applicable.length && view.status !== "active") return null;
  const box = el("section", { class: "card automation", "aria-labelledby": "h-auto" }, el("h2", { id: "h-auto" }, t("auto.title")));
  box.append(el("p", { class: "meta" }, t("auto.intro")));
  if (applicable.length) box.append(ordersForm(g, orders));
  if (view.status !== "active") return box;
  box.append(el("h3", {}, t("auto.plans")));
  box.append(planList(g));
  const tiles = (view.tiles_left_by_type || []).filter((c) => c.count > 0).map((c) => c.tile);
  if (tiles.length) box.append(planForm(g, tiles));
  return box;
}
