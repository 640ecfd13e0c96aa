// Push notifications in the settings: this browser's subscription (asked of the
// browser's push service with the server's key, then given to the server), and every
// device's switches per kind. The service worker (sw.js) shows the notifications.

import * as api from "./api.js";
import { t } from "./i18n.js";

/** The kinds a device may want, in the server's order. */
export const KINDS = ["your_turn", "deadline_near", "chat", "invitation", "tournament_round"];

/** Whether this browser can receive pushes at all. */
export function supported() {
  return "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
}

/** Registers the service worker (every page does, so that it is ready in the settings). */
export function registerWorker() {
  if (!("serviceWorker" in navigator)) return;
  navigator.serviceWorker.register("/play/sw.js", { scope: "/play" }).catch(() => {});
}

/**
 * The bytes of a base64url string.
 * @param {string} b64
 */
function bytes(b64) {
  const s = atob(b64.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (b64.length % 4)) % 4));
  return Uint8Array.from(s, (c) => c.charCodeAt(0));
}

/** This browser's push subscription, if it has one (without waiting for a worker that
 * is not registered). */
async function browserSubscription() {
  const reg = await navigator.serviceWorker.getRegistration("/play");
  return reg ? reg.pushManager.getSubscription() : null;
}

/** The endpoint of this browser's subscription (null when none). */
export async function thisEndpoint() {
  if (!supported()) return null;
  try {
    const sub = await browserSubscription();
    return sub ? sub.endpoint : null;
  } catch {
    return null;
  }
}

/**
 * Subscribes this browser: asks for permission, subscribes with the server's key, and
 * posts the subscription (endpoint and keys, as the browser gives them) to the server.
 * @param {string} label the device's name
 * @param {string[]} kinds the kinds to push (KINDS' names)
 */
export async function subscribeHere(label, kinds) {
  const permission = await Notification.requestPermission();
  if (permission !== "granted") throw new Error(t("push.denied"));
  /** @type {import("./types/api").components["schemas"]["PushKey"]} */
  const key = await api.get("/v1/push/key");
  const reg = await navigator.serviceWorker.ready;
  let sub = await reg.pushManager.getSubscription();
  if (!sub) {
    sub = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: bytes(key.public_key) });
  }
  const json = sub.toJSON();
  return api.post("/v1/users/me/push-subscriptions", { endpoint: json.endpoint, keys: json.keys, label, kinds });
}

/**
 * Removes a device's subscription (and this browser's own, when it is this device).
 * @param {string} id the subscription's id (PushSubscriptionView.id)
 * @param {boolean} here whether it is this browser's
 */
export async function unsubscribe(id, here) {
  await api.del(`/v1/users/me/push-subscriptions/${encodeURIComponent(id)}`);
  if (!here) return;
  try {
    const sub = await browserSubscription();
    if (sub) await sub.unsubscribe();
  } catch {
    // the server pushes nothing to it any more
  }
}

/**
 * Changes a device's kinds.
 * @param {string} id the subscription's id (PushSubscriptionView.id)
 * @param {string[]} kinds
 */
export function setKinds(id, kinds) {
  return api.patch(`/v1/users/me/push-subscriptions/${encodeURIComponent(id)}`, { kinds });
}
