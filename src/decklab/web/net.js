// Whether the site can reach its server. When it cannot (the server is down, the
// phone lost its signal), a banner under the header says so and the page keeps
// trying, with growing pauses; once the server answers, the banner goes and a page
// that could not load is drawn again. The client itself comes from the service
// worker's cache meanwhile, so the page still opens.

const PROBE = "/api/games";
let banner = null;
let down = false;
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
      back();
      return;
    }
  } catch {
    /* still unreachable */
  }
  tries += 1;
  timer = setTimeout(probe, Math.min(5000, 500 * 2 ** tries));
}

function back() {
  if (!down) return;
  down = false;
  tries = 0;
  show("live");
  onBack();
}

/** The server could not be reached (a failed fetch, a dropped table connection). */
export function unreachable() {
  if (down) return;
  down = true;
  show("reconnecting");
  if (!timer) timer = setTimeout(probe, 500);
}

/** The server answered: whatever was down is back. */
export function reachable() {
  if (timer) clearTimeout(timer);
  timer = null;
  back();
}

export function isDown() {
  return down;
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
  window.addEventListener("offline", unreachable);
  window.addEventListener("online", () => { if (down && !timer) probe(); });
}
