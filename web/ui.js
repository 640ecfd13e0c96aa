// The small DOM helpers every page uses: elements, messages with elements in them,
// player links, the status line, failed requests, fields, busy forms, times, and lists
// read page by page.

import * as api from "./api.js";
import * as i18n from "./i18n.js";
import { t } from "./i18n.js";

/**
 * What the router gives a page: where it draws, how it goes to another page, and what
 * it stops when another page replaces it.
 * @typedef {object} PageContext
 * @property {HTMLElement} main
 * @property {(path: string, options?: {replace?: boolean}) => void} go
 * @property {(f: () => void) => void} onLeave
 */

/**
 * Creates an element: `el("a", {href: "/play"}, "text", child, ...)`. Attributes with
 * `false`/`null`/`undefined` values are left out; `true` sets an empty attribute.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Record<string, string | number | boolean | null | undefined>} [attrs]
 * @param {...(Node | string | number | null | undefined | false)} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === false || v === null || v === undefined) continue;
    e.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    e.append(typeof c === "string" || typeof c === "number" ? String(c) : c);
  }
  return e;
}

/**
 * A message with elements where its placeholders are:
 * `fill(t("games.open-item", {game}), {by: playerLink(name)})`. The message comes from
 * t() with the text arguments; t() leaves the others' `{placeholders}` in it.
 * @param {string} text
 * @param {Record<string, Node | string | (Node | string)[]>} nodes
 * @returns {(Node | string)[]}
 */
export function fill(text, nodes) {
  return text.split(/\{(\w+)\}/).flatMap((part, i) => {
    if (i % 2 === 0) return part ? [part] : [];
    const node = nodes[part];
    if (node === undefined) return [`{${part}}`];
    return Array.isArray(node) ? node : [node];
  });
}

/**
 * A player's name, linked to their profile page.
 * @param {string} name
 */
export function playerLink(name) {
  return el("a", { href: `/play/users/${encodeURIComponent(name)}`, class: "player" }, name);
}

/**
 * Players' names as a list in the locale's words ("ann, ben and cy"), each linked.
 * @param {string[]} names
 */
export function playerLinks(names) {
  return i18n.listParts(names).map((p) => (p.type === "element" ? playerLink(p.value) : p.value));
}

/**
 * Tells the user something (the status line is an aria-live region).
 * @param {string} text
 * @param {boolean} [isError]
 */
export function announce(text, isError = false) {
  const s = /** @type {HTMLElement} */ (document.getElementById("status"));
  s.textContent = "";
  s.classList.toggle("error", isError);
  // a fresh text node is read out even when the text repeats
  requestAnimationFrame(() => {
    s.textContent = text;
  });
}

export function clearStatus() {
  const s = /** @type {HTMLElement} */ (document.getElementById("status"));
  s.textContent = "";
  s.classList.remove("error");
}

/**
 * Shows a failed request: its problem detail (a lost login is handled by the router).
 * @param {unknown} e what was thrown (an ApiProblem, or any other error)
 */
export function fail(e) {
  if (e instanceof api.ApiProblem) {
    if (!e.loggedOut) announce(e.describe(), true);
    return;
  }
  announce(String(e), true);
}

/**
 * A labelled input: `<label>Text <input ...></label>` with an id.
 * @param {string} label
 * @param {Record<string, string | number | boolean | null | undefined>} [attrs] the input's, as el() takes them
 */
export function field(label, attrs) {
  const input = el("input", attrs);
  return el("label", { class: "field" }, el("span", {}, label), input);
}

/**
 * Runs `f` while the form's submit button is disabled.
 * @param {HTMLElement} form
 * @param {() => Promise<void>} f
 */
export async function busy(form, f) {
  const buttons = form.querySelectorAll("button");
  buttons.forEach((b) => (b.disabled = true));
  try {
    await f();
  } catch (e) {
    fail(e);
  } finally {
    buttons.forEach((b) => (b.disabled = false));
  }
}

/** A short, readable form of an RFC 3339 time (in the reader's locale and time zone). */
export const when = i18n.when;

/** "in 2 days", "3 hours ago" (in the reader's locale). */
export const relative = i18n.relative;

/**
 * A list read page by page: `load(cursor)` gives one page as `{items, next}`, `add(item)`
 * shows an item in `list`; a "More" button reads the next page while there is one, and
 * `empty` shows while there is nothing at all. Resolves once the first page is shown.
 * @template T
 * @param {HTMLElement} host where the list, the note and the button go
 * @param {HTMLElement} list
 * @param {string} empty
 * @param {(cursor: string | null | undefined) => Promise<{items: T[], next?: string | null}>} load
 * @param {(item: T) => void} add
 */
export async function paged(host, list, empty, load, add) {
  const none = el("p", { class: "meta", hidden: true }, empty);
  const more = /** @type {HTMLButtonElement} */ (el("button", { type: "button", hidden: true }, t("list.more")));
  host.append(list, none, more);
  /** @type {string | null | undefined} */
  let cursor = null;
  let shown = 0;
  async function next() {
    const page = await load(cursor);
    page.items.forEach(add);
    shown += page.items.length;
    cursor = page.next;
    list.hidden = shown === 0;
    none.hidden = shown > 0 || Boolean(cursor);
    more.hidden = !cursor;
  }
  more.addEventListener("click", async () => {
    more.disabled = true;
    try {
      await next();
    } catch (e) {
      fail(e);
    } finally {
      more.disabled = false;
    }
  });
  await next();
}
