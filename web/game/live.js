// How the game page follows the game: the live stream (GET /v1/stream) says when it moves
// or its chat speaks; while the stream is down the page polls; focus refreshes; the R key
// turns the tile. All of it stops when another page replaces this one.

import * as api from "../api.js";
import { announce, fail } from "../ui.js";
import { t } from "../i18n.js";
import { myTurn } from "./state.js";
import { rotate } from "./board-view.js";
import { loadChat } from "./chat.js";

/** @typedef {import("./state.js").GameState} GameState */
/** @typedef {import("../types/api").components["schemas"]["GameView"]} GameView */

/** How often the page looks for news while the live stream is down. */
const POLL_MS = 15000;

/** Refreshes when the game moved (someone else played); else the chat.
 * @param {GameState} g */
export async function poll(g) {
  if (document.hidden) return;
  if (g.sending) {
    g.pollAfterSend = true;
    return;
  }
  try {
    /** @type {GameView} */
    const v = await api.get(`/v1/games/${g.enc}`);
    if (!g.view || v.version !== g.view.version) {
      const wasMine = myTurn(g);
      await g.load();
      if (!wasMine && myTurn(g)) announce(t("game.your-turn-now"));
    } else {
      await loadChat(g);
    }
  } catch (e) {
    fail(e);
  }
  g.polls += 1;
  g.ctx.main.dataset.polls = String(g.polls);
}

/** The R key turns the tile being placed (not while typing). @param {GameState} g @param {KeyboardEvent} ev */
function onKey(g, ev) {
  if (ev.key !== "r" && ev.key !== "R") return;
  if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
  const target = /** @type {HTMLElement} */ (ev.target);
  const typing = target instanceof HTMLInputElement ? !["radio", "checkbox", "button"].includes(target.type) : target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement || Boolean(target && target.isContentEditable);
  if (typing) return;
  if (!g.sel) return;
  ev.preventDefault();
  rotate(g);
}

/** Follows the game until the page is left. @param {GameState} g */
export function follow(g) {
  const { ctx, id } = g;
  const closeStream = api.username()
    ? api.stream(
        (type, body) => {
          const gid = body && body.data && body.data.game_id;
          if (type === "stream.reset") g.poll();
          else if (gid !== id) return;
          else if (type === "game.chat") loadChat(g).catch(fail);
          else if (type === "game.move_made" && g.view && body.data.version === g.view.version) return;
          else g.poll();
        },
        (open) => {
          g.live = open;
          ctx.main.dataset.live = open ? "open" : "closed";
          // what happened while it was down
          if (open && g.view) g.poll();
        },
      )
    : () => {};
  const timer = setInterval(() => {
    if (g.live) return;
    if (!myTurn(g)) g.poll();
    else loadChat(g).catch(fail);
  }, POLL_MS);
  const focus = () => g.poll();
  /** @param {KeyboardEvent} ev */
  const key = (ev) => onKey(g, ev);
  window.addEventListener("focus", focus);
  document.addEventListener("keydown", key);
  ctx.onLeave(() => {
    g.left = true;
    clearInterval(timer);
    closeStream();
    window.removeEventListener("focus", focus);
    document.removeEventListener("keydown", key);
  });
}
