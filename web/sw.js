// The web client's service worker (scope /play): shows the server's push notifications
// and opens the game's page when one is clicked, and shows an offline page when a page of
// the client cannot be loaded. It caches nothing else: every page and API answer comes
// from the network.

const CACHE = "tilepost-offline-1";
const OFFLINE = "/play/offline.html";
const ICON = "/play/icons/icon-192.png";

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((c) => c.addAll([OFFLINE, "/play/style.css", ICON]))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  if (event.request.mode !== "navigate") return;
  event.respondWith(fetch(event.request).catch(() => caches.match(OFFLINE)));
});

/** The page to open: a page of this client on this origin (else the games list). */
function target(url) {
  try {
    const u = new URL(url, self.location.origin);
    if (u.pathname.startsWith("/play")) return new URL(u.pathname, self.location.origin).href;
  } catch {
    // not a URL: the games list
  }
  return new URL("/play/games", self.location.origin).href;
}

self.addEventListener("push", (event) => {
  let d = {};
  try {
    d = event.data ? event.data.json() : {};
  } catch {
    d = {};
  }
  event.waitUntil(
    self.registration.showNotification(d.title || "tilepost", {
      body: d.body || "",
      tag: d.tag || undefined,
      icon: ICON,
      badge: ICON,
      data: { url: target(d.url) },
    }),
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = target(event.notification.data && event.notification.data.url);
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((open) => {
      for (const c of open) {
        if (c.url === url && "focus" in c) return c.focus();
      }
      return self.clients.openWindow(url);
    }),
  );
});
