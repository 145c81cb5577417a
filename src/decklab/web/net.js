// Whether the site can reach its server. When it cannot (the server is down, the
// phone lost its signal), a banner under the header says so and the page keeps
// trying, with growing pauses; once the server answers, the banner goes and a page
// that could not load is drawn again. The client itself comes from the service
// worker's cache meanwhile, so the page still opens.

const PROBE = "/api/games";
let banner = null;
const reasons = new Set(); // "api": a request found no server; "live": the table's connection is retrying
let timer = null;
let tries = 0;
let onBack = () => {};

function show(state) {
  document.body.dataset.net = state;
  if (!banner) return;
  banner.hidden = state !== "reconnecting";
}

async function probe() {
  timer = null;
  try {
    const answer = await fetch(PROBE, { cache: "no-store", headers: { accept: "application/json" } });
    if (answer.ok) {
      reachable("api");
      return;
    }
  } catch {
    /* still unreachable */
  }
  tries += 1;
  timer = setTimeout(probe, Math.min(5000, 500 * 2 ** tries));
}

/** The server could not be reached: ``reason`` "api" (a request failed; probed until
 * the server answers) or "live" (a table's connection retries on its own). */
export function unreachable(reason = "api") {
  reasons.add(reason);
  show("reconnecting");
  if (reason === "api" && !timer) timer = setTimeout(probe, 500);
}

/** The server answered for ``reason``; when nothing else is down, the banner goes. */
export function reachable(reason = "api") {
  if (!reasons.delete(reason)) return;
  if (reason === "api") {
    if (timer) clearTimeout(timer);
    timer = null;
    tries = 0;
  }
  if (reasons.size) return;
  show("live");
  onBack();
}

export function isDown() {
  return reasons.size > 0;
}

/** Put the banner under ``header``; ``whenBack`` runs when the server answers again. */
export function watchNetwork(header, whenBack) {
  onBack = whenBack || onBack;
  banner = document.createElement("p");
  banner.className = "net";
  banner.setAttribute("role", "status");
  banner.textContent = "Reconnecting… the server cannot be reached right now; this page will catch up when it is back.";
  banner.hidden = true;
  if (header) header.after(banner);
  document.body.dataset.net = "live";
  window.addEventListener("offline", () => unreachable("api"));
  window.addEventListener("online", () => { if (reasons.has("api") && timer) { clearTimeout(timer); probe(); } });
}
