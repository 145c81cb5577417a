// A game's rules in the project's own words, with ruling ids linked to the
// rulings page (when this installation has the rulings), and the rulings page.
import { h, fill } from "./dom.js";
import { api, games } from "./api.js";
import { markdown, rulingIds } from "./markdown.js";
import { link } from "./common.js";
import { renderLayout } from "./layout.js";
import { botRatings } from "./ratings.js";

let rulingsText;
async function rulings() {
  if (rulingsText === undefined) {
    try {
      rulingsText = (await api("/api/rulings")).text;
    } catch {
      rulingsText = null;
    }
  }
  return rulingsText;
}

export class RulesPage {
  constructor(root, name) {
    this.root = root;
    this.name = name;
  }

  async start() {
    let got;
    try {
      got = await api(`/api/games/${encodeURIComponent(this.name)}/rules`);
    } catch (e) {
      fill(this.root, h("h1", { tabindex: "-1" }, "No such game"), h("p.error", { role: "alert" }, e.message), h("p", {}, link("/", "Back to the lobby")));
      return;
    }
    document.title = `Rules of ${got.title} — decklab`;
    const text = await rulings();
    const ids = text ? rulingIds(text) : null;
    const spec = (await games()).find((g) => g.name === got.name);
    const body = markdown(got.text, ids);
    // the text's own first heading repeats the title: the page's h1 says it
    if (body.length && /^H[2-4]$/.test(body[0].tagName)) body.shift();
    fill(this.root,
      h("nav.crumbs", { "aria-label": "Breadcrumbs" }, link("/", "Lobby"), " › Rules"),
      h("article.rules", {},
        h("h1", { tabindex: "-1" }, `Rules of ${got.title}`),
        spec ? h("p.lede", {}, spec.summary) : null,
        h("figure.diagram", {}, h("figcaption", {}, "A table of this game, as it starts:"), h("div.diagram-table", { "aria-hidden": "true" })),
        ids ? null : h("p.note", {}, "Ruling ids (like the ones in brackets) refer to decklab's rulings, which this installation does not include."),
        ...body));
    this.diagram();
    if (spec && !spec.solo) botRatings(got.name).then((el) => el && this.root.querySelector("article.rules").append(el));
  }

  async diagram() {
    // A small diagram: the table of a new game, as a spectator would see it.
    const spot = this.root.querySelector(".diagram-table");
    try {
      const got = await api(`/api/games/${encodeURIComponent(this.name)}/example`);
      spot.append(renderLayout(got.layout, null));
    } catch {
      spot.closest("figure").remove();
    }
  }

  stop() {}
}

export class RulingsPage {
  constructor(root) {
    this.root = root;
  }

  async start() {
    document.title = "Rulings — decklab";
    const text = await rulings();
    if (!text) {
      fill(this.root, h("h1", { tabindex: "-1" }, "Rulings"), h("p", {}, "This installation has no rulings text; the rule pages cite ruling ids on their own."), h("p", {}, link("/", "Back to the lobby")));
      return;
    }
    const body = markdown(text, rulingIds(text), { anchors: true });
    if (body.length && /^H[2-4]$/.test(body[0].tagName)) body.shift();
    fill(this.root, h("nav.crumbs", { "aria-label": "Breadcrumbs" }, link("/", "Lobby"), " › Rulings"),
      h("article.rules", {}, h("h1", { tabindex: "-1" }, "Rulings"), ...body));
    if (location.hash) {
      const target = document.getElementById(location.hash.slice(1));
      if (target) {
        target.scrollIntoView();
        target.focus({ preventScroll: true });
      }
    }
  }

  stop() {}
}
