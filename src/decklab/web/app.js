// The site's pages by address: the lobby, a game's rules, the rulings, a table,
// a replay. Links inside the site change the page without reloading it.
import { h, fill } from "./dom.js";
import { LobbyPage } from "./lobby.js";
import { TablePage } from "./table.js";
import { ReplayPage } from "./replay.js";
import { RulesPage, RulingsPage } from "./rules.js";
import { AccountPage, loadMe } from "./account.js";
import { settingsControl } from "./settings.js"; // feel: theme, deck, sound
import { watchNetwork, isDown, reachable } from "./net.js"; // feel: "reconnecting" when the server is unreachable
import { registerWorker } from "./install.js"; // feel: installable, the client cached
import { LeaderboardPage, PlayerPage } from "./ratings.js";

const main = document.getElementById("main");
let current = null;
const siteHeader = document.querySelector("header.site"); // feel
if (siteHeader) siteHeader.append(settingsControl()); // feel
let failed = false; // feel
watchNetwork(siteHeader, () => { if (failed) route(); }); // feel: a page that failed offline is drawn again
registerWorker(); // feel

function pageFor(path) {
  let m;
  if ((m = /^\/table\/([\w-]+)$/.exec(path))) return new TablePage(main, m[1]);
  if ((m = /^\/replay\/([\w-]+)$/.exec(path))) return new ReplayPage(main, m[1]);
  if ((m = /^\/rules\/([\w-]+)$/.exec(path))) return new RulesPage(main, m[1]);
  if (path === "/rulings") return new RulingsPage(main);
  if (path === "/account") return new AccountPage(main);
  if ((m = /^\/leaderboard\/([\w-]+)$/.exec(path))) return new LeaderboardPage(main, m[1]);
  if ((m = /^\/player\/([^/]+)$/.exec(path))) return new PlayerPage(main, decodeURIComponent(m[1]));
  return new LobbyPage(main);
}

async function route() {
  if (current && current.stop) current.stop();
  fill(main);
  document.body.dataset.ready = "";
  failed = false; // feel
  reachable("live"); // feel: the last page's table connection is gone with it
  current = pageFor(location.pathname);
  try {
    await current.start();
  } catch (err) {
    failed = true; // feel
    if (isDown()) fill(main, h("h1", { tabindex: "-1" }, "Reconnecting…"), h("p", {}, "The server cannot be reached; this page will load when it is back.")); // feel
    else fill(main, h("h1", { tabindex: "-1" }, "Something went wrong"), h("p.error", { role: "alert" }, String(err.message || err)));
  }
  const heading = main.querySelector("h1");
  if (heading && navigated) heading.focus({ preventScroll: true });
  document.body.dataset.ready = "true";
}

let navigated = false;
window.decklabNavigate = (href) => {
  navigated = true;
  history.pushState(null, "", href);
  route();
};

document.addEventListener("click", (ev) => {
  const a = ev.target.closest("a[data-nav]");
  if (!a || ev.ctrlKey || ev.metaKey || ev.shiftKey || ev.button !== 0) return;
  const url = new URL(a.href, location.href);
  if (url.origin !== location.origin) return;
  ev.preventDefault();
  if (url.pathname === location.pathname && url.hash) {
    location.hash = url.hash;
    return;
  }
  window.decklabNavigate(url.pathname + url.search + url.hash);
});

window.addEventListener("popstate", () => {
  navigated = true;
  route();
});

loadMe().finally(route);
