// The installable client and push notifications, in headless Chromium.
//
// The client registers its service worker (scope /play, served with
// `Service-Worker-Allowed`); the web app manifest has the required fields and its icons
// load as PNGs of the sizes it states (a maskable one among them); the offline page is
// served. Headless Chromium has no push service to subscribe with, so the test replaces
// `PushManager.prototype.subscribe`/`getSubscription` in the page (before any script
// runs) with a stand-in that returns what a browser returns: an https endpoint and real
// keys (a P-256 key pair and 16 random bytes made with Web Crypto). Everything else is
// the page's own code: the settings page asks for permission (granted to the context),
// fetches the server's key, subscribes with it, and posts the subscription; the test
// then finds it on the server with those keys, and switches a kind off from the page.
//
// Environment: TILEPOST_URL (the running server), CHROMIUM (default /usr/bin/chromium).

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { launch, Watch } from "./browser.mjs";

const BASE = process.env.TILEPOST_URL;
if (!BASE) throw new Error("set TILEPOST_URL to the running server");
const NAME = `pia${Date.now().toString(36).slice(-5)}`;
const PASSWORD = "correct horse battery";

/** @type {import("playwright-core").Browser} */
let browser;
/** @type {import("playwright-core").Page} */
let page;
const watch = new Watch();
let token = "";

async function api(method, path, body) {
  const r = await fetch(BASE + path, {
    method,
    headers: { "Content-Type": "application/json", ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await r.text();
  return { status: r.status, headers: r.headers, body: text ? JSON.parse(text) : null };
}

before(async () => {
  const r = await api("POST", "/v1/users", { username: NAME, email: `${NAME}@example.com`, password: PASSWORD });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  const t = await api("POST", "/v1/auth/token", { username: NAME, password: PASSWORD });
  token = t.body.access_token;
  browser = await launch();
  const context = await browser.newContext({ viewport: { width: 1000, height: 900 }, baseURL: BASE, locale: "en-US" });
  context.setDefaultTimeout(10000);
  await context.grantPermissions(["notifications"], { origin: BASE });
  // the stand-in push service subscription (see the top of this file)
  await context.addInitScript(() => {
    if (typeof PushManager === "undefined") return;
    const b64 = (buf) => btoa(String.fromCharCode(...new Uint8Array(buf))).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
    let current = null;
    PushManager.prototype.getSubscription = async function () {
      return current;
    };
    PushManager.prototype.subscribe = async function (options) {
      const key = new Uint8Array(options.applicationServerKey);
      if (key.length !== 65 || key[0] !== 4) throw new Error("not an uncompressed P-256 key");
      window.__serverKey = b64(key);
      const pair = await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, ["deriveBits"]);
      const p256dh = b64(await crypto.subtle.exportKey("raw", pair.publicKey));
      const auth = b64(crypto.getRandomValues(new Uint8Array(16)));
      const endpoint = `https://push.example.net/e2e/${b64(crypto.getRandomValues(new Uint8Array(12)))}`;
      current = {
        endpoint,
        toJSON: () => ({ endpoint, expirationTime: null, keys: { p256dh, auth } }),
        unsubscribe: async () => {
          current = null;
          return true;
        },
      };
      window.__subscription = current.toJSON();
      return current;
    };
  });
  page = await context.newPage();
  watch.page(page, NAME);
  await page.goto("/play/login");
  await page.evaluate(([tk, n]) => {
    localStorage.setItem("tilepost.token", tk);
    localStorage.setItem("tilepost.username", n);
  }, [token, NAME]);
});

after(async () => {
  await browser?.close();
});

test("the service worker is registered for /play", async () => {
  await page.goto("/play/games");
  const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
  assert.equal(scope, `${BASE}/play`);
  const sw = await fetch(`${BASE}/play/sw.js`);
  assert.equal(sw.status, 200);
  assert.match(sw.headers.get("content-type") ?? "", /^text\/javascript/);
  assert.equal(sw.headers.get("service-worker-allowed"), "/play");
  const offline = await fetch(`${BASE}/play/offline.html`);
  assert.equal(offline.status, 200);
  assert.match(await offline.text(), /You are offline/);
  assert.deepEqual(watch.take(), []);
});

test("the manifest is valid and its icons load", async () => {
  const href = await page.evaluate(() => document.querySelector('link[rel="manifest"]')?.getAttribute("href"));
  assert.equal(href, "/play/manifest.webmanifest");
  const r = await fetch(`${BASE}${href}`);
  assert.equal(r.status, 200);
  assert.match(r.headers.get("content-type") ?? "", /^application\/manifest\+json/);
  const m = await r.json();
  for (const field of ["name", "short_name", "start_url", "scope", "display", "icons"]) assert.ok(m[field], field);
  assert.equal(m.scope, "/play");
  assert.ok(m.start_url.startsWith("/play"));
  assert.ok(["standalone", "fullscreen", "minimal-ui"].includes(m.display));
  const pngs = m.icons.filter((i) => i.type === "image/png");
  const sizes = pngs.map((i) => i.sizes);
  assert.ok(sizes.includes("192x192") && sizes.includes("512x512"), JSON.stringify(sizes));
  assert.ok(pngs.some((i) => (i.purpose ?? "").split(" ").includes("maskable")), "a maskable icon");
  for (const icon of pngs) {
    const res = await fetch(new URL(icon.src, BASE));
    assert.equal(res.status, 200, icon.src);
    assert.equal(res.headers.get("content-type"), "image/png");
    const b = new Uint8Array(await res.arrayBuffer());
    assert.deepEqual([...b.slice(1, 4)], [0x50, 0x4e, 0x47], `${icon.src} is a PNG`);
    const dv = new DataView(b.buffer);
    assert.equal(`${dv.getUint32(16)}x${dv.getUint32(20)}`, icon.sizes, icon.src);
  }
  // the browser loads them too
  const loaded = await page.evaluate(async (srcs) => {
    const one = (src) =>
      new Promise((ok) => {
        const img = new Image();
        img.onload = () => ok(img.naturalWidth);
        img.onerror = () => ok(0);
        img.src = src;
      });
    return Promise.all(srcs.map(one));
  }, pngs.map((i) => i.src));
  assert.ok(loaded.every((w) => w > 0), JSON.stringify(loaded));
  assert.deepEqual(watch.take(), []);
});

test("a subscription made on the settings page reaches the server", async () => {
  await page.goto("/play/settings");
  await page.getByRole("heading", { name: "Push notifications" }).waitFor();
  await page.getByText("No device receives push notifications yet.").waitFor();
  await page.getByLabel("This device's name").fill("e2e laptop");
  await page.getByRole("button", { name: "Turn on push on this device" }).click();
  await page.locator("#status").filter({ hasText: "Push notifications are on for this device." }).waitFor();
  const sent = await page.evaluate(() => window.__subscription);
  const key = await api("GET", "/v1/push/key");
  const list = await api("GET", "/v1/users/me/push-subscriptions");
  assert.equal(list.status, 200);
  assert.equal(list.body.subscriptions.length, 1);
  const s = list.body.subscriptions[0];
  assert.equal(s.endpoint, sent.endpoint);
  assert.equal(s.label, "e2e laptop");
  assert.deepEqual(s.kinds, ["your_turn", "deadline_near", "chat", "invitation", "tournament_round"]);
  // the page subscribed with the server's key
  assert.equal(await page.evaluate(() => window.__serverKey), key.body.public_key);

  // the device is listed as this one; a kind switched off is saved
  const device = page.locator(`form[data-subscription="${s.id}"]`);
  await device.getByText("e2e laptop (this device)").waitFor();
  await device.getByLabel("Chat messages").uncheck();
  await device.getByRole("button", { name: "Save" }).click();
  await page.locator("#status").filter({ hasText: "Saved the notifications of e2e laptop." }).waitFor();
  const after = await api("GET", "/v1/users/me/push-subscriptions");
  assert.deepEqual(after.body.subscriptions[0].kinds, ["your_turn", "deadline_near", "invitation", "tournament_round"]);

  // and turned off
  await device.getByRole("button", { name: "Turn off" }).click();
  await page.locator("#status").filter({ hasText: "Push notifications are off for e2e laptop." }).waitFor();
  const gone = await api("GET", "/v1/users/me/push-subscriptions");
  assert.equal(gone.body.subscriptions.length, 0);
  assert.deepEqual(watch.take(), []);
});
