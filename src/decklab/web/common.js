// Pieces shared by the pages: names of seats and bots, move labels, the log list.
import { h } from "./dom.js";
import { cardText } from "./cards.js";

/** Bot levels named for people; the spec is what the server seats. */
export const BOT_LEVELS = [
  { label: "easy", spec: "greedy" },
  { label: "strong", spec: "expert" },
];

export function botLabel(spec) {
  const level = BOT_LEVELS.find((b) => b.spec === spec);
  return level ? `${level.label} bot` : `bot (${spec})`;
}

export function seatLabel(seat) {
  if (!seat) return "";
  if (seat.kind === "bot") return botLabel(seat.bot);
  if (seat.kind === "open") return "open seat";
  return seat.nickname || seat.seat;
}

/** An action's canonical text as people read it: card tokens with suit symbols. */
export function moveText(action) {
  return action.split(/\s+/).map(cardText).join(" ");
}

export function logList(entries) {
  const ol = h("ol", {});
  for (const e of entries) {
    ol.append(h("li", { "data-actor": e.actor }, e.say || `${e.actor}: ${e.text}`));
  }
  return h("div.log", { role: "log", "aria-live": "polite", "aria-label": "Game log", tabindex: "0" }, ol);
}

export function scoreTable(result, seats, lowerIsBetter, unit) {
  const scores = result && result.scores ? result.scores : {};
  const winners = new Set((result && result.winners) || []);
  const order = Object.keys(scores).sort((a, b) => (lowerIsBetter ? scores[a] - scores[b] : scores[b] - scores[a]));
  const byName = Object.fromEntries((seats || []).map((s) => [s.seat, s]));
  return h("table.scores", {},
    h("caption", {}, "Final scores"),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Seat"), h("th", { scope: "col" }, "Player"),
      h("th", { scope: "col" }, unit ? `Score (${unit})` : "Score"), h("th", { scope: "col" }, "Result"))),
    h("tbody", {}, order.map((seat) => h("tr", { class: winners.has(seat) ? "winner" : null },
      h("th", { scope: "row" }, seat), h("td", {}, seatLabel(byName[seat])), h("td", {}, String(scores[seat])),
      h("td", {}, winners.has(seat) ? "winner" : "")))));
}

export function link(href, text, attrs = {}) {
  return h("a", { href, "data-nav": "", ...attrs }, text);
}
