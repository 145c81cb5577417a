// Installable: the service worker at /sw.js (scope: the whole site) keeps the client
// in a cache, so the site opens like an app and still opens without the server.
//
// Registering can fail for reasons that pass: the script not fetched (a network
// blip, the server restarting), or one file of the client not fetched while the
// worker installs (the install fails, and the worker is dropped). Without a second try the page would stay uncached until the next
// visit, and then open blank offline; so a failed try is made again, a few times,
// each after a longer pause.
//
// A page can also open uncontrolled while a worker is active: one loaded while the
// worker was activating (its claim of the open pages ran before this page was one
// of them), or a hard reload. Its own requests then bypass the cache, so a file it
// asks for later fails when the server is gone; it asks the worker to claim it.
const RETRY_MS = [1000, 4000, 15000, 60000];

export function registerWorker(attempt = 0) {
  if (!("serviceWorker" in navigator) || !window.isSecureContext) return null;
  const again = () => {
    if (attempt < RETRY_MS.length) setTimeout(() => registerWorker(attempt + 1), RETRY_MS[attempt]);
  };
  return navigator.serviceWorker.register("/sw.js", { scope: "/" }).then((registration) => {
    const worker = registration.installing || registration.waiting;
    if (worker && !registration.active) {
      // a worker whose install failed turns "redundant", and nothing controls the page
      const check = () => { if (worker.state === "redundant" && !registration.active) again(); };
      worker.addEventListener("statechange", check);
      check();
    }
    navigator.serviceWorker.ready.then((ready) => {
      if (!navigator.serviceWorker.controller && ready.active) ready.active.postMessage("claim");
    });
    return registration;
  }, () => { again(); return null; });
}
