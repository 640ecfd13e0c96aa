// The game page's chat: the latest messages and, for a signed-in reader, the post box.

import * as api from "../api.js";
import { el, fail, when, playerLink } from "../ui.js";
import { t } from "../i18n.js";

/** @typedef {import("./state.js").GameState} GameState */
/** @typedef {import("../types/api").components["schemas"]["ChatPage"]} ChatPage */

/** Draws the messages. @param {GameState} g */
function renderChat(g) {
  const { chatList } = g.dom;
  chatList.replaceChildren(
    ...(g.olderChat ? [el("li", { class: "meta" }, t("chat.earlier"))] : []),
    ...g.chat.map((m) => el("li", {}, el("strong", {}, playerLink(m.username)), " ", el("time", { datetime: m.at }, when(m.at)), el("p", {}, m.text))),
  );
  if (!g.chat.length) chatList.append(el("li", { class: "meta" }, t("chat.none")));
}

/** The chat is paged: the latest 50 messages (the page comes newest first), shown in
 * the order written; older ones stay on the server. @param {GameState} g */
export async function loadChat(g) {
  /** @type {ChatPage} */
  const c = await api.get(`/v1/games/${g.enc}/chat?order=newest&limit=50`);
  g.chat = [...c.messages].reverse();
  g.olderChat = Boolean(c.next_cursor);
  renderChat(g);
}

/** The chat's post box, made once (its text survives refreshes). @param {GameState} g */
export function addChatForm(g) {
  const text = /** @type {HTMLTextAreaElement} */ (el("textarea", { id: "chat-text", name: "text", rows: 2, maxlength: 1000, required: true }));
  const form = el(
    "form",
    { class: "chatform" },
    el("label", { for: "chat-text" }, t("chat.message")),
    text,
    el("button", { type: "submit" }, t("chat.send")),
  );
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const said = text.value.trim();
    if (!said) return;
    try {
      /** @type {import("../types/api").components["schemas"]["ChatRequest"]} */
      const body = { text: said };
      await api.post(`/v1/games/${g.enc}/chat`, body);
      text.value = "";
      await loadChat(g);
    } catch (e) {
      fail(e);
    }
  });
  g.dom.chatBox.append(form);
}
