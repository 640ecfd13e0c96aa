// The fields of the forms that create a game, a seek or a tournament: seats,
// expansions, house rules, assistance, the clock and the time bank; and the house rules
// of a game in words.

import { el, field } from "./ui.js";
import { t } from "./i18n.js";

/** @typedef {import("./types/api").components["schemas"]["TileCatalog"]} TileCatalog */
/** @typedef {import("./types/api").components["schemas"]["RuleCatalog"]} RuleCatalog */

/** The expansions by id (`CreateGameRequest.expansions`), with their names. Those with
 * tiles are also found in the tile catalog, which adds any id missing here. */
const EXPANSIONS = [
  "river",
  "abbot",
  "inns_cathedrals",
  "traders_builders",
  "abbey_mayor",
  "flying_machines",
  "messages",
  "ferries",
  "gold_mines",
  "mage_witch",
  "robbers",
  "crop_circles",
  "pig_herd",
];

/**
 * An expansion's name in the page's language (`expansion.<id>`), else its id in words.
 * @param {string} id
 */
export function expansionName(id) {
  const key = `expansion.${id}`;
  const name = t(key);
  return name === key ? id.replace(/_/g, " ") : name;
}

/**
 * The number of seats: a select named `seats`, labelled.
 * @param {string} id the select's id
 */
export function seatsField(id) {
  const seats = el("select", { name: "seats", id }, ...[2, 3, 4, 5, 6].map((n) => el("option", { value: n }, String(n))));
  return el("label", { class: "field", for: id }, el("span", {}, t("new.seats")), seats);
}

/**
 * A checkbox for each expansion (named `expansions`), from the tile catalog (GET /v1/tiles).
 * @param {TileCatalog} catalog
 */
export function expansionsField(catalog) {
  const fromTiles = catalog.tiles.map((t) => t.expansion).filter((x) => x !== "base" && !EXPANSIONS.includes(x));
  const expansions = [...EXPANSIONS, ...new Set(fromTiles)];
  return el(
    "fieldset",
    { class: "expansions" },
    el("legend", {}, t("new.expansions")),
    ...expansions.map((x) =>
      el("label", { class: "check" }, el("input", { type: "checkbox", name: "expansions", value: x }), ` ${expansionName(x)}`),
    ),
  );
}

/**
 * A view's house rules (variant → value) in words ("House rules: …."), or "" without any.
 * @param {Record<string, string> | null | undefined} rules
 */
export function rulesLine(rules) {
  const entries = Object.entries(rules || {});
  return entries.length ? t("game.house-rules", { rules: entries.map(([k, x]) => `${k.replace(/_/g, " ")}: ${x}`).join(", ") }) : "";
}

/**
 * The house rules, from their catalog (GET /v1/rules): a preset, and any variant set
 * apart from it. `value(formData)` is `{preset, rules}` as a request takes them, each
 * left out when the form does not choose it.
 * @param {RuleCatalog} rules
 */
export function houseRulesFields(rules) {
  const preset = el("select", { name: "preset", id: "preset" }, ...rules.presets.map((p) => el("option", { value: p.name, title: p.description }, p.name.replace(/_/g, " "))));
  const node = el(
    "fieldset",
    { class: "house-rules" },
    el("legend", {}, t("new.rules")),
    el("label", { class: "field", for: "preset" }, el("span", {}, t("new.preset")), preset),
    el("p", { class: "meta" }, t("new.rules-intro")),
    ...rules.variants.map((v) =>
      el(
        "label",
        { class: "field", title: v.description },
        el("span", {}, `${v.name.replace(/_/g, " ")}${v.expansion ? ` (${expansionName(v.expansion)})` : ""}`),
        el("select", { name: `rule:${v.name}` }, el("option", { value: "" }, t("new.rule-as-preset")), ...v.values.map((x) => el("option", { value: x }, x === v.default ? t("new.rule-standard", { value: x }) : x))),
      ),
    ),
  );
  return {
    node,
    /** @param {FormData} f */
    value: (f) => {
      /** @type {{preset?: string, rules?: Record<string, string>}} */
      const out = {};
      if (f.get("preset") && f.get("preset") !== "standard") out.preset = String(f.get("preset"));
      /** @type {Record<string, string>} */
      const chosen = {};
      for (const [k, v] of f.entries()) if (k.startsWith("rule:") && v) chosen[k.slice(5)] = String(v);
      if (Object.keys(chosen).length) out.rules = chosen;
      return out;
    },
  };
}

/** What the analysis shows during the game: a select named `assistance` (empty: the default). */
export function assistanceField() {
  return el(
    "label",
    { class: "field", for: "assistance" },
    el("span", {}, t("new.assistance")),
    el(
      "select",
      { name: "assistance", id: "assistance" },
      el("option", { value: "" }, t("new.assistance-default")),
      ...["full", "scores", "none"].map((a) => el("option", { value: a }, t(`assistance.${a}`))),
    ),
  );
}

/**
 * The clock: a checkbox and the days per move, which count only while it is checked.
 * `days()` is the number of days, or null for no clock.
 */
export function clockFields() {
  const clock = /** @type {HTMLInputElement} */ (el("input", { type: "checkbox", name: "clock", checked: true }));
  const days = field(t("new.days"), { type: "number", name: "days", min: 1, max: 14, value: 3, required: true });
  const input = /** @type {HTMLInputElement} */ (days.querySelector("input"));
  clock.addEventListener("change", () => {
    input.disabled = !clock.checked;
  });
  return {
    nodes: [el("label", { class: "check" }, clock, ` ${t("new.clock")}`), days],
    days: () => (clock.checked ? Number(input.value) : null),
  };
}

/**
 * A time bank instead of days per move (with the clock on): each player's bank of hours
 * at the start, the hours each of their turns adds, and the most a bank holds.
 * `value()` is the request's `time_bank`, or null when it is not chosen.
 */
export function bankFields() {
  const on = /** @type {HTMLInputElement} */ (el("input", { type: "checkbox", name: "time_bank" }));
  const initial = field(t("new.bank-initial"), { type: "number", name: "bank_initial", min: 1, max: 2160, value: 240 });
  const per = field(t("new.bank-per-move"), { type: "number", name: "bank_per_move", min: 0, max: 720, value: 36 });
  const max = field(t("new.bank-max"), { type: "number", name: "bank_max", min: 1, max: 2160, value: 480 });
  const inputs = [initial, per, max].map((f) => /** @type {HTMLInputElement} */ (f.querySelector("input")));
  const sync = () => inputs.forEach((i) => (i.disabled = !on.checked));
  on.addEventListener("change", sync);
  sync();
  return {
    node: el(
      "fieldset",
      { class: "time-bank" },
      el("legend", {}, t("new.bank")),
      el("label", { class: "check" }, on, ` ${t("new.bank-use")}`),
      el("p", { class: "meta" }, t("new.bank-hint")),
      initial,
      per,
      max,
    ),
    value: () =>
      on.checked
        ? { initial_hours: Number(inputs[0].value), hours_per_move: Number(inputs[1].value), max_hours: Number(inputs[2].value) }
        : null,
  };
}
