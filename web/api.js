// The tilepost JSON API as the client uses it: the token, requests, and problems.
// Types follow openapi/openapi.json: web/types/api.d.ts is generated from it (by
// scripts/web-check/run.sh, which also checks the client with tsc); the browser never
// loads it, the JSDoc below and in the callers names its schemas.
// Every request asks for the page's language (Accept-Language): problems come back in it.

import { locale, t } from "./i18n.js";

/** @typedef {import("./types/api").components["schemas"]["Problem"]} Problem */
/** @typedef {import("./types/api").components["schemas"]["TokenRequest"]} TokenRequest */
/** @typedef {import("./types/api").components["schemas"]["TokenResponse"]} TokenResponse */
/** @typedef {import("./types/api").components["schemas"]["TileCatalog"]} TileCatalog */

const TOKEN_KEY = "tilepost.token";
const USER_KEY = "tilepost.username";

/** A problem+json answer (RFC 9457) or a network failure. */
export class ApiProblem extends Error {
  /**
   * @param {number} status HTTP status (0 when the server could not be reached)
   * @param {Partial<Problem>} body a problem+json answer (any part may be missing)
   */
  constructor(status, body) {
    super(body.detail || body.title || `HTTP ${status}`);
    this.status = status;
    this.code = body.code || "";
    this.title = body.title || "";
    this.detail = body.detail || "";
    this.errors = body.errors || [];
    this.currentVersion = body.current_version;
    /** A 401 on a request that carried a token: the login is gone (the router handles it). */
    this.loggedOut = false;
  }

  /** A sentence for the user: the problem's detail (or title), with invalid fields. */
  describe() {
    const fields = this.errors.map((e) => `${e.field}: ${e.message}`).join("; ");
    const main = this.detail || this.title || this.message;
    return fields && !main.includes(fields) ? `${main} (${fields})` : main;
  }
}

/** The stored access token, or null. */
export function token() {
  return localStorage.getItem(TOKEN_KEY);
}

/** The logged-in username, or null. */
export function username() {
  return token() ? localStorage.getItem(USER_KEY) : null;
}

/**
 * Keeps a login (its access token and username) in localStorage.
 * @param {string} accessToken
 * @param {string} name
 */
export function saveLogin(accessToken, name) {
  localStorage.setItem(TOKEN_KEY, accessToken);
  localStorage.setItem(USER_KEY, name);
}

export function logout() {
  localStorage.removeItem(TOKEN_KEY);
  localStorage.removeItem(USER_KEY);
}

/** Called on every 401 (the token is missing, expired or revoked).
 * @type {(problem: ApiProblem) => void} */
let onUnauthorized = () => {};
/** @param {(problem: ApiProblem) => void} f */
export function setUnauthorizedHandler(f) {
  onUnauthorized = f;
}

/**
 * One request. Resolves to the parsed JSON body (null for an empty body); rejects with
 * an ApiProblem.
 * @param {string} method
 * @param {string} path
 * @param {unknown} [body]
 * @returns {Promise<any>} the answer, of the schema the operation's document names
 */
export async function request(method, path, body) {
  /** @type {Record<string, string>} */
  const headers = { Accept: "application/json", "Accept-Language": locale() };
  const tok = token();
  if (tok) headers.Authorization = `Bearer ${tok}`;
  // always fresh: a game view's ETag follows the log's version, while its clock,
  // vacations and invitations can change without a move
  /** @type {RequestInit} */
  const init = { method, headers, cache: "no-store" };
  if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(path, init);
  } catch {
    throw new ApiProblem(0, { title: t("api.unreachable") });
  }
  const text = await res.text();
  let data = null;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = null;
    }
  }
  if (!res.ok) {
    const problem = new ApiProblem(res.status, data && typeof data === "object" ? data : {});
    if (res.status === 401 && tok) {
      problem.loggedOut = true;
      onUnauthorized(problem);
    }
    throw problem;
  }
  return data;
}

/** @param {string} path */
export const get = (path) => request("GET", path);
/** @param {string} path @param {unknown} [body] (an empty object when left out) */
export const post = (path, body) => request("POST", path, body === undefined ? {} : body);
/** @param {string} path @param {unknown} body */
export const patch = (path, body) => request("PATCH", path, body);
/** @param {string} path @param {unknown} [body] */
export const del = (path, body) => request("DELETE", path, body);

/**
 * Logs in: POST /v1/auth/token (TokenRequest → TokenResponse).
 * @param {string} name
 * @param {string} password
 */
export async function login(name, password) {
  /** @type {TokenRequest} */
  const body = { username: name, password };
  /** @type {TokenResponse} */
  const answer = await request("POST", "/v1/auth/token", body);
  saveLogin(answer.access_token, name);
}

/**
 * Logs out on the server too (POST /v1/auth/logout: the token stops working at once),
 * then forgets the token here; a failure to reach the server still logs out here.
 * @param {boolean} [everywhere] end every session of the user (DELETE /v1/users/me/sessions)
 */
export async function logOutOnServer(everywhere) {
  if (token()) {
    try {
      if (everywhere) await del("/v1/users/me/sessions");
      else await post("/v1/auth/logout");
    } catch {
      // the token is gone here below either way
    }
  }
  logout();
}

/** The tile catalog (GET /v1/tiles), fetched once. @type {Promise<TileCatalog> | null} */
let catalog = null;
/** @returns {Promise<TileCatalog>} */
export async function tiles() {
  if (!catalog) catalog = get("/v1/tiles");
  try {
    return await catalog;
  } catch (e) {
    catalog = null;
    throw e;
  }
}

/**
 * The picture of a tile type: `base/D` → `/v1/tiles/base/D.svg`.
 * @param {string | null | undefined} id the tile type (callers pass fields the schemas make optional)
 * @param {number} [size]
 */
export function tileSvg(id, size = 128) {
  const [set, name] = String(id).split("/");
  return `/v1/tiles/${encodeURIComponent(set)}/${encodeURIComponent(name)}.svg?size=${size}`;
}

/**
 * The signed-in user's live events: GET /v1/stream (Server-Sent Events), read with
 * fetch so that the token goes in the Authorization header. `onEvent(type, body)` gets
 * each event (`body` is `{type, timestamp, data}`); `onState(open)` says whether the
 * stream is connected. A dropped stream reconnects by itself with `Last-Event-ID`, so no
 * event is missed; `stream.reset` says some were (reload what you show). Returns a
 * function that closes the stream for good.
 * @param {(type: string, body: any) => void} onEvent `body` is the event's parsed JSON, read
 *   as untyped: its `data` differs by event type
 * @param {(open: boolean) => void} [onState]
 */
export function stream(onEvent, onState = () => {}) {
  let closed = false;
  /** @type {string | null} */
  let lastId = null;
  let retryMs = 3000;
  let failures = 0;
  /** @type {AbortController | null} */
  let controller = null;
  /** @type {ReturnType<typeof setTimeout> | null} */
  let timer = null;

  /** @param {{id: string | null, event: string, data: string}} frame */
  function dispatch(frame) {
    if (frame.id !== null) lastId = frame.id;
    if (!frame.data) return;
    let body = null;
    try {
      body = JSON.parse(frame.data);
    } catch {
      return;
    }
    onEvent(frame.event || "message", body);
  }

  async function connect() {
    timer = null;
    const tok = token();
    if (closed || !tok) return;
    controller = new AbortController();
    /** @type {Record<string, string>} */
    const headers = { Accept: "text/event-stream", Authorization: `Bearer ${tok}` };
    if (lastId !== null) headers["Last-Event-ID"] = lastId;
    try {
      const res = await fetch("/v1/stream", { headers, cache: "no-store", signal: controller.signal });
      if (res.status === 401) {
        onState(false);
        onUnauthorized(new ApiProblem(401, {}));
        return;
      }
      if (!res.ok || !res.body) throw new Error(`HTTP ${res.status}`);
      failures = 0;
      onState(true);
      const reader = res.body.getReader();
      const decoder = new TextDecoder();
      let buffer = "";
      /** @type {{id: string | null, event: string, data: string}} */
      let frame = { id: null, event: "", data: "" };
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let nl;
        while ((nl = buffer.search(/\r\n|\n|\r/)) >= 0) {
          const line = buffer.slice(0, nl);
          buffer = buffer.slice(nl + (buffer.startsWith("\r\n", nl) ? 2 : 1));
          if (line === "") {
            dispatch(frame);
            frame = { id: null, event: "", data: "" };
            continue;
          }
          if (line.startsWith(":")) continue;
          const colon = line.indexOf(":");
          const field = colon < 0 ? line : line.slice(0, colon);
          let value = colon < 0 ? "" : line.slice(colon + 1);
          if (value.startsWith(" ")) value = value.slice(1);
          if (field === "id") frame.id = value;
          else if (field === "event") frame.event = value;
          else if (field === "data") frame.data = frame.data ? `${frame.data}\n${value}` : value;
          else if (field === "retry" && /^\d+$/.test(value)) retryMs = Number(value);
        }
      }
    } catch {
      if (closed) return;
      failures += 1;
    }
    if (closed) return;
    onState(false);
    // the server ends a stream after a while: reconnect at once the first time, then
    // back off while the server cannot be reached
    const wait = failures === 0 ? 250 : Math.min(retryMs * 2 ** (failures - 1), 60000);
    timer = setTimeout(connect, wait);
  }

  connect();
  return () => {
    closed = true;
    if (timer) clearTimeout(timer);
    if (controller) controller.abort();
  };
}
