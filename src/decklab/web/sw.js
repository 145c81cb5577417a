// The service worker: the client's files (CLIENT, written above this by the server:
// its version, a digest of the files, and their addresses) kept in a cache. The
// network comes first, so a new client shows at once; without it (the server down,
// no signal) the cached copy answers, and every page address answers the cached
// shell, which draws the page and says it is reconnecting. The API and the table's
// WebSocket are never cached.
/* global CLIENT */
const CACHE = `decklab-client-${CLIENT.version}`;
const WAIT_MS = 4000;

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(CLIENT.files)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((k) => k.startsWith("decklab-client-") && k !== CACHE).map((k) => caches.delete(k))))
    .then(() => self.clients.claim()));
});

// a page that opened uncontrolled asks to be claimed (install.js)
self.addEventListener("message", (event) => {
  if (event.data === "claim") event.waitUntil(self.clients.claim());
});

/** The network's answer, or nothing after WAIT_MS or a failure. */
function network(request) {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(null), WAIT_MS);
    fetch(request).then((answer) => { clearTimeout(timer); resolve(answer); }, () => { clearTimeout(timer); resolve(null); });
  });
}

async function fresh(request, fallback) {
  const answer = await network(request);
  if (answer && answer.ok && request.method === "GET") {
    const copy = answer.clone();
    caches.open(CACHE).then((cache) => cache.put(fallback || request, copy));
  }
  if (answer) return answer;
  const kept = await caches.match(fallback || request, { ignoreSearch: true });
  return kept || Response.error();
}

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== self.location.origin) return;
  if (url.pathname.startsWith("/static/")) {
    event.respondWith(fresh(event.request));
  } else if (event.request.mode === "navigate" && !url.pathname.startsWith("/api/")) {
    // every page is the same index.html: the shell is kept under "/"
    event.respondWith(fresh(event.request, CLIENT.shell));
  }
});
