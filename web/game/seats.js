// The game page before the start: the players, joining, accepting or declining an
// invitation, starting, leaving, inviting.

import * as api from "../api.js";
import { el, announce, fail, fill, playerLinks } from "../ui.js";
import { t } from "../i18n.js";
import { seat, viewOf } from "./state.js";

/** @typedef {import("./state.js").GameState} GameState */

/** The move panel of an open game. @param {GameState} g */
export function openPanel(g) {
  const { me, enc } = g;
  const v = viewOf(g);
  const box = el("div", { class: "move" });
  const seated = Boolean(seat(g));
  const invited = v.invitations.find((i) => i.username === me && i.status === "pending");
  /** @param {string} label @param {string} path under the game's @param {string} done what is announced after */
  const act = (label, path, done) => {
    const b = el("button", { type: "button" }, label);
    b.addEventListener("click", async () => {
      b.disabled = true;
      try {
        await api.post(`/v1/games/${enc}/${path}`);
        announce(done);
        await g.load();
      } catch (e) {
        b.disabled = false;
        fail(e);
      }
    });
    return b;
  };
  box.append(el("p", { class: "intro" }, ...fill(t("open.players"), { names: playerLinks(v.players.map((p) => p.username)) })));
  const row = el("div", { class: "row" });
  if (me && invited) {
    row.append(act(t("open.accept"), "invitation/accept", t("open.accepted")), act(t("open.decline"), "invitation/decline", t("open.declined")));
  } else if (me && !seated) {
    row.append(act(t("open.join"), "join", t("open.joined")));
  }
  if (me && v.creator === me && v.players.length >= 2) row.append(act(t("open.start"), "start", t("open.started")));
  if (me && seated && v.creator !== me) row.append(act(t("open.leave"), "leave", t("open.left")));
  box.append(row);
  if (me && seated) box.append(inviteForm(g));
  const pending = v.invitations.filter((i) => i.status === "pending").map((i) => i.username);
  if (pending.length) box.append(el("p", {}, ...fill(t("open.invited"), { names: playerLinks(pending) })));
  return box;
}

/** A seated player invites another (POST …/invitations). @param {GameState} g */
function inviteForm(g) {
  const form = el(
    "form",
    { class: "row" },
    el("label", { class: "field" }, el("span", {}, t("open.invite-user")), el("input", { name: "username", required: true, autocomplete: "off", autocapitalize: "none" })),
    el("button", { type: "submit" }, t("open.invite")),
  );
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const input = /** @type {HTMLInputElement} */ (form.querySelector("input"));
    try {
      await api.post(`/v1/games/${g.enc}/invitations`, { username: input.value.trim() });
      announce(t("open.invited-one", { name: input.value.trim() }));
      input.value = "";
      await g.load();
    } catch (e) {
      fail(e);
    }
  });
  return form;
}
