// The score pages' service worker (docs/links.md). It keeps the files a score page
// needs and the score pages themselves, so that a page opened once opens again
// without a network; the entries made meanwhile wait in the page's own queue
// (static/js/score/). It never answers a write: those go to the server or wait.
"use strict";

const ASSETS = {{ assets|safe }};
const STATIC_CACHE = "fiftysix-static-{{ version }}";
const PAGE_CACHE = "fiftysix-pages";
// A table link's page, one of its sheets, and a scorer's score page.
const SCORE_PAGE = /^\/(l\/[A-Za-z0-9_-]+\/(sheets\/\d+\/)?|matches\/\d+\/score\/)$/;

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(STATIC_CACHE).then((cache) => cache.addAll(ASSETS)).then(() => self.skipWaiting())
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(
        names
          .filter((name) => name.startsWith("fiftysix-static-") && name !== STATIC_CACHE)
          .map((name) => caches.delete(name))
      ))
      .then(() => self.clients.claim())
  );
});

function offlinePage() {
  return new Response(
    "<!doctype html><title>Offline</title><p>This page was never opened on this device, " +
      "so it cannot open without a network. Open it again when the network is back.</p>",
    { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } }
  );
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (ASSETS.includes(url.pathname)) {
    // Collected files carry their content's hash in production: kept until replaced.
    event.respondWith(caches.match(request).then((hit) => hit || fetch(request)));
    return;
  }
  if (request.mode === "navigate" && SCORE_PAGE.test(url.pathname)) {
    // The network first, so the sheet is the server's; the last copy when offline,
    // or when the server cannot answer (5xx: its database may be down), so that the
    // page keeps taking deals into its queue.
    const kept = () => caches.open(PAGE_CACHE)
      .then((cache) => cache.match(url.pathname, { ignoreVary: true }));
    event.respondWith(
      fetch(request)
        .then((response) => {
          if (response.status >= 500) return kept().then((hit) => hit || response);
          if (response.ok && !response.redirected) {
            const copy = response.clone();
            caches.open(PAGE_CACHE).then((cache) => cache.put(url.pathname, copy));
          }
          return response;
        })
        .catch(() => kept().then((hit) => hit || offlinePage()))
    );
  }
});
