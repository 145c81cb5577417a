// Installable: the service worker at /sw.js (scope: the whole site) keeps the client
// in a cache, so the site opens like an app and still opens without the server.
export function registerWorker() {
  if (!("serviceWorker" in navigator) || !window.isSecureContext) return null;
  return navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => null);
}
