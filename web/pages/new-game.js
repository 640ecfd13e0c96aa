// Create a game: seats, expansions, house rules, the clock, invitations, bots.

import * as api from "../api.js";
import { t } from "../i18n.js";
import { el, announce, field, busy } from "../ui.js";
import { seatsField, expansionsField, houseRulesFields, assistanceField, clockFields, bankFields } from "../forms.js";

/** @typedef {import("../types/api").components["schemas"]["CreateGameRequest"]} CreateGameRequest */
/** @typedef {import("../types/api").components["schemas"]["GameOptions"]} GameOptions */
/** @typedef {import("../types/api").components["schemas"]["GameView"]} GameView */

/** @param {import("../ui.js").PageContext} ctx */
export async function newGamePage(ctx) {
  // the tiles (for the expansions) and the house rules, then the page at once
  /** @type {[import("../types/api").components["schemas"]["TileCatalog"], import("../types/api").components["schemas"]["RuleCatalog"]]} */
  const [catalog, rules] = await Promise.all([api.tiles(), api.get("/v1/rules")]);
  ctx.main.append(
    el("h1", {}, t("new.title")),
    el("p", {}, t("new.or-seek"), " ", el("a", { href: "/play/lobby" }, t("new.seek-link"))),
  );
  const house = houseRulesFields(rules);
  const clock = clockFields();
  const bank = bankFields();
  const form = el(
    "form",
    { class: "card" },
    seatsField("seats"),
    expansionsField(catalog),
    house.node,
    ...clock.nodes,
    bank.node,
    field(t("new.invite"), { name: "invite", autocomplete: "off", autocapitalize: "none" }),
    el(
      "div",
      { class: "row" },
      el("label", { class: "field", for: "bots" }, el("span", {}, t("new.bots")), el("select", { name: "bots", id: "bots" }, ...[0, 1, 2, 3, 4, 5].map((n) => el("option", { value: n }, String(n))))),
      el("label", { class: "field", for: "bot-level" }, el("span", {}, t("new.bot-level")), el("select", { name: "bot_level", id: "bot-level" }, ...["greedy", "mcts", "expert", "random"].map((l) => el("option", { value: l }, t(`bot.${l}`))))),
    ),
    el("label", { class: "check" }, el("input", { type: "checkbox", name: "rated" }), ` ${t("new.rated")}`),
    el("label", { class: "check" }, el("input", { type: "checkbox", name: "private" }), ` ${t("new.private")}`),
    el("p", { class: "meta" }, t("new.rated-hint")),
    assistanceField(),
    el("button", { type: "submit", class: "primary" }, t("new.submit")),
  );
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const f = new FormData(form);
    /** @type {CreateGameRequest} */
    const body = {
      seats: Number(f.get("seats")),
      expansions: f.getAll("expansions").map(String),
      rated: f.has("rated"),
      visibility: f.has("private") ? "private" : "public",
    };
    if (f.get("assistance")) body.assistance = /** @type {CreateGameRequest["assistance"]} */ (String(f.get("assistance")));
    /** @type {GameOptions} */
    const options = house.value(f);
    const days = clock.days();
    const timeBank = days !== null ? bank.value() : null;
    if (timeBank) options.time_bank = timeBank;
    else if (days !== null) options.days_per_move = days;
    if (Object.keys(options).length) body.options = options;
    const invite = String(f.get("invite") || "")
      .split(/[\s,]+/)
      .map((s) => s.trim())
      .filter(Boolean);
    if (invite.length) body.invite = invite;
    const bots = Number(f.get("bots") || 0);
    if (bots > 0) body.bots = Array(bots).fill(/** @type {NonNullable<CreateGameRequest["bots"]>[number]} */ (String(f.get("bot_level"))));
    busy(form, async () => {
      /** @type {GameView} */
      const g = await api.post("/v1/games", body);
      announce(t("new.done"));
      ctx.go(`/play/games/${encodeURIComponent(g.id)}`);
    });
  });
  ctx.main.append(form);
}
