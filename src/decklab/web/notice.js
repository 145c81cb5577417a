// "Your turn", told outside the page: a prefix on the tab's title ("● Your turn — …"),
// a dot on the favicon, and — when the person allowed it in the settings and the tab is
// hidden — a system notification. Cleared when the person acts or the turn passes. The
// chime is sound.js's (cue), which already sounds when it becomes your turn.
import { notifyOn } from "./settings.js";

const PREFIX = "● Your turn — ";
const PLAIN_ICON = "/static/icon.svg";
// icon.svg with a red dot in its corner, as a data URL (no second file to keep in step)
const DOT_ICON = "data:image/svg+xml," + encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">' +
  '<rect x="5" y="3" width="20" height="27" rx="3" fill="#fff" stroke="#1b4332" stroke-width="2"/>' +
  '<path d="M15 10c-4 3.2-6 5-5 7 1 1.8 3.6 1.4 4.4 0L13.6 22h2.8l-.8-5c.8 1.4 3.4 1.8 4.4 0 1-2-1-3.8-5-7z" fill="#1a1a1a"/>' +
  '<circle cx="24" cy="8" r="7" fill="#d62828" stroke="#fff" stroke-width="2"/></svg>');

let shown = false;
let notification = null;

function iconLink() {
  let link = document.querySelector('link[rel="icon"]');
  if (!link) {
    link = document.createElement("link");
    link.rel = "icon";
    document.head.append(link);
  }
  return link;
}

function baseTitle() {
  return document.title.startsWith(PREFIX) ? document.title.slice(PREFIX.length) : document.title;
}

/**
 * Show or clear "your turn" for this tab. ``mine``: the person has a move to make now
 * (in a simultaneous round, until they chose). ``what``: the game, for the notification.
 */
export function yourTurn(mine, what = "decklab") {
  const base = baseTitle();
  if (mine) {
    document.title = PREFIX + base;
    iconLink().setAttribute("href", DOT_ICON);
    if (!shown) notify(what);
  } else {
    document.title = base;
    iconLink().setAttribute("href", PLAIN_ICON);
    if (notification) notification.close();
    notification = null;
  }
  shown = mine;
  document.documentElement.dataset.yourTurn = mine ? "true" : "false";
}

/** A system notification, only if allowed, switched on, and the tab is not in view. */
function notify(what) {
  if (!notifyOn() || typeof Notification === "undefined" || Notification.permission !== "granted") return;
  if (!document.hidden) return;
  try {
    notification = new Notification("Your turn", { body: what, icon: PLAIN_ICON, tag: `decklab-${location.pathname}` });
    notification.onclick = () => { window.focus(); notification.close(); };
    window.decklabNotified = (window.decklabNotified || 0) + 1; // for tests
  } catch {
    notification = null; // a browser that wants a service worker for it: the title still says it
  }
}
